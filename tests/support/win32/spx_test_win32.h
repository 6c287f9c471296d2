/*
 * spx_test_win32.h: what the Windows test support and the Windows-only
 * suites (tests/platform/test_win32_*.c) share: paths as the wide-character
 * API wants them.
 */
#ifndef SPX_TEST_WIN32_H
#define SPX_TEST_WIN32_H

#include "spx_test.h"

#include <wchar.h>

/* The UTF-8 path as UTF-16, with '\' for '/', allocated in pool. */
wchar_t *spx_test_wide_path(const char *path, apr_pool_t *pool);

/* The same for a path relative to the fixture's folder. */
wchar_t *spx_test_native_path(spx_fixture_t *fixture, const char *relative);

#endif /* SPX_TEST_WIN32_H */
