/*
 * command_line.c: what arguments a test may give a program it starts, on
 * POSIX (spx_process.h): the system's bound on all arguments together
 * (ARG_MAX, at least 1 MiB on Linux and macOS), and any bytes. POSIX test
 * build.
 */
#include "spx_process.h"

#include <unistd.h>

apr_size_t spx_command_line_limit(void)
{
    long limit = sysconf(_SC_ARG_MAX);
    return limit > 0 ? (apr_size_t)limit : (apr_size_t)4096;
}

int spx_command_line_takes_bytes(void)
{
    return 1;
}
