/*
 * spx_paths.h: the source-path rules of Project Manifest v1 (manifest.md).
 *
 * A source path is relative to the project root: components separated by
 * '/', each a non-empty name of [A-Za-z0-9._-] other than "." and "..", the
 * whole ending in ".spx". The manifest parser reports a broken rule at the
 * value's line and column; the input set checks again before it opens
 * anything, so no caller can hold a path that breaks a rule.
 */
#ifndef SPX_PATHS_H
#define SPX_PATHS_H

#include <apr_pools.h>

/* NULL when path keeps every rule; otherwise what is wrong with it, as a
 * phrase that follows the path ("'x' is absolute ..."), allocated in pool. */
const char *spx_source_path_problem(const char *path, apr_pool_t *pool);

/* The same for a data path (manifest v2's [[data]]): a source path's rules
 * but any ending; one that starts with ".." "leaves the project root". */
const char *spx_data_path_problem(const char *path, apr_pool_t *pool);

/* A byte a name rule refuses, as the rule's message shows it: "'c'" for a
 * printable ASCII character, "the byte 0xNN" for any other. In pool. */
const char *spx_refused_byte_text(unsigned char c, apr_pool_t *pool);

#endif /* SPX_PATHS_H */
