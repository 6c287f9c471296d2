/*
 * test_daemon_memory.c: the out-of-memory policy (spx_allocation.h) in the
 * real daemon. The test-only daemon's allocation gate (SPX_TEST_ALLOCATION)
 * first counts the allocations of a phase (the project's open at startup,
 * and graph, context and test), then makes the first, the middle and the
 * last of them fail: each time the daemon says "out of memory" on stderr,
 * exits with status 3, and has written only whole answers to the requests
 * before (none of the failing one). Under the sanitizer and valgrind builds
 * the same runs must also be free of any error they report.
 */
#include "spx_allocation.h"
#include "spx_daemon.h"
#include "spx_process.h"

#include <apr_env.h>
#include <apr_strings.h>
#include <stdlib.h>
#include <string.h>

typedef struct phase_case_t {
    const char *phase;  /* the gate's phase */
    const char *method; /* the request that runs it (NULL: the startup) */
    const char *params; /* after the revisions */
} phase_case_t;

static const phase_case_t phases[] = {
    {"open", NULL, ""},
    {"graph", "graph", ""},
    {"context", "context", ",\"target_kind\":\"module\",\"target\":\"app\",\"depth\":2"},
    {"test", "test", ""},
};

/* A session on the fixture's hello copy with SPX_TEST_ALLOCATION=setting:
 * workspace/open, the phase's request, shutdown, all sent at once; finished,
 * its output in daemon's rest. */
static spx_daemon_t *run_session(spx_fixture_t *fixture, const phase_case_t *phase,
                                 const char *revisions, const char *setting)
{
    apr_pool_t *pool = fixture->pool;
    CU_ASSERT_EQUAL_FATAL(apr_env_set("SPX_TEST_ALLOCATION", setting, pool), APR_SUCCESS);
    const char *arguments[] = {"--stdio", "--manifest-path",
                               spx_fixture_path(fixture, "proj/semaprax.toml"), NULL};
    spx_daemon_t *daemon = spx_daemon_start("SPX_SEMAPRAXD_TEST", arguments, NULL, pool);
    apr_env_delete("SPX_TEST_ALLOCATION", pool);
    const char *lines = apr_pstrcat(
        pool, "{\"id\":1,\"jsonrpc\":\"2.0\",\"method\":\"workspace/open\"}\n",
        phase->method ? spx_request_line("2", phase->method,
                                         apr_pstrcat(pool, revisions, phase->params, NULL), pool)
                      : "",
        phase->method ? "\n" : "", "{\"id\":3,\"jsonrpc\":\"2.0\",\"method\":\"shutdown\"}\n",
        NULL);
    spx_daemon_send(daemon, lines, strlen(lines)); /* it may be gone already */
    spx_daemon_finish(daemon);
    return daemon;
}

/* The count the gate reports on stderr for phase, or 0. */
static unsigned long reported_count(const char *err, const char *phase, apr_pool_t *pool)
{
    const char *prefix = apr_psprintf(pool, "semaprax: allocations in %s: ", phase);
    const char *at = strstr(err, prefix);
    return at ? strtoul(at + strlen(prefix), NULL, 10) : 0;
}

/* The number of whole lines in output, which must end with an LF (or be
 * empty): a half-written answer is a failure. */
static int whole_lines(const char *output)
{
    size_t length = strlen(output);
    CU_ASSERT_TRUE(length == 0 || output[length - 1] == '\n');
    int lines = 0;
    for (const char *c = output; *c; c++)
        lines += *c == '\n';
    return lines;
}

static void test_injected_failures_end_cleanly(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_copy_hello(fixture, "proj");
    spx_daemon_t *plain = spx_daemon_start_on(fixture, "proj", (const char *const[]){NULL});
    const char *revisions = apr_pstrdup(pool, spx_daemon_open(plain));
    CU_ASSERT_EQUAL(spx_daemon_finish(plain), 0);

    for (size_t p = 0; p < sizeof(phases) / sizeof(phases[0]); p++) {
        const phase_case_t *phase = &phases[p];
        spx_daemon_t *counted =
            run_session(fixture, phase, revisions, apr_pstrcat(pool, phase->phase, ":count", NULL));
        CU_ASSERT_EQUAL(spx_daemon_finish(counted), 0);
        CU_ASSERT_EQUAL(whole_lines(spx_daemon_rest(counted)), phase->method ? 3 : 2);
        unsigned long total = reported_count(spx_daemon_stderr(counted), phase->phase, pool);
        fprintf(stderr, "\n  %s: %lu counted allocations", phase->phase, total);
        /* A streamed graph counts few (two for examples/hello): the middle
         * is then the first. */
        CU_ASSERT_TRUE_FATAL(total >= 2);
        const unsigned long failing[] = {1, total / 2, total};
        for (size_t f = 0; f < 3; f++) {
            spx_daemon_t *daemon = run_session(
                fixture, phase, revisions, apr_psprintf(pool, "%s:%lu", phase->phase, failing[f]));
            int code = spx_daemon_finish(daemon);
            if (code != SPX_EXIT_OUT_OF_MEMORY)
                fprintf(stderr, "\n  %s failing at %lu of %lu: exit %d, stderr:\n%s\n",
                        phase->phase, failing[f], total, code, spx_daemon_stderr(daemon));
            CU_ASSERT_EQUAL(code, SPX_EXIT_OUT_OF_MEMORY);
            spx_assert_contains(spx_daemon_stderr(daemon), "semapraxd: out of memory: stopping");
            /* the answers before the failing request, whole; none after */
            CU_ASSERT_EQUAL(whole_lines(spx_daemon_rest(daemon)), phase->method ? 1 : 0);
        }
    }
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"an allocation failing at the first, middle and last allocation of open, graph, "
         "context and test",
         test_injected_failures_end_cleanly},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("daemon memory", tests);
}
