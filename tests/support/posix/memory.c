/*
 * memory.c: the process facts APR does not offer, for the POSIX test build:
 * a running process's peak or current memory (Linux: VmHWM and VmRSS of
 * /proc/PID/status; macOS: the lifetime peak and current physical footprint
 * from proc_pid_rusage, the figure Activity Monitor shows), and that this is
 * not Wine; the peak memory of the children waited for.
 */
#define _POSIX_C_SOURCE 200809L
/* macOS declares proc_pid_rusage's structures only outside strict POSIX. */
#define _DARWIN_C_SOURCE

#include "spx_daemon.h"
#include "spx_process.h"

#include <sys/resource.h>

#include <stdio.h>
#include <string.h>
#ifdef __APPLE__
#include <libproc.h>
#include <stdint.h>
#endif

#ifdef __APPLE__
long spx_process_memory_kib(int pid, spx_memory_figure_t figure)
{
    struct rusage_info_v4 usage;
    if (proc_pid_rusage(pid, RUSAGE_INFO_V4, (rusage_info_t *)&usage) != 0)
        return -1;
    uint64_t bytes =
        figure == SPX_MEMORY_PEAK ? usage.ri_lifetime_max_phys_footprint : usage.ri_phys_footprint;
    return (long)(bytes / 1024);
}
#else
long spx_process_memory_kib(int pid, spx_memory_figure_t figure)
{
    const char *field = figure == SPX_MEMORY_PEAK ? "VmHWM" : "VmRSS";
    size_t field_length = strlen(field);
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/status", pid);
    FILE *file = fopen(path, "r");
    if (!file)
        return -1;
    char line[256];
    long kib = -1;
    while (fgets(line, sizeof(line), file))
        if (strncmp(line, field, field_length) == 0 && line[field_length] == ':' &&
            sscanf(line + field_length + 1, "%ld", &kib) != 1)
            kib = -1;
    fclose(file);
    return kib;
}
#endif

long spx_children_peak_kib(void)
{
    struct rusage usage;
    if (getrusage(RUSAGE_CHILDREN, &usage) != 0)
        return -1;
#ifdef __APPLE__
    return (long)(usage.ru_maxrss / 1024); /* bytes on macOS */
#else
    return (long)usage.ru_maxrss; /* KiB */
#endif
}

int spx_running_under_wine(void)
{
    return 0;
}
