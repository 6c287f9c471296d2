/*
 * spx_diagnostics.h: diagnostics with stable codes and exact spans
 * (outputs.md, Diagnostics).
 *
 * Codes: E01xx manifest, E02xx lexical/syntax, E03xx names and imports,
 * E04xx types, W06xx warnings (spx_codes.h, which names each once; every code
 * is listed in docs/diagnostics.md). A code's first letter gives its severity:
 * W is a warning, which never stops admission; every other is an error. A
 * diagnostic may carry suggestions (the nearest known names, for an unknown
 * one) and notes (another place that explains it: "first declared here"). Lines and columns are
 * 1-based, columns and offsets count bytes, and a span's end is exclusive. A list is sorted by
 * path, offset, code before it is shown.
 */
#ifndef SPX_DIAGNOSTICS_H
#define SPX_DIAGNOSTICS_H

#include "spx_codes.h"
#include "spx_compiler.h"

#include <apr_pools.h>
#include <apr_tables.h>
#include <jansson.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

/* 32 bits are plenty (a source is at most 16 MiB, a manifest 1 MiB) and
 * keep every span, of which Phase A holds millions, at 24 bytes. */
typedef struct spx_position_t {
    uint32_t line;   /* 1-based */
    uint32_t column; /* 1-based, in bytes */
    uint32_t offset; /* 0-based, in bytes */
} spx_position_t;

typedef struct spx_span_t {
    spx_position_t start;
    spx_position_t end; /* exclusive */
} spx_span_t;

/* A note of a diagnostic: another place that explains it. */
typedef struct spx_diagnostic_note_t {
    const char *message; /* "first declared here" */
    const char *path;
    spx_span_t span;
} spx_diagnostic_note_t;

typedef struct spx_diagnostic_t {
    const char *code;    /* "E0201": spx_diagnostic_code_name */
    const char *message; /* one sentence, no final period */
    const char *plain;   /* the message without its "; did you mean ...?" end */
    const char *path;    /* the manifest's or source's path, relative to the root */
    spx_span_t span;
    apr_array_header_t *suggestions; /* const char *, nearest first; NULL when none */
    apr_array_header_t *notes;       /* spx_diagnostic_note_t; NULL when none */
} spx_diagnostic_t;

/* A growing list of diagnostics; everything in it lives in its pool. */
typedef struct spx_diagnostics_t {
    apr_pool_t *pool;
    apr_array_header_t *items; /* spx_diagnostic_t */
    apr_size_t errors;         /* how many of items are errors (not warnings) */
} spx_diagnostics_t;

spx_diagnostics_t *spx_diagnostics_make(apr_pool_t *pool);

/* Add one diagnostic (its severity is its code's); message is a printf
 * format. Returns the diagnostic, valid until the next one is added, so that
 * a note or suggestions can be given to it. */
spx_diagnostic_t *spx_diagnostics_add(spx_diagnostics_t *list, spx_diagnostic_code_t code,
                                      const char *path, spx_span_t span, const char *format, ...)
    SPX_PRINTF_FORMAT(5, 6);

/* The same with the format's arguments as a va_list, for callers that wrap
 * adding (a parser that caps how many it reports). */
spx_diagnostic_t *spx_diagnostics_addv(spx_diagnostics_t *list, spx_diagnostic_code_t code,
                                       const char *path, spx_span_t span, const char *format,
                                       va_list arguments) SPX_PRINTF_FORMAT(5, 0);

/* Add a copy of item (of any list): its strings, suggestions and notes are
 * copied into list's pool, so it outlives item's list. Returns the copy,
 * valid until the next diagnostic is added. */
spx_diagnostic_t *spx_diagnostics_add_copy(spx_diagnostics_t *list, const spx_diagnostic_t *item);

/* Give item (of list) a note at path and span; message is copied. A NULL
 * item (a diagnostic a budget left out) is ignored. */
void spx_diagnostic_note(spx_diagnostics_t *list, spx_diagnostic_t *item, const char *path,
                         spx_span_t span, const char *message);

/* Give item (of list) the names that might have been meant, nearest first
 * (copied); the message gains "; did you mean 'a'?" (or "'a' or 'b'?", "'a',
 * 'b' or 'c'?"). Nothing when count is 0 or item is NULL. */
void spx_diagnostic_suggest(spx_diagnostics_t *list, spx_diagnostic_t *item,
                            const char *const *names, size_t count);

/* 1 when the diagnostic is a warning (a W code). */
int spx_diagnostic_is_warning(const spx_diagnostic_t *item);

/* "warning" or "error". */
const char *spx_diagnostic_severity(const spx_diagnostic_t *item);

/* A reader's budget of diagnostics (the lexer and parser of one source, the
 * manifest's parser): the first limit diagnostics are added to list; the next
 * one is replaced by the over diagnostic, whose message over_format (a printf
 * format with one %u, given the limit) says that the rest are not reported,
 * and from then on nothing is added. */
typedef struct spx_diagnostic_budget_t {
    spx_diagnostics_t *list;
    const char *path; /* of every diagnostic added */
    unsigned limit;
    spx_diagnostic_code_t over_code;
    const char *over_format;
    apr_size_t count; /* added within the budget (the over diagnostic not counted) */
    int stopped;      /* the over diagnostic was added: the reader may stop reading */
} spx_diagnostic_budget_t;

void spx_diagnostic_budget_init(spx_diagnostic_budget_t *budget, spx_diagnostics_t *list,
                                const char *path, unsigned limit, spx_diagnostic_code_t over_code,
                                const char *over_format);

/* Add one diagnostic within the budget; format is a printf format. Returns
 * it, or NULL when the budget left it out. */
spx_diagnostic_t *spx_diagnostic_budget_addv(spx_diagnostic_budget_t *budget,
                                             spx_diagnostic_code_t code, spx_span_t span,
                                             const char *format, va_list arguments)
    SPX_PRINTF_FORMAT(4, 0);

apr_size_t spx_diagnostics_count(const spx_diagnostics_t *list);

/* The diagnostics that are errors (not warnings): a program is admitted
 * when there is none. */
apr_size_t spx_diagnostics_error_count(const spx_diagnostics_t *list);

/* Leave out every warning (the checker's, once an error is known: a warning
 * speaks of a program that is otherwise right, and beside errors it would
 * often be their echo). The order of the rest is kept. */
void spx_diagnostics_drop_warnings(spx_diagnostics_t *list);
const spx_diagnostic_t *spx_diagnostics_get(const spx_diagnostics_t *list, apr_size_t index);

/* Sort by path, then start offset, then code (bytewise). */
void spx_diagnostics_sort(spx_diagnostics_t *list);

/* The position of offset in text (length bytes): line and column counted
 * in bytes from 1. An offset past the end is clamped to length. */
spx_position_t spx_position_at(const unsigned char *text, apr_size_t length, apr_size_t offset);

/* The span from start to end (offsets) in text. */
spx_span_t spx_span_between(const unsigned char *text, apr_size_t length, apr_size_t start,
                            apr_size_t end);

/* A span as outputs.md writes it: {"start":{line,column,offset},"end":{...}}.
 * A new reference. */
json_t *spx_span_json(const spx_span_t *span);

/* The list as a JSON array of outputs.md diagnostic objects (a new
 * reference), in the list's current order. */
json_t *spx_diagnostics_json(const spx_diagnostics_t *list);

/* The same in the shape of transport v1 (byte-frozen, docs/transport-v1.md):
 * errors only, each without suggestions and notes, its message plain. */
json_t *spx_diagnostics_json_plain(const spx_diagnostics_t *list);

/* One line "path:line:column: SEVERITY[CODE]: message\n" per diagnostic
 * (SEVERITY "error" or "warning"), then "path:line:column: note: message\n"
 * per note, in the list's current order, allocated in pool ("" for an empty
 * list). */
const char *spx_diagnostics_text(const spx_diagnostics_t *list, apr_pool_t *pool);

#endif /* SPX_DIAGNOSTICS_H */
