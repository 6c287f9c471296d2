/*
 * test_mcp_call_time.c: process tests of a tools/call of `semapraxd --mcp`
 * that would never end (docs/agents.md, "Calls that take long"): the test
 * tool, and the run tool, running an endless loop with all the fuel there
 * is are stopped past --max-call-seconds 1 and answered with a tool error
 * naming the option, and the session goes on; a notifications/cancelled naming the call's id
 * (an integer or a string) stops it with no answer at all, and the requests
 * sent after it are answered, in order, whether they came before or after
 * the cancellation; a cancellation naming another id stops nothing. The
 * clock is read only by the daemon, with margins of many seconds.
 */
#include "spx_daemon.h"
#include "spx_process.h"

#include <apr_strings.h>
#include <apr_time.h>
#include <string.h>

#define INITIALIZE                                                                                 \
    "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"     \
    "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"test_mcp_call_time\","          \
    "\"version\":\"1\"}}}"
#define INITIALIZED "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"

/* tools/call test with id (JSON text) running the test name with all the fuel. */
static const char *test_call(const char *id, const char *name, apr_pool_t *pool)
{
    return apr_psprintf(pool,
                        "{\"jsonrpc\":\"2.0\",\"id\":%s,\"method\":\"tools/call\",\"params\":{"
                        "\"name\":\"test\",\"arguments\":{\"tests\":[\"%s\"],\"max_steps\":"
                        "10000000000}}}\n",
                        id, name);
}

static const char *cancel(const char *id, apr_pool_t *pool)
{
    return apr_psprintf(pool,
                        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{"
                        "\"requestId\":%s,\"reason\":\"the user gave up\"}}\n",
                        id);
}

static const char *ping(const char *id, apr_pool_t *pool)
{
    return apr_psprintf(pool, "{\"jsonrpc\":\"2.0\",\"id\":%s,\"method\":\"ping\"}\n", id);
}

static void send_text(spx_daemon_t *daemon, const char *text)
{
    CU_ASSERT_EQUAL(spx_daemon_send(daemon, text, strlen(text)), APR_SUCCESS);
}

/* semapraxd --mcp --max-call-seconds seconds on the project of
 * test_daemon_call_time.c ("spin" loops for ever, "quick" passes),
 * initialized. */
static spx_daemon_t *start(spx_fixture_t *fixture, const char *seconds)
{
    spx_daemon_write_spin_project(fixture);
    spx_daemon_t *daemon = spx_daemon_start_on(
        fixture, "proj", (const char *const[]){"--mcp", "--max-call-seconds", seconds, NULL});
    json_decref(spx_daemon_call_json(daemon, INITIALIZE));
    send_text(daemon, INITIALIZED);
    return daemon;
}

/* The next response: its id must be id (JSON text); a new reference. */
static json_t *next_answer(spx_daemon_t *daemon, const char *id)
{
    const char *line = spx_daemon_read_line(daemon);
    CU_ASSERT_PTR_NOT_NULL_FATAL(line);
    json_t *answer = json_loads(line, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(answer);
    json_t *expected = json_loads(id, JSON_DECODE_ANY, NULL);
    if (!json_equal(json_object_get(answer, "id"), expected))
        fprintf(stderr, "  wanted the answer to %s, got: %.300s\n", id, line);
    CU_ASSERT_TRUE(json_equal(json_object_get(answer, "id"), expected));
    json_decref(expected);
    return answer;
}

/* The quick test passes, answered to id 9: the session goes on. */
static void assert_session_goes_on(spx_daemon_t *daemon, apr_pool_t *pool)
{
    send_text(daemon, test_call("9", "quick", pool));
    json_t *quick = next_answer(daemon, "9");
    json_t *result = json_object_get(quick, "result");
    CU_ASSERT_TRUE(json_is_false(json_object_get(result, "isError")));
    CU_ASSERT_TRUE(json_is_true(
        json_object_get(json_object_get(result, "structuredContent"), "command_succeeded")));
    json_decref(quick);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    CU_ASSERT_STRING_EQUAL(spx_daemon_rest(daemon), ""); /* no answer to a cancelled call */
}

static void test_call_past_the_bound(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_t *daemon = start(fixture, "1");
    send_text(daemon, test_call("2", "spin", pool));
    send_text(daemon, ping("3", pool)); /* it waits for the call, then is answered */
    json_t *stopped = next_answer(daemon, "2");
    json_t *result = json_object_get(stopped, "result");
    CU_ASSERT_TRUE(json_is_true(json_object_get(result, "isError")));
    const char *text = json_string_value(
        json_object_get(json_array_get(json_object_get(result, "content"), 0), "text"));
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    spx_assert_contains(text, "the call ran past --max-call-seconds 1 and was stopped");
    json_decref(stopped);
    json_decref(next_answer(daemon, "3"));
    assert_session_goes_on(daemon, pool);
    spx_fixture_free(fixture);
}

/* The run tool: the same bound, the same answer. */
static void test_run_past_the_bound(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_t *daemon = start(fixture, "1");
    send_text(daemon, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{"
                      "\"name\":\"run\",\"arguments\":{\"entry\":\"app.spin\",\"max_steps\":"
                      "10000000000}}}\n");
    json_t *stopped = next_answer(daemon, "2");
    json_t *result = json_object_get(stopped, "result");
    CU_ASSERT_TRUE(json_is_true(json_object_get(result, "isError")));
    const char *text = json_string_value(
        json_object_get(json_array_get(json_object_get(result, "content"), 0), "text"));
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    spx_assert_contains(text, "the call ran past --max-call-seconds 1 and was stopped between two "
                              "steps of a run");
    json_decref(stopped);
    assert_session_goes_on(daemon, pool);
    spx_fixture_free(fixture);
}

/* The cancellation comes while the call runs, then a ping: the ping is the
 * next answer, and the call never gets one (the deadline, a minute, is far). */
static void test_cancelled_while_running(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_t *daemon = start(fixture, "60");
    send_text(daemon, test_call("2", "spin", pool));
    apr_sleep(apr_time_from_msec(300));
    send_text(daemon, cancel("2", pool));
    send_text(daemon, ping("3", pool));
    json_decref(next_answer(daemon, "3"));
    assert_session_goes_on(daemon, pool);
    spx_fixture_free(fixture);
}

/* All sent at once: the call, a ping, the cancellation of the call (by its
 * string id), another ping. Both pings are answered, in order. */
static void test_cancelled_behind_other_requests(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_t *daemon = start(fixture, "60");
    send_text(daemon, apr_pstrcat(pool, test_call("\"run-1\"", "spin", pool), ping("3", pool),
                                  cancel("\"run-1\"", pool), ping("4", pool), NULL));
    json_decref(next_answer(daemon, "3"));
    json_decref(next_answer(daemon, "4"));
    assert_session_goes_on(daemon, pool);
    spx_fixture_free(fixture);
}

/* A cancellation of another id (and one of the id as a string, when the
 * call's id is the integer) stops nothing: the call runs to its bound. */
static void test_cancellation_of_another_id(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_t *daemon = start(fixture, "2");
    send_text(daemon, apr_pstrcat(pool, test_call("2", "spin", pool), cancel("99", pool),
                                  cancel("\"2\"", pool), NULL));
    json_t *stopped = next_answer(daemon, "2");
    CU_ASSERT_TRUE(json_is_true(json_object_get(json_object_get(stopped, "result"), "isError")));
    json_decref(stopped);
    assert_session_goes_on(daemon, pool);
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"a test call past --max-call-seconds is a tool error, and the session goes on",
         test_call_past_the_bound},
        {"a run call past --max-call-seconds is a tool error, and the session goes on",
         test_run_past_the_bound},
        {"notifications/cancelled stops the call in flight: no answer, the next one answered",
         test_cancelled_while_running},
        {"a cancellation read ahead behind other requests: they are answered in order",
         test_cancelled_behind_other_requests},
        {"a cancellation of another id stops nothing", test_cancellation_of_another_id},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("semapraxd --mcp: calls bounded in time, and cancelled", tests);
}
