/*
 * links.c: the fixture operations APR does not offer, for the Windows test
 * build: symbolic links (CreateSymbolicLinkW, unprivileged where the system
 * allows it; checked afterwards, because Wine 8 reports success without
 * making one). Windows has no fifos in the file system, so a test asking for
 * one fails, saying so.
 */
#include "spx_test.h"

#include <apr_strings.h>
#include <string.h>
#include <windows.h>

static wchar_t *wide(const char *text, apr_pool_t *pool)
{
    int units = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, text, -1, NULL, 0);
    CU_ASSERT_FATAL(units > 0);
    wchar_t *result = apr_palloc(pool, (apr_size_t)units * sizeof(wchar_t));
    MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, text, -1, result, units);
    for (wchar_t *c = result; *c; c++)
        if (*c == L'/')
            *c = L'\\';
    return result;
}

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
    DWORD attributes = GetFileAttributesW(wide(resolved, fixture->pool));
    DWORD flags = SYMBOLIC_LINK_FLAG_ALLOW_UNPRIVILEGED_CREATE;
    if (attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_DIRECTORY))
        flags |= SYMBOLIC_LINK_FLAG_DIRECTORY;
    wchar_t *native = wide(link, fixture->pool);
    BOOLEAN made = CreateSymbolicLinkW(native, wide(target, fixture->pool), flags);
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
