/*
 * status.c: statuses of our own by name and message: looking a status up in
 * a table of them (the platform's, SPX_PLATFORM_STATUSES of spx_platform.h,
 * and the engine's), and saying what one means.
 */
#include "spx_platform.h"

#include <apr_strings.h>

static const spx_status_info_t platform_statuses[] = {SPX_PLATFORM_STATUSES(SPX_STATUS_INFO_ROW)};

const spx_status_info_t *spx_status_find(const spx_status_info_t *table, apr_size_t count,
                                         apr_status_t status)
{
    for (apr_size_t i = 0; i < count; i++)
        if (table[i].status == status)
            return &table[i];
    return NULL;
}

char *spx_status_describe(const spx_status_info_t *info, apr_status_t status, char *buffer,
                          apr_size_t size)
{
    if (!info)
        return apr_strerror(status, buffer, size);
    apr_cpystrn(buffer, info->message, size);
    return buffer;
}

const spx_status_info_t *spx_platform_status_info(apr_status_t status)
{
    return spx_status_find(platform_statuses,
                           sizeof(platform_statuses) / sizeof(platform_statuses[0]), status);
}

char *spx_platform_strerror(apr_status_t status, char *buffer, apr_size_t size)
{
    return spx_status_describe(spx_platform_status_info(status), status, buffer, size);
}
