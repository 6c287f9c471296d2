/*
 * fmt.c: the fmt operation (spx_op_fmt.h): the files named, the *.spx files
 * of the folders named, or the manifest's sources, each laid out by the
 * engine's formatter (spx_format.h).
 *
 * Every file is read through the platform layer's held handles (a link is
 * never followed) and, when its layout changes, replaced as rename replaces
 * a source: a sibling temp file written and flushed, then swapped in only
 * over the bytes that were formatted (a save made meanwhile is kept, and
 * the run stops there).
 * A file whose layout is already canonical is not touched. A file that does
 * not parse is left alone, with its diagnostics in its result. When asked,
 * a file's result keeps its layout or the unified diff to it (spx_diff.h),
 * within the bytes the caller allows.
 */
#include "spx_op_fmt.h"

#include "spx_diff.h"
#include "spx_format.h"
#include "spx_inputs.h"
#include "spx_limits.h"
#include "spx_platform.h"
#include "spx_project.h"
#include "spx_status.h"

#include <apr_file_info.h>
#include <apr_file_io.h>
#include <apr_hash.h>
#include <apr_lib.h>
#include <apr_strings.h>
#include <stdlib.h>
#include <string.h>

/* One file to format: how it is shown, and where it is held. */
typedef struct held_file_t {
    const char *path; /* as shown */
    spx_dir_t *dir;
    const char *name;
    spx_file_t *file;
    const unsigned char *bytes;
    apr_size_t length;
} held_file_t;

/* A run under way: its result, and whom to tell of each file. */
typedef struct fmt_run_t {
    spx_fmt_result_t *result;
    const spx_fmt_options_t *options;
    apr_pool_t *pool;
} fmt_run_t;

static void start(fmt_run_t *run, const spx_fmt_options_t *options, spx_fmt_result_t *result,
                  apr_pool_t *pool)
{
    memset(result, 0, sizeof(*result));
    result->check = options->check;
    result->files = apr_array_make(pool, 16, sizeof(spx_fmt_file_t));
    run->result = result;
    run->options = options;
    run->pool = pool;
}

/* Keep what the options ask of a formatted file (formatted, length bytes,
 * in scratch, the file's own pool) in file, copied into kept (the result's
 * pool, or a pool let go after each) only when it fits max_kept_bytes. */
static void keep_text(fmt_run_t *run, spx_fmt_file_t *file, const held_file_t *held,
                      const char *formatted, apr_size_t length, apr_pool_t *scratch,
                      apr_pool_t *kept)
{
    const spx_fmt_options_t *options = run->options;
    char *text = NULL;
    apr_size_t text_length = 0;
    if (options->keep == SPX_FMT_KEEP_TEXT) {
        text = (char *)formatted;
        text_length = length;
    } else if (options->keep == SPX_FMT_KEEP_DIFF) {
        spx_diff_unified(held->path, (const char *)held->bytes, held->length, formatted, length,
                         &text, &text_length, scratch);
    } else {
        return;
    }
    spx_fmt_result_t *result = run->result;
    if (options->max_kept_bytes > 0 && result->kept_bytes + text_length > options->max_kept_bytes) {
        result->texts_omitted = 1;
        return;
    }
    result->kept_bytes += text_length;
    file->text = apr_pstrmemdup(kept, text, text_length);
    file->text_length = text_length;
}

/* The run stops before any file is formatted, with message. */
static void unreadable(spx_fmt_result_t *result, const char *message)
{
    result->stopped = SPX_FMT_UNREADABLE;
    result->message = message;
}

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

/* Why the folder at path cannot be formatted when its last name is a
 * symbolic link (or a reparse point), as a file named by a link cannot
 * (open_path): it is held through its parent by that name, without following
 * a link. NULL when it is a folder of its own (or a root, ".", ".."). */
static const char *linked_folder(const char *path, apr_pool_t *pool)
{
    apr_size_t length = strlen(path);
    while (length > 1 && (path[length - 1] == '/' || path[length - 1] == '\\'))
        length--;
    const char *trimmed = apr_pstrndup(pool, path, length);
    const char *root = NULL, *rest = trimmed;
    if (apr_filepath_root(&root, &rest, 0, pool) == APR_SUCCESS && !*rest)
        return NULL;
    const char *name = apr_filepath_name_get(trimmed);
    if (!*name || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
        return NULL;
    const char *parent_path =
        name == trimmed ? "." : apr_pstrndup(pool, trimmed, (apr_size_t)(name - trimmed));
    spx_dir_t *parent = NULL, *folder = NULL;
    const char *message = NULL;
    apr_status_t status = spx_dir_open_root(&parent, parent_path, pool, &message);
    if (status == APR_SUCCESS)
        status = spx_dir_open_child(&folder, parent, name, pool, &message);
    if (folder)
        spx_dir_close(folder);
    if (parent)
        spx_dir_close(parent);
    if (status == APR_SUCCESS)
        return NULL;
    char reason[256];
    return apr_psprintf(pool, "cannot read folder '%s': %s", path,
                        message ? message : spx_strerror(status, reason, sizeof(reason)));
}

/* The files the paths name, in order (a file named twice still twice: see
 * open_path); NULL and *message when one cannot be read. */
static apr_array_header_t *collect_paths(const char *const *paths, apr_pool_t *pool,
                                         const char **message)
{
    apr_array_header_t *files = apr_array_make(pool, 16, sizeof(const char *));
    for (const char *const *path = paths; *path; path++) {
        apr_finfo_t info;
        apr_status_t status = apr_stat(&info, *path, APR_FINFO_TYPE, pool);
        if (status != APR_SUCCESS) {
            char reason[256];
            *message = apr_psprintf(pool, "cannot read '%s': %s", *path,
                                    spx_strerror(status, reason, sizeof(reason)));
            return NULL;
        }
        if (info.filetype == APR_DIR) {
            *message = linked_folder(*path, pool);
            if (*message)
                return NULL;
            apr_array_header_t *found = apr_array_make(pool, 16, sizeof(const char *));
            if (collect_folder(*path, found, pool, message) != APR_SUCCESS)
                return NULL;
            qsort(found->elts, (size_t)found->nelts, sizeof(const char *), compare_paths);
            apr_array_cat(files, found);
        } else {
            APR_ARRAY_PUSH(files, const char *) = *path;
        }
    }
    return files;
}

/* Hold and read the file at a host path; NULL on success, else why not. A
 * file already held under another spelling ("a.spx", "./a.spx",
 * "d/../a.spx", a hard link), by the identity the platform gives it, is let
 * go unread and *again set: a file is formatted once, as first named. */
static const char *open_path(const char *path, held_file_t *file, apr_hash_t *held, int *again,
                             apr_pool_t *pool)
{
    *again = 0;
    const char *name = apr_filepath_name_get(path);
    const char *folder = name == path ? "." : apr_pstrndup(pool, path, (apr_size_t)(name - path));
    const char *message = NULL;
    apr_status_t status =
        *name ? spx_dir_open_root(&file->dir, folder, pool, &message) : SPX_STATUS_BAD_PATH;
    if (status == APR_SUCCESS)
        status = spx_file_open(&file->file, file->dir, name, pool, &message);
    spx_identity_t identity;
    memset(&identity, 0, sizeof(identity));
    if (status == APR_SUCCESS)
        status = spx_file_identity(file->file, &identity, pool, &message);
    /* The key: volume, object and its high half (the kind is always a file). */
    uint64_t *key = apr_palloc(pool, 3 * sizeof(uint64_t));
    key[0] = identity.volume;
    key[1] = identity.object;
    key[2] = identity.object_high;
    if (status == APR_SUCCESS && apr_hash_get(held, key, 3 * sizeof(uint64_t))) {
        spx_file_close(file->file);
        spx_dir_close(file->dir);
        *again = 1;
        return NULL;
    }
    unsigned char *bytes = NULL;
    if (status == APR_SUCCESS)
        status = spx_file_read_all(file->file, SPX_LIMIT_SOURCE_BYTES, &bytes, &file->length, pool,
                                   &message);
    if (status != APR_SUCCESS) {
        char reason[256];
        return apr_psprintf(pool, "cannot read source '%s': %s", path,
                            message ? message : spx_strerror(status, reason, sizeof(reason)));
    }
    apr_hash_set(held, key, 3 * sizeof(uint64_t), file);
    file->path = path;
    file->name = name;
    file->bytes = bytes;
    return NULL;
}

/* The canonical layout of bytes (file->path's) in *formatted, in pool: 1;
 * or 0 with file->refused saying why (and, when it does not parse, the
 * parser's diagnostics, in notes). */
static int layout_of(const unsigned char *bytes, apr_size_t length, spx_fmt_file_t *file,
                     char **formatted, apr_size_t *formatted_length, apr_pool_t *notes,
                     apr_pool_t *pool)
{
    spx_diagnostics_t *diagnostics = spx_diagnostics_make(notes);
    switch (spx_format_source(bytes, length, file->path, formatted, formatted_length, diagnostics,
                              pool)) {
    case SPX_FORMAT_DONE:
        return 1;
    case SPX_FORMAT_SYNTAX:
        file->refused = SPX_FMT_SYNTAX;
        file->diagnostics = diagnostics;
        return 0;
    case SPX_FORMAT_TOO_LARGE:
        file->refused = SPX_FMT_TOO_LARGE;
        return 0;
    default:
        file->refused = SPX_FMT_SELF_CHECK;
        return 0;
    }
}

/* Format one held file (number at of files): replace it (or, checking,
 * only say so) when its layout changes; its result goes to the run's list
 * and to each. 0 when it changed since it was read: the run stops. */
static int format_file(fmt_run_t *run, const held_file_t *held, apr_size_t at, apr_size_t files)
{
    spx_fmt_result_t *result = run->result;
    spx_fmt_file_t *file = &APR_ARRAY_PUSH(result->files, spx_fmt_file_t);
    memset(file, 0, sizeof(*file));
    file->path = held->path;
    apr_pool_t *pool = NULL; /* the layout's bytes: let go once the file is done */
    apr_pool_create(&pool, run->pool);
    apr_pool_t *notes = NULL; /* the parser's diagnostics: kept for a file that does not parse */
    apr_pool_create(&notes, run->pool);
    /* its text: the result's, or let go once each has seen it */
    apr_pool_t *kept = run->pool;
    if (run->options->max_kept_bytes == 0)
        apr_pool_create(&kept, run->pool);
    char *formatted = NULL;
    apr_size_t length = 0;
    int laid_out = layout_of(held->bytes, held->length, file, &formatted, &length, notes, pool);
    if (laid_out)
        keep_text(run, file, held, formatted, length, pool, kept);
    if (laid_out && (length != held->length || memcmp(formatted, held->bytes, length) != 0)) {
        const char *message = NULL;
        spx_format_probe_t probe = {run->options->probe, NULL, at, files};
        apr_status_t status =
            result->check ? APR_SUCCESS
                          : spx_format_replace(held->dir, held->name, held->file, formatted, length,
                                               held->bytes, held->length, &probe, pool, &message);
        if (status != APR_SUCCESS) {
            file->refused = status == SPX_STATUS_CHANGED ? SPX_FMT_CHANGED : SPX_FMT_UNWRITABLE;
            file->why = apr_pstrdup(run->pool, message ? message : "failed");
        } else {
            file->changed = 1;
            file->written = !result->check;
        }
    }
    if (file->refused)
        result->refused++;
    if (file->changed)
        result->changed++;
    apr_pool_destroy(pool);
    if (file->refused != SPX_FMT_SYNTAX)
        apr_pool_destroy(notes);
    if (run->options->each)
        run->options->each(run->options->context, file);
    if (kept != run->pool) {
        apr_pool_destroy(kept);
        file->text = NULL;
        file->text_length = 0;
    }
    if (file->refused != SPX_FMT_CHANGED)
        return 1;
    result->stopped = SPX_FMT_SAVED_MEANWHILE;
    return 0;
}

static void finish(spx_fmt_result_t *result)
{
    result->succeeded = result->stopped == SPX_FMT_FINISHED && result->refused == 0 &&
                        !(result->check && result->changed > 0);
}

void spx_op_fmt_paths(const char *const *paths, const spx_fmt_options_t *options,
                      spx_fmt_result_t *result, apr_pool_t *pool)
{
    fmt_run_t run;
    start(&run, options, result, pool);
    const char *message = NULL;
    apr_array_header_t *files = collect_paths(paths, pool, &message);
    if (!files) {
        unreadable(result, message);
        return;
    }
    /* Every file is held and read before any is written: an unreadable one
     * stops the run with nothing changed. */
    held_file_t *held = apr_pcalloc(pool, (apr_size_t)files->nelts * sizeof(*held) + 1);
    apr_hash_t *identities = apr_hash_make(pool);
    int count = 0;
    for (int i = 0; i < files->nelts; i++) {
        int again = 0;
        message = open_path(APR_ARRAY_IDX(files, i, const char *), &held[count], identities, &again,
                            pool);
        if (message) {
            unreadable(result, message);
            return;
        }
        if (!again)
            count++;
    }
    for (int i = 0; i < count; i++)
        if (!format_file(&run, &held[i], (apr_size_t)i, (apr_size_t)count))
            break;
    finish(result);
}

void spx_op_fmt_manifest(const char *manifest_path, const spx_fmt_options_t *options,
                         spx_fmt_result_t *result, apr_pool_t *pool)
{
    fmt_run_t run;
    start(&run, options, result, pool);
    spx_project_t *project = NULL;
    const char *message = NULL;
    /* The inputs only: the program is not built (fmt needs the bytes, and
     * its memory stays below check's, docs/fmt.md). */
    apr_status_t status = spx_project_read(&project, manifest_path, pool, &message);
    if (status != APR_SUCCESS) {
        char reason[256];
        unreadable(result, message
                               ? message
                               : apr_pstrdup(pool, spx_strerror(status, reason, sizeof(reason))));
        return;
    }
    spx_input_set_t *inputs = spx_project_inputs(project);
    if (!spx_project_has_manifest(project) || !inputs) {
        result->stopped = SPX_FMT_MANIFEST_DIAGNOSTICS;
        result->diagnostics = spx_project_diagnostics(project);
        return;
    }
    /* Nothing is written over a change made since the project was read. */
    apr_array_header_t *drift = NULL;
    if (!options->check &&
        (spx_input_set_reauthenticate(inputs, pool, &drift) != APR_SUCCESS || drift->nelts > 0)) {
        result->stopped = SPX_FMT_DRIFTED;
        result->drift = drift;
        return;
    }
    apr_size_t count = spx_input_set_source_count(inputs);
    for (apr_size_t i = 0; i < count; i++) {
        const spx_input_t *source = spx_input_set_source(inputs, i);
        held_file_t file = {source->path, source->parent->dir, source->name,
                            source->file, source->bytes,       source->size};
        if (!format_file(&run, &file, i, count))
            break;
    }
    finish(result);
}

void spx_op_fmt_held(const spx_input_set_t *inputs, const char *const *paths, apr_size_t count,
                     const spx_fmt_options_t *options, spx_fmt_result_t *result, apr_pool_t *pool)
{
    fmt_run_t run;
    start(&run, options, result, pool);
    apr_size_t sources = spx_input_set_source_count(inputs);
    /* The sources named, each once, in the manifest's order. */
    unsigned char *named = apr_pcalloc(pool, sources + 1);
    for (apr_size_t p = 0; p < count; p++) {
        apr_size_t i = 0;
        while (i < sources && strcmp(spx_input_set_source(inputs, i)->path, paths[p]) != 0)
            i++;
        if (i == sources) {
            const char *list = "";
            for (i = 0; i < sources; i++)
                list = apr_pstrcat(pool, list, i ? ", " : "", spx_input_set_source(inputs, i)->path,
                                   NULL);
            unreadable(result,
                       apr_psprintf(pool, "no source '%s' in the manifest; its sources are %s",
                                    paths[p], list));
            return;
        }
        named[i] = 1;
    }
    apr_size_t chosen = 0;
    for (apr_size_t i = 0; i < sources; i++)
        chosen += count == 0 || named[i];
    apr_size_t at = 0;
    for (apr_size_t i = 0; i < sources; i++) {
        if (count > 0 && !named[i])
            continue;
        const spx_input_t *source = spx_input_set_source(inputs, i);
        held_file_t file = {source->path, source->parent->dir, source->name,
                            source->file, source->bytes,       source->size};
        if (!format_file(&run, &file, at++, chosen))
            break;
    }
    finish(result);
}

void spx_op_fmt_text(const unsigned char *bytes, apr_size_t length, const char *path,
                     spx_fmt_file_t *file, apr_pool_t *pool)
{
    memset(file, 0, sizeof(*file));
    file->path = path;
    char *formatted = NULL;
    apr_size_t formatted_length = 0;
    if (layout_of(bytes, length, file, &formatted, &formatted_length, pool, pool)) {
        file->text = formatted;
        file->text_length = formatted_length;
        file->changed = formatted_length != length || memcmp(formatted, bytes, length) != 0;
    }
}
