/*
 * processors.c: the POSIX processor count (spx_platform.h), from sysconf.
 */
#define _DEFAULT_SOURCE /* _SC_NPROCESSORS_ONLN under -std=c11 */

#include "spx_platform.h"

#include <unistd.h>

unsigned spx_processor_count(unsigned maximum)
{
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online < 1 ? 1u : (unsigned long)online > maximum ? maximum : (unsigned)online;
}
