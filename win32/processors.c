/*
 * processors.c: the Windows processor count (spx_platform.h), across all
 * processor groups.
 */
#include "spx_platform.h"

#include <windows.h>

unsigned spx_processor_count(void)
{
    DWORD online = GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);
    return online < 1 ? 1u : online > 1024 ? 1024u : (unsigned)online;
}
