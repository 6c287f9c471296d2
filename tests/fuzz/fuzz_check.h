/*
 * fuzz_check.h: invariants of engine output that more than one fuzz target
 * checks: diagnostics whose spans agree with the text they point into, and
 * documents that render as canonical JSON.
 */
#ifndef SPX_FUZZ_CHECK_H
#define SPX_FUZZ_CHECK_H

#include "spx_diagnostics.h"

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
