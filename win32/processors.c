/*
 * processors.c: the Windows processor count (spx_platform.h): the logical
 * processors of the process's processor group, from GetSystemInfo.
 */
#include "spx_platform.h"

#include <windows.h>

unsigned spx_processor_count(unsigned maximum)
{
    SYSTEM_INFO system;
    GetSystemInfo(&system);
    DWORD online = system.dwNumberOfProcessors;
    return online < 1 ? 1u : online > maximum ? maximum : (unsigned)online;
}
