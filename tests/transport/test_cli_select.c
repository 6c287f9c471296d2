/*
 * test_cli_select.c: process tests of issue 20 through the real programs:
 * `semaprax test NAME...` (the selection, its order, the module.function
 * form, an unknown or ambiguous name with the nearest names, the envelope's
 * "selection" and verify re-running it), --max-call-depth (a recursive
 * sum_to(1000) out of depth at the default and passing at 2000, the range,
 * the envelope and verify), the whole output of a failing test in the plain
 * lines with its control characters escaped, the options that raise an
 * exhausted limit, and the daemon's `test` params tests and max_call_depth.
 */
#include "spx_canonical.h"
#include "spx_daemon.h"
#include "spx_process.h"

#include <apr_strings.h>
#include <stdlib.h>
#include <string.h>

static const char *const no_extra[] = {NULL};

/* sum_to(1000) is 1001 active calls: with main or test_deep, 1002. */
static const char source[] =
    "fn sum_to(n: int) -> int {\n"
    "    if n == 0 { return 0; }\n"
    "    return n + sum_to(n - 1);\n"
    "}\n"
    "fn main() -> int { return sum_to(1000) - 500500; }\n"
    "fn test_deep() -> int { return sum_to(1000) - 500500; }\n"
    "fn test_noisy() -> int {\n"
    "    print(\"line one\\n\");\n"
    "    print(\"tab\\there \" + chr(27) + \"[31m red\" + chr(13) + \"\\n\");\n"
    "    print(\"del\" + chr(127) + \" c1\" + chr(133) + \" \\u{e9}\\n\\nlast\");\n"
    "    return 1;\n"
    "}\n"
    "fn test_spin() -> int {\n"
    "    var i = 0;\n"
    "    while true { i = i + 1; }\n"
    "    return i;\n"
    "}\n"
    "fn test_twin() -> int { print(\"passed output is not shown\\n\"); return 0; }\n";

static const char *write_project(spx_fixture_t *fixture)
{
    spx_fixture_write(fixture, "proj/app.spx", source);
    spx_fixture_write(fixture, "proj/semaprax.toml",
                      "manifest = \"semaprax.project-manifest.v1\"\n\n[project]\nname = \"p\"\n"
                      "version = \"1.0.0\"\nentry = \"app.main\"\n\n[[source]]\nmodule = \"app\"\n"
                      "path = \"app.spx\"\n\n"
                      "[[test]]\nname = \"deep\"\nfunction = \"app.test_deep\"\n\n"
                      "[[test]]\nname = \"noisy\"\nfunction = \"app.test_noisy\"\n\n"
                      "[[test]]\nname = \"spin\"\nfunction = \"app.test_spin\"\n\n"
                      "[[test]]\nname = \"twin-a\"\nfunction = \"app.test_twin\"\n\n"
                      "[[test]]\nname = \"twin-b\"\nfunction = \"app.test_twin\"\n");
    return spx_fixture_path(fixture, "proj/semaprax.toml");
}

#define DEEP_AT_DEFAULT                                                                            \
    "test deep (app.test_deep) ... depth_exhausted, 768 steps: app.spx:3:16: error[R0510]: call "  \
    "depth exhausted: calling 'app.sum_to' would exceed the call-depth limit of 256; raise "       \
    "--max-call-depth (now 256)\n"
#define DEEP_PASSED "test deep (app.test_deep) ... passed, 3005 steps, returned 0\n"
#define NOISY                                                                                      \
    "test noisy (app.test_noisy) ... failed, 12 steps, returned 1\n"                               \
    "    output (47 bytes):\n"                                                                     \
    "    | line one\n"                                                                             \
    "    | tab\there \\x1b[31m red\\r\n"                                                           \
    "    | del\\x7f c1\\u0085 \xc3\xa9\n"                                                          \
    "    | \n"                                                                                     \
    "    | last\n"

static void test_selection(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    const char *manifest = write_project(fixture);
    const char *envelope_path = spx_fixture_path(fixture, "selected.json");

    /* the names in any order, one given twice, one as module.function: run
     * once each, in manifest order */
    spx_process_result_t some =
        SPX_RUN_SEMAPRAX(pool, "test", "noisy", "--manifest-path", manifest, "app.test_deep",
                         "noisy", "--envelope", envelope_path);
    CU_ASSERT_EQUAL(some.exit_code, 1);
    CU_ASSERT_STRING_EQUAL(some.out, DEEP_AT_DEFAULT NOISY
                           "semaprax: 2 tests: 0 passed, 1 failed, 0 language failures, 0 out of "
                           "fuel, 1 out of depth\n"
                           "semaprax: 2 of 2 tests failed: deep (depth_exhausted after 768 steps "
                           "at app.spx:3:16: R0510 call depth exhausted: calling 'app.sum_to' "
                           "would exceed the call-depth limit of 256; raise --max-call-depth (now "
                           "256)), noisy (failed: returned 1)\n");
    CU_ASSERT_STRING_EQUAL(some.err, "");
    json_t *envelope = json_loads(spx_fixture_read(fixture, "selected.json"), 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(envelope);
    char *selection = json_dumps(json_object_get(envelope, "selection"), JSON_COMPACT);
    CU_ASSERT_STRING_EQUAL(selection, "[\"deep\",\"noisy\"]");
    free(selection);
    CU_ASSERT_EQUAL(json_array_size(json_object_get(envelope, "tests")), 2);
    CU_ASSERT_EQUAL(
        json_integer_value(json_object_get(json_object_get(envelope, "summary"), "total")), 2);

    /* verify re-runs the same selection */
    spx_process_result_t verified =
        SPX_RUN_SEMAPRAX(pool, "verify", envelope_path, "--manifest-path", manifest);
    CU_ASSERT_EQUAL(verified.exit_code, 0);
    CU_ASSERT_STRING_EQUAL(verified.out, "digest: ok\nsubject: ok\nre-run: ok\n"
                                         "semaprax: the envelope is verified\n");
    /* a selection changed (and the digest made again) is re-run as recorded,
     * and so differs from what the envelope says */
    json_object_set_new(envelope, "selection", json_pack("[s]", "deep"));
    json_object_del(envelope, "envelope_digest");
    json_object_set_new(envelope, "envelope_digest",
                        json_string(spx_canonical_digest(envelope, pool)));
    spx_fixture_write(fixture, "forged.json", spx_canonical_text(envelope, pool));
    spx_process_result_t forged = SPX_RUN_SEMAPRAX(
        pool, "verify", spx_fixture_path(fixture, "forged.json"), "--manifest-path", manifest);
    CU_ASSERT_EQUAL(forged.exit_code, 1);
    spx_assert_contains(forged.out, "digest: ok\nsubject: ok\nre-run: FAILED: the re-run differs "
                                    "at summary.failed");
    /* a selected name the project does not have */
    json_object_set_new(envelope, "selection", json_pack("[s]", "gone"));
    json_object_del(envelope, "envelope_digest");
    json_object_set_new(envelope, "envelope_digest",
                        json_string(spx_canonical_digest(envelope, pool)));
    spx_fixture_write(fixture, "gone.json", spx_canonical_text(envelope, pool));
    spx_process_result_t gone = SPX_RUN_SEMAPRAX(
        pool, "verify", spx_fixture_path(fixture, "gone.json"), "--manifest-path", manifest);
    CU_ASSERT_EQUAL(gone.exit_code, 1);
    spx_assert_contains(gone.out, "re-run: FAILED: the recorded selection cannot be run again: no "
                                  "test 'gone' in this project\n");
    json_decref(envelope);

    /* the whole closure: no selection in the envelope */
    spx_process_result_t all =
        SPX_RUN_SEMAPRAX(pool, "test", "--manifest-path", manifest, "--envelope",
                         spx_fixture_path(fixture, "all.json"));
    CU_ASSERT_EQUAL(all.exit_code, 1);
    json_t *whole = json_loads(spx_fixture_read(fixture, "all.json"), 0, NULL);
    CU_ASSERT_PTR_NULL(json_object_get(whole, "selection"));
    CU_ASSERT_EQUAL(json_array_size(json_object_get(whole, "tests")), 5);
    json_decref(whole);

    /* a passing selection exits 0; a passed test's output is not shown */
    spx_process_result_t twins =
        SPX_RUN_SEMAPRAX(pool, "test", "twin-b", "twin-a", "--manifest-path", manifest);
    CU_ASSERT_EQUAL(twins.exit_code, 0);
    CU_ASSERT_STRING_EQUAL(twins.out,
                           "test twin-a (app.test_twin) ... passed, 4 steps, returned 0\n"
                           "test twin-b (app.test_twin) ... passed, 4 steps, returned 0\n"
                           "semaprax: 2 tests: 2 passed, 0 failed, 0 language failures, 0 out of "
                           "fuel, 0 out of depth\n");
    spx_fixture_free(fixture);
}

static void test_unknown_names(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    const char *manifest = write_project(fixture);
    static const struct {
        const char *name, *err;
    } cases[] = {
        {"nosiy", "semaprax: no test 'nosiy' in this project; nearest: noisy\n"},
        {"twin-c", "semaprax: no test 'twin-c' in this project; nearest: twin-a, twin-b\n"},
        {"app.test_dep", "semaprax: no test 'app.test_dep' in this project; nearest: "
                         "app.test_deep\n"},
        {"zzzzzzzz", "semaprax: no test 'zzzzzzzz' in this project\n"},
        {"app.test_twin", "semaprax: 2 tests run the function 'app.test_twin'; name the test "
                          "instead (first 'twin-a')\n"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        spx_process_result_t result =
            SPX_RUN_SEMAPRAX(pool, "test", "deep", cases[i].name, "--manifest-path", manifest,
                             "--envelope", spx_fixture_path(fixture, "never.json"));
        CU_ASSERT_EQUAL(result.exit_code, 2);
        CU_ASSERT_STRING_EQUAL(result.out, "");
        CU_ASSERT_STRING_EQUAL(result.err,
                               apr_pstrcat(pool, cases[i].err, "Try 'semaprax --help'.\n", NULL));
    }
    /* nothing ran, no envelope was written */
    apr_finfo_t info;
    CU_ASSERT_NOT_EQUAL(
        apr_stat(&info, spx_fixture_path(fixture, "never.json"), APR_FINFO_TYPE, pool),
        APR_SUCCESS);
    /* run takes no names */
    spx_process_result_t run = SPX_RUN_SEMAPRAX(pool, "run", "deep", "--manifest-path", manifest);
    CU_ASSERT_EQUAL(run.exit_code, 2);
    spx_assert_contains(run.err, "unexpected argument 'deep'");
    spx_fixture_free(fixture);
}

static void test_max_call_depth(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    const char *manifest = write_project(fixture);

    /* run: out of depth at the default, saying which option raises it */
    spx_process_result_t shallow = SPX_RUN_SEMAPRAX(pool, "run", "--manifest-path", manifest);
    CU_ASSERT_EQUAL(shallow.exit_code, 1);
    CU_ASSERT_STRING_EQUAL(shallow.err,
                           "app.spx:3:16: error[R0510]: call depth exhausted: calling "
                           "'app.sum_to' would exceed the call-depth limit of 256\n"
                           "semaprax: entry 'app.main': out of call depth after 768 steps; raise "
                           "--max-call-depth (now 256)\n");
    spx_process_result_t deep =
        SPX_RUN_SEMAPRAX(pool, "run", "--manifest-path", manifest, "--max-call-depth", "2000");
    CU_ASSERT_EQUAL(deep.exit_code, 0);
    CU_ASSERT_STRING_EQUAL(deep.err, "");
    /* exactly enough: main and sum_to(1000) down to sum_to(0), 1002 active calls */
    spx_process_result_t just =
        SPX_RUN_SEMAPRAX(pool, "run", "--manifest-path", manifest, "--max-call-depth", "1002");
    CU_ASSERT_EQUAL(just.exit_code, 0);
    spx_process_result_t short_by_one =
        SPX_RUN_SEMAPRAX(pool, "run", "--manifest-path", manifest, "--max-call-depth", "1001");
    CU_ASSERT_EQUAL(short_by_one.exit_code, 1);
    spx_assert_contains(short_by_one.err, "the call-depth limit of 1001\n");

    /* test: the same, recorded in the envelope, verified with the recorded depth */
    spx_process_result_t at_default =
        SPX_RUN_SEMAPRAX(pool, "test", "deep", "--manifest-path", manifest);
    CU_ASSERT_EQUAL(at_default.exit_code, 1);
    spx_assert_contains(at_default.out, DEEP_AT_DEFAULT);
    const char *envelope_path = spx_fixture_path(fixture, "deep.json");
    spx_process_result_t raised =
        SPX_RUN_SEMAPRAX(pool, "test", "deep", "--manifest-path", manifest, "--max-call-depth",
                         "2000", "--envelope", envelope_path);
    CU_ASSERT_EQUAL(raised.exit_code, 0);
    CU_ASSERT_STRING_EQUAL(raised.out, DEEP_PASSED
                           "semaprax: 1 test: 1 passed, 0 failed, 0 language failures, 0 out of "
                           "fuel, 0 out of depth\n");
    json_t *envelope = json_loads(spx_fixture_read(fixture, "deep.json"), 0, NULL);
    CU_ASSERT_EQUAL(
        json_integer_value(json_object_get(json_object_get(envelope, "limits"), "max_call_depth")),
        2000);
    json_decref(envelope);
    spx_process_result_t verified =
        SPX_RUN_SEMAPRAX(pool, "verify", envelope_path, "--manifest-path", manifest);
    CU_ASSERT_EQUAL(verified.exit_code, 0);
    CU_ASSERT_STRING_EQUAL(verified.out, "digest: ok\nsubject: ok\nre-run: ok\n"
                                         "semaprax: the envelope is verified\n");

    /* the range, on both commands */
    static const struct {
        const char *value, *err;
    } bad[] = {
        {"0", "semaprax: --max-call-depth 0 is under the minimum of 1\n"},
        {"65537", "semaprax: --max-call-depth 65537 is over the maximum of 65536\n"},
        {"-1", "semaprax: --max-call-depth takes a whole number, not '-1'\n"},
        {"2k", "semaprax: --max-call-depth takes a whole number, not '2k'\n"},
    };
    const char *commands[] = {"run", "test"};
    for (size_t c = 0; c < 2; c++)
        for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
            spx_process_result_t result = SPX_RUN_SEMAPRAX(
                pool, commands[c], "--manifest-path", manifest, "--max-call-depth", bad[i].value);
            CU_ASSERT_EQUAL(result.exit_code, 2);
            CU_ASSERT_STRING_EQUAL(result.out, "");
            CU_ASSERT_STRING_EQUAL(result.err,
                                   apr_pstrcat(pool, bad[i].err, "Try 'semaprax --help'.\n", NULL));
        }
    /* the maximum is accepted */
    spx_process_result_t most =
        SPX_RUN_SEMAPRAX(pool, "run", "--manifest-path", manifest, "--max-call-depth", "65536");
    CU_ASSERT_EQUAL(most.exit_code, 0);
    spx_fixture_free(fixture);
}

static void test_fuel_and_output(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    const char *manifest = write_project(fixture);
    spx_process_result_t spin =
        SPX_RUN_SEMAPRAX(pool, "test", "spin", "--manifest-path", manifest, "--max-steps", "1000");
    CU_ASSERT_EQUAL(spin.exit_code, 1);
    spx_assert_contains(spin.out, "test spin (app.test_spin) ... fuel_exhausted, 1000 steps: "
                                  "app.spx:15:");
    spx_assert_contains(spin.out, ": error[R0509]: fuel exhausted: max_steps 1000 reached; raise "
                                  "--max-steps (now 1000)\n");
    spx_assert_contains(spin.out, "semaprax: 1 of 1 test failed: spin (fuel_exhausted after 1000 "
                                  "steps at app.spx:15:");
    /* the output of a failing test in full, cut at --max-bytes and saying so */
    spx_process_result_t cut =
        SPX_RUN_SEMAPRAX(pool, "test", "noisy", "--manifest-path", manifest, "--max-bytes", "12");
    CU_ASSERT_EQUAL(cut.exit_code, 1);
    spx_assert_contains(cut.out, "    output (12 bytes, cut at --max-bytes; raise it with "
                                 "--max-bytes N):\n    | line one\n    | tab\n");
    spx_fixture_free(fixture);
}

static void test_daemon_params(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    const char *manifest = write_project(fixture);
    spx_daemon_t *daemon = spx_daemon_start_on(fixture, "proj", no_extra);
    const char *revisions = apr_pstrdup(pool, spx_daemon_open(daemon));

    /* tests and max_call_depth: the same envelope as the CLI's, byte for byte */
    json_t *answer = spx_daemon_call_json(
        daemon,
        spx_request_line("1", "test",
                         apr_pstrcat(pool, revisions,
                                     ",\"tests\":[\"noisy\",\"app.test_deep\"],\"max_call_depth\":"
                                     "2000",
                                     NULL),
                         pool));
    json_t *envelope = json_object_get(json_object_get(answer, "result"), "envelope");
    CU_ASSERT_PTR_NOT_NULL_FATAL(envelope);
    char *selection = json_dumps(json_object_get(envelope, "selection"), JSON_COMPACT);
    CU_ASSERT_STRING_EQUAL(selection, "[\"deep\",\"noisy\"]");
    free(selection);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(
                               json_array_get(json_object_get(envelope, "tests"), 0), "outcome")),
                           "passed");
    const char *daemon_text = apr_pstrcat(pool, spx_canonical_text(envelope, pool), "\n", NULL);
    spx_process_result_t cli = SPX_RUN_SEMAPRAX(pool, "test", "deep", "noisy", "--manifest-path",
                                                manifest, "--max-call-depth", "2000", "--envelope",
                                                spx_fixture_path(fixture, "cli.json"));
    CU_ASSERT_EQUAL(cli.exit_code, 1);
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "cli.json"), daemon_text);
    json_decref(answer);

    /* the refusals */
    static const struct {
        const char *params, *reason, *detail;
    } refused[] = {
        {",\"tests\":[\"nosiy\"]", "unknown_target",
         "no test 'nosiy' in this project; nearest: noisy"},
        {",\"tests\":[\"app.test_twin\"]", "unknown_target",
         "2 tests run the function 'app.test_twin'"},
        {",\"tests\":[]", "invalid_value", "tests must name at least one test"},
        {",\"tests\":\"deep\"", "mistyped_param", "tests must be an array"},
        {",\"tests\":[\"deep\",7]", "mistyped_param", "tests[1] must be a string"},
        {",\"max_call_depth\":0", "out_of_range", "max_call_depth 0 is outside 1..65536"},
        {",\"max_call_depth\":65537", "out_of_range", "max_call_depth 65537 is outside 1..65536"},
        {",\"max_call_depth\":\"9\"", "mistyped_param", "max_call_depth must be a JSON integer"},
    };
    for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
        const char *line = spx_daemon_call(
            daemon, spx_request_line("2", "test",
                                     apr_pstrcat(pool, revisions, refused[i].params, NULL), pool));
        spx_assert_error(line, -32602, "2", refused[i].reason, refused[i].detail, pool);
    }

    /* protocol names the maximum and the default */
    json_t *protocol = spx_daemon_call_json(daemon, spx_request_line("3", "protocol", "", pool));
    json_t *limits = json_object_get(json_object_get(protocol, "result"), "limits");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(limits, "max_call_depth")), 65536);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(limits, "max_call_depth_default")), 256);
    json_decref(protocol);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"semaprax test NAME...: order, forms, envelope selection, verify", test_selection},
        {"semaprax test NAME...: unknown and ambiguous names are usage errors", test_unknown_names},
        {"--max-call-depth: sum_to(1000) at 256 and 2000, range, envelope, verify",
         test_max_call_depth},
        {"fuel says --max-steps; a failing test's output in full, cut at --max-bytes",
         test_fuel_and_output},
        {"semapraxd test: tests and max_call_depth, refusals, protocol", test_daemon_params},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("selecting tests, call depth, output", tests);
}
