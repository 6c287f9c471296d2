/*
 * spx_format.h: `semaprax fmt`'s formatter, the one canonical layout of a
 * Semaprax source (docs/fmt.md), and the atomic write of a formatted file.
 *
 * spx_format_source reads a source that parses cleanly and lays it out
 * again from its tokens and comments: same tokens in the same order (a
 * trailing comma of an array or struct literal dropped, every field of a
 * struct declaration ended by one), same comments, only the white space
 * between them changed. The result is checked against the source before it
 * is returned, and formatting it again gives it back byte for byte.
 */
#ifndef SPX_FORMAT_H
#define SPX_FORMAT_H

#include "spx_diagnostics.h"
#include "spx_platform.h"
#include "spx_rename.h"

#include <apr_pools.h>

/* What became of one source. */
typedef enum spx_format_outcome_t {
    SPX_FORMAT_DONE = 1,  /* *formatted holds the canonical layout */
    SPX_FORMAT_SYNTAX,    /* the source does not parse: its diagnostics were added */
    SPX_FORMAT_TOO_LARGE, /* the layout would be over SPX_LIMIT_SOURCE_BYTES */
    /* the layout lost or changed a token or comment, or does not parse: a bug */
    SPX_FORMAT_SELF_CHECK
} spx_format_outcome_t;

/* Format the length bytes at text (a source shown as path in diagnostics).
 * SPX_FORMAT_DONE and *formatted (NUL-terminated, *formatted_length bytes,
 * in pool); otherwise *formatted is NULL, and for SPX_FORMAT_SYNTAX the
 * parser's diagnostics are in diagnostics. The same text always gives the
 * same bytes. */
spx_format_outcome_t spx_format_source(const unsigned char *text, apr_size_t length,
                                       const char *path, char **formatted,
                                       apr_size_t *formatted_length, spx_diagnostics_t *diagnostics,
                                       apr_pool_t *pool);

/* What the write of one file tells a probe (the test-only programs' hooks,
 * spx_rename.h's spx_commit_probe_fn at the same points as the rename's
 * commit: create, write, flush, replace, sync): the file's number among the
 * files of the run. probe NULL: nothing is probed. */
typedef struct spx_format_probe_t {
    spx_commit_probe_fn probe;
    void *context;
    apr_size_t file, files;
} spx_format_probe_t;

/* Put bytes in place of the file called name in the held dir (like: that
 * file, held, whose permissions the new one takes), as rename commits a
 * file: a new temp file beside it, written and flushed, swapped in for the
 * file only while it still holds the read_length bytes at read (what was
 * formatted: spx_temp_swap_in), the directory flushed. On failure the
 * original is untouched and no temp file is left; SPX_STATUS_CHANGED when
 * the file changed since it was read (another program's save, which is
 * kept). APR_SUCCESS, or a status and *message. */
apr_status_t spx_format_replace(spx_dir_t *dir, const char *name, spx_file_t *like,
                                const char *bytes, apr_size_t length, const unsigned char *read,
                                apr_size_t read_length, const spx_format_probe_t *probe,
                                apr_pool_t *pool, const char **message);

#endif /* SPX_FORMAT_H */
