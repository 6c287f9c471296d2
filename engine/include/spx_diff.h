/*
 * spx_diff.h: the unified diff of two texts, line by line, as `diff -u`
 * writes it (`--- a/PATH`, `+++ b/PATH`, hunks with three lines of context,
 * `\ No newline at end of file` after a last line without one), so that
 * `patch -p1` applies it. `semaprax fmt --diff` and MCP's fmt tool print the
 * same bytes from here.
 *
 * The lines are matched by Myers' O(ND) search on what remains once the
 * common first and last lines are set aside, within a memory bound
 * (SPX_LIMIT_DIFF_TRACE_BYTES) and a time bound (SPX_LIMIT_DIFF_STEPS); past
 * either, the changed middle is one hunk that deletes every old line of it
 * and adds every new one. Hand-written: docs/dependencies.md says why.
 */
#ifndef SPX_DIFF_H
#define SPX_DIFF_H

#include <apr_pools.h>
#include <apr_tables.h>

/* How the diff was found. */
typedef enum spx_diff_search_t {
    SPX_DIFF_SAME = 0,    /* the texts are equal: the diff is empty */
    SPX_DIFF_SHORTEST,    /* Myers' search: the fewest deleted and added lines */
    SPX_DIFF_WHOLE_MIDDLE /* past a bound: the changed middle replaced whole */
} spx_diff_search_t;

/* The unified diff from old (old_length bytes) to new (new_length bytes),
 * both shown as path, in pool: *diff (NUL-terminated, *diff_length bytes;
 * "" when the texts are equal). */
spx_diff_search_t spx_diff_unified(const char *path, const char *old, apr_size_t old_length,
                                   const char *new_text, apr_size_t new_length, char **diff,
                                   apr_size_t *diff_length, apr_pool_t *pool);

/* The same under the bounds given (the tests' way to reach the fallback
 * with small texts): max_trace_bytes of edit trace, max_steps line
 * comparisons. */
spx_diff_search_t spx_diff_unified_bounded(const char *path, const char *old, apr_size_t old_length,
                                           const char *new_text, apr_size_t new_length,
                                           apr_size_t max_trace_bytes, apr_uint64_t max_steps,
                                           char **diff, apr_size_t *diff_length, apr_pool_t *pool);

/* One change of the same line diff, as byte offsets: the old text's bytes
 * [old_start, old_end) (whole lines, perhaps none: then both are where the
 * new lines go) become the new text's bytes [new_start, new_end). */
typedef struct spx_diff_change_t {
    apr_size_t old_start, old_end;
    apr_size_t new_start, new_end;
} spx_diff_change_t;

/* The changes from old to new_text (the same search and bounds as
 * spx_diff_unified, without context), in order and apart from each other:
 * *changes, an array of spx_diff_change_t in pool, empty when the texts are
 * equal. Applying them all to old gives new_text (semapraxd --lsp's
 * formatting edits). */
spx_diff_search_t spx_diff_changes(const char *old, apr_size_t old_length, const char *new_text,
                                   apr_size_t new_length, apr_array_header_t **changes,
                                   apr_pool_t *pool);

#endif /* SPX_DIFF_H */
