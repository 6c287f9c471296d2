/*
 * files.c: the POSIX implementation of the held-object interface.
 *
 * Directories below the root and files are opened with openat() relative to
 * a held directory descriptor and O_NOFOLLOW, one component at a time, so a
 * link is refused wherever it stands. Identities come from fstat() on the
 * held descriptor; "what is there now" from fstatat(AT_SYMLINK_NOFOLLOW).
 * Other programs may still write, rename and delete: callers detect it by
 * comparing identities and digests. errno values become apr_status_t here and
 * nowhere else.
 *
 * The rename transaction's writes are here too: a sibling temporary file
 * created with O_CREAT | O_EXCL relative to the held directory, written,
 * flushed to the disk (sync_to_disk), then renameat() over the original and
 * the directory flushed.
 */
#define _POSIX_C_SOURCE 200809L
/* macOS hides O_DIRECTORY, O_NOFOLLOW and F_FULLFSYNC under a strict
 * _POSIX_C_SOURCE; other systems ignore this. */
#define _DARWIN_C_SOURCE

#include "spx_platform.h"

#include <apr_general.h>
#include <apr_strings.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h> /* renameat */
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

struct spx_dir_t {
    int fd;
    const char *path;         /* display path */
    const char *child_prefix; /* "" for the root, "path/" below it */
};

struct spx_file_t {
    int fd;
    const char *path;
};

static apr_status_t say(apr_status_t status, const char **message, apr_pool_t *pool,
                        const char *format, const char *path, const char *detail)
{
    if (message)
        *message = apr_psprintf(pool, format, path, detail);
    return status;
}

static apr_status_t say_errno(int error, const char **message, apr_pool_t *pool, const char *what,
                              const char *path)
{
    char text[256];
    apr_strerror(APR_FROM_OS_ERROR(error), text, sizeof(text));
    if (message)
        *message = apr_psprintf(pool, "cannot %s '%s': %s", what, path, text);
    return APR_FROM_OS_ERROR(error);
}

static void identity_from_stat(const struct stat *info, spx_identity_t *identity)
{
    identity->volume = (uint64_t)info->st_dev;
    identity->object = (uint64_t)info->st_ino;
    identity->object_high = 0;
    identity->kind = S_ISREG(info->st_mode)   ? SPX_OBJECT_FILE
                     : S_ISDIR(info->st_mode) ? SPX_OBJECT_DIR
                                              : SPX_OBJECT_OTHER;
    identity->size = identity->kind == SPX_OBJECT_FILE ? (uint64_t)info->st_size : 0;
    identity->links = (uint64_t)info->st_nlink;
}

/* A name must be exactly one component: not empty, not "." or "..", no '/'. */
static int is_single_component(const char *name)
{
    return name[0] != '\0' && strcmp(name, ".") != 0 && strcmp(name, "..") != 0 &&
           strchr(name, '/') == NULL;
}

static apr_status_t close_descriptor(void *data)
{
    int *fd = data;
    if (*fd >= 0) {
        close(*fd);
        *fd = -1;
    }
    return APR_SUCCESS;
}

/* Why openat() of name in parent failed, in the caller's words. */
static apr_status_t explain_open_failure(int error, int parent_fd, const char *name,
                                         const char *path, const char *expected, apr_pool_t *pool,
                                         const char **message)
{
    struct stat info;
    if (fstatat(parent_fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0) {
        if (S_ISLNK(info.st_mode))
            return say(SPX_STATUS_LINK, message, pool, "'%s' is a symbolic link; %s", path,
                       "links are not followed inside a project");
        if (error == ENOTDIR || error == ELOOP || error == ENXIO)
            return say(SPX_STATUS_NOT_REGULAR, message, pool, "'%s' is not %s", path, expected);
    }
    return say_errno(error, message, pool, "open", path);
}

static const char *child_path(const spx_dir_t *parent, const char *name, apr_pool_t *pool)
{
    return apr_pstrcat(pool, parent->child_prefix, name, NULL);
}

apr_status_t spx_dir_open_root(spx_dir_t **dir, const char *path, apr_pool_t *pool,
                               const char **message)
{
    int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        if (errno == ENOTDIR)
            return say(SPX_STATUS_NOT_REGULAR, message, pool, "project root '%s' is not %s", path,
                       "a directory");
        return say_errno(errno, message, pool, "open the project root", path);
    }
    spx_dir_t *held = apr_palloc(pool, sizeof(*held));
    held->fd = fd;
    held->path = apr_pstrdup(pool, path);
    held->child_prefix = "";
    apr_pool_cleanup_register(pool, &held->fd, close_descriptor, apr_pool_cleanup_null);
    *dir = held;
    return APR_SUCCESS;
}

apr_status_t spx_dir_open_child(spx_dir_t **dir, spx_dir_t *parent, const char *name,
                                apr_pool_t *pool, const char **message)
{
    const char *path = child_path(parent, name, pool);
    if (!is_single_component(name))
        return say(SPX_STATUS_BAD_NAME, message, pool, "'%s' is not %s", path,
                   "a single path component");
    int fd = openat(parent->fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return explain_open_failure(errno, parent->fd, name, path, "a directory", pool, message);
    spx_dir_t *held = apr_palloc(pool, sizeof(*held));
    held->fd = fd;
    held->path = path;
    held->child_prefix = apr_pstrcat(pool, path, "/", NULL);
    apr_pool_cleanup_register(pool, &held->fd, close_descriptor, apr_pool_cleanup_null);
    *dir = held;
    return APR_SUCCESS;
}

apr_status_t spx_file_open(spx_file_t **file, spx_dir_t *parent, const char *name, apr_pool_t *pool,
                           const char **message)
{
    const char *path = child_path(parent, name, pool);
    if (!is_single_component(name))
        return say(SPX_STATUS_BAD_NAME, message, pool, "'%s' is not %s", path,
                   "a single path component");
    /* O_NONBLOCK: opening a fifo must not wait for a writer. */
    int fd = openat(parent->fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
    if (fd < 0)
        return explain_open_failure(errno, parent->fd, name, path, "a regular file", pool, message);
    struct stat info;
    if (fstat(fd, &info) != 0) {
        int error = errno;
        close(fd);
        return say_errno(error, message, pool, "inspect", path);
    }
    if (!S_ISREG(info.st_mode)) {
        close(fd);
        return say(SPX_STATUS_NOT_REGULAR, message, pool, "'%s' is not %s", path, "a regular file");
    }
    spx_file_t *held = apr_palloc(pool, sizeof(*held));
    held->fd = fd;
    held->path = path;
    apr_pool_cleanup_register(pool, &held->fd, close_descriptor, apr_pool_cleanup_null);
    *file = held;
    return APR_SUCCESS;
}

void spx_dir_close(spx_dir_t *dir)
{
    close_descriptor(&dir->fd);
}

void spx_file_close(spx_file_t *file)
{
    close_descriptor(&file->fd);
}

const char *spx_dir_path(const spx_dir_t *dir)
{
    return dir->path;
}

const char *spx_file_path(const spx_file_t *file)
{
    return file->path;
}

static apr_status_t identity_of_descriptor(int fd, const char *path, spx_identity_t *identity,
                                           apr_pool_t *pool, const char **message)
{
    struct stat info;
    if (fd < 0)
        return say(APR_EBADF, message, pool, "'%s' is %s", path, "no longer held");
    if (fstat(fd, &info) != 0)
        return say_errno(errno, message, pool, "inspect", path);
    identity_from_stat(&info, identity);
    return APR_SUCCESS;
}

apr_status_t spx_dir_identity(spx_dir_t *dir, spx_identity_t *identity, apr_pool_t *pool,
                              const char **message)
{
    return identity_of_descriptor(dir->fd, dir->path, identity, pool, message);
}

apr_status_t spx_file_identity(spx_file_t *file, spx_identity_t *identity, apr_pool_t *pool,
                               const char **message)
{
    return identity_of_descriptor(file->fd, file->path, identity, pool, message);
}

apr_status_t spx_file_read_at(spx_file_t *file, uint64_t offset, void *buffer, apr_size_t capacity,
                              apr_size_t *got, apr_pool_t *pool, const char **message)
{
    if (file->fd < 0)
        return say(APR_EBADF, message, pool, "'%s' is %s", file->path, "no longer held");
    for (;;) {
        ssize_t count = pread(file->fd, buffer, capacity, (off_t)offset);
        if (count >= 0) {
            *got = (apr_size_t)count;
            return APR_SUCCESS;
        }
        if (errno != EINTR)
            return say_errno(errno, message, pool, "read", file->path);
    }
}

static apr_status_t state_from_stat(int result, int error, const struct stat *info,
                                    spx_name_state_t *state, spx_identity_t *identity,
                                    const char *path, apr_pool_t *pool, const char **message)
{
    if (result != 0) {
        if (error == ENOENT || error == ENOTDIR) {
            *state = SPX_NAME_MISSING;
            return APR_SUCCESS;
        }
        return say_errno(error, message, pool, "look up", path);
    }
    if (S_ISLNK(info->st_mode)) {
        *state = SPX_NAME_LINK;
        return APR_SUCCESS;
    }
    *state = SPX_NAME_PRESENT;
    identity_from_stat(info, identity);
    return APR_SUCCESS;
}

apr_status_t spx_dir_lookup(spx_dir_t *dir, const char *name, spx_name_state_t *state,
                            spx_identity_t *identity, apr_pool_t *pool, const char **message)
{
    struct stat info;
    if (!is_single_component(name))
        return say(SPX_STATUS_BAD_NAME, message, pool, "'%s' is not %s",
                   child_path(dir, name, pool), "a single path component");
    if (dir->fd < 0)
        return say(APR_EBADF, message, pool, "'%s' is %s", dir->path, "no longer held");
    int result = fstatat(dir->fd, name, &info, AT_SYMLINK_NOFOLLOW);
    return state_from_stat(result, errno, &info, state, identity, child_path(dir, name, pool), pool,
                           message);
}

apr_status_t spx_path_lookup(const char *path, spx_name_state_t *state, spx_identity_t *identity,
                             apr_pool_t *pool, const char **message)
{
    struct stat info;
    int result = stat(path, &info);
    return state_from_stat(result, errno, &info, state, identity, path, pool, message);
}

apr_status_t spx_handles_reserve(uint64_t wanted, apr_pool_t *pool, const char **message)
{
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0)
        return say_errno(errno, message, pool, "read", "the open-file limit");
    if (limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur < wanted) {
        struct rlimit raised = limit;
        raised.rlim_cur = limit.rlim_max;
        if (setrlimit(RLIMIT_NOFILE, &raised) != 0 && limit.rlim_max > wanted) {
            /* Some systems refuse the hard limit itself (macOS: OPEN_MAX). */
            raised.rlim_cur = (rlim_t)wanted;
            if (setrlimit(RLIMIT_NOFILE, &raised) != 0)
                raised.rlim_cur = limit.rlim_cur;
        }
        if (getrlimit(RLIMIT_NOFILE, &limit) != 0)
            return say_errno(errno, message, pool, "read", "the open-file limit");
    }
    if (limit.rlim_cur != RLIM_INFINITY && limit.rlim_cur < wanted) {
        if (message)
            *message = apr_psprintf(pool,
                                    "the open-file limit is %" APR_UINT64_T_FMT
                                    " but this project needs %" APR_UINT64_T_FMT
                                    " held handles; raise it (ulimit -n)",
                                    (apr_uint64_t)limit.rlim_cur, (apr_uint64_t)wanted);
        return SPX_STATUS_HANDLE_LIMIT;
    }
    return APR_SUCCESS;
}

/* --- replacing a held file ------------------------------------------------ */

struct spx_temp_t {
    int fd;           /* -1 once closed */
    spx_dir_t *dir;   /* where it is */
    const char *name; /* its name in dir */
    const char *path; /* display path */
    int placed;       /* it replaced its file, or was deleted: nothing to delete */
    apr_pool_t *pool; /* whose cleanup deletes it */
};

static apr_status_t discard_temp(void *data)
{
    spx_temp_t *temp = data;
    close_descriptor(&temp->fd);
    if (!temp->placed && temp->dir->fd >= 0) {
        unlinkat(temp->dir->fd, temp->name, 0);
        temp->placed = 1; /* gone either way: never try twice */
    }
    return APR_SUCCESS;
}

apr_status_t spx_temp_create(spx_temp_t **out, spx_dir_t *dir, const char *name, spx_file_t *like,
                             unsigned attempts, apr_pool_t *pool, const char **message)
{
    if (dir->fd < 0)
        return say(APR_EBADF, message, pool, "'%s' is %s", dir->path, "no longer held");
    mode_t mode = 0644;
    struct stat info;
    if (like && like->fd >= 0 && fstat(like->fd, &info) == 0)
        mode = info.st_mode & 07777;
    int error = EEXIST;
    const char *temp_name = NULL;
    for (unsigned attempt = 0; attempt < attempts && error == EEXIST; attempt++) {
        unsigned char random[6];
        apr_status_t status = apr_generate_random_bytes(random, sizeof(random));
        if (status != APR_SUCCESS)
            return say(status, message, pool, "cannot make a temporary name for '%s'%s",
                       child_path(dir, name, pool), "");
        temp_name = apr_psprintf(pool, ".%s.%02x%02x%02x%02x%02x%02x.spx-tmp", name, random[0],
                                 random[1], random[2], random[3], random[4], random[5]);
        int fd =
            openat(dir->fd, temp_name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
        if (fd >= 0) {
            spx_temp_t *temp = apr_pcalloc(pool, sizeof(*temp));
            temp->fd = fd;
            temp->dir = dir;
            temp->name = temp_name;
            temp->path = child_path(dir, temp_name, pool);
            temp->pool = pool;
            apr_pool_cleanup_register(pool, temp, discard_temp, apr_pool_cleanup_null);
            /* The umask may have taken bits away: give the original's back. */
            if (fchmod(fd, mode) != 0) {
                error = errno;
                apr_pool_cleanup_run(pool, temp, discard_temp);
                return say_errno(error, message, pool, "set the permissions of", temp->path);
            }
            *out = temp;
            return APR_SUCCESS;
        }
        error = errno;
    }
    return say_errno(error, message, pool, "create a temporary file",
                     temp_name ? child_path(dir, temp_name, pool) : child_path(dir, name, pool));
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
        if (temp->fd < 0)
            return say(APR_EBADF, message, pool, "'%s' is %s", temp->path, "closed");
        ssize_t count = write(temp->fd, at, length);
        if (count < 0) {
            if (errno == EINTR)
                continue;
            return say_errno(errno, message, pool, "write", temp->path);
        }
        at += count;
        length -= (apr_size_t)count;
    }
    return APR_SUCCESS;
}

/* Flushes what was written through fd to the disk; 0 or -1 and errno. On
 * macOS fsync() only hands the data to the drive, whose cache can still lose
 * it at a power cut; F_FULLFSYNC asks the drive to write it out. File systems
 * that cannot (some network and FUSE ones) refuse it: fsync() then. */
static int sync_to_disk(int fd)
{
#ifdef __APPLE__
    if (fcntl(fd, F_FULLFSYNC) == 0)
        return 0;
#endif
    return fsync(fd);
}

apr_status_t spx_temp_flush(spx_temp_t *temp, apr_pool_t *pool, const char **message)
{
    if (temp->fd < 0)
        return say(APR_EBADF, message, pool, "'%s' is %s", temp->path, "closed");
    if (sync_to_disk(temp->fd) != 0)
        return say_errno(errno, message, pool, "flush", temp->path);
    return APR_SUCCESS;
}

apr_status_t spx_temp_replace(spx_temp_t *temp, const char *name, spx_replace_retry_t retry,
                              apr_pool_t *pool, const char **message)
{
    (void)retry; /* rename(2) does not fail while another program reads the file */
    const char *path = child_path(temp->dir, name, pool);
    if (!is_single_component(name))
        return say(SPX_STATUS_BAD_NAME, message, pool, "'%s' is not %s", path,
                   "a single path component");
    if (temp->placed || temp->dir->fd < 0)
        return say(APR_EBADF, message, pool, "'%s' is %s", temp->path, "no longer there");
    if (temp->fd >= 0 && close(temp->fd) != 0) {
        int error = errno;
        temp->fd = -1;
        return say_errno(error, message, pool, "close", temp->path);
    }
    temp->fd = -1;
    if (renameat(temp->dir->fd, temp->name, temp->dir->fd, name) != 0)
        return say_errno(errno, message, pool, "replace", path);
    temp->placed = 1;
    apr_pool_cleanup_kill(temp->pool, temp, discard_temp);
    return APR_SUCCESS;
}

apr_status_t spx_dir_flush(spx_dir_t *dir, apr_pool_t *pool, const char **message)
{
    if (dir->fd < 0)
        return say(APR_EBADF, message, pool, "'%s' is %s", dir->path, "no longer held");
    /* File systems that cannot flush a directory say EINVAL, and have
     * nothing more to flush. */
    if (sync_to_disk(dir->fd) != 0 && errno != EINVAL && errno != ENOTSUP)
        return say_errno(errno, message, pool, "flush the directory", dir->path);
    return APR_SUCCESS;
}

apr_status_t spx_temp_discard(spx_temp_t *temp, apr_pool_t *pool, const char **message)
{
    close_descriptor(&temp->fd);
    if (temp->placed)
        return APR_SUCCESS;
    if (temp->dir->fd < 0)
        return say(APR_EBADF, message, pool, "'%s' is %s", temp->dir->path, "no longer held");
    if (unlinkat(temp->dir->fd, temp->name, 0) != 0 && errno != ENOENT)
        return say_errno(errno, message, pool, "remove", temp->path);
    temp->placed = 1;
    apr_pool_cleanup_kill(temp->pool, temp, discard_temp);
    return APR_SUCCESS;
}

void spx_release_for_replace(spx_dir_t *dir, spx_file_t *file)
{
    (void)dir;
    (void)file;
}

int spx_replace_needs_release(void)
{
    return 0;
}
