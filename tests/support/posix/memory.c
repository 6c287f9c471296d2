/*
 * memory.c: the process facts APR does not offer, for the POSIX test build:
 * a running process's peak resident memory (Linux's /proc/PID/status VmHWM)
 * and ignoring SIGPIPE, so a test that writes to a daemon which has already
 * exited sees a failed write instead of dying.
 */
#define _POSIX_C_SOURCE 200809L

#include "spx_daemon.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>

long spx_process_peak_rss_kib(int pid)
{
    char path[64];
    snprintf(path, sizeof(path), "/proc/%d/status", pid);
    FILE *file = fopen(path, "r");
    if (!file)
        return -1;
    char line[256];
    long kib = -1;
    while (fgets(line, sizeof(line), file))
        if (strncmp(line, "VmHWM:", 6) == 0 && sscanf(line + 6, "%ld", &kib) != 1)
            kib = -1;
    fclose(file);
    return kib;
}

void spx_ignore_broken_pipes(void)
{
    signal(SIGPIPE, SIG_IGN);
}
