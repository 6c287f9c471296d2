/*
 * status.c: the engine's statuses (SPX_ENGINE_STATUSES of spx_status.h) by
 * name and message, in front of the platform's.
 */
#include "spx_status.h"

static const spx_status_info_t engine_statuses[] = {SPX_ENGINE_STATUSES(SPX_STATUS_INFO_ROW)};

const spx_status_info_t *spx_status_info(apr_status_t status)
{
    const spx_status_info_t *info = spx_status_find(
        engine_statuses, sizeof(engine_statuses) / sizeof(engine_statuses[0]), status);
    return info ? info : spx_platform_status_info(status);
}

char *spx_strerror(apr_status_t status, char *buffer, apr_size_t size)
{
    return spx_status_describe(spx_status_info(status), status, buffer, size);
}
