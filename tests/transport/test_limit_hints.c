/*
 * test_limit_hints.c: the sentences that say which limit stopped a run and
 * what raises it, through the real programs, on a project whose tests loop
 * for ever (max_steps), allocate past max_memory and recurse past
 * max_call_depth, one that fails an assertion and one that passes:
 * `semaprax test` names the option on each test's line and its last line
 * names every test that did not pass; `semaprax run` names the option after
 * the entry's failure; MCP's test summary names the tests and the argument.
 * The envelope is the engine's, unchanged: its messages name no option.
 */
#include "spx_daemon.h"
#include "spx_process.h"

#include <apr_strings.h>
#include <string.h>

static const char source[] = "fn down(n: int) -> int {\n"
                             "    return down(n + 1);\n"
                             "}\n"
                             "fn test_loop() -> int {\n"
                             "    var i = 0;\n"
                             "    while true {\n"
                             "        i = i + 1;\n"
                             "    }\n"
                             "    return i;\n"
                             "}\n"
                             "fn test_deep() -> int {\n"
                             "    return down(0);\n"
                             "}\n"
                             "fn test_alloc() -> int {\n"
                             "    var s = \"ab\";\n"
                             "    while true {\n"
                             "        s = s + s;\n"
                             "    }\n"
                             "    return len(s);\n"
                             "}\n"
                             "fn test_ok() -> int {\n"
                             "    return 0;\n"
                             "}\n"
                             "fn test_wrong() -> int {\n"
                             "    assert(1 + 1 == 3);\n"
                             "    return 0;\n"
                             "}\n";

/* The project "proj", its entry app.test_alloc; its manifest's path. */
static const char *write_project(spx_fixture_t *fixture)
{
    static const char *const tests[] = {"loop", "deep", "alloc", "ok", "wrong"};
    const char *manifest = "manifest = \"semaprax.project-manifest.v1\"\n\n[project]\n"
                           "name = \"p\"\nversion = \"1.0.0\"\nentry = \"app.test_alloc\"\n\n"
                           "[[source]]\nmodule = \"app\"\npath = \"app.spx\"\n";
    for (size_t i = 0; i < sizeof(tests) / sizeof(tests[0]); i++)
        manifest =
            apr_psprintf(fixture->pool, "%s\n[[test]]\nname = \"%s\"\nfunction = \"app.test_%s\"\n",
                         manifest, tests[i], tests[i]);
    spx_fixture_write(fixture, "proj/semaprax.toml", manifest);
    spx_fixture_write(fixture, "proj/app.spx", source);
    return spx_fixture_path(fixture, "proj/semaprax.toml");
}

#define LOOP_FAILURE "app.spx:7:9: error[R0509]: fuel exhausted: max_steps 1000000 reached"
#define DEEP_FAILURE                                                                               \
    "app.spx:2:12: error[R0510]: call depth exhausted: calling 'app.down' would exceed the "       \
    "call-depth limit of 256"
#define ALLOC_FAILURE                                                                              \
    "app.spx:17:13: error[R0521]: memory limit exceeded: 1600 bytes live, over max_memory 1000"

static void test_cli(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    const char *manifest = write_project(fixture);
    spx_process_result_t test =
        SPX_RUN_SEMAPRAX(pool, "test", "--manifest-path", manifest, "--max-memory", "1000");
    CU_ASSERT_EQUAL(test.exit_code, 1);
    CU_ASSERT_STRING_EQUAL(
        test.out,
        "test loop (app.test_loop) ... fuel_exhausted, 1000000 steps: " LOOP_FAILURE
        "; raise --max-steps (now 1000000)\n"
        "test deep (app.test_deep) ... depth_exhausted, 513 steps: " DEEP_FAILURE
        "; raise --max-call-depth (now 256)\n"
        "test alloc (app.test_alloc) ... language_failure, 52 steps: " ALLOC_FAILURE
        "; raise --max-memory (now 1000)\n"
        "test ok (app.test_ok) ... passed, 2 steps, returned 0\n"
        "test wrong (app.test_wrong) ... language_failure, 3 steps: app.spx:25:5: "
        "error[R0508]: assertion failed\n"
        "semaprax: 5 tests: 1 passed, 0 failed, 2 language failures, 1 out of fuel, 1 out of "
        "depth\n"
        "semaprax: 4 of 5 tests failed: loop (fuel_exhausted after 1000000 steps at app.spx:7:9: "
        "R0509 fuel exhausted: max_steps 1000000 reached; raise --max-steps (now 1000000)), deep "
        "(depth_exhausted after 513 steps at app.spx:2:12: R0510 call depth exhausted: calling "
        "'app.down' would exceed the call-depth limit of 256; raise --max-call-depth (now 256)), "
        "alloc (language_failure after 52 steps at app.spx:17:13: R0521 memory limit exceeded: "
        "1600 bytes live, over max_memory 1000; raise --max-memory (now 1000)), wrong "
        "(language_failure after 3 steps at app.spx:25:5: R0508 assertion failed)\n");
    CU_ASSERT_STRING_EQUAL(test.err, "");

    /* the entry, and a limit at its maximum: nothing to raise */
    spx_process_result_t run =
        SPX_RUN_SEMAPRAX(pool, "run", "--manifest-path", manifest, "--max-memory", "1000");
    CU_ASSERT_EQUAL(run.exit_code, 1);
    CU_ASSERT_STRING_EQUAL(run.err, ALLOC_FAILURE "\nsemaprax: entry 'app.test_alloc': "
                                                  "language_failure after 52 steps; raise "
                                                  "--max-memory (now 1000)\n");
    spx_process_result_t selected = SPX_RUN_SEMAPRAX(pool, "test", "deep", "--manifest-path",
                                                     manifest, "--max-call-depth", "65536");
    CU_ASSERT_EQUAL(selected.exit_code, 1);
    spx_assert_contains(selected.out, "would exceed the call-depth limit of 65536; "
                                      "--max-call-depth is at its maximum (65536)\n");
    spx_fixture_free(fixture);
}

#define INITIALIZE                                                                                 \
    "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"     \
    "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"test_limit_hints\","            \
    "\"version\":\"1\"}}}"
#define INITIALIZED "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"

static void test_mcp(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    const char *manifest = write_project(fixture);
    const char *const mcp[] = {"--mcp", NULL};
    spx_daemon_t *daemon = spx_daemon_start_on(fixture, "proj", mcp);
    json_decref(spx_daemon_call_json(daemon, INITIALIZE));
    CU_ASSERT_EQUAL(spx_daemon_send(daemon, INITIALIZED, strlen(INITIALIZED)), APR_SUCCESS);
    json_t *answer = spx_daemon_call_json(
        daemon, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":"
                "\"test\",\"arguments\":{\"max_memory\":1000}}}");
    json_t *result = json_object_get(answer, "result");
    CU_ASSERT_TRUE(json_is_false(json_object_get(result, "isError")));
    const char *text = json_string_value(
        json_object_get(json_array_get(json_object_get(result, "content"), 0), "text"));
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    const char *summary = apr_pstrndup(pool, text, strcspn(text, "\n"));
    CU_ASSERT_STRING_EQUAL(
        summary,
        "Tests: 1 of 5 passed, 0 failed, 1 fuel exhausted, 1 depth exhausted, 2 language "
        "failures; command failed. 4 of 5 tests failed: loop (fuel_exhausted after 1000000 steps "
        "at app.spx:7:9: R0509 fuel exhausted: max_steps 1000000 reached; raise max_steps (now "
        "1000000)), deep (depth_exhausted after 513 steps at app.spx:2:12: R0510 call depth "
        "exhausted: calling 'app.down' would exceed the call-depth limit of 256; raise "
        "max_call_depth (now 256)), alloc (language_failure after 52 steps at app.spx:17:13: "
        "R0521 memory limit exceeded: 1600 bytes live, over max_memory 1000; raise max_memory "
        "(now 1000)), wrong (language_failure after 3 steps at app.spx:25:5: R0508 assertion "
        "failed).");
    /* the envelope keeps the engine's messages, which name no option */
    json_t *tests = json_object_get(
        json_object_get(json_object_get(result, "structuredContent"), "envelope"), "tests");
    CU_ASSERT_EQUAL(json_array_size(tests), 5);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(
                               json_object_get(json_array_get(tests, 0), "failure"), "message")),
                           "fuel exhausted: max_steps 1000000 reached");
    json_decref(answer);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    (void)manifest;
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"semaprax test and run: each limit's option, and the failing tests named", test_cli},
        {"semapraxd --mcp: the test summary names the failing tests and each limit's argument",
         test_mcp},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("the limit that stopped a run, named", tests);
}
