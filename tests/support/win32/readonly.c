/*
 * readonly.c: a directory in which no name can be created, for the rename
 * transaction's tests, in the Windows test build. The read-only attribute of
 * a Windows folder does not stop files being created in it. Under Wine,
 * which keeps files on the host's file system and enforces no access control
 * lists, the folder is made immutable on the host, as the POSIX build does
 * for root (`chattr +i`, run through Wine's `start /unix`; the host path from
 * Wine's wine_get_unix_file_name). On Windows itself no helper is written yet
 * (an access-control entry denying FILE_ADD_FILE would be one): the helper
 * says so and the test fails rather than pass without having tried.
 */
#include "spx_daemon.h"
#include "spx_test.h"

#include <apr_strings.h>
#include <string.h>
#include <windows.h>

typedef char *(CDECL *unix_name_fn)(const WCHAR *dos_name);

static wchar_t *native_path(spx_fixture_t *fixture, const char *relative)
{
    const char *path = spx_fixture_path(fixture, relative);
    int units = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, NULL, 0);
    CU_ASSERT_FATAL(units > 0);
    wchar_t *wide = apr_palloc(fixture->pool, (apr_size_t)units * sizeof(wchar_t));
    MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, wide, units);
    for (wchar_t *c = wide; *c; c++)
        if (*c == L'/')
            *c = L'\\';
    return wide;
}

/* Under Wine: chattr FLAG on the folder's host path; 1 when it ran. */
static int wine_chattr(spx_fixture_t *fixture, const char *relative, const char *flag)
{
    HMODULE kernel32 = GetModuleHandleW(L"kernel32.dll");
    FARPROC found = kernel32 ? GetProcAddress(kernel32, "wine_get_unix_file_name") : NULL;
    if (!found)
        return 0;
    unix_name_fn unix_name;
    memcpy(&unix_name, &found, sizeof(unix_name)); /* a function pointer, as GetProcAddress is */
    char *host = unix_name(native_path(fixture, relative));
    if (!host)
        return 0;
    char *command = apr_psprintf(
        fixture->pool, "cmd.exe /c start /wait /unix /usr/bin/chattr %s \"%s\"", flag, host);
    HeapFree(GetProcessHeap(), 0, host);
    STARTUPINFOA startup;
    memset(&startup, 0, sizeof(startup));
    startup.cb = sizeof(startup);
    PROCESS_INFORMATION process;
    if (!CreateProcessA(NULL, command, NULL, NULL, FALSE, 0, NULL, NULL, &startup, &process))
        return 0;
    DWORD waited = WaitForSingleObject(process.hProcess, 60000);
    CloseHandle(process.hThread);
    CloseHandle(process.hProcess);
    return waited == WAIT_OBJECT_0;
}

const char *spx_fixture_read_only_dir(spx_fixture_t *fixture, const char *relative)
{
    if (!spx_running_under_wine())
        return "no way to make a folder refuse new files is written for Windows yet (the read-only "
               "attribute does not)";
    if (!wine_chattr(fixture, relative, "+i"))
        return "under Wine, 'chattr +i' on the folder's host path could not be run";
    /* Proof that it holds: creating a name in it must fail. */
    wchar_t *probe = native_path(fixture, apr_pstrcat(fixture->pool, relative, "/probe", NULL));
    HANDLE handle =
        CreateFileW(probe, GENERIC_WRITE, 0, NULL, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, NULL);
    if (handle != INVALID_HANDLE_VALUE) {
        CloseHandle(handle);
        DeleteFileW(probe);
        return "the folder still accepts new files (the host file system cannot make it "
               "immutable)";
    }
    return NULL;
}

void spx_fixture_writable_dir(spx_fixture_t *fixture, const char *relative)
{
    if (spx_running_under_wine())
        wine_chattr(fixture, relative, "-i");
}
