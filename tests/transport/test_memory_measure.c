/*
 * test_memory_measure.c: max_memory bounds what a run really holds. The
 * daemon runs tests that keep taking memory until max_memory refuses them
 * (R0521), with max_memory 64 MiB, and its resident memory grows by at most
 * twice that meanwhile: arrays of 4096 "" literals (a literal's header was
 * measured as 0 bytes but held about 32: five times the measure), and arrays
 * pushed then popped down to a quarter of their capacity (the spare
 * capacity was not measured: four to six times). Where the system does not
 * say the process's peak, or under the sanitizer or valgrind (whose own
 * memory is most of it), only the refusals are checked.
 */
#include "spx_daemon.h"
#include "spx_process.h"

#include <apr_strings.h>
#include <stdio.h>
#include <string.h>

static const char *const no_extra[] = {NULL};

#define MAX_MEMORY (64u * 1024u * 1024u)

/* A project in dir whose one test, app.fill, is body. */
static void write_project(spx_fixture_t *fixture, const char *dir, const char *body)
{
    spx_fixture_write(fixture, apr_pstrcat(fixture->pool, dir, "/semaprax.toml", NULL),
                      "manifest = \"semaprax.project-manifest.v1\"\n\n[project]\nname = \"p\"\n"
                      "version = \"1.0.0\"\nentry = \"app.fill\"\n\n[[source]]\nmodule = \"app\"\n"
                      "path = \"app.spx\"\n\n[[test]]\nname = \"fill\"\nfunction = \"app.fill\"\n");
    spx_fixture_write(fixture, apr_pstrcat(fixture->pool, dir, "/app.spx", NULL), body);
}

/* Rows of 4096 "" literals kept in one array, until memory runs out. */
static const char *literal_rows(apr_pool_t *pool)
{
    const char *row = "\"\"";
    for (int i = 1; i < 4096; i++)
        row = apr_pstrcat(pool, row, ", \"\"", NULL);
    return apr_pstrcat(pool,
                       "fn fill() -> int {\n"
                       "  var all: [[str]] = [];\n"
                       "  while true { all.push([",
                       row,
                       "]); }\n"
                       "  return len(all);\n"
                       "}\n",
                       NULL);
}

/* Arrays grown to 65 elements (capacity 128) and popped down to 32, a
 * quarter of the capacity, kept in one array, until memory runs out. */
static const char rows_with_spare_capacity[] = "fn fill() -> int {\n"
                                               "  var all: [[int]] = [];\n"
                                               "  while true {\n"
                                               "    var row: [int] = [];\n"
                                               "    for i in 0..65 { row.push(i); }\n"
                                               "    for i in 0..33 { row.pop(); }\n"
                                               "    all.push(row);\n"
                                               "  }\n"
                                               "  return len(all);\n"
                                               "}\n";

/* The daemon on dir runs its test with max_memory 64 MiB: refused with
 * R0521, its resident memory grown by at most twice that. */
static void run_until_refused(spx_fixture_t *fixture, const char *dir, const char *body)
{
    apr_pool_t *pool = fixture->pool;
    write_project(fixture, dir, body);
    spx_daemon_t *daemon = spx_daemon_start_on(fixture, dir, no_extra);
    const char *revisions = apr_pstrdup(pool, spx_daemon_open(daemon));
    long before = spx_process_memory_kib(spx_daemon_pid(daemon), SPX_MEMORY_NOW);
    json_t *answer = spx_daemon_call_json(
        daemon,
        spx_request_line("1", "test",
                         apr_psprintf(pool, "%s,\"max_memory\":%u,\"max_steps\":10000000000",
                                      revisions, MAX_MEMORY),
                         pool));
    long peak = spx_process_memory_kib(spx_daemon_pid(daemon), SPX_MEMORY_PEAK);
    json_t *envelope = json_object_get(json_object_get(answer, "result"), "envelope");
    json_t *test = json_array_get(json_object_get(envelope, "tests"), 0);
    json_t *failure = json_object_get(test, "failure");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(test, "outcome")), "language_failure");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(failure, "code")), "R0521");
    json_decref(answer);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    fprintf(stderr, "\n  %s: resident %ld KiB before, peak %ld KiB, max_memory %u KiB\n", dir,
            before, peak, MAX_MEMORY / 1024u);
#ifndef SPX_TEST_SANITIZED
    if (before > 0 && peak > 0)
        CU_ASSERT_TRUE(peak - before <= 2 * (long)(MAX_MEMORY / 1024u));
#endif
}

static void test_literal_rows(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    run_until_refused(fixture, "literals", literal_rows(fixture->pool));
    spx_fixture_free(fixture);
}

static void test_spare_capacity(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    run_until_refused(fixture, "spare", rows_with_spare_capacity);
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"arrays of \"\" literals: refused by max_memory within twice it resident",
         test_literal_rows},
        {"arrays popped to a quarter of their capacity: refused within twice max_memory resident",
         test_spare_capacity},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("max_memory against resident memory", tests);
}
