/*
 * memory.c: the process facts APR does not offer, for the Windows test build:
 * a running process's peak working set (GetProcessMemoryInfo), and nothing to
 * do about broken pipes (Windows has no SIGPIPE: a write to a pipe whose
 * reader has gone fails with an error).
 */
#include "spx_daemon.h"

#include <windows.h>

#include <psapi.h>

long spx_process_peak_rss_kib(int pid)
{
    HANDLE process =
        OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION | PROCESS_VM_READ, FALSE, (DWORD)pid);
    if (!process)
        return -1;
    PROCESS_MEMORY_COUNTERS counters;
    BOOL known = GetProcessMemoryInfo(process, &counters, sizeof(counters));
    CloseHandle(process);
    return known ? (long)(counters.PeakWorkingSetSize / 1024) : -1;
}

void spx_ignore_broken_pipes(void)
{
}

void spx_default_broken_pipes(void)
{
}

int spx_send_broken_pipe(int pid)
{
    (void)pid;
    return 0; /* Windows has no SIGPIPE */
}
