/*
 * spx_status.h: the engine's own apr_status_t values, after the platform's,
 * and spx_strerror, which knows both.
 *
 * X(NAME, offset, message) gives SPX_STATUS_NAME = SPX_STATUS_ENGINE_BASE +
 * offset (see SPX_PLATFORM_STATUSES in spx_platform.h).
 */
#ifndef SPX_STATUS_H
#define SPX_STATUS_H

#include "spx_platform.h"

#define SPX_ENGINE_STATUSES(X)                                                                     \
    X(BAD_PATH, 1, "a path that breaks a path rule")                                               \
    X(DUPLICATE, 2, "one file system object under two paths")                                      \
    X(OVER_LIMIT, 3, "over a count or size limit")                                                 \
    X(INTERRUPTED, 4, "stopped by its caller between steps (a deadline or a cancellation)")

#define SPX_ENGINE_STATUS_(name, offset, message)                                                  \
    SPX_STATUS_##name = SPX_STATUS_ENGINE_BASE + (offset),
enum { SPX_ENGINE_STATUSES(SPX_ENGINE_STATUS_) };
#undef SPX_ENGINE_STATUS_

/* The row of an engine or platform status; NULL for any other status. */
const spx_status_info_t *spx_status_info(apr_status_t status);

/* What status means, in buffer (size bytes, at least 1), which it returns:
 * the table's message for an engine or platform status, apr_strerror's text
 * for any other. Use it, not apr_strerror, wherever one of ours may come. */
char *spx_strerror(apr_status_t status, char *buffer, apr_size_t size);

#endif /* SPX_STATUS_H */
