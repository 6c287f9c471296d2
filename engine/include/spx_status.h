/*
 * spx_status.h: the engine's own apr_status_t values, after the platform's.
 */
#ifndef SPX_STATUS_H
#define SPX_STATUS_H

#include "spx_platform.h"

#define SPX_STATUS_BAD_PATH (SPX_STATUS_ENGINE_BASE + 1)   /* breaks a source-path rule */
#define SPX_STATUS_DUPLICATE (SPX_STATUS_ENGINE_BASE + 2)  /* one object under two paths */
#define SPX_STATUS_OVER_LIMIT (SPX_STATUS_ENGINE_BASE + 3) /* a count or size limit */

#endif /* SPX_STATUS_H */
