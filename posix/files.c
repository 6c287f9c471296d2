/*
 * files.c: the POSIX half of the held-object interface (spx_files.h says
 * what platform/files.c does for both systems).
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
 * the directory flushed; or, for spx_temp_swap_in, exchanged with the
 * original in one step: renameat2(RENAME_EXCHANGE) on Linux (through
 * syscall(), since older C libraries have no wrapper), renameatx_np
 * (RENAME_SWAP) on macOS, both relative to the held directory.
 */
#define _POSIX_C_SOURCE 200809L
/* macOS hides O_DIRECTORY, O_NOFOLLOW and F_FULLFSYNC under a strict
 * _POSIX_C_SOURCE; other systems ignore this. */
#define _DARWIN_C_SOURCE
/* glibc and musl declare syscall() (for renameat2) only with this. */
#define _DEFAULT_SOURCE

#include "spx_files.h"

#include <apr_strings.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h> /* renameat */
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__linux__)
#include <sys/syscall.h>
#endif

static apr_status_t say_errno(int error, const char **message, apr_pool_t *pool, const char *what,
                              const char *path)
{
    return spx_files_cannot(APR_FROM_OS_ERROR(error), APR_FROM_OS_ERROR(error), message, pool, what,
                            path);
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

apr_status_t spx_native_close(void *data)
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
            return spx_files_say(SPX_STATUS_LINK, message, pool, "'%s' is a symbolic link; %s",
                                 path, "links are not followed inside a project");
        if (error == ENOTDIR || error == ELOOP || error == ENXIO)
            return spx_files_say(SPX_STATUS_NOT_REGULAR, message, pool, "'%s' is not %s", path,
                                 expected);
    }
    return say_errno(error, message, pool, "open", path);
}

apr_status_t spx_native_open_root(spx_dir_t *dir, const char *path, apr_pool_t *pool,
                                  const char **message)
{
    dir->handle = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK);
    if (dir->handle < 0)
        return errno == ENOTDIR ? SPX_STATUS_NOT_REGULAR
                                : say_errno(errno, message, pool, "open the project root", path);
    return APR_SUCCESS;
}

apr_status_t spx_native_open(spx_native_t *handle, spx_native_path_t *native_path,
                             const spx_dir_t *parent, const char *name, const char *path,
                             spx_object_kind_t kind, apr_pool_t *pool, const char **message)
{
    (void)native_path;
    int directory = kind == SPX_OBJECT_DIR;
    const char *expected = directory ? "a directory" : "a regular file";
    /* O_NONBLOCK: opening a fifo must not wait for a writer. */
    int fd = openat(parent->handle, name,
                    O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK |
                        (directory ? O_DIRECTORY : O_NOCTTY));
    if (fd < 0)
        return explain_open_failure(errno, parent->handle, name, path, expected, pool, message);
    if (directory) {
        *handle = fd;
        return APR_SUCCESS;
    }
    struct stat info;
    if (fstat(fd, &info) != 0) {
        int error = errno;
        close(fd);
        return say_errno(error, message, pool, "inspect", path);
    }
    if (!S_ISREG(info.st_mode)) {
        close(fd);
        return spx_files_say(SPX_STATUS_NOT_REGULAR, message, pool, "'%s' is not %s", path,
                             expected);
    }
    *handle = fd;
    return APR_SUCCESS;
}

apr_status_t spx_native_identity(spx_native_t handle, const char *path, spx_identity_t *identity,
                                 apr_pool_t *pool, const char **message)
{
    struct stat info;
    if (fstat(handle, &info) != 0)
        return say_errno(errno, message, pool, "inspect", path);
    identity_from_stat(&info, identity);
    return APR_SUCCESS;
}

apr_status_t spx_native_read_at(spx_native_t handle, uint64_t offset, void *buffer,
                                apr_size_t capacity, apr_size_t *got, const char *path,
                                apr_pool_t *pool, const char **message)
{
    for (;;) {
        ssize_t count = pread(handle, buffer, capacity, (off_t)offset);
        if (count >= 0) {
            *got = (apr_size_t)count;
            return APR_SUCCESS;
        }
        if (errno != EINTR)
            return say_errno(errno, message, pool, "read", path);
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

apr_status_t spx_native_lookup(const spx_dir_t *dir, const char *name, const char *path,
                               spx_name_state_t *state, spx_identity_t *identity, apr_pool_t *pool,
                               const char **message)
{
    struct stat info;
    int result = fstatat(dir->handle, name, &info, AT_SYMLINK_NOFOLLOW);
    return state_from_stat(result, errno, &info, state, identity, path, pool, message);
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

apr_status_t spx_native_temp_create(spx_temp_t *temp, const spx_file_t *like, apr_pool_t *pool,
                                    const char **message)
{
    mode_t mode = 0644;
    struct stat info;
    if (like && like->handle >= 0 && fstat(like->handle, &info) == 0)
        mode = info.st_mode & 07777;
    int fd = openat(temp->dir->handle, temp->name,
                    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
    if (fd < 0)
        return say_errno(errno, message, pool, "create a temporary file", temp->path);
    temp->handle = fd;
    /* The umask may have taken bits away: give the original's back. */
    if (fchmod(fd, mode) != 0) {
        int error = errno;
        spx_native_temp_remove(temp, pool, NULL);
        return say_errno(error, message, pool, "set the permissions of", temp->path);
    }
    return APR_SUCCESS;
}

apr_status_t spx_native_write(spx_native_t handle, const void *bytes, apr_size_t length,
                              apr_size_t *written, const char *path, apr_pool_t *pool,
                              const char **message)
{
    for (;;) {
        ssize_t count = write(handle, bytes, length);
        if (count >= 0) {
            *written = (apr_size_t)count;
            return APR_SUCCESS;
        }
        if (errno != EINTR)
            return say_errno(errno, message, pool, "write", path);
    }
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

apr_status_t spx_native_flush(spx_native_t handle, const char *path, apr_pool_t *pool,
                              const char **message)
{
    if (sync_to_disk(handle) != 0)
        return say_errno(errno, message, pool, "flush", path);
    return APR_SUCCESS;
}

apr_status_t spx_native_temp_replace(spx_temp_t *temp, const char *name, const char *path,
                                     spx_replace_retry_t retry, apr_pool_t *pool,
                                     const char **message)
{
    (void)retry; /* rename(2) does not fail while another program reads the file */
    if (temp->dir->handle < 0)
        return spx_files_say(APR_EBADF, message, pool, "'%s' is %s", temp->path, "no longer there");
    if (temp->handle >= 0 && close(temp->handle) != 0) {
        int error = errno;
        temp->handle = -1;
        return say_errno(error, message, pool, "close", temp->path);
    }
    temp->handle = -1;
    if (renameat(temp->dir->handle, temp->name, temp->dir->handle, name) != 0)
        return say_errno(errno, message, pool, "replace", path);
    return APR_SUCCESS;
}

/* Exchange the names first and second in the directory dir_fd atomically:
 * 0, or -1 and errno (ENOSYS where the system has no such call). */
static int exchange_names(int dir_fd, const char *first, const char *second)
{
#if defined(__linux__) && defined(SYS_renameat2)
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1) /* linux/fs.h, since Linux 3.15 */
#endif
    return (int)syscall(SYS_renameat2, dir_fd, first, dir_fd, second, RENAME_EXCHANGE);
#elif defined(__APPLE__)
    return renameatx_np(dir_fd, first, dir_fd, second, RENAME_SWAP);
#else
    (void)dir_fd;
    (void)first;
    (void)second;
    errno = ENOSYS;
    return -1;
#endif
}

apr_status_t spx_native_temp_exchange(spx_temp_t *temp, const char *name, const char *path,
                                      spx_replace_retry_t retry, apr_pool_t *pool,
                                      const char **message)
{
    (void)retry; /* as for the replace */
    if (temp->dir->handle < 0)
        return spx_files_say(APR_EBADF, message, pool, "'%s' is %s", temp->path, "no longer there");
    if (exchange_names(temp->dir->handle, temp->name, name) != 0) {
        /* An old kernel (ENOSYS, or EINVAL for an unknown flag) or a file
         * system that cannot exchange (EINVAL, ENOTSUP, EOPNOTSUPP; EXDEV
         * from some overlay file systems): the caller falls back; nothing
         * changed. */
        if (errno == ENOSYS || errno == EINVAL || errno == ENOTSUP || errno == EOPNOTSUPP ||
            errno == EXDEV)
            return APR_ENOTIMPL;
        return say_errno(errno, message, pool, "exchange", path);
    }
    /* The temp file's descriptor is no longer needed: it is read and
     * removed by name from now on. */
    spx_native_close(&temp->handle);
    return APR_SUCCESS;
}

apr_status_t spx_dir_flush(spx_dir_t *dir, apr_pool_t *pool, const char **message)
{
    if (dir->handle < 0)
        return spx_files_not_held(dir->path, pool, message);
    /* File systems that cannot flush a directory say EINVAL, and have
     * nothing more to flush. */
    if (sync_to_disk(dir->handle) != 0 && errno != EINVAL && errno != ENOTSUP)
        return say_errno(errno, message, pool, "flush the directory", dir->path);
    return APR_SUCCESS;
}

apr_status_t spx_native_temp_remove(spx_temp_t *temp, apr_pool_t *pool, const char **message)
{
    spx_native_close(&temp->handle);
    if (temp->dir->handle < 0)
        return spx_files_not_held(temp->dir->path, pool, message);
    if (unlinkat(temp->dir->handle, temp->name, 0) != 0 && errno != ENOENT)
        return say_errno(errno, message, pool, "remove", temp->path);
    return APR_SUCCESS;
}

int spx_replace_needs_release(void)
{
    return 0;
}
