/*
 * test_daemon_call_time.c: process tests of the wall-clock bound of a call
 * to `semapraxd --stdio` (--max-call-seconds, docs/protocol-v2.md): a test
 * call running an endless loop with all the fuel there is, past
 * --max-call-seconds 1, is answered -32017 (reason call_too_long, its
 * detail naming the option) and the session goes on: a ping, and a test
 * that ends, are answered after it; the same in v3 (--allow-project-rename).
 * And the option's range on the command line. The clock is read only by the
 * daemon: the bound is what is tested, with a margin of many seconds (an
 * endless loop never ends by itself).
 */
#include "spx_daemon.h"
#include "spx_limits.h"
#include "spx_process.h"
#include "spx_rpc.h"

#include <apr_strings.h>
#include <string.h>

/* A session with --max-call-seconds 1 (and extra): the endless test is
 * stopped and answered, and the session answers what follows. */
static void assert_call_stopped_and_session_goes_on(const char *const *arguments)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_write_spin_project(fixture);
    spx_daemon_t *daemon = spx_daemon_start_on(fixture, "proj", arguments);
    const char *revisions = spx_daemon_open(daemon);
    const char *spin = spx_request_line(
        "2", "test",
        apr_pstrcat(pool, revisions, ",\"tests\":[\"spin\"],\"max_steps\":10000000000", NULL),
        pool);
    const char *stopped = spx_daemon_call(daemon, spin);
    CU_ASSERT_PTR_NOT_NULL_FATAL(stopped);
    spx_assert_error(stopped, SPX_RPC_CALL_TOO_LONG, "2", "call_too_long",
                     "the call ran past --max-call-seconds 1 and was stopped", pool);

    const char *ping =
        spx_daemon_call(daemon, "{\"id\":3,\"jsonrpc\":\"2.0\",\"method\":\"ping\"}");
    CU_ASSERT_PTR_NOT_NULL_FATAL(ping);
    CU_ASSERT_STRING_EQUAL(ping, "{\"id\":3,\"jsonrpc\":\"2.0\",\"result\":{\"state\":\"open\"}}");
    json_t *quick = spx_daemon_call_json(
        daemon,
        spx_request_line("4", "test", apr_pstrcat(pool, revisions, ",\"tests\":[\"quick\"]", NULL),
                         pool));
    json_t *result = json_object_get(quick, "result");
    CU_ASSERT_TRUE(json_is_true(json_object_get(result, "command_succeeded")));
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(
                        json_object_get(json_object_get(result, "envelope"), "summary"), "passed")),
                    1);
    json_decref(quick);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    CU_ASSERT_STRING_EQUAL(spx_daemon_rest(daemon), "");
    spx_fixture_free(fixture);
}

static void test_v2_call_past_the_bound(void)
{
    assert_call_stopped_and_session_goes_on((const char *const[]){"--max-call-seconds", "1", NULL});
}

static void test_v3_call_past_the_bound(void)
{
    assert_call_stopped_and_session_goes_on(
        (const char *const[]){"--allow-project-rename", "--max-call-seconds", "1", NULL});
}

static void assert_usage_error(apr_pool_t *pool, const char *const *arguments, const char *why)
{
    spx_process_result_t result =
        spx_process_run(spx_program_path("SPX_SEMAPRAXD"), arguments, NULL, pool);
    CU_ASSERT_EQUAL(result.exit_code, 2);
    CU_ASSERT_EQUAL(result.out_length, 0);
    spx_assert_contains(result.err, why);
}

static void test_command_line(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    const char *range =
        apr_psprintf(pool, "--max-call-seconds must be %u..%u, not ",
                     SPX_LIMIT_CALL_SECONDS_MINIMUM, SPX_LIMIT_CALL_SECONDS_MAXIMUM);
    assert_usage_error(pool, (const char *const[]){"--stdio", "--max-call-seconds", "0", NULL},
                       apr_pstrcat(pool, range, "0", NULL));
    assert_usage_error(pool, (const char *const[]){"--stdio", "--max-call-seconds", "86401", NULL},
                       apr_pstrcat(pool, range, "86401", NULL));
    assert_usage_error(pool, (const char *const[]){"--stdio", "--max-call-seconds", "1.5", NULL},
                       apr_pstrcat(pool, range, "1.5", NULL));
    assert_usage_error(pool,
                       (const char *const[]){"--stdio", "--max-call-seconds", "2",
                                             "--max-call-seconds", "3", NULL},
                       "option given twice: --max-call-seconds");
    assert_usage_error(pool, (const char *const[]){"--stdio", "--max-call-seconds", NULL},
                       "option needs a value: --max-call-seconds");
    spx_process_result_t help = spx_process_run(spx_program_path("SPX_SEMAPRAXD"),
                                                (const char *const[]){"--help", NULL}, NULL, pool);
    CU_ASSERT_EQUAL(help.exit_code, 0);
    spx_assert_contains(
        help.out, apr_psprintf(pool, "(default %u, %u..%u)", SPX_LIMIT_CALL_SECONDS_DEFAULT,
                               SPX_LIMIT_CALL_SECONDS_MINIMUM, SPX_LIMIT_CALL_SECONDS_MAXIMUM));
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"v2: a test past --max-call-seconds is answered -32017 and the session goes on",
         test_v2_call_past_the_bound},
        {"v3: the same", test_v3_call_past_the_bound},
        {"--max-call-seconds on the command line: its range, once, with a value",
         test_command_line},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("semapraxd --stdio: the wall-clock bound of a call", tests);
}
