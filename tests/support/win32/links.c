/*
 * links.c: the fixture operations that differ between platforms, for the
 * Windows test build: symbolic links (CreateSymbolicLinkW, unprivileged where
 * the system allows it; checked afterwards, because Wine 8 reports success
 * without making one), fifos (Windows has none in the file system, so a test
 * asking for one fails, saying so), and a directory's modification time
 * (APR opens only files for that).
 */
#include "spx_test.h"
#include "spx_test_win32.h"

#include <apr_strings.h>
#include <string.h>
#include <windows.h>

void spx_fixture_symlink(spx_fixture_t *fixture, const char *target, const char *relative)
{
    if (spx_fixture_denials(fixture) > 0)
        return; /* a step of a change that was denied */
    /* A link to a directory must say so; the target is relative to the
     * link's folder, as on POSIX. */
    const char *link = spx_fixture_path(fixture, relative);
    const char *slash = strrchr(relative, '/');
    const char *folder =
        slash ? apr_pstrndup(fixture->pool, relative, (apr_size_t)(slash - relative)) : "";
    const char *resolved = spx_fixture_path(
        fixture, apr_pstrcat(fixture->pool, folder, slash ? "/" : "", target, NULL));
    DWORD attributes = GetFileAttributesW(spx_test_wide_path(resolved, fixture->pool));
    DWORD flags = SYMBOLIC_LINK_FLAG_ALLOW_UNPRIVILEGED_CREATE;
    if (attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_DIRECTORY))
        flags |= SYMBOLIC_LINK_FLAG_DIRECTORY;
    wchar_t *native = spx_test_wide_path(link, fixture->pool);
    BOOLEAN made = CreateSymbolicLinkW(native, spx_test_wide_path(target, fixture->pool), flags);
    /* Wine 8 answers TRUE without making anything: look before trusting it. */
    DWORD error = made ? ERROR_SUCCESS : GetLastError();
    WIN32_FILE_ATTRIBUTE_DATA data;
    int there = GetFileAttributesExW(native, GetFileExInfoStandard, &data) &&
                (data.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT);
    if (!there)
        fprintf(stderr,
                "\n  cannot make the symbolic link '%s' (CreateSymbolicLinkW %s, error %lu)\n",
                link, made ? "said it did, but there is none" : "failed", (unsigned long)error);
    CU_ASSERT_TRUE_FATAL(there);
}

void spx_fixture_mkfifo(spx_fixture_t *fixture, const char *relative)
{
    fprintf(stderr, "\n  '%s': Windows has no fifos in the file system\n",
            spx_fixture_path(fixture, relative));
    CU_FAIL_FATAL("a fifo was asked for on Windows");
}

int spx_fixture_symlinks_possible(spx_fixture_t *fixture, const char *checks)
{
    wchar_t *probe = spx_test_wide_path(spx_fixture_path(fixture, "spx-link-probe"), fixture->pool);
    CreateSymbolicLinkW(probe, L"absent", SYMBOLIC_LINK_FLAG_ALLOW_UNPRIVILEGED_CREATE);
    DWORD attributes = GetFileAttributesW(probe);
    int made = attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_REPARSE_POINT);
    if (attributes != INVALID_FILE_ATTRIBUTES)
        DeleteFileW(probe);
    if (!made)
        fprintf(stderr, "\n  not run here: %s (this system makes no symbolic links for us)\n",
                checks);
    return made;
}

int spx_fixture_fifos_possible(const char *checks)
{
    fprintf(stderr, "\n  not run here: %s (Windows has no fifos in the file system)\n", checks);
    return 0;
}

/* FILE_FLAG_BACKUP_SEMANTICS opens a directory as well as a file; writing
 * attributes is not subject to the sharing of a session's handles. */
void spx_fixture_set_mtime(spx_fixture_t *fixture, const char *relative, apr_time_t mtime)
{
    HANDLE handle =
        CreateFileW(spx_test_wide_path(spx_fixture_path(fixture, relative), fixture->pool),
                    FILE_WRITE_ATTRIBUTES, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                    NULL, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, NULL);
    CU_ASSERT_FATAL(handle != INVALID_HANDLE_VALUE);
    /* apr_time_t: microseconds since 1970; FILETIME: 100 ns since 1601. */
    ULONGLONG ticks = (ULONGLONG)mtime * 10u + 116444736000000000ull;
    FILETIME time = {(DWORD)ticks, (DWORD)(ticks >> 32)};
    BOOL set = SetFileTime(handle, NULL, NULL, &time);
    CloseHandle(handle);
    CU_ASSERT_TRUE_FATAL(set);
}

int spx_fixture_modes_possible(const char *checks)
{
    fprintf(stderr, "\n  not run here: %s (Windows files have no permission bits)\n", checks);
    return 0;
}

void spx_fixture_set_mode(spx_fixture_t *fixture, const char *relative, unsigned mode)
{
    (void)fixture;
    (void)relative;
    (void)mode;
    CU_FAIL("spx_fixture_set_mode on Windows: ask spx_fixture_modes_possible first");
}

unsigned spx_fixture_mode(spx_fixture_t *fixture, const char *relative)
{
    spx_fixture_set_mode(fixture, relative, 0);
    return 0;
}
