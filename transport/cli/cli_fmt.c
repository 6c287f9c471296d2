/*
 * cli_fmt.c: `semaprax fmt [--check | --diff] [PATH...]` (docs/fmt.md): its
 * help, and the words of the fmt operation's result (spx_op_fmt.h, which
 * picks the files, formats them and writes them): each file written (or,
 * with --check, that would change; with --diff, the unified diff the
 * operation made of it) on stdout as it is done, each refusal and its
 * diagnostics on stderr, and the exit status.
 */
#include "spx_cli_fmt.h"
#include "spx_cli_hooks.h"
#include "spx_cli_view.h"

#include "spx_exit.h"
#include "spx_inputs.h"
#include "spx_limits.h"
#include "spx_operations.h"

#include <stdio.h>

void spx_cli_fmt_help(void)
{
    fputs("usage: semaprax fmt [--check | --diff] [PATH...] [--manifest-path PATH]\n"
          "\n"
          "Lays out Semaprax sources in the one canonical form (docs/fmt.md): 4-space\n"
          "indentation, one statement per line, `{` on the line of its header, spaces\n"
          "around binary operators and after commas and colons, one blank line between\n"
          "items, comments kept where they stand. Meaning never changes, and formatting\n"
          "twice gives the same bytes. Each PATH is a source file or a folder (its *.spx\n"
          "files, recursively, sorted); without PATH, the sources of the manifest.\n"
          "A changed file is written to a temporary file beside it, flushed, and renamed\n"
          "over the original; an unchanged file is not touched. The path of each file\n"
          "written (or, with --check, each file that would change) is printed. A file\n"
          "that does not parse is not formatted: its diagnostics go to stderr.\n"
          "--check writes nothing. --diff writes nothing either and prints, for each\n"
          "file that would change, the unified diff to its layout (`diff -u`, a/ and b/\n"
          "prefixes, 3 lines of context), which `patch -p1` applies.\n"
          "Exit status: 0 done (with --check or --diff: every file already formatted),\n"
          "1 a file would change (--check, --diff), does not parse or could not be\n"
          "written, 2 usage or unreadable input.\n",
          stdout);
}

/* One file done: its path when it changed (or would), else why it was not
 * formatted. */
static void print_file(void *context, const spx_fmt_file_t *file)
{
    apr_pool_t *pool = context;
    switch (file->refused) {
    case SPX_FMT_NOT_REFUSED:
        if (file->changed && file->text)
            fwrite(file->text, 1, file->text_length, stdout);
        else if (file->changed)
            printf("%s\n", file->path);
        break;
    case SPX_FMT_SYNTAX:
        fputs(spx_diagnostics_text(file->diagnostics, pool), stderr);
        fprintf(stderr, "semaprax: '%s' does not parse; it was not formatted\n", file->path);
        break;
    case SPX_FMT_TOO_LARGE:
        fprintf(stderr, "semaprax: '%s' formatted would be over %u bytes; it was not formatted\n",
                file->path, SPX_LIMIT_SOURCE_BYTES);
        break;
    case SPX_FMT_SELF_CHECK:
        fprintf(stderr,
                "semaprax: the formatter's layout of '%s' did not keep its tokens and comments "
                "(a bug: please report it); it was not formatted\n",
                file->path);
        break;
    case SPX_FMT_UNWRITABLE:
        fprintf(stderr, "semaprax: cannot write '%s': %s; it was left as it was\n", file->path,
                file->why);
        break;
    case SPX_FMT_CHANGED:
        fprintf(stderr, "semaprax: %s\n", file->why);
        break;
    }
    fflush(stdout);
}

int spx_cli_fmt(const char *const *paths, const char *manifest_path, int check, int diff,
                apr_pool_t *pool)
{
    if (check && diff) {
        fprintf(stderr, "semaprax: --check and --diff cannot be given together: choose one\n"
                        "Try 'semaprax fmt --help'.\n");
        return SPX_EXIT_USAGE;
    }
    /* Each diff is printed as its file is done and let go (max_kept_bytes 0). */
    const spx_fmt_options_t options = {
        check || diff,         diff ? SPX_FMT_KEEP_DIFF : SPX_FMT_KEEP_NOTHING, 0, print_file, pool,
        spx_cli_commit_probe()};
    spx_fmt_result_t result;
    if (paths[0])
        spx_op_fmt_paths(paths, &options, &result, pool);
    else
        spx_op_fmt_manifest(manifest_path ? manifest_path : "semaprax.toml", &options, &result,
                            pool);
    switch (result.stopped) {
    case SPX_FMT_FINISHED:
        break;
    case SPX_FMT_UNREADABLE:
        fprintf(stderr, "semaprax: %s\n", result.message);
        return SPX_EXIT_USAGE;
    case SPX_FMT_MANIFEST_DIAGNOSTICS:
        fputs(spx_diagnostics_text(result.diagnostics, pool), stderr);
        fprintf(stderr, "semaprax: the manifest has diagnostics; nothing was formatted\n");
        return SPX_EXIT_FAILED;
    case SPX_FMT_DRIFTED:
        spx_view_drift(stderr, result.drift);
        fprintf(stderr, "semaprax: nothing was formatted\n");
        return SPX_EXIT_FAILED;
    case SPX_FMT_SAVED_MEANWHILE:
        fprintf(stderr, "semaprax: fmt stopped there; no file after it was formatted\n");
        return SPX_EXIT_FAILED;
    }
    return result.succeeded ? SPX_EXIT_OK : SPX_EXIT_FAILED;
}
