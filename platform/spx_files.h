/*
 * spx_files.h: inside the platform layer only (never included above it): how
 * the held-object interface of spx_platform.h is split between the code that
 * is the same on every system (platform/files.c) and the code that talks to
 * the system (posix/files.c or win32/files.c, the "native" half).
 *
 * platform/files.c owns the held structures below, their display paths, the
 * one-component check of every name a caller passes, the pool cleanups, the
 * "no longer held" refusals and the rename transaction's temporary names; it
 * calls the spx_native_* functions for everything else. The types of a native
 * handle come from spx_native.h, which the build takes from posix/ or win32/
 * as it takes their .c files.
 */
#ifndef SPX_FILES_H
#define SPX_FILES_H

#include "spx_native.h"
#include "spx_platform.h"

/* spx_native.h defines:
 *   spx_native_t             an open handle (a descriptor, a HANDLE)
 *   SPX_NATIVE_CLOSED        the value of a closed one
 *   spx_native_path_t        a path in the system's own form, where the
 *                            native half keeps one (Windows); else unused
 *   SPX_NATIVE_SEPARATORS    the characters a single path component must
 *                            not contain */

struct spx_dir_t {
    spx_native_t handle;           /* SPX_NATIVE_CLOSED once closed */
    spx_native_path_t native_path; /* set by the native half, for its own use */
    const char *path;              /* display path */
    const char *child_prefix;      /* "" for the root, "path/" below it */
};

struct spx_file_t {
    spx_native_t handle; /* SPX_NATIVE_CLOSED once closed */
    const char *path;    /* display path */
};

struct spx_temp_t {
    spx_native_t handle;           /* SPX_NATIVE_CLOSED once closed */
    spx_native_path_t native_path; /* set by the native half, for its own use */
    spx_dir_t *dir;                /* the held directory it is in */
    const char *name;              /* its name in dir */
    const char *path;              /* display path */
    int placed;                    /* it replaced its file, or was deleted */
    apr_pool_t *pool;              /* whose cleanup deletes it */
};

/* --- messages (platform/files.c), for both halves -------------------------- */

/* status, with *message (when message is not NULL) the format, which takes
 * two strings, filled with path and detail. */
apr_status_t spx_files_say(apr_status_t status, const char **message, apr_pool_t *pool,
                           const char *format, const char *path, const char *detail);

/* status, with *message "cannot WHAT 'PATH': " and what the system says
 * about cause (apr_strerror). */
apr_status_t spx_files_cannot(apr_status_t status, apr_status_t cause, const char **message,
                              apr_pool_t *pool, const char *what, const char *path);

/* APR_EBADF, "'PATH' is no longer held". */
apr_status_t spx_files_not_held(const char *path, apr_pool_t *pool, const char **message);

/* --- the native half (posix/files.c or win32/files.c) ---------------------- */

/* Close the handle at data (a spx_native_t) unless it is closed, and mark it
 * closed; a pool cleanup. */
apr_status_t spx_native_close(void *data);

/* Open the project root by the host's path (following links) into
 * dir->handle (and dir->native_path). SPX_STATUS_NOT_REGULAR when it is not
 * a directory (the caller words that message). */
apr_status_t spx_native_open_root(spx_dir_t *dir, const char *path, apr_pool_t *pool,
                                  const char **message);

/* Open the object called name (already checked to be one component) in
 * parent, without following a link, and check it is of the kind wanted
 * (SPX_OBJECT_DIR or SPX_OBJECT_FILE); path is its display path. Sets
 * *native_path where the native half keeps one. */
apr_status_t spx_native_open(spx_native_t *handle, spx_native_path_t *native_path,
                             const spx_dir_t *parent, const char *name, const char *path,
                             spx_object_kind_t kind, apr_pool_t *pool, const char **message);

/* The identity behind an open handle. */
apr_status_t spx_native_identity(spx_native_t handle, const char *path, spx_identity_t *identity,
                                 apr_pool_t *pool, const char **message);

/* Read up to capacity bytes at offset through an open handle; *got is 0 only
 * at end of file. */
apr_status_t spx_native_read_at(spx_native_t handle, uint64_t offset, void *buffer,
                                apr_size_t capacity, apr_size_t *got, const char *path,
                                apr_pool_t *pool, const char **message);

/* What the name (checked) in the held dir (open) is now; path is its
 * display path. */
apr_status_t spx_native_lookup(const spx_dir_t *dir, const char *name, const char *path,
                               spx_name_state_t *state, spx_identity_t *identity, apr_pool_t *pool,
                               const char **message);

/* Create temp->name in temp->dir (held) exclusively, open for writing, into
 * temp->handle (and temp->native_path); like as spx_temp_create says. A
 * status for which APR_STATUS_IS_EEXIST holds when the name exists. */
apr_status_t spx_native_temp_create(spx_temp_t *temp, const spx_file_t *like, apr_pool_t *pool,
                                    const char **message);

/* Write some of length bytes (at least one) through an open handle:
 * *written of them. */
apr_status_t spx_native_write(spx_native_t handle, const void *bytes, apr_size_t length,
                              apr_size_t *written, const char *path, apr_pool_t *pool,
                              const char **message);

/* Push what was written through an open handle to the storage device. */
apr_status_t spx_native_flush(spx_native_t handle, const char *path, apr_pool_t *pool,
                              const char **message);

/* Put the temp file (not placed) in the place of name (checked; path is its
 * display path) in its directory, as spx_temp_replace says. */
apr_status_t spx_native_temp_replace(spx_temp_t *temp, const char *name, const char *path,
                                     spx_replace_retry_t retry, apr_pool_t *pool,
                                     const char **message);

/* Exchange the names of the temp file (not placed; its handle may be
 * closed first) and of name (checked; path is its display path) in their
 * directory, atomically, as spx_temp_swap_in says: afterwards temp->name
 * names what name named. APR_ENOTIMPL, with nothing changed, where the
 * system or the file system cannot exchange two names. */
apr_status_t spx_native_temp_exchange(spx_temp_t *temp, const char *name, const char *path,
                                      spx_replace_retry_t retry, apr_pool_t *pool,
                                      const char **message);

/* Close the temp file (not placed) and delete it; deleting one that is
 * already gone is not an error. */
apr_status_t spx_native_temp_remove(spx_temp_t *temp, apr_pool_t *pool, const char **message);

#endif /* SPX_FILES_H */
