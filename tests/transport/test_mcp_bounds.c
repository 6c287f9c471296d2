/*
 * test_mcp_bounds.c: process tests of the bounds of what `semapraxd --mcp`
 * (and, for the test envelope, `semapraxd --stdio`) answers: a rename
 * whose answer would not fit once revision_changed is counted is refused
 * before writing; a test run whose envelope would not fit is stopped while
 * it is built (the daemon's peak memory stays near its size at rest, for
 * MCP's tool error and v2's -32001 alike); tool errors cut what the client
 * sent as --stdio cuts it; and the JSON-RPC edges of MCP: negative ids, a
 * client's response left unanswered, a line of too many values, the
 * context tool's max_bytes as its schema says, and the daemon's
 * out-of-memory line.
 */
#include "spx_daemon.h"
#include "spx_limits.h"
#include "spx_process.h"
#include "spx_rpc.h"

#include <apr_env.h>
#include <apr_strings.h>
#include <stdlib.h>
#include <string.h>

#define INITIALIZE                                                                                 \
    "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"     \
    "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"bounds\",\"version\":\"1\"}}}"

/* Start semapraxd --mcp with extra (after --mcp, NULL-terminated) on
 * dir/semaprax.toml of the fixture, initialized. */
static spx_daemon_t *start_mcp(spx_fixture_t *fixture, const char *dir, const char *const *extra)
{
    const char *arguments[8] = {"--mcp"};
    size_t count = 1;
    for (; extra && *extra && count < 7; extra++)
        arguments[count++] = *extra;
    arguments[count] = NULL;
    spx_daemon_t *daemon = spx_daemon_start_on(fixture, dir, arguments);
    json_t *answer = spx_daemon_call_json(daemon, INITIALIZE);
    CU_ASSERT_PTR_NOT_NULL(json_object_get(answer, "result"));
    json_decref(answer);
    const char *initialized = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n";
    CU_ASSERT_EQUAL(spx_daemon_send(daemon, initialized, strlen(initialized)), APR_SUCCESS);
    return daemon;
}

/* tools/call name with arguments (a JSON object's text): the result. */
static json_t *call_tool(spx_daemon_t *daemon, const char *name, const char *arguments,
                         apr_pool_t *pool)
{
    json_t *answer = spx_daemon_call_json(
        daemon, apr_psprintf(pool,
                             "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{"
                             "\"name\":\"%s\",\"arguments\":%s}}",
                             name, arguments));
    json_t *result = json_incref(json_object_get(answer, "result"));
    CU_ASSERT_PTR_NOT_NULL_FATAL(result);
    json_decref(answer);
    return result;
}

static const char *result_text(json_t *result)
{
    return json_string_value(
        json_object_get(json_array_get(json_object_get(result, "content"), 0), "text"));
}

/* --- 4: a rename's answer measured whole before writing ------------------------------ */

#define LONG_SOURCES 34

/* A path of about 700 bytes for source index: three long folders. */
static const char *long_path(int index, apr_pool_t *pool)
{
    char folder[221];
    memset(folder, 'd', sizeof(folder) - 1);
    folder[sizeof(folder) - 1] = '\0';
    return apr_psprintf(pool, "src/%s/%s/%s/m%d.spx", folder, folder, folder, index);
}

/* lib.f called 200 times from app (a committed document of about 28 KB,
 * within the half of 65536 the answer check allows), and 34 modules at
 * long paths that the test touches between two calls (revision_changed
 * then names 32 of them, twice: as records and in its sentence). */
static void write_rename_project(spx_fixture_t *fixture, apr_pool_t *pool)
{
    const char *manifest =
        "manifest = \"semaprax.project-manifest.v1\"\n\n[project]\nname = "
        "\"bounds\"\nversion = \"1.0.0\"\n\n[[source]]\nmodule = \"lib\"\npath = "
        "\"src/lib.spx\"\n\n[[source]]\nmodule = \"app\"\npath = \"src/app.spx\"\n";
    for (int i = 0; i < LONG_SOURCES; i++) {
        manifest = apr_psprintf(pool, "%s\n[[source]]\nmodule = \"m%d\"\npath = \"%s\"\n", manifest,
                                i, long_path(i, pool));
        spx_fixture_write(fixture, apr_pstrcat(pool, "proj/", long_path(i, pool), NULL),
                          apr_psprintf(pool, "export fn g() -> int {\n    return %d;\n}\n", i));
    }
    spx_fixture_write(fixture, "proj/semaprax.toml", manifest);
    spx_fixture_write(fixture, "proj/src/lib.spx", "export fn f() -> int {\n    return 1;\n}\n");
    const char *app = "import lib;\n\nexport fn many() -> int {\n    return 0";
    for (int i = 0; i < 200; i++)
        app = apr_pstrcat(pool, app, "\n        + lib.f()", NULL);
    spx_fixture_write(fixture, "proj/src/app.spx", apr_pstrcat(pool, app, ";\n}\n", NULL));
}

static void test_rename_measures_revision_changed(void)
{
    if (spx_held_inputs_locked())
        return; /* Windows: the held sources cannot be touched between the calls */
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    write_rename_project(fixture, pool);
    spx_daemon_t *daemon = start_mcp(
        fixture, "proj",
        (const char *const[]){"--allow-project-rename", "--max-response-bytes", "65536", NULL});
    json_t *status = call_tool(daemon, "status", "{}", pool);
    CU_ASSERT_TRUE(json_is_false(json_object_get(status, "isError")));
    json_decref(status);
    for (int i = 0; i < LONG_SOURCES; i++)
        spx_fixture_append(fixture, apr_pstrcat(pool, "proj/", long_path(i, pool), NULL),
                           "// touched\n");
    const char *app = spx_fixture_read(fixture, "proj/src/app.spx");
    const char *lib = spx_fixture_read(fixture, "proj/src/lib.spx");
    json_t *result =
        call_tool(daemon, "rename", "{\"function\":\"lib.f\",\"new_name\":\"h\"}", pool);
    const char *text = result_text(result);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    if (json_is_true(json_object_get(result, "isError"))) {
        /* refused before writing: nothing written */
        spx_assert_contains(text, "rename refused: its answer would need ");
        spx_assert_contains(text, "nothing was written");
        CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "proj/src/app.spx"), app);
        CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "proj/src/lib.spx"), lib);
    } else {
        /* written, and answered within the budget */
        json_t *content = json_object_get(result, "structuredContent");
        CU_ASSERT_TRUE(json_is_true(json_object_get(content, "committed")));
        CU_ASSERT_TRUE(json_is_object(json_object_get(content, "revision_changed")));
    }
    json_decref(result);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

/* --- 5: a test envelope bounded while it is built ------------------------------------- */

#define LOUD_TESTS 24

/* LOUD_TESTS tests, each printing 1 MiB. */
static void write_loud_project(spx_fixture_t *fixture, apr_pool_t *pool)
{
    const char *manifest = "manifest = \"semaprax.project-manifest.v1\"\n\n[project]\nname = "
                           "\"loud\"\nversion = \"1.0.0\"\n\n[[source]]\nmodule = \"app\"\npath = "
                           "\"src/app.spx\"\n";
    const char *app = "fn shout() -> int {\n    var s = \"x\";\n    while len(s) < 1048576 {\n"
                      "        s = s + s;\n    }\n    print(s);\n    return 0;\n}\n";
    for (int i = 0; i < LOUD_TESTS; i++) {
        manifest = apr_psprintf(pool, "%s\n[[test]]\nname = \"t%d\"\nfunction = \"app.t%d\"\n",
                                manifest, i, i);
        app = apr_psprintf(pool, "%s\nfn t%d() -> int {\n    return shout();\n}\n", app, i);
    }
    spx_fixture_write(fixture, "loud/semaprax.toml", manifest);
    spx_fixture_write(fixture, "loud/src/app.spx", app);
}

/* The daemon's peak resident memory grew by less than 32 MiB over what it
 * held before the call: the 24 MiB the tests print are never all held. */
static void assert_peak_near(spx_daemon_t *daemon, long before)
{
    long peak = spx_process_memory_kib(spx_daemon_pid(daemon), SPX_MEMORY_PEAK);
    if (before < 0 || peak < 0)
        return; /* this system does not say */
    fprintf(stderr, "\n  peak before %ld KiB, after the call %ld KiB\n", before, peak);
    CU_ASSERT_TRUE(peak - before < 32 * 1024);
}

static void test_mcp_test_envelope_bounded(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    write_loud_project(fixture, pool);
    spx_daemon_t *daemon =
        start_mcp(fixture, "loud", (const char *const[]){"--max-response-bytes", "65536", NULL});
    long before = spx_process_memory_kib(spx_daemon_pid(daemon), SPX_MEMORY_PEAK);
    json_t *result = call_tool(daemon, "test", "{\"max_bytes\":1048576}", pool);
    long peak = spx_process_memory_kib(spx_daemon_pid(daemon), SPX_MEMORY_PEAK);
    CU_ASSERT_TRUE(json_is_true(json_object_get(result, "isError")));
    const char *text = result_text(result);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    spx_assert_contains(text, "the answer would need more than ");
    spx_assert_contains(text, "--max-response-bytes 65536");
    spx_assert_contains(text, "ask for less (max_bytes, tests)");
    json_decref(result);
    (void)peak;
    assert_peak_near(daemon, before);
    /* the session goes on */
    result = call_tool(daemon, "test", "{\"max_bytes\":16,\"tests\":[\"t0\"]}", pool);
    CU_ASSERT_TRUE(json_is_false(json_object_get(result, "isError")));
    json_decref(result);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

static void test_stdio_test_envelope_bounded(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    write_loud_project(fixture, pool);
    spx_daemon_t *daemon = spx_daemon_start_on(
        fixture, "loud", (const char *const[]){"--max-response-bytes", "65536", NULL});
    const char *revisions = spx_daemon_open(daemon);
    long before = spx_process_memory_kib(spx_daemon_pid(daemon), SPX_MEMORY_PEAK);
    const char *line = spx_daemon_call(
        daemon,
        spx_request_line("9", "test", apr_pstrcat(pool, revisions, ",\"max_bytes\":1048576", NULL),
                         pool));
    CU_ASSERT_STRING_EQUAL(line, spx_error_line(SPX_RPC_RESPONSE_TOO_LARGE, "9", pool));
    assert_peak_near(daemon, before);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 1);
    spx_assert_contains(spx_daemon_stderr(daemon),
                        "a response over 65536 bytes was replaced by the -32001 error: stopping");
    spx_fixture_free(fixture);
}

/* --- 12: tool errors cut what the client sent ------------------------------------------ */

/* A string of length bytes of 'n'. */
static char *filled(apr_size_t length, apr_pool_t *pool)
{
    char *text = apr_palloc(pool, length + 1);
    memset(text, 'n', length);
    text[length] = '\0';
    return text;
}

static void assert_cut(json_t *result, const char *starts, apr_size_t most)
{
    CU_ASSERT_TRUE(json_is_true(json_object_get(result, "isError")));
    const char *text = result_text(result);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_TRUE(strlen(text) <= most);
    CU_ASSERT_EQUAL(strncmp(text, starts, strlen(starts)), 0);
    spx_assert_contains(text, "nnn...");
}

static void test_tool_errors_cut_client_input(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_copy_hello(fixture, "proj");
    spx_daemon_t *daemon = start_mcp(fixture, "proj", NULL);
    json_t *result = call_tool(
        daemon, "context", apr_psprintf(pool, "{\"target\":\"%s\"}", filled(1000000, pool)), pool);
    assert_cut(result, "no ", SPX_LIMIT_ERROR_DETAIL_BYTES);
    json_decref(result);
    result = call_tool(daemon, "test",
                       apr_psprintf(pool, "{\"tests\":[\"%s\"]}", filled(100000, pool)), pool);
    assert_cut(result, "no test 'nnn", SPX_LIMIT_ERROR_DETAIL_BYTES);
    json_decref(result);
    result =
        call_tool(daemon, "check", apr_psprintf(pool, "{\"%s\":1}", filled(500000, pool)), pool);
    assert_cut(result, "unknown argument 'nnn", SPX_LIMIT_DETAIL_ECHO_BYTES + 100);
    json_decref(result);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

/* --- 15: the JSON-RPC edges ---------------------------------------------------------------- */

static void test_negative_id_answered(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_daemon_copy_hello(fixture, "proj");
    spx_daemon_t *daemon = start_mcp(fixture, "proj", NULL);
    CU_ASSERT_STRING_EQUAL(
        spx_daemon_call(daemon, "{\"jsonrpc\":\"2.0\",\"id\":-5,\"method\":\"ping\"}"),
        "{\"id\":-5,\"jsonrpc\":\"2.0\",\"result\":{}}");
    CU_ASSERT_STRING_EQUAL(
        spx_daemon_call(daemon,
                        "{\"jsonrpc\":\"2.0\",\"id\":-9007199254740991,\"method\":\"ping\"}"),
        "{\"id\":-9007199254740991,\"jsonrpc\":\"2.0\",\"result\":{}}");
    spx_assert_contains(
        spx_daemon_call(daemon, "{\"jsonrpc\":\"2.0\",\"id\":-0,\"method\":\"ping\"}"),
        "\"detail\":\"bad id\"");
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

static void test_client_response_unanswered(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_daemon_copy_hello(fixture, "proj");
    spx_daemon_t *daemon = start_mcp(fixture, "proj", NULL);
    const char *responses = "{\"jsonrpc\":\"2.0\",\"id\":9,\"result\":{}}\n"
                            "{\"jsonrpc\":\"2.0\",\"id\":10,\"error\":{\"code\":-32601,"
                            "\"message\":\"method not found\"}}\n";
    CU_ASSERT_EQUAL(spx_daemon_send(daemon, responses, strlen(responses)), APR_SUCCESS);
    /* the next line is the ping's answer: nothing was said to the responses */
    CU_ASSERT_STRING_EQUAL(
        spx_daemon_call(daemon, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}"),
        "{\"id\":3,\"jsonrpc\":\"2.0\",\"result\":{}}");
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    CU_ASSERT_STRING_EQUAL(spx_daemon_rest(daemon), "");
    spx_fixture_free(fixture);
}

static void test_too_many_values_named(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_copy_hello(fixture, "proj");
    spx_daemon_t *daemon = start_mcp(fixture, "proj", NULL);
    const char *values = "0";
    for (unsigned i = 0; i < SPX_LIMIT_REQUEST_JSON_VALUES; i++)
        values = apr_pstrcat(pool, values, ",0", NULL);
    const char *line = spx_daemon_call(
        daemon,
        apr_psprintf(pool,
                     "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\",\"params\":{\"a\":[%s]}}",
                     values));
    spx_assert_contains(line, "{\"error\":{\"code\":-32600,");
    spx_assert_contains(line, "\"reason\":\"too_many_values\"");
    spx_assert_contains(line, "more than 16384 JSON values");
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

static void test_context_schema_says_accepted_maximum(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_copy_hello(fixture, "proj");
    spx_daemon_t *daemon =
        start_mcp(fixture, "proj", (const char *const[]){"--max-response-bytes", "65536", NULL});
    json_t *list = spx_daemon_call_json(
        daemon, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{}}");
    json_int_t maximum = -1;
    size_t index;
    json_t *tool;
    json_array_foreach(json_object_get(json_object_get(list, "result"), "tools"), index, tool)
    {
        if (strcmp(json_string_value(json_object_get(tool, "name")), "context") == 0)
            maximum = json_integer_value(json_object_get(
                json_object_get(json_object_get(json_object_get(tool, "inputSchema"), "properties"),
                                "max_bytes"),
                "maximum"));
    }
    json_decref(list);
    CU_ASSERT_TRUE_FATAL(maximum > SPX_LIMIT_MCP_CONTEXT_BYTES_DEFAULT && maximum < 32768);
    json_t *result = call_tool(
        daemon, "context",
        apr_psprintf(pool, "{\"target\":\"module:app\",\"max_bytes\":%" APR_INT64_T_FMT "}",
                     (apr_int64_t)maximum),
        pool);
    CU_ASSERT_TRUE(json_is_false(json_object_get(result, "isError")));
    json_decref(result);
    result = call_tool(
        daemon, "context",
        apr_psprintf(pool, "{\"target\":\"module:app\",\"max_bytes\":%" APR_INT64_T_FMT "}",
                     (apr_int64_t)maximum + 1),
        pool);
    CU_ASSERT_TRUE(json_is_true(json_object_get(result, "isError")));
    spx_assert_contains(result_text(result),
                        apr_psprintf(pool, "max_bytes must be an integer in 1..%" APR_INT64_T_FMT,
                                     (apr_int64_t)maximum));
    json_decref(result);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

static void test_out_of_memory_names_the_daemon(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_copy_hello(fixture, "proj");
    const char *arguments[] = {"--mcp", "--manifest-path",
                               spx_fixture_path(fixture, "proj/semaprax.toml"), NULL};
    apr_env_set("SPX_TEST_ALLOCATION", "ping:1", pool);
    spx_daemon_t *daemon = spx_daemon_start("SPX_SEMAPRAXD_TEST", arguments, fixture->root, pool);
    apr_env_delete("SPX_TEST_ALLOCATION", pool);
    const char *ping = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n";
    spx_daemon_send(daemon, ping, strlen(ping)); /* it may be gone already */
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 3);
    const char *said = spx_daemon_stderr(daemon);
    spx_assert_contains(said, "semapraxd: out of memory: stopping\n");
    CU_ASSERT_PTR_NULL(strstr(said, "semaprax: out of memory"));
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"rename: the answer check counts revision_changed (never written, then an error)",
         test_rename_measures_revision_changed},
        {"MCP test: an envelope over the budget is stopped while built",
         test_mcp_test_envelope_bounded},
        {"v2 test: an envelope over the budget is stopped while built (-32001)",
         test_stdio_test_envelope_bounded},
        {"tool errors cut what the client sent, as --stdio does",
         test_tool_errors_cut_client_input},
        {"a negative integer id is answered", test_negative_id_answered},
        {"a response sent by the client is not answered", test_client_response_unanswered},
        {"a line of too many values: -32600 too_many_values", test_too_many_values_named},
        {"context's max_bytes maximum is what the session accepts",
         test_context_schema_says_accepted_maximum},
        {"the daemon's out-of-memory line names semapraxd", test_out_of_memory_names_the_daemon},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("mcp_bounds", tests);
}
