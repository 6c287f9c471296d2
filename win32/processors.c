/*
 * processors.c: the Windows processor count (spx_platform.h), across all
 * processor groups.
 */
/* GetActiveProcessorCount is Windows 7's: mingw-w64 declares it only when
 * the target is at least that. */
#if !defined(_WIN32_WINNT) || _WIN32_WINNT < 0x0601
#undef _WIN32_WINNT
#define _WIN32_WINNT 0x0601
#endif

#include "spx_platform.h"

#include <windows.h>

unsigned spx_processor_count(void)
{
    DWORD online = GetActiveProcessorCount(ALL_PROCESSOR_GROUPS);
    return online < 1 ? 1u : online > 1024 ? 1024u : (unsigned)online;
}
