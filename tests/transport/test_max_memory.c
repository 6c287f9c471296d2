/*
 * test_max_memory.c: max_memory through the real programs, on a small
 * language v2 project whose live memory peaks at 144 bytes (counted by hand
 * below): `semaprax run --max-memory N` and `semaprax test --max-memory N`
 * stop with R0521 at 143 and run at 144, the daemon's `test` with
 * `max_memory` 143 gives the same R0521 in its envelope, and `semaprax
 * verify` re-runs that envelope to the same failure.
 */
#include "spx_canonical.h"
#include "spx_daemon.h"
#include "spx_process.h"

#include <apr_strings.h>
#include <string.h>

static const char *const no_extra[] = {NULL};

/* The project "proj": app.main is the entry and the test "tally".
 * Memory: "a" is a literal (its header, 32), [] 32, the Tally 32 + 2 x 8 =
 * 48: 112; the first push gives hits a capacity of 4 slots (32): 144, which
 * the next two fill. Steps of a whole run: call, var, for, 4 checks, 3 x
 * (statement, push), return, len: 15. With max_memory 143 the first push
 * fails, after call, var, for, a check, statement, push: 6; its span
 * starts at line 4, column 19. */
static const char source[] = "struct Tally { name: str, hits: [int] }\n"
                             "fn main() -> int {\n"
                             "  var t = Tally { name: \"a\", hits: [] };\n"
                             "  for i in 0..3 { t.hits.push(i * i); }\n"
                             "  return len(t.hits) + t.hits[2] - 7;\n"
                             "}\n";

#define FAILURE_LINE                                                                               \
    "app.spx:4:19: error[R0521]: memory limit exceeded: 144 bytes live, over max_memory 143"

static const char *write_project(spx_fixture_t *fixture)
{
    spx_fixture_write(
        fixture, "proj/semaprax.toml",
        "manifest = \"semaprax.project-manifest.v1\"\n\n[project]\nname = \"p\"\n"
        "version = \"1.0.0\"\nentry = \"app.main\"\n\n[[source]]\nmodule = \"app\"\n"
        "path = \"app.spx\"\n\n[[test]]\nname = \"tally\"\nfunction = \"app.main\"\n");
    spx_fixture_write(fixture, "proj/app.spx", source);
    return spx_fixture_path(fixture, "proj/semaprax.toml");
}

static void test_cli_run_and_test(void)
{
    static const struct {
        const char *command, *max_memory;
        int exit_code;
        const char *out, *err;
    } cases[] = {
        {"run", "143", 1, "",
         FAILURE_LINE "\nsemaprax: entry 'app.main': language_failure after 6 steps; raise "
                      "--max-memory (now 143)\n"},
        {"run", "144", 0, "", ""},
        {"test", "143", 1,
         "test tally (app.main) ... language_failure, 6 steps: " FAILURE_LINE
         "; raise --max-memory (now 143)\n"
         "semaprax: 1 test: 0 passed, 0 failed, 1 language failure, 0 out of fuel, 0 out "
         "of depth\n"
         "semaprax: 1 of 1 test failed: tally (language_failure after 6 steps at app.spx:4:19: "
         "R0521 memory limit exceeded: 144 bytes live, over max_memory 143; raise --max-memory "
         "(now 143))\n",
         ""},
        {"test", "144", 0,
         "test tally (app.main) ... passed, 15 steps, returned 0\n"
         "semaprax: 1 test: 1 passed, 0 failed, 0 language failures, 0 out of fuel, 0 out of "
         "depth\n",
         ""},
    };
    spx_fixture_t *fixture = spx_fixture_new();
    const char *manifest = write_project(fixture);
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        spx_process_result_t result =
            SPX_RUN_SEMAPRAX(fixture->pool, cases[i].command, "--manifest-path", manifest,
                             "--max-memory", cases[i].max_memory);
        CU_ASSERT_EQUAL(result.exit_code, cases[i].exit_code);
        CU_ASSERT_STRING_EQUAL(result.out, cases[i].out);
        CU_ASSERT_STRING_EQUAL(result.err, cases[i].err);
    }
    spx_fixture_free(fixture);
}

/* The failure of the envelope's only test: R0521 at 4:19 after 6 steps. */
static void assert_envelope_failure(json_t *envelope)
{
    CU_ASSERT_TRUE(json_is_false(json_object_get(envelope, "command_succeeded")));
    CU_ASSERT_EQUAL(
        json_integer_value(json_object_get(json_object_get(envelope, "limits"), "max_memory")),
        143);
    json_t *test = json_array_get(json_object_get(envelope, "tests"), 0);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(test, "outcome")), "language_failure");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(test, "steps")), 6);
    json_t *failure = json_object_get(test, "failure");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(failure, "code")), "R0521");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(failure, "message")),
                           "memory limit exceeded: 144 bytes live, over max_memory 143");
    json_t *start = json_object_get(json_object_get(failure, "span"), "start");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(start, "line")), 4);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(start, "column")), 19);
}

static void test_daemon_test_request(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    const char *manifest = write_project(fixture);
    spx_daemon_t *daemon = spx_daemon_start_on(fixture, "proj", no_extra);
    const char *revisions = apr_pstrdup(pool, spx_daemon_open(daemon));

    json_t *under = spx_daemon_call_json(
        daemon, spx_request_line("1", "test",
                                 apr_pstrcat(pool, revisions, ",\"max_memory\":143", NULL), pool));
    json_t *envelope = json_object_get(json_object_get(under, "result"), "envelope");
    CU_ASSERT_PTR_NOT_NULL_FATAL(envelope);
    assert_envelope_failure(envelope);
    /* the CLI's envelope is the same, byte for byte, and verify re-runs it
     * with the recorded max_memory to the same failure */
    const char *daemon_text = apr_pstrcat(pool, spx_canonical_text(envelope, pool), "\n", NULL);
    spx_process_result_t cli =
        SPX_RUN_SEMAPRAX(pool, "test", "--manifest-path", manifest, "--max-memory", "143",
                         "--envelope", spx_fixture_path(fixture, "cli.json"));
    CU_ASSERT_EQUAL(cli.exit_code, 1);
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "cli.json"), daemon_text);
    spx_fixture_write(fixture, "daemon.json", daemon_text);
    spx_process_result_t verify = SPX_RUN_SEMAPRAX(
        pool, "verify", spx_fixture_path(fixture, "daemon.json"), "--manifest-path", manifest);
    CU_ASSERT_EQUAL(verify.exit_code, 0);
    CU_ASSERT_STRING_EQUAL(verify.out, "digest: ok\nsubject: ok\nre-run: ok\n"
                                       "semaprax: the envelope is verified\n");
    json_decref(under);

    json_t *at = spx_daemon_call_json(
        daemon, spx_request_line("2", "test",
                                 apr_pstrcat(pool, revisions, ",\"max_memory\":144", NULL), pool));
    json_t *passed = json_object_get(json_object_get(at, "result"), "envelope");
    CU_ASSERT_TRUE(json_is_true(json_object_get(passed, "command_succeeded")));
    json_t *test = json_array_get(json_object_get(passed, "tests"), 0);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(test, "outcome")), "passed");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(test, "steps")), 15);
    json_decref(at);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"semaprax run and test: R0521 at --max-memory 143, not at 144", test_cli_run_and_test},
        {"semapraxd test: max_memory 143 gives R0521 in the envelope, verified",
         test_daemon_test_request},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("max_memory through the programs", tests);
}
