/*
 * test_hooks.c: the probe of the writes in the test-only programs
 * (spx_test_hooks.h), and the CLI's hooks of semaprax_test and
 * semapraxd_test (spx_cli_hooks.h: this probe). Never linked into semaprax
 * or semapraxd.
 *
 * At each point of the rename's commit and of each fmt write (create,
 * write, flush, replace, sync: spx_commit_point_t) of the first or last
 * file (WHICH: first, last):
 * - SPX_TEST_RENAME_FAIL=POINT:WHICH makes that operation fail;
 * - SPX_TEST_SAVE_AT=POINT:WHICH saves another program's bytes there, once:
 *   SPX_TEST_SAVE_TEXT into the file at the host path SPX_TEST_SAVE_PATH,
 *   as an editor saves (a new file renamed over it; SPX_TEST_SAVE_HOW=
 *   in-place: the file truncated and written through a new handle), then
 *   writes "saved", or "refused: WHY" when the system refused the save (a
 *   held file on Windows), to the host path SPX_TEST_SAVE_DONE. The
 *   operation then goes on.
 */
#include "spx_cli_hooks.h"
#include "spx_test_hooks.h"

#include <apr_file_io.h>
#include <apr_strings.h>
#include <stdlib.h>
#include <string.h>

/* Whether wanted ("POINT:WHICH") names point of file among files. */
static int names_point(const char *wanted, spx_commit_point_t point, apr_size_t file,
                       apr_size_t files)
{
    const char *name = spx_commit_point_name(point);
    apr_size_t length = strlen(name);
    if (!wanted || strncmp(wanted, name, length) != 0 || wanted[length] != ':')
        return 0;
    const char *which = wanted + length + 1;
    return (strcmp(which, "first") == 0 && file == 0) ||
           (strcmp(which, "last") == 0 && file + 1 == files);
}

/* Write text to path, created or truncated. */
static apr_status_t write_file(const char *path, const char *text, apr_pool_t *pool)
{
    apr_file_t *file = NULL;
    apr_status_t status = apr_file_open(
        &file, path, APR_FOPEN_WRITE | APR_FOPEN_CREATE | APR_FOPEN_TRUNCATE | APR_FOPEN_BINARY,
        APR_FPROT_OS_DEFAULT, pool);
    if (status != APR_SUCCESS)
        return status;
    apr_size_t length = strlen(text);
    status = apr_file_write_full(file, text, length, NULL);
    apr_status_t closed = apr_file_close(file);
    return status != APR_SUCCESS ? status : closed;
}

/* Another program's save of SPX_TEST_SAVE_TEXT to SPX_TEST_SAVE_PATH, and
 * what became of it in SPX_TEST_SAVE_DONE. */
static void save_meanwhile(apr_pool_t *pool)
{
    const char *path = getenv("SPX_TEST_SAVE_PATH");
    const char *text = getenv("SPX_TEST_SAVE_TEXT");
    const char *how = getenv("SPX_TEST_SAVE_HOW");
    const char *done = getenv("SPX_TEST_SAVE_DONE");
    if (!path || !text || !done)
        return;
    apr_status_t status;
    if (how && strcmp(how, "in-place") == 0) {
        status = write_file(path, text, pool);
    } else {
        const char *saving = apr_pstrcat(pool, path, ".saving", NULL);
        status = write_file(saving, text, pool);
        if (status == APR_SUCCESS)
            status = apr_file_rename(saving, path, pool);
        if (status != APR_SUCCESS)
            apr_file_remove(saving, pool);
    }
    char reason[256];
    write_file(
        done,
        status == APR_SUCCESS
            ? "saved"
            : apr_pstrcat(pool, "refused: ", apr_strerror(status, reason, sizeof(reason)), NULL),
        pool);
}

apr_status_t spx_test_commit_probe(void *context, spx_commit_point_t point, apr_size_t file,
                                   apr_size_t files, const char **message, apr_pool_t *pool)
{
    (void)context;
    if (names_point(getenv("SPX_TEST_SAVE_AT"), point, file, files))
        save_meanwhile(pool);
    const char *wanted = getenv("SPX_TEST_RENAME_FAIL");
    if (names_point(wanted, point, file, files)) {
        *message = apr_psprintf(pool, "injected failure (SPX_TEST_RENAME_FAIL=%s)", wanted);
        return APR_EGENERAL;
    }
    return APR_SUCCESS;
}

spx_commit_probe_fn spx_cli_commit_probe(void)
{
    return spx_test_commit_probe;
}
