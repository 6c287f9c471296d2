/*
 * files.c: the half of the held-object interface (spx_platform.h) that is the
 * same on every system: the held structures' bookkeeping (display paths, pool
 * cleanups, the "no longer held" refusals), the one-component check of every
 * name a caller passes, the messages, and the rename transaction's temporary
 * names and lifetime. What talks to the system is the native half,
 * posix/files.c or win32/files.c, behind spx_files.h.
 */
#include "spx_files.h"

#include <apr_general.h>
#include <apr_strings.h>
#include <string.h>

/* --- messages ------------------------------------------------------------- */

apr_status_t spx_files_say(apr_status_t status, const char **message, apr_pool_t *pool,
                           const char *format, const char *path, const char *detail)
{
    if (message)
        *message = apr_psprintf(pool, format, path, detail);
    return status;
}

apr_status_t spx_files_cannot(apr_status_t status, apr_status_t cause, const char **message,
                              apr_pool_t *pool, const char *what, const char *path)
{
    char text[256];
    apr_strerror(cause, text, sizeof(text));
    if (message)
        *message = apr_psprintf(pool, "cannot %s '%s': %s", what, path, text);
    return status;
}

apr_status_t spx_files_not_held(const char *path, apr_pool_t *pool, const char **message)
{
    return spx_files_say(APR_EBADF, message, pool, "'%s' is %s", path, "no longer held");
}

/* --- names ---------------------------------------------------------------- */

/* A name must be exactly one component: not empty, not "." or "..", and
 * without a separator of the system (SPX_NATIVE_SEPARATORS: '/'; on Windows
 * also '\' and ':', which would name an alternate data stream). */
static int is_single_component(const char *name)
{
    return name[0] != '\0' && strcmp(name, ".") != 0 && strcmp(name, "..") != 0 &&
           strpbrk(name, SPX_NATIVE_SEPARATORS) == NULL;
}

static const char *child_path(const spx_dir_t *parent, const char *name, apr_pool_t *pool)
{
    return apr_pstrcat(pool, parent->child_prefix, name, NULL);
}

/* The display path of name in parent in *path; SPX_STATUS_BAD_NAME unless
 * name is a single component. */
static apr_status_t check_name(const spx_dir_t *parent, const char *name, const char **path,
                               apr_pool_t *pool, const char **message)
{
    *path = child_path(parent, name, pool);
    if (!is_single_component(name))
        return spx_files_say(SPX_STATUS_BAD_NAME, message, pool, "'%s' is not %s", *path,
                             "a single path component");
    return APR_SUCCESS;
}

/* The same for a name in dir, which must still be held. */
static apr_status_t check_held_name(const spx_dir_t *dir, const char *name, const char **path,
                                    apr_pool_t *pool, const char **message)
{
    apr_status_t status = check_name(dir, name, path, pool, message);
    if (status == APR_SUCCESS && dir->handle == SPX_NATIVE_CLOSED)
        return spx_files_not_held(dir->path, pool, message);
    return status;
}

/* --- held objects ----------------------------------------------------------- */

/* Close *handle when pool goes. */
static void hold(spx_native_t *handle, apr_pool_t *pool)
{
    apr_pool_cleanup_register(pool, handle, spx_native_close, apr_pool_cleanup_null);
}

apr_status_t spx_dir_open_root(spx_dir_t **dir, const char *path, apr_pool_t *pool,
                               const char **message)
{
    spx_dir_t *held = apr_pcalloc(pool, sizeof(*held));
    apr_status_t status = spx_native_open_root(held, path, pool, message);
    if (status == SPX_STATUS_NOT_REGULAR)
        return spx_files_say(status, message, pool, "project root '%s' is not %s", path,
                             "a directory");
    if (status != APR_SUCCESS)
        return status;
    held->path = apr_pstrdup(pool, path);
    held->child_prefix = "";
    hold(&held->handle, pool);
    *dir = held;
    return APR_SUCCESS;
}

/* Open name in parent, of the kind wanted, into *handle; its display path
 * in *path. */
static apr_status_t open_child(spx_native_t *handle, spx_native_path_t *native_path,
                               const char **path, const spx_dir_t *parent, const char *name,
                               spx_object_kind_t kind, apr_pool_t *pool, const char **message)
{
    apr_status_t status = check_name(parent, name, path, pool, message);
    if (status != APR_SUCCESS)
        return status;
    status = spx_native_open(handle, native_path, parent, name, *path, kind, pool, message);
    if (status == APR_SUCCESS)
        hold(handle, pool);
    return status;
}

apr_status_t spx_dir_open_child(spx_dir_t **dir, spx_dir_t *parent, const char *name,
                                apr_pool_t *pool, const char **message)
{
    spx_dir_t *held = apr_pcalloc(pool, sizeof(*held));
    apr_status_t status = open_child(&held->handle, &held->native_path, &held->path, parent, name,
                                     SPX_OBJECT_DIR, pool, message);
    if (status != APR_SUCCESS)
        return status;
    held->child_prefix = apr_pstrcat(pool, held->path, "/", NULL);
    *dir = held;
    return APR_SUCCESS;
}

apr_status_t spx_file_open(spx_file_t **file, spx_dir_t *parent, const char *name, apr_pool_t *pool,
                           const char **message)
{
    spx_file_t *held = apr_pcalloc(pool, sizeof(*held));
    spx_native_path_t native_path = NULL; /* a file keeps none */
    apr_status_t status = open_child(&held->handle, &native_path, &held->path, parent, name,
                                     SPX_OBJECT_FILE, pool, message);
    if (status != APR_SUCCESS)
        return status;
    *file = held;
    return APR_SUCCESS;
}

void spx_dir_close(spx_dir_t *dir)
{
    spx_native_close(&dir->handle);
}

void spx_file_close(spx_file_t *file)
{
    spx_native_close(&file->handle);
}

const char *spx_dir_path(const spx_dir_t *dir)
{
    return dir->path;
}

const char *spx_file_path(const spx_file_t *file)
{
    return file->path;
}

static apr_status_t identity_of(spx_native_t handle, const char *path, spx_identity_t *identity,
                                apr_pool_t *pool, const char **message)
{
    if (handle == SPX_NATIVE_CLOSED)
        return spx_files_not_held(path, pool, message);
    return spx_native_identity(handle, path, identity, pool, message);
}

apr_status_t spx_dir_identity(spx_dir_t *dir, spx_identity_t *identity, apr_pool_t *pool,
                              const char **message)
{
    return identity_of(dir->handle, dir->path, identity, pool, message);
}

apr_status_t spx_file_identity(spx_file_t *file, spx_identity_t *identity, apr_pool_t *pool,
                               const char **message)
{
    return identity_of(file->handle, file->path, identity, pool, message);
}

apr_status_t spx_file_read_at(spx_file_t *file, uint64_t offset, void *buffer, apr_size_t capacity,
                              apr_size_t *got, apr_pool_t *pool, const char **message)
{
    if (file->handle == SPX_NATIVE_CLOSED)
        return spx_files_not_held(file->path, pool, message);
    return spx_native_read_at(file->handle, offset, buffer, capacity, got, file->path, pool,
                              message);
}

apr_status_t spx_dir_lookup(spx_dir_t *dir, const char *name, spx_name_state_t *state,
                            spx_identity_t *identity, apr_pool_t *pool, const char **message)
{
    const char *path;
    apr_status_t status = check_held_name(dir, name, &path, pool, message);
    if (status != APR_SUCCESS)
        return status;
    return spx_native_lookup(dir, name, path, state, identity, pool, message);
}

/* --- replacing a held file ------------------------------------------------ */

/* The pool cleanup of a temp file: deleted unless it was placed, then
 * closed. */
static apr_status_t discard_temp(void *data)
{
    spx_temp_t *temp = data;
    if (!temp->placed) {
        spx_native_temp_remove(temp, temp->pool, NULL);
        temp->placed = 1; /* gone either way: never try twice */
    }
    spx_native_close(&temp->handle);
    return APR_SUCCESS;
}

apr_status_t spx_temp_create(spx_temp_t **out, spx_dir_t *dir, const char *name, spx_file_t *like,
                             unsigned attempts, apr_pool_t *pool, const char **message)
{
    const char *path;
    apr_status_t status = check_held_name(dir, name, &path, pool, message);
    if (status != APR_SUCCESS)
        return status;
    if (attempts == 0)
        return spx_files_cannot(APR_EEXIST, APR_EEXIST, message, pool, "create a temporary file",
                                path);
    spx_temp_t *temp = apr_pcalloc(pool, sizeof(*temp));
    temp->handle = SPX_NATIVE_CLOSED;
    temp->dir = dir;
    temp->pool = pool;
    status = APR_EEXIST;
    for (unsigned attempt = 0; attempt < attempts && APR_STATUS_IS_EEXIST(status); attempt++) {
        unsigned char random[6];
        status = apr_generate_random_bytes(random, sizeof(random));
        if (status != APR_SUCCESS)
            return spx_files_say(status, message, pool, "cannot make a temporary name for '%s'%s",
                                 path, "");
        temp->name = apr_psprintf(pool, ".%s.%02x%02x%02x%02x%02x%02x.spx-tmp", name, random[0],
                                  random[1], random[2], random[3], random[4], random[5]);
        temp->path = child_path(dir, temp->name, pool);
        status = spx_native_temp_create(temp, like, pool, message);
    }
    if (status != APR_SUCCESS)
        return status;
    apr_pool_cleanup_register(pool, temp, discard_temp, apr_pool_cleanup_null);
    *out = temp;
    return APR_SUCCESS;
}

const char *spx_temp_path(const spx_temp_t *temp)
{
    return temp->path;
}

apr_status_t spx_temp_write(spx_temp_t *temp, const void *bytes, apr_size_t length,
                            apr_pool_t *pool, const char **message)
{
    const char *at = bytes;
    while (length > 0) {
        if (temp->handle == SPX_NATIVE_CLOSED)
            return spx_files_say(APR_EBADF, message, pool, "'%s' is %s", temp->path, "closed");
        apr_size_t written = 0;
        apr_status_t status =
            spx_native_write(temp->handle, at, length, &written, temp->path, pool, message);
        if (status != APR_SUCCESS)
            return status;
        at += written;
        length -= written;
    }
    return APR_SUCCESS;
}

apr_status_t spx_temp_flush(spx_temp_t *temp, apr_pool_t *pool, const char **message)
{
    if (temp->handle == SPX_NATIVE_CLOSED)
        return spx_files_say(APR_EBADF, message, pool, "'%s' is %s", temp->path, "closed");
    return spx_native_flush(temp->handle, temp->path, pool, message);
}

apr_status_t spx_temp_replace(spx_temp_t *temp, const char *name, spx_replace_retry_t retry,
                              apr_pool_t *pool, const char **message)
{
    const char *path;
    apr_status_t status = check_name(temp->dir, name, &path, pool, message);
    if (status != APR_SUCCESS)
        return status;
    if (temp->placed)
        return spx_files_say(APR_EBADF, message, pool, "'%s' is %s", temp->path, "no longer there");
    status = spx_native_temp_replace(temp, name, path, retry, pool, message);
    if (status != APR_SUCCESS)
        return status;
    temp->placed = 1;
    apr_pool_cleanup_kill(temp->pool, temp, discard_temp);
    spx_native_close(&temp->handle); /* it now has the original's name */
    return APR_SUCCESS;
}

/* Whether the file called name in dir holds exactly swap->expected, in
 * *same: other bytes, more of them, none (missing), or something that is not
 * a regular file are all "no". A status other than APR_SUCCESS when it could
 * not be read at all. */
static apr_status_t holds_expected(spx_dir_t *dir, const char *name, const spx_swap_t *swap,
                                   int *same, apr_pool_t *pool, const char **message)
{
    unsigned char *bytes = NULL;
    apr_size_t length = 0;
    apr_status_t status =
        spx_file_read_named(dir, name, swap->expected_length, &bytes, &length, pool, message);
    *same = 0;
    if (status == APR_SUCCESS)
        *same = length == swap->expected_length &&
                (length == 0 || memcmp(bytes, swap->expected, length) == 0);
    else if (status == SPX_STATUS_TOO_LARGE || status == SPX_STATUS_CHANGED ||
             status == SPX_STATUS_LINK || status == SPX_STATUS_NOT_REGULAR ||
             APR_STATUS_IS_ENOENT(status))
        status = APR_SUCCESS;
    return status;
}

static apr_status_t changed_meanwhile(const char *path, apr_pool_t *pool, const char **message)
{
    return spx_files_say(SPX_STATUS_CHANGED, message, pool, "'%s' changed since it was read; %s",
                         path,
                         "the other program's bytes were kept and the new ones were not written");
}

/* The temp file, which now holds the bytes the file called name held, is
 * deleted: the swap is done. */
static void drop_swapped_out(spx_temp_t *temp, apr_pool_t *pool)
{
    if (spx_native_temp_remove(temp, pool, NULL) == APR_SUCCESS) {
        temp->placed = 1;
        apr_pool_cleanup_kill(temp->pool, temp, discard_temp);
    }
}

apr_status_t spx_temp_swap_in(spx_temp_t *temp, const char *name, spx_swap_t *swap,
                              apr_pool_t *pool, const char **message)
{
    const char *path;
    apr_status_t status = check_held_name(temp->dir, name, &path, pool, message);
    if (status != APR_SUCCESS)
        return status;
    if (temp->placed)
        return spx_files_say(APR_EBADF, message, pool, "'%s' is %s", temp->path, "no longer there");
    swap->exchanged = 0;
    status = swap->without_exchange
                 ? APR_ENOTIMPL
                 : spx_native_temp_exchange(temp, name, path, swap->retry, pool, message);
    int same = 0;
    if (APR_STATUS_IS_ENOENT(status))
        return changed_meanwhile(path, pool, message); /* deleted (or renamed away) */
    if (status == APR_ENOTIMPL) {
        /* No exchange here: compare, then replace (the window between the
         * two stays: spx_platform.h). */
        status = holds_expected(temp->dir, name, swap, &same, pool, message);
        if (status != APR_SUCCESS)
            return status;
        if (!same)
            return changed_meanwhile(path, pool, message);
        return spx_temp_replace(temp, name, swap->retry, pool, message);
    }
    if (status != APR_SUCCESS)
        return status;
    swap->exchanged = 1;
    /* temp->name now names the bytes that were swapped out. */
    const char *why = NULL;
    status = holds_expected(temp->dir, temp->name, swap, &same, pool, &why);
    if (status == APR_SUCCESS && same) {
        drop_swapped_out(temp, pool);
        return APR_SUCCESS;
    }
    /* Another program's bytes (or bytes that cannot be read back): the
     * file gets them again. */
    const char *back_why = NULL;
    apr_status_t back = spx_native_temp_exchange(temp, name, path, swap->retry, pool, &back_why);
    if (back != APR_SUCCESS) {
        /* Never delete what may be the other program's save. */
        temp->placed = 1;
        apr_pool_cleanup_kill(temp->pool, temp, discard_temp);
        if (message)
            *message = apr_psprintf(pool,
                                    "'%s' changed since it was read, and its new bytes could not "
                                    "be exchanged back (%s): the bytes it held are in '%s'",
                                    path, back_why ? back_why : "failed", temp->path);
        return back;
    }
    if (status != APR_SUCCESS) {
        if (message)
            *message = apr_psprintf(pool, "cannot compare what '%s' held (%s); it was put back",
                                    path, why ? why : "failed");
        return status;
    }
    return changed_meanwhile(path, pool, message);
}

apr_status_t spx_temp_discard(spx_temp_t *temp, apr_pool_t *pool, const char **message)
{
    if (temp->placed) {
        spx_native_close(&temp->handle);
        return APR_SUCCESS;
    }
    apr_status_t status = spx_native_temp_remove(temp, pool, message);
    if (status != APR_SUCCESS)
        return status;
    temp->placed = 1;
    apr_pool_cleanup_kill(temp->pool, temp, discard_temp);
    return APR_SUCCESS;
}

void spx_release_for_replace(spx_dir_t *dir, spx_file_t *file)
{
    (void)dir; /* a held directory never stands in the way (spx_platform.h) */
    if (file && spx_replace_needs_release())
        spx_file_close(file);
}
