/*
 * spx_op_fmt.h: the fmt operation (`semaprax fmt`, docs/fmt.md): which files
 * (those named, the *.spx files of the folders named, or a manifest's
 * sources), each laid out by the engine's formatter (spx_format.h),
 * compared with its bytes and, when it changes and the run is not a check,
 * replaced atomically (spx_format_replace); what became of every file,
 * typed, with, when asked, its layout or the unified diff to it (spx_diff.h).
 * The sources of a project already held (MCP's fmt tool) are formatted
 * from the bytes it holds. The CLI and MCP word the result; nothing here
 * prints.
 */
#ifndef SPX_OP_FMT_H
#define SPX_OP_FMT_H

#include "spx_diagnostics.h"
#include "spx_inputs.h"
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
    /* What options->keep asked for (NUL-terminated, text_length bytes):
     * SPX_FMT_KEEP_TEXT, its layout (its bytes when it does not change);
     * SPX_FMT_KEEP_DIFF, the unified diff from its bytes to its layout
     * ("" when it does not change). NULL when refused, nothing was asked,
     * or it was not kept (over max_kept_bytes). */
    const char *text;
    apr_size_t text_length;
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
    /* Some file's text was not kept: the texts came to more than
     * options->max_kept_bytes (the files are still formatted and counted). */
    int texts_omitted;
    apr_uint64_t kept_bytes; /* the bytes of the texts kept */
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

/* Called with each file once it is done, before the next is formatted (the
 * CLI prints as the run goes). */
typedef void (*spx_fmt_each_t)(void *context, const spx_fmt_file_t *file);

/* What a file's result keeps in text. */
typedef enum spx_fmt_keep_t {
    SPX_FMT_KEEP_NOTHING = 0,
    SPX_FMT_KEEP_TEXT, /* its layout */
    SPX_FMT_KEEP_DIFF  /* the unified diff to its layout (`semaprax fmt --diff`) */
} spx_fmt_keep_t;

/* How a run goes. */
typedef struct spx_fmt_options_t {
    int check; /* write nothing; changed says what would change */
    spx_fmt_keep_t keep;
    /* The most bytes of text kept in the result, all files together; past
     * it a file's text is NULL and texts_omitted set. 0: each file's text
     * lives only until each has seen it (the CLI prints it then). */
    apr_uint64_t max_kept_bytes;
    spx_fmt_each_t each; /* may be NULL */
    void *context;
    /* handed to each file's write (spx_format_probe_t, context NULL: the
     * test-only program's hooks); NULL for the programs. Each file is
     * swapped in only over the bytes it was read with (spx_format_replace):
     * a save made since stops the run at that file
     * (SPX_FMT_SAVED_MEANWHILE). */
    spx_commit_probe_fn probe;
} spx_fmt_options_t;

/* Format the files at paths (NULL-terminated, at least one: files, or
 * folders whose *.spx files are taken recursively, links and dot names left
 * out, sorted; each file once). Every file is held and read before any is
 * written: an unreadable one stops the run with nothing changed. */
void spx_op_fmt_paths(const char *const *paths, const spx_fmt_options_t *options,
                      spx_fmt_result_t *result, apr_pool_t *pool);

/* Format the sources of the manifest at manifest_path, as its project holds
 * them; unless checking, nothing is written over a change made since they
 * were read (SPX_FMT_DRIFTED). */
void spx_op_fmt_manifest(const char *manifest_path, const spx_fmt_options_t *options,
                         spx_fmt_result_t *result, apr_pool_t *pool);

/* Format the sources of a project already held, from the bytes it holds
 * (the caller has re-authenticated them: MCP's fmt tool), in the
 * manifest's order; with paths (count of them, each a source's path as the
 * manifest names it) only those. A path that names no source stops the run
 * before anything is formatted (SPX_FMT_UNREADABLE, message). Unless
 * checking, each changed source is swapped in over the bytes held, never
 * over a save made since (SPX_FMT_SAVED_MEANWHILE). */
void spx_op_fmt_held(const spx_input_set_t *inputs, const char *const *paths, apr_size_t count,
                     const spx_fmt_options_t *options, spx_fmt_result_t *result, apr_pool_t *pool);

/* The layout of one buffer, writing nothing (semapraxd --lsp's
 * textDocument/formatting, docs/editors.md): file->path is path; file->text
 * and file->text_length (in pool) its layout, file->changed when it differs
 * from the bytes; or file->refused with SPX_FMT_SYNTAX (file->diagnostics,
 * the parser's), SPX_FMT_TOO_LARGE or SPX_FMT_SELF_CHECK, and no text. */
void spx_op_fmt_text(const unsigned char *bytes, apr_size_t length, const char *path,
                     spx_fmt_file_t *file, apr_pool_t *pool);

#endif /* SPX_OP_FMT_H */
