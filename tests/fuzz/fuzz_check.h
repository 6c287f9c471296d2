/*
 * fuzz_check.h: what more than one fuzz target shares: the split of an
 * input into the modules of a program, and invariants of engine output
 * (diagnostics whose spans agree with the text they point into, documents
 * that render as canonical JSON).
 */
#ifndef SPX_FUZZ_CHECK_H
#define SPX_FUZZ_CHECK_H

#include "spx_diagnostics.h"
#include "spx_project.h"

#include <stddef.h>
#include <stdint.h>

/* The most modules one input makes. */
#define SPX_FUZZ_MODULES 4

/* Split data at each "\n@@\n" into up to SPX_FUZZ_MODULES texts (the last
 * takes the rest), the modules a, b, c and d in a.spx .. d.spx, pointing
 * into data; their count (at least 1). */
apr_size_t spx_fuzz_split_modules(const uint8_t *data, size_t size,
                                  spx_source_text_t sources[SPX_FUZZ_MODULES]);

/* A text a diagnostic may point into: its path and bytes. */
typedef struct spx_fuzz_text_t {
    const char *path;
    const unsigned char *bytes;
    apr_size_t length;
} spx_fuzz_text_t;

/* Every diagnostic of list has a code starting with code_prefix ("E0"), a
 * message, the path of one of the texts, and a span inside that text whose
 * lines and columns are those of its offsets; the list renders as JSON. */
void spx_fuzz_check_diagnostics(const spx_diagnostics_t *list, const spx_fuzz_text_t *texts,
                                apr_size_t count, const char *code_prefix);

/* document is not NULL and renders as canonical JSON (its strings are valid
 * UTF-8); it is released. */
void spx_fuzz_check_document(json_t *document);

#endif /* SPX_FUZZ_CHECK_H */
