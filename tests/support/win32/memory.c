/*
 * memory.c: the process facts APR does not offer, for the Windows test build:
 * a running process's peak or current working set (GetProcessMemoryInfo),
 * and whether the tests run under Wine (ntdll exports wine_get_version
 * there, and nowhere else).
 */
#include "spx_daemon.h"
#include "spx_process.h"

#include <windows.h>

#include <psapi.h>

long spx_process_memory_kib(int pid, spx_memory_figure_t figure)
{
    HANDLE process =
        OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION | PROCESS_VM_READ, FALSE, (DWORD)pid);
    if (!process)
        return -1;
    PROCESS_MEMORY_COUNTERS counters;
    BOOL known = GetProcessMemoryInfo(process, &counters, sizeof(counters));
    CloseHandle(process);
    if (!known)
        return -1;
    SIZE_T bytes =
        figure == SPX_MEMORY_PEAK ? counters.PeakWorkingSetSize : counters.WorkingSetSize;
    return (long)(bytes / 1024);
}

int spx_running_under_wine(void)
{
    HMODULE ntdll = GetModuleHandleW(L"ntdll.dll");
    return ntdll && GetProcAddress(ntdll, "wine_get_version") != NULL;
}

long spx_children_peak_kib(void)
{
    return -1; /* Windows keeps no total of the children's peaks */
}
