/*
 * spx_op_fmt.h: the fmt operation (`semaprax fmt`, docs/fmt.md): which files
 * (those named, the *.spx files of the folders named, or a manifest's
 * sources), each laid out by the engine's formatter (spx_format.h),
 * compared with its bytes and, when it changes and the run is not a check,
 * replaced atomically (spx_format_replace); what became of every file,
 * typed. The CLI words the result; nothing here prints.
 */
#ifndef SPX_OP_FMT_H
#define SPX_OP_FMT_H

#include "spx_diagnostics.h"
#include "spx_rename.h"

#include <apr_pools.h>
#include <apr_tables.h>

/* Why a file was not formatted. */
typedef enum spx_fmt_refusal_t {
    SPX_FMT_NOT_REFUSED = 0,
    SPX_FMT_SYNTAX,     /* it does not parse: diagnostics */
    SPX_FMT_TOO_LARGE,  /* its layout would be over SPX_LIMIT_SOURCE_BYTES */
    SPX_FMT_SELF_CHECK, /* the layout lost or changed a token or comment (a bug) */
    SPX_FMT_UNWRITABLE, /* it could not be replaced: why; it was left as it was */
    /* it changed between its read and its write (another program's save,
     * which is kept): why; the run stops (SPX_FMT_SAVED_MEANWHILE) */
    SPX_FMT_CHANGED
} spx_fmt_refusal_t;

/* What became of one file. */
typedef struct spx_fmt_file_t {
    const char *path; /* as named, or as the manifest's project shows it */
    int changed;      /* formatted, its layout differs (written, or would be with check) */
    int written;      /* replaced on disk by its layout */
    spx_fmt_refusal_t refused;
    const spx_diagnostics_t *diagnostics; /* SPX_FMT_SYNTAX: the parser's */
    const char *why;                      /* SPX_FMT_UNWRITABLE: the platform's reason */
} spx_fmt_file_t;

/* Why a run stopped before formatting anything (nothing was written), or,
 * SPX_FMT_SAVED_MEANWHILE, part way. */
typedef enum spx_fmt_stop_t {
    SPX_FMT_FINISHED = 0,         /* every file was formatted or refused */
    SPX_FMT_UNREADABLE,           /* a path, folder, source or the manifest: message */
    SPX_FMT_MANIFEST_DIAGNOSTICS, /* the manifest has diagnostics */
    SPX_FMT_DRIFTED,              /* a held input changed since it was read: drift */
    /* a file changed between its read and its write (its result is
     * SPX_FMT_CHANGED, the last of files): it was not written, the files
     * before it were formatted, those after it were not */
    SPX_FMT_SAVED_MEANWHILE
} spx_fmt_stop_t;

typedef struct spx_fmt_result_t {
    int check; /* nothing is written; changed says what would be */
    spx_fmt_stop_t stopped;
    const char *message;                  /* SPX_FMT_UNREADABLE: one sentence */
    const spx_diagnostics_t *diagnostics; /* SPX_FMT_MANIFEST_DIAGNOSTICS */
    /* SPX_FMT_DRIFTED: spx_drift_t records, or NULL when the inputs could
     * not be verified at all */
    const apr_array_header_t *drift;
    apr_array_header_t *files; /* spx_fmt_file_t, in the order formatted */
    apr_size_t changed;        /* files that changed, or would with check */
    apr_size_t refused;        /* files not formatted */
    /* finished with no file refused and, with check, none that would change */
    int succeeded;
} spx_fmt_result_t;

/* probe: handed to each file's write (spx_format_probe_t, context NULL:
 * the test-only program's hooks); NULL for the programs. Each file is
 * swapped in only over the bytes it was read with (spx_format_replace): a
 * save made since stops the run at that file (SPX_FMT_SAVED_MEANWHILE). */

/* Called with each file once it is done, before the next is formatted (the
 * CLI prints as the run goes). */
typedef void (*spx_fmt_each_t)(void *context, const spx_fmt_file_t *file);

/* Format the files at paths (NULL-terminated, at least one: files, or
 * folders whose *.spx files are taken recursively, links and dot names left
 * out, sorted; each file once). Every file is held and read before any is
 * written: an unreadable one stops the run with nothing changed. */
void spx_op_fmt_paths(const char *const *paths, int check, spx_fmt_each_t each, void *context,
                      spx_commit_probe_fn probe, spx_fmt_result_t *result, apr_pool_t *pool);

/* Format the sources of the manifest at manifest_path, as its project holds
 * them; unless checking, nothing is written over a change made since they
 * were read (SPX_FMT_DRIFTED). */
void spx_op_fmt_manifest(const char *manifest_path, int check, spx_fmt_each_t each, void *context,
                         spx_commit_probe_fn probe, spx_fmt_result_t *result, apr_pool_t *pool);

#endif /* SPX_OP_FMT_H */
