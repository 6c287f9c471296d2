/*
 * cli_fmt.c: `semaprax fmt [--check] [PATH...]` (docs/fmt.md): the engine's
 * formatter (spx_format.h) over the files named, the *.spx files of the
 * folders named, or the manifest's sources.
 *
 * Every file is read through the platform layer's held handles (a link is
 * never followed) and, when its layout changes, replaced as rename replaces
 * a source: a sibling temp file written and flushed, then renamed over it.
 * A file whose layout is already canonical is not touched. A file that does
 * not parse is left alone and its diagnostics go to stderr.
 */
#include "spx_cli_fmt.h"

#include "spx_exit.h"
#include "spx_format.h"
#include "spx_inputs.h"
#include "spx_limits.h"
#include "spx_platform.h"
#include "spx_project.h"
#include "spx_status.h"

#include <apr_file_info.h>
#include <apr_file_io.h>
#include <apr_lib.h>
#include <apr_strings.h>
#include <apr_tables.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void spx_cli_fmt_help(void)
{
    fputs("usage: semaprax fmt [--check] [PATH...] [--manifest-path PATH]\n"
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
          "--check writes nothing.\n"
          "Exit status: 0 done (with --check: every file already formatted), 1 a file\n"
          "would change (--check), does not parse or could not be written, 2 usage or\n"
          "unreadable input.\n",
          stdout);
}

/* One file to format: how it is shown, and where it is held. */
typedef struct fmt_file_t {
    const char *path; /* as shown */
    spx_dir_t *dir;
    const char *name;
    spx_file_t *file;
    const unsigned char *bytes;
    apr_size_t length;
} fmt_file_t;

typedef struct fmt_run_t {
    int check;
    int changed; /* files that changed or would */
    int failed;  /* files that do not parse or could not be written */
    apr_pool_t *pool;
} fmt_run_t;

static int ends_with(const char *text, const char *suffix)
{
    apr_size_t length = strlen(text), size = strlen(suffix);
    return length >= size && strcmp(text + length - size, suffix) == 0;
}

static int compare_paths(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Add the *.spx files under folder (links and names starting with '.' left
 * out) to files. Folders are walked from a work list, not by recursion. */
static apr_status_t collect_folder(const char *folder, apr_array_header_t *files, apr_pool_t *pool,
                                   const char **message)
{
    apr_array_header_t *pending = apr_array_make(pool, 8, sizeof(const char *));
    APR_ARRAY_PUSH(pending, const char *) = folder;
    while (pending->nelts > 0) {
        const char *dir_path = *(const char **)apr_array_pop(pending);
        apr_dir_t *dir = NULL;
        apr_status_t status = apr_dir_open(&dir, dir_path, pool);
        if (status != APR_SUCCESS) {
            char reason[256];
            *message = apr_psprintf(pool, "cannot read folder '%s': %s", dir_path,
                                    spx_strerror(status, reason, sizeof(reason)));
            return status;
        }
        apr_finfo_t entry;
        for (;;) {
            apr_status_t read =
                apr_dir_read(&entry, APR_FINFO_NAME | APR_FINFO_TYPE | APR_FINFO_LINK, dir);
            if (read != APR_SUCCESS && read != APR_INCOMPLETE)
                break;
            if (!(entry.valid & APR_FINFO_TYPE) || !entry.name || entry.name[0] == '.')
                continue;
            const char *child = ends_with(dir_path, "/")
                                    ? apr_pstrcat(pool, dir_path, entry.name, NULL)
                                    : apr_pstrcat(pool, dir_path, "/", entry.name, NULL);
            if (entry.filetype == APR_DIR)
                APR_ARRAY_PUSH(pending, const char *) = child;
            else if (entry.filetype == APR_REG && ends_with(entry.name, ".spx"))
                APR_ARRAY_PUSH(files, const char *) = child;
        }
        apr_dir_close(dir);
    }
    return APR_SUCCESS;
}

/* The files the PATH arguments name, in order, each once. */
static int collect_paths(const char *const *paths, apr_array_header_t *files, apr_pool_t *pool)
{
    for (const char *const *path = paths; *path; path++) {
        apr_finfo_t info;
        apr_status_t status = apr_stat(&info, *path, APR_FINFO_TYPE, pool);
        if (status != APR_SUCCESS) {
            char reason[256];
            fprintf(stderr, "semaprax: cannot read '%s': %s\n", *path,
                    spx_strerror(status, reason, sizeof(reason)));
            return SPX_EXIT_USAGE;
        }
        if (info.filetype == APR_DIR) {
            apr_array_header_t *found = apr_array_make(pool, 16, sizeof(const char *));
            const char *message = NULL;
            if (collect_folder(*path, found, pool, &message) != APR_SUCCESS) {
                fprintf(stderr, "semaprax: %s\n", message);
                return SPX_EXIT_USAGE;
            }
            qsort(found->elts, (size_t)found->nelts, sizeof(const char *), compare_paths);
            apr_array_cat(files, found);
        } else {
            APR_ARRAY_PUSH(files, const char *) = *path;
        }
    }
    /* A file named twice (or by a file and its folder) is formatted once. */
    apr_array_header_t *unique = apr_array_make(pool, files->nelts, sizeof(const char *));
    for (int i = 0; i < files->nelts; i++) {
        const char *path = APR_ARRAY_IDX(files, i, const char *);
        int seen = 0;
        for (int j = 0; j < unique->nelts && !seen; j++)
            seen = strcmp(APR_ARRAY_IDX(unique, j, const char *), path) == 0;
        if (!seen)
            APR_ARRAY_PUSH(unique, const char *) = path;
    }
    apr_array_clear(files);
    apr_array_cat(files, unique);
    return SPX_EXIT_OK;
}

/* Hold and read the file at a host path. */
static int open_path(const char *path, fmt_file_t *file, apr_pool_t *pool)
{
    const char *name = apr_filepath_name_get(path);
    const char *folder = name == path ? "." : apr_pstrndup(pool, path, (apr_size_t)(name - path));
    const char *message = NULL;
    apr_status_t status =
        *name ? spx_dir_open_root(&file->dir, folder, pool, &message) : SPX_STATUS_BAD_PATH;
    if (status == APR_SUCCESS)
        status = spx_file_open(&file->file, file->dir, name, pool, &message);
    unsigned char *bytes = NULL;
    if (status == APR_SUCCESS)
        status = spx_file_read_all(file->file, SPX_LIMIT_SOURCE_BYTES, &bytes, &file->length, pool,
                                   &message);
    if (status != APR_SUCCESS) {
        char reason[256];
        fprintf(stderr, "semaprax: cannot read source '%s': %s\n", path,
                message ? message : spx_strerror(status, reason, sizeof(reason)));
        return SPX_EXIT_USAGE;
    }
    file->path = path;
    file->name = name;
    file->bytes = bytes;
    return SPX_EXIT_OK;
}

/* Format one held file: write it (or, checking, only say so) when its layout
 * changes. */
static void format_file(fmt_run_t *run, const fmt_file_t *file)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, run->pool);
    spx_diagnostics_t *diagnostics = spx_diagnostics_make(pool);
    char *formatted = NULL;
    apr_size_t length = 0;
    spx_format_outcome_t outcome = spx_format_source(file->bytes, file->length, file->path,
                                                     &formatted, &length, diagnostics, pool);
    if (outcome == SPX_FORMAT_SYNTAX) {
        fputs(spx_diagnostics_text(diagnostics, pool), stderr);
        fprintf(stderr, "semaprax: '%s' does not parse; it was not formatted\n", file->path);
        run->failed++;
    } else if (outcome == SPX_FORMAT_TOO_LARGE) {
        fprintf(stderr, "semaprax: '%s' formatted would be over %u bytes; it was not formatted\n",
                file->path, SPX_LIMIT_SOURCE_BYTES);
        run->failed++;
    } else if (outcome != SPX_FORMAT_DONE) {
        fprintf(stderr,
                "semaprax: the formatter's layout of '%s' did not keep its tokens and comments "
                "(a bug: please report it); it was not formatted\n",
                file->path);
        run->failed++;
    } else if (length != file->length || memcmp(formatted, file->bytes, length) != 0) {
        const char *message = NULL;
        if (!run->check && spx_format_replace(file->dir, file->name, file->file, formatted, length,
                                              pool, &message) != APR_SUCCESS) {
            fprintf(stderr, "semaprax: cannot write '%s': %s; it was left as it was\n", file->path,
                    message ? message : "failed");
            run->failed++;
        } else {
            printf("%s\n", file->path);
            run->changed++;
        }
    }
    fflush(stdout);
    apr_pool_destroy(pool);
}

static int finish(const fmt_run_t *run)
{
    if (run->failed > 0 || (run->check && run->changed > 0))
        return SPX_EXIT_FAILED;
    return SPX_EXIT_OK;
}

/* The manifest's sources, as the project holds them. */
static int format_manifest(fmt_run_t *run, const char *manifest_path)
{
    spx_project_t *project = NULL;
    const char *message = NULL;
    apr_status_t status = spx_project_open(
        &project, manifest_path ? manifest_path : "semaprax.toml", run->pool, &message);
    if (status != APR_SUCCESS) {
        char reason[256];
        fprintf(stderr, "semaprax: %s\n",
                message ? message : spx_strerror(status, reason, sizeof(reason)));
        return SPX_EXIT_USAGE;
    }
    spx_input_set_t *inputs = spx_project_inputs(project);
    if (!spx_project_has_manifest(project) || !inputs) {
        fputs(spx_diagnostics_text(spx_project_diagnostics(project), run->pool), stderr);
        fprintf(stderr, "semaprax: the manifest has diagnostics; nothing was formatted\n");
        return SPX_EXIT_FAILED;
    }
    /* Nothing is written over a change made since the project was read. */
    apr_array_header_t *drift = NULL;
    if (!run->check && (spx_input_set_reauthenticate(inputs, run->pool, &drift) != APR_SUCCESS ||
                        drift->nelts > 0)) {
        for (int i = 0; drift && i < drift->nelts; i++)
            fprintf(stderr, "semaprax: '%s' changed meanwhile (%s)\n",
                    APR_ARRAY_IDX(drift, i, spx_drift_t).path,
                    spx_drift_reason_name(APR_ARRAY_IDX(drift, i, spx_drift_t).reason));
        fprintf(stderr, "semaprax: nothing was formatted\n");
        return SPX_EXIT_FAILED;
    }
    for (apr_size_t i = 0; i < spx_input_set_source_count(inputs); i++) {
        const spx_input_t *source = spx_input_set_source(inputs, i);
        fmt_file_t file = {source->path, source->parent->dir, source->name,
                           source->file, source->bytes,       source->size};
        format_file(run, &file);
    }
    return finish(run);
}

int spx_cli_fmt(const char *const *paths, const char *manifest_path, int check, apr_pool_t *pool)
{
    fmt_run_t run = {check, 0, 0, pool};
    if (!paths[0])
        return format_manifest(&run, manifest_path);
    apr_array_header_t *files = apr_array_make(pool, 16, sizeof(const char *));
    int status = collect_paths(paths, files, pool);
    /* Every file is held and read before any is written: an unreadable one
     * stops the command with nothing changed. */
    fmt_file_t *held = apr_pcalloc(pool, (apr_size_t)files->nelts * sizeof(*held) + 1);
    for (int i = 0; status == SPX_EXIT_OK && i < files->nelts; i++)
        status = open_path(APR_ARRAY_IDX(files, i, const char *), &held[i], pool);
    for (int i = 0; status == SPX_EXIT_OK && i < files->nelts; i++)
        format_file(&run, &held[i]);
    return status != SPX_EXIT_OK ? status : finish(&run);
}
