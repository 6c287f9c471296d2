/*
 * session_hooks_test.c: the hooks of the test-only daemon semapraxd_test
 * (spx_session_hooks.h), which the process tests (tests/transport/
 * test_daemon*.c) drive through environment variables; never linked into
 * semapraxd.
 *
 * A pause: when the variable of its point names a directory, create the
 * file "paused" in it, then wait until the test creates "go" there (looking
 * every millisecond, for at most SPX_TEST_PAUSE_SECONDS), and remove both.
 * SPX_TEST_STARTUP_PAUSE_DIR pauses at startup, after every input is
 * authenticated and before Phase A; SPX_TEST_PAUSE_DIR between rendering a
 * semantic answer and the second re-authentication;
 * SPX_TEST_RENAME_PAUSE_DIR after a rename's plan, before the re-check of
 * its step 4; SPX_TEST_RENAME_COMMITTED_DIR after its commit, before step 6.
 * Files, not a fifo, so that the same tests run on Windows.
 *
 * The rename's commit is probed by spx_test_commit_probe
 * (transport/test_hooks.c): a failure (SPX_TEST_RENAME_FAIL) or another
 * program's save (SPX_TEST_SAVE_AT) at a point of the first or last file.
 */
#include "spx_session_hooks.h"
#include "spx_test_hooks.h"

#include <apr_file_info.h>
#include <apr_file_io.h>
#include <apr_strings.h>
#include <apr_time.h>
#include <stdlib.h>
#include <string.h>

/* How long a pause waits for the test before going on. */
#define SPX_TEST_PAUSE_SECONDS 60

static void test_pause(spx_session_pause_t point, apr_pool_t *pool)
{
    static const char *const variables[] = {
        [SPX_SESSION_PAUSE_STARTUP] = "SPX_TEST_STARTUP_PAUSE_DIR",
        [SPX_SESSION_PAUSE_SECOND_CHECK] = "SPX_TEST_PAUSE_DIR",
        [SPX_SESSION_PAUSE_RENAME_PLANNED] = "SPX_TEST_RENAME_PAUSE_DIR",
        [SPX_SESSION_PAUSE_RENAME_COMMITTED] = "SPX_TEST_RENAME_COMMITTED_DIR",
    };
    const char *dir = getenv(variables[point]);
    if (!dir)
        return;
    const char *paused = apr_pstrcat(pool, dir, "/paused", NULL);
    const char *go = apr_pstrcat(pool, dir, "/go", NULL);
    apr_file_t *file = NULL;
    if (apr_file_open(&file, paused, APR_FOPEN_WRITE | APR_FOPEN_CREATE | APR_FOPEN_EXCL,
                      APR_FPROT_OS_DEFAULT, pool) != APR_SUCCESS)
        return;
    apr_file_close(file);
    apr_finfo_t info;
    for (long waited = 0; waited < SPX_TEST_PAUSE_SECONDS * 1000L; waited++) {
        if (apr_stat(&info, go, APR_FINFO_TYPE, pool) == APR_SUCCESS)
            break;
        apr_sleep(apr_time_from_msec(1));
    }
    apr_file_remove(go, pool);
    apr_file_remove(paused, pool);
}

const spx_session_hooks_t *spx_session_hooks(void)
{
    static const spx_session_hooks_t test = {test_pause, spx_test_commit_probe};
    return &test;
}
