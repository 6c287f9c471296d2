/*
 * memory.c: the process facts APR does not offer, for the POSIX test build:
 * a running process's peak or current resident memory (Linux's
 * /proc/PID/status VmHWM, VmRSS)
 * and ignoring SIGPIPE, so a test that writes to a daemon which has already
 * exited sees a failed write instead of dying (and restoring its default
 * action, for the moment a daemon is started).
 */
#define _POSIX_C_SOURCE 200809L

#include "spx_daemon.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

long spx_process_memory_kib(int pid, const char *field)
{
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

void spx_ignore_broken_pipes(void)
{
    signal(SIGPIPE, SIG_IGN);
}

void spx_default_broken_pipes(void)
{
    signal(SIGPIPE, SIG_DFL);
}

int spx_send_broken_pipe(int pid)
{
    return kill((pid_t)pid, SIGPIPE) == 0;
}
