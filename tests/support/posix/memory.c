/*
 * memory.c: the process facts APR does not offer, for the POSIX test build:
 * a running process's peak or current resident memory (Linux's
 * /proc/PID/status VmHWM, VmRSS), and that this is not Wine.
 */
#define _POSIX_C_SOURCE 200809L

#include "spx_daemon.h"

#include <stdio.h>
#include <string.h>

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

int spx_running_under_wine(void)
{
    return 0;
}
