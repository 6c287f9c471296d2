/*
 * readonly.c: a directory in which no name can be created, for the rename
 * transaction's tests, in the Windows test build. The read-only attribute of
 * a Windows folder does not stop files being created in it. Under Wine,
 * which keeps files on the host's file system and enforces no access control
 * lists, the folder is made immutable on the host, as the POSIX build does
 * for root (`chattr +i`, run through Wine's `start /unix`; the host path from
 * Wine's wine_get_unix_file_name): the helper first checks that the host has
 * /usr/bin/chattr, and says what chattr answered when it fails (not root, a
 * file system without the flag). On Windows itself no helper is written yet
 * (an access-control entry denying FILE_ADD_FILE would be one): the helper
 * says so and the test fails rather than pass without having tried.
 */
#include "spx_daemon.h"
#include "spx_test.h"
#include "spx_test_win32.h"

#include <apr_strings.h>
#include <string.h>
#include <windows.h>

typedef char *(CDECL *unix_name_fn)(const WCHAR *dos_name);

/* A Win32 path's host path under Wine (from pool), or NULL. */
static const char *host_path(const wchar_t *path, apr_pool_t *pool)
{
    HMODULE kernel32 = GetModuleHandleW(L"kernel32.dll");
    FARPROC found = kernel32 ? GetProcAddress(kernel32, "wine_get_unix_file_name") : NULL;
    if (!found)
        return NULL;
    unix_name_fn unix_name;
    memcpy(&unix_name, &found, sizeof(unix_name)); /* a function pointer, as GetProcAddress is */
    char *host = unix_name(path);
    if (!host)
        return NULL;
    const char *copy = apr_pstrdup(pool, host);
    HeapFree(GetProcessHeap(), 0, host);
    return copy;
}

/* The whole of a small file, or "" (from pool). */
static const char *read_small(const wchar_t *path, apr_pool_t *pool)
{
    HANDLE handle = CreateFileW(path, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE, NULL,
                                OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
    if (handle == INVALID_HANDLE_VALUE)
        return "";
    char buffer[1024];
    DWORD got = 0;
    if (!ReadFile(handle, buffer, sizeof(buffer) - 1, &got, NULL))
        got = 0;
    CloseHandle(handle);
    buffer[got] = '\0';
    return apr_pstrdup(pool, buffer);
}

/* Under Wine: `/usr/bin/chattr FLAG` on the folder's host path, run on the
 * host through Wine's `start /wait /unix` by a small shell script that
 * records chattr's output and exit status (start itself does not pass the
 * status on). NULL when chattr succeeded, else why not. */
static const char *wine_chattr(spx_fixture_t *fixture, const char *relative, const char *flag)
{
    /* Wine's Z: drive is the host's root. */
    if (GetFileAttributesW(L"Z:\\usr\\bin\\chattr") == INVALID_FILE_ATTRIBUTES)
        return "under Wine, the host has no /usr/bin/chattr (Debian's e2fsprogs package), which "
               "this test needs to make a folder refuse new files: install e2fsprogs";
    const char *folder = host_path(spx_test_native_path(fixture, relative), fixture->pool);
    wchar_t temp_dir[MAX_PATH], script[MAX_PATH], output[MAX_PATH];
    DWORD length = GetTempPathW(MAX_PATH, temp_dir);
    if (!folder || length == 0 || length >= MAX_PATH ||
        !GetTempFileNameW(temp_dir, L"spx", 0, script) ||
        !GetTempFileNameW(temp_dir, L"spx", 0, output))
        return "under Wine, the host paths for running chattr could not be made";
    const char *script_host = host_path(script, fixture->pool);
    const char *output_host = host_path(output, fixture->pool);
    if (!script_host || !output_host || strchr(folder, '\'') || strchr(output_host, '\'') ||
        strchr(script_host, ' ')) /* start passes quotes on: the script's path must need none */
        return "under Wine, the host paths for running chattr could not be made";
    const char *text = apr_psprintf(
        fixture->pool, "/usr/bin/chattr %s '%s' >'%s' 2>&1; echo \"exit status $?\" >>'%s'\n", flag,
        folder, output_host, output_host);
    HANDLE file =
        CreateFileW(script, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, FILE_ATTRIBUTE_NORMAL, NULL);
    DWORD written = 0;
    BOOL wrote = file != INVALID_HANDLE_VALUE &&
                 WriteFile(file, text, (DWORD)strlen(text), &written, NULL) &&
                 written == strlen(text);
    if (file != INVALID_HANDLE_VALUE)
        CloseHandle(file);
    const char *why = NULL;
    char *command =
        apr_psprintf(fixture->pool, "cmd.exe /c start /wait /unix /bin/sh %s", script_host);
    STARTUPINFOA startup;
    memset(&startup, 0, sizeof(startup));
    startup.cb = sizeof(startup);
    PROCESS_INFORMATION process;
    if (!wrote)
        why = "under Wine, the script that runs chattr could not be written";
    else if (!CreateProcessA(NULL, command, NULL, NULL, FALSE, 0, NULL, NULL, &startup, &process))
        why = "under Wine, 'start /unix' could not be run to call chattr on the host";
    else {
        DWORD waited = WaitForSingleObject(process.hProcess, 60000);
        CloseHandle(process.hThread);
        CloseHandle(process.hProcess);
        /* start may return before the host process has finished: wait for
         * the script's last line (up to 60 s). */
        const char *said = read_small(output, fixture->pool);
        for (int tries = 0; tries < 1200 && !strstr(said, "exit status "); tries++) {
            Sleep(50);
            said = read_small(output, fixture->pool);
        }
        if (waited != WAIT_OBJECT_0 || !strstr(said, "exit status "))
            why = "under Wine, chattr on the host did not finish within 60 s";
        else if (!strstr(said, "exit status 0"))
            why = apr_psprintf(fixture->pool,
                               "under Wine, '/usr/bin/chattr %s %s' failed on the host (it needs "
                               "root and a file system with the immutable flag, such as ext4): "
                               "%s",
                               flag, folder, said[0] ? said : "it reported nothing");
    }
    DeleteFileW(script);
    DeleteFileW(output);
    return why;
}

const char *spx_fixture_read_only_dir(spx_fixture_t *fixture, const char *relative)
{
    if (!spx_running_under_wine())
        return "no way to make a folder refuse new files is written for Windows yet (the read-only "
               "attribute does not)";
    const char *why = wine_chattr(fixture, relative, "+i");
    if (why)
        return why;
    /* Proof that it holds: creating a name in it must fail. */
    wchar_t *probe =
        spx_test_native_path(fixture, apr_pstrcat(fixture->pool, relative, "/probe", NULL));
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
