/*
 * wide.c: UTF-8 paths as UTF-16 for the Windows test build
 * (spx_test_win32.h).
 */
#include "spx_test_win32.h"

#include <apr_strings.h>
#include <windows.h>

wchar_t *spx_test_wide_path(const char *path, apr_pool_t *pool)
{
    int units = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, NULL, 0);
    CU_ASSERT_FATAL(units > 0);
    wchar_t *wide = apr_palloc(pool, (apr_size_t)units * sizeof(wchar_t));
    MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, path, -1, wide, units);
    for (wchar_t *c = wide; *c; c++)
        if (*c == L'/')
            *c = L'\\';
    return wide;
}

wchar_t *spx_test_native_path(spx_fixture_t *fixture, const char *relative)
{
    return spx_test_wide_path(spx_fixture_path(fixture, relative), fixture->pool);
}
