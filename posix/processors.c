/*
 * processors.c: the POSIX processor count (spx_platform.h), from sysconf.
 */
#define _DEFAULT_SOURCE /* _SC_NPROCESSORS_ONLN under -std=c11 */

#include "spx_platform.h"

#include <unistd.h>

unsigned spx_processor_count(void)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online < 1 ? 1u : online > 1024 ? 1024u : (unsigned)online;
}
