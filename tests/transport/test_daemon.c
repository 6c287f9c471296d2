/*
 * test_daemon.c: process tests of the real `semapraxd --stdio` over pipes:
 * its command line, every rule of the request grammar (exact code and id,
 * and ping still answered afterwards), notifications, end of input, the
 * lifecycle (before open, unhealthy starts, repeated open, wrong revisions,
 * the lifecycle methods in every state) and the results of every v2 method,
 * compared with the CLI's documents where they share an engine function.
 */
#include "spx_canonical.h"
#include "spx_daemon.h"
#include "spx_process.h"
#include "spx_rpc.h"

#include <apr_strings.h>
#include <string.h>

#define PING_99 "{\"id\":99,\"jsonrpc\":\"2.0\",\"method\":\"ping\"}"

static const char *const no_extra[] = {NULL};

static spx_daemon_t *start_hello(spx_fixture_t *fixture)
{
    spx_daemon_copy_hello(fixture, "proj");
    return spx_daemon_start_on(fixture, "proj", no_extra);
}

/* The session answers ping with its state. */
static void assert_ping(spx_daemon_t *daemon, const char *state, apr_pool_t *pool)
{
    spx_daemon_assert_line(
        spx_daemon_call(daemon, PING_99),
        apr_psprintf(pool, "{\"id\":99,\"jsonrpc\":\"2.0\",\"result\":{\"state\":\"%s\"}}", state));
}

/* --- the command line -------------------------------------------------------- */

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
    assert_usage_error(pool, (const char *const[]){NULL}, "--stdio is required");
    assert_usage_error(pool, (const char *const[]){"--lsp", "--stdio", NULL},
                       "--lsp cannot be given with --stdio or --mcp");
    assert_usage_error(pool, (const char *const[]){"--stdio", "--lsp", NULL},
                       "--lsp cannot be given with --stdio or");
    assert_usage_error(pool, (const char *const[]){"--lsp", "--allow-project-rename", NULL},
                       "--lsp takes only --manifest-path, --max-request-bytes and --verbose");
    assert_usage_error(pool, (const char *const[]){"--lsp", "--max-response-bytes", "5000", NULL},
                       "--lsp takes only");
    assert_usage_error(pool, (const char *const[]){"--lsp", "--max-call-seconds", "5", NULL},
                       "--lsp takes only");
    assert_usage_error(pool, (const char *const[]){"--lsp", "--allow-fmt-write", NULL},
                       "--allow-fmt-write is for --mcp");
    assert_usage_error(pool, (const char *const[]){"--lsp", "--lsp", NULL},
                       "option given twice: --lsp");
    assert_usage_error(pool, (const char *const[]){"--stdio", "--bogus", NULL},
                       "unknown option --bogus");
    assert_usage_error(pool,
                       (const char *const[]){"--stdio", "--allow-project-rename", "--bogus", NULL},
                       "unknown option --bogus");
    assert_usage_error(pool, (const char *const[]){"--stdio", "extra", NULL},
                       "unexpected argument extra");
    assert_usage_error(pool, (const char *const[]){"--stdio", "--max-request-bytes", "255", NULL},
                       "--max-request-bytes must be 256..67108864");
    assert_usage_error(pool,
                       (const char *const[]){"--stdio", "--max-request-bytes", "67108865", NULL},
                       "--max-request-bytes must be");
    assert_usage_error(pool, (const char *const[]){"--stdio", "--max-response-bytes", "4095", NULL},
                       "--max-response-bytes must be 4096..1073741824");
    assert_usage_error(pool, (const char *const[]){"--stdio", "--max-response-bytes", "1e6", NULL},
                       "--max-response-bytes must be");
    assert_usage_error(pool,
                       (const char *const[]){"--stdio", "--manifest-path", "a.toml",
                                             "--manifest-path", "b.toml", NULL},
                       "option given twice: --manifest-path");
    assert_usage_error(pool, (const char *const[]){"--stdio", "--stdio", NULL},
                       "option given twice: --stdio");
    assert_usage_error(pool,
                       (const char *const[]){"--stdio", "--max-request-bytes", "300",
                                             "--max-request-bytes", "400", NULL},
                       "option given twice: --max-request-bytes");
    assert_usage_error(pool, (const char *const[]){"--stdio", "--manifest-path", NULL},
                       "needs a value");

    spx_process_result_t help = spx_process_run(spx_program_path("SPX_SEMAPRAXD"),
                                                (const char *const[]){"--help", NULL}, NULL, pool);
    CU_ASSERT_EQUAL(help.exit_code, 0);
    spx_assert_contains(help.out, "usage: semapraxd --stdio");
    spx_process_result_t version = spx_process_run(
        spx_program_path("SPX_SEMAPRAXD"), (const char *const[]){"--version", NULL}, NULL, pool);
    CU_ASSERT_EQUAL(version.exit_code, 0);
    CU_ASSERT_STRING_EQUAL(version.out, "semapraxd " SPX_VERSION "\n");
    spx_fixture_free(fixture);
}

/* --- the request grammar ------------------------------------------------------- */

typedef struct rule_t {
    const char *name;
    const char *frame; /* without its LF */
    apr_size_t length; /* 0: strlen(frame) */
    int code;
    const char *id;     /* JSON text of the id answered */
    const char *detail; /* what data.detail must say */
} rule_t;

#define NUL_FRAME "{\"jsonrpc\":\"2.0\",\"id\":1\0,\"method\":\"ping\"}"

static const rule_t rules[] = {
    {"empty frame", "", 0, SPX_RPC_PARSE_ERROR, "null", "is empty"},
    {"CR byte", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r", 0, SPX_RPC_PARSE_ERROR,
     "null", "holds a CR byte"},
    {"NUL byte", NUL_FRAME, sizeof(NUL_FRAME) - 1, SPX_RPC_PARSE_ERROR, "null", "holds a NUL byte"},
    {"overlong UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"p\xc0\xafng\"}", 0,
     SPX_RPC_PARSE_ERROR, "null", "not valid UTF-8"},
    {"UTF-8 surrogate", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xed\xa0\x80\"}", 0,
     SPX_RPC_PARSE_ERROR, "null", "not valid UTF-8"},
    {"truncated UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\xe2\x82\"}", 0,
     SPX_RPC_PARSE_ERROR, "null", "not valid UTF-8"},
    {"escaped NUL", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"pi\\u0000ng\"}", 0,
     SPX_RPC_PARSE_ERROR, "null", "not one JSON value"},
    {"invalid JSON", "{\"jsonrpc\":\"2.0\",\"id\":1,", 0, SPX_RPC_PARSE_ERROR, "null",
     "not one JSON value"},
    {"trailing bytes", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"} x", 0,
     SPX_RPC_PARSE_ERROR, "null", "not one JSON value"},
    {"duplicate top-level key", "{\"jsonrpc\":\"2.0\",\"id\":1,\"id\":2,\"method\":\"ping\"}", 0,
     SPX_RPC_PARSE_ERROR, "null", "not one JSON value"},
    {"duplicate nested key",
     "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\",\"params\":{\"a\":[{\"b\":1,\"b\":2}]}}", 0,
     SPX_RPC_PARSE_ERROR, "null", "not one JSON value"},
    {"duplicate key by escape", "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\",\"\\u0069d\":4}",
     0, SPX_RPC_PARSE_ERROR, "null", "not one JSON value"},
    {"batch", "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]", 0, SPX_RPC_INVALID_REQUEST,
     "null", "is an array"},
    {"empty batch", "[]", 0, SPX_RPC_INVALID_REQUEST, "null", "is an array"},
    {"string", "\"ping\"", 0, SPX_RPC_INVALID_REQUEST, "null", "not a JSON object"},
    {"number", "42", 0, SPX_RPC_INVALID_REQUEST, "null", "not a JSON object"},
    {"jsonrpc 1.0", "{\"jsonrpc\":\"1.0\",\"id\":4,\"method\":\"ping\"}", 0,
     SPX_RPC_INVALID_REQUEST, "4", "jsonrpc is not exactly"},
    {"jsonrpc number", "{\"jsonrpc\":2.0,\"id\":4,\"method\":\"ping\"}", 0, SPX_RPC_INVALID_REQUEST,
     "4", "jsonrpc is not exactly"},
    {"jsonrpc missing", "{\"id\":5,\"method\":\"ping\"}", 0, SPX_RPC_INVALID_REQUEST, "5",
     "jsonrpc is not exactly"},
    {"method missing", "{\"jsonrpc\":\"2.0\",\"id\":6}", 0, SPX_RPC_INVALID_REQUEST, "6",
     "method is missing or not a string"},
    {"method not a string", "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":1}", 0,
     SPX_RPC_INVALID_REQUEST, "7", "method is missing or not a string"},
    {"unknown top-level key", "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"ping\",\"extra\":1}", 0,
     SPX_RPC_INVALID_REQUEST, "8", "top-level key other than"},
    {"params array", "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"ping\",\"params\":[]}", 0,
     SPX_RPC_INVALID_REQUEST, "9", "params is not an object"},
    {"params null", "{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"method\":\"ping\",\"params\":null}", 0,
     SPX_RPC_INVALID_REQUEST, "\"x\"", "params is not an object"},
    {"id -0", "{\"jsonrpc\":\"2.0\",\"id\":-0,\"method\":\"ping\"}", 0, SPX_RPC_INVALID_REQUEST,
     "null", "id is not"},
    {"id -1", "{\"jsonrpc\":\"2.0\",\"id\":-1,\"method\":\"ping\"}", 0, SPX_RPC_INVALID_REQUEST,
     "null", "id is not"},
    {"id 1.0", "{\"jsonrpc\":\"2.0\",\"id\":1.0,\"method\":\"ping\"}", 0, SPX_RPC_INVALID_REQUEST,
     "null", "id is not"},
    {"id 1e0", "{\"jsonrpc\":\"2.0\",\"id\":1e0,\"method\":\"ping\"}", 0, SPX_RPC_INVALID_REQUEST,
     "null", "id is not"},
    {"id null", "{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"ping\"}", 0, SPX_RPC_INVALID_REQUEST,
     "null", "id is not"},
    {"id true", "{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"ping\"}", 0, SPX_RPC_INVALID_REQUEST,
     "null", "id is not"},
    {"id array", "{\"jsonrpc\":\"2.0\",\"id\":[1],\"method\":\"ping\"}", 0, SPX_RPC_INVALID_REQUEST,
     "null", "id is not"},
    {"id object", "{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"ping\"}", 0, SPX_RPC_INVALID_REQUEST,
     "null", "id is not"},
    {"id 2^53", "{\"jsonrpc\":\"2.0\",\"id\":9007199254740992,\"method\":\"ping\"}", 0,
     SPX_RPC_INVALID_REQUEST, "null", "id is not"},
    {"id leading zero", "{\"jsonrpc\":\"2.0\",\"id\":01,\"method\":\"ping\"}", 0,
     SPX_RPC_PARSE_ERROR, "null", "not one JSON value"},
    {"unknown params key",
     "{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"ping\",\"params\":{\"x\":1}}", 0,
     SPX_RPC_INVALID_PARAMS, "11", "unknown param 'x' for ping, which takes none"},
    {"unknown method", "{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"pong\"}", 0,
     SPX_RPC_METHOD_NOT_FOUND, "12", "no method 'pong' in semaprax.agent-transport.v2"},
    {"method matched exactly", "{\"jsonrpc\":\"2.0\",\"id\":13,\"method\":\"Ping\"}", 0,
     SPX_RPC_METHOD_NOT_FOUND, "13",
     "no method 'Ping' in semaprax.agent-transport.v2; nearest: ping"},
    {"v3 method not routed", "{\"jsonrpc\":\"2.0\",\"id\":14,\"method\":\"project/rename\"}", 0,
     SPX_RPC_METHOD_NOT_FOUND, "14", "--allow-project-rename"},
};

/* One rule in a fresh session: its exact code and id, then ping. */
static void run_rule(size_t index)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_daemon_t *daemon = start_hello(fixture);
    const rule_t *rule = &rules[index];
    apr_size_t length = rule->length ? rule->length : strlen(rule->frame);
    CU_ASSERT_EQUAL_FATAL(spx_daemon_send(daemon, rule->frame, length), APR_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(spx_daemon_send(daemon, "\n", 1), APR_SUCCESS);
    spx_assert_error(spx_daemon_read_line(daemon), rule->code, rule->id, NULL, rule->detail,
                     fixture->pool);
    assert_ping(daemon, "configured", fixture->pool);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    CU_ASSERT_STRING_EQUAL(spx_daemon_rest(daemon), "");
    spx_fixture_free(fixture);
}

#define RULE_TEST(n)                                                                               \
    static void test_rule_##n(void)                                                                \
    {                                                                                              \
        run_rule(n);                                                                               \
    }
RULE_TEST(0)
RULE_TEST(1)
RULE_TEST(2)
RULE_TEST(3)
RULE_TEST(4)
RULE_TEST(5)
RULE_TEST(6)
RULE_TEST(7)
RULE_TEST(8)
RULE_TEST(9)
RULE_TEST(10)
RULE_TEST(11)
RULE_TEST(12)
RULE_TEST(13)
RULE_TEST(14)
RULE_TEST(15)
RULE_TEST(16)
RULE_TEST(17)
RULE_TEST(18)
RULE_TEST(19)
RULE_TEST(20)
RULE_TEST(21)
RULE_TEST(22)
RULE_TEST(23)
RULE_TEST(24)
RULE_TEST(25)
RULE_TEST(26)
RULE_TEST(27)
RULE_TEST(28)
RULE_TEST(29)
RULE_TEST(30)
RULE_TEST(31)
RULE_TEST(32)
RULE_TEST(33)
RULE_TEST(34)
RULE_TEST(35)
RULE_TEST(36)
RULE_TEST(37)
#define RULE_COUNT 38

static void test_every_grammar_rule_then_ping(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_daemon_t *daemon = start_hello(fixture);
    for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
        const rule_t *rule = &rules[i];
        apr_size_t length = rule->length ? rule->length : strlen(rule->frame);
        CU_ASSERT_EQUAL_FATAL(spx_daemon_send(daemon, rule->frame, length), APR_SUCCESS);
        CU_ASSERT_EQUAL_FATAL(spx_daemon_send(daemon, "\n", 1), APR_SUCCESS);
        const char *answer = spx_daemon_read_line(daemon);
        if (!spx_error_matches(answer, rule->code, rule->id, NULL, rule->detail, fixture->pool))
            fprintf(stderr, "\n  rule '%s'\n", rule->name);
        spx_assert_error(answer, rule->code, rule->id, NULL, rule->detail, fixture->pool);
        assert_ping(daemon, "configured", fixture->pool);
    }
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    CU_ASSERT_STRING_EQUAL(spx_daemon_rest(daemon), "");
    spx_fixture_free(fixture);
}

static void test_ids_echoed_exactly(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_t *daemon = start_hello(fixture);
    spx_daemon_assert_line(
        spx_daemon_call(daemon,
                        "{\"jsonrpc\":\"2.0\",\"id\":9007199254740991,\"method\":\"ping\"}"),
        "{\"id\":9007199254740991,\"jsonrpc\":\"2.0\",\"result\":{\"state\":\"configured\"}}");
    spx_daemon_assert_line(
        spx_daemon_call(daemon, "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"ping\"}"),
        "{\"id\":0,\"jsonrpc\":\"2.0\",\"result\":{\"state\":\"configured\"}}");
    spx_daemon_assert_line(
        spx_daemon_call(daemon, "{\"jsonrpc\":\"2.0\",\"id\":\"caf\\u00e9\",\"method\":"
                                "\"ping\"}"),
        "{\"id\":\"caf\xc3\xa9\",\"jsonrpc\":\"2.0\",\"result\":{\"state\":\"configured\"}}");
    char longest[257];
    memset(longest, 'a', 256);
    longest[256] = '\0';
    spx_daemon_assert_line(
        spx_daemon_call(daemon, apr_psprintf(pool,
                                             "{\"jsonrpc\":\"2.0\",\"id\":\"%s\",\"method\":"
                                             "\"ping\"}",
                                             longest)),
        apr_psprintf(pool,
                     "{\"id\":\"%s\",\"jsonrpc\":\"2.0\",\"result\":{\"state\":\"configured\"}}",
                     longest));
    spx_assert_error(spx_daemon_call(daemon, apr_psprintf(pool,
                                                          "{\"jsonrpc\":\"2.0\",\"id\":\"%sa\","
                                                          "\"method\":\"ping\"}",
                                                          longest)),
                     SPX_RPC_INVALID_REQUEST, "null", "invalid_request", "id is not", pool);
    assert_ping(daemon, "configured", pool);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

static void test_notifications_never_answer_and_never_run(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_daemon_t *daemon = start_hello(fixture);
    const char *silent = "{\"jsonrpc\":\"2.0\",\"method\":\"ping\"}\n"
                         "{\"jsonrpc\":\"2.0\",\"method\":\"workspace/open\"}\n"
                         "{\"jsonrpc\":\"2.0\",\"method\":\"no/such/method\"}\n"
                         "{\"jsonrpc\":\"2.0\",\"method\":\"graph\",\"params\":{\"bad\":1}}\n";
    CU_ASSERT_EQUAL(spx_daemon_send(daemon, silent, strlen(silent)), APR_SUCCESS);
    /* The next line is ping's: nothing answered the notifications, and the
     * workspace/open notification did not open the session. */
    assert_ping(daemon, "configured", fixture->pool);
    json_t *status = spx_daemon_call_json(
        daemon, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"workspace/status\"}");
    /* Only ping and this status were requests. */
    CU_ASSERT_EQUAL(
        json_integer_value(json_object_get(
            json_object_get(json_object_get(status, "result"), "counters"), "requests")),
        2);
    CU_ASSERT_EQUAL(
        json_integer_value(json_object_get(
            json_object_get(json_object_get(status, "result"), "counters"), "authentications")),
        1);
    json_decref(status);
    /* A malformed frame without an id is answered. */
    spx_assert_error(spx_daemon_call(daemon, "{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"x\":1}"),
                     SPX_RPC_INVALID_REQUEST, "null", "invalid_request", "top-level key",
                     fixture->pool);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    CU_ASSERT_STRING_EQUAL(spx_daemon_rest(daemon), "");
    spx_fixture_free(fixture);
}

static void test_shutdown_notification_is_silent(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_daemon_t *daemon = start_hello(fixture);
    const char *input = "{\"jsonrpc\":\"2.0\",\"method\":\"shutdown\"}\n" PING_99 "\n";
    CU_ASSERT_EQUAL(spx_daemon_send(daemon, input, strlen(input)), APR_SUCCESS);
    CU_ASSERT_PTR_NULL(spx_daemon_read_line(daemon));
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    CU_ASSERT_STRING_EQUAL(spx_daemon_rest(daemon), "");
    spx_fixture_free(fixture);
}

static void test_end_of_input(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_daemon_t *daemon = start_hello(fixture);
    assert_ping(daemon, "configured", fixture->pool);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    CU_ASSERT_STRING_EQUAL(spx_daemon_rest(daemon), "");

    /* Bytes at the end without an LF are not a frame: not answered, not run. */
    spx_daemon_t *cut = spx_daemon_start_on(fixture, "proj", no_extra);
    CU_ASSERT_EQUAL(spx_daemon_send(cut, PING_99, strlen(PING_99)), APR_SUCCESS);
    CU_ASSERT_EQUAL(spx_daemon_finish(cut), 0);
    CU_ASSERT_STRING_EQUAL(spx_daemon_rest(cut), "");
    spx_assert_contains(spx_daemon_stderr(cut), "without LF: not a frame");
    spx_fixture_free(fixture);
}

/* --- the lifecycle ------------------------------------------------------------ */

static const char *const semantic_methods[] = {"workspace/snapshot", "check", "graph", "context",
                                               "test"};
#define SEMANTIC_COUNT (sizeof(semantic_methods) / sizeof(semantic_methods[0]))

static const char *const fake_revisions =
    "\"project_revision\":\"sha256:00\",\"workspace_revision\":\"sha256:00\"";

static void test_semantic_methods_before_open(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_daemon_t *daemon = start_hello(fixture);
    for (size_t i = 0; i < SEMANTIC_COUNT; i++) {
        const char *why = apr_pstrcat(fixture->pool, semantic_methods[i],
                                      " needs an open session: send workspace/open first", NULL);
        spx_assert_error(spx_daemon_call(daemon, spx_request_line("3", semantic_methods[i],
                                                                  fake_revisions, fixture->pool)),
                         SPX_RPC_SESSION_NOT_OPEN, "3", "session_not_open", why, fixture->pool);
        spx_assert_error(
            spx_daemon_call(daemon, spx_request_line("4", semantic_methods[i], "", fixture->pool)),
            SPX_RPC_SESSION_NOT_OPEN, "4", "session_not_open", why, fixture->pool);
    }
    assert_ping(daemon, "configured", fixture->pool);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

/* The session of an unhealthy start: open answers -32011 whose diagnostics
 * say why (fragment in a message); the lifecycle methods still work. */
static void assert_unavailable(spx_fixture_t *fixture, const char *fragment, const char *code)
{
    spx_daemon_t *daemon = spx_daemon_start_on(fixture, "proj", no_extra);
    json_t *open = spx_daemon_call_json(
        daemon, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"workspace/open\"}");
    json_t *error = json_object_get(open, "error");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(error, "code")),
                    SPX_RPC_WORKSPACE_UNAVAILABLE);
    json_t *diagnostics = json_object_get(json_object_get(error, "data"), "diagnostics");
    CU_ASSERT_TRUE(json_array_size(diagnostics) >= 1);
    json_t *first = json_array_get(diagnostics, 0);
    spx_assert_contains(json_string_value(json_object_get(first, "message")), fragment);
    spx_assert_contains(json_string_value(json_object_get(first, "code")), code);
    /* data says why too: the first diagnostic, and that a new daemon is needed */
    json_t *data = json_object_get(error, "data");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(data, "reason")),
                           "workspace_unavailable");
    const char *detail = json_string_value(json_object_get(data, "detail"));
    CU_ASSERT_PTR_NOT_NULL_FATAL(detail);
    spx_assert_contains(detail, json_string_value(json_object_get(first, "message")));
    spx_assert_contains(detail, "fix the project and start a new semapraxd");
    json_decref(open);
    spx_assert_error(
        spx_daemon_call(daemon, spx_request_line("2", "graph", fake_revisions, fixture->pool)),
        SPX_RPC_SESSION_NOT_OPEN, "2", "session_not_open", NULL, fixture->pool);
    json_t *status = spx_daemon_call_json(
        daemon, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"workspace/status\"}");
    json_t *result = json_object_get(status, "result");
    CU_ASSERT_TRUE(json_is_false(json_object_get(result, "healthy")));
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(result, "state")), "configured");
    CU_ASSERT_PTR_NULL(json_object_get(result, "project_revision"));
    json_decref(status);
    json_t *protocol =
        spx_daemon_call_json(daemon, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"protocol\"}");
    CU_ASSERT_STRING_EQUAL(
        json_string_value(json_object_get(json_object_get(protocol, "result"), "state")),
        "configured");
    json_decref(protocol);
    assert_ping(daemon, "configured", fixture->pool);
    spx_daemon_assert_line(
        spx_daemon_call(daemon, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"shutdown\"}"),
        "{\"id\":5,\"jsonrpc\":\"2.0\",\"result\":{\"state\":\"shutdown\"}}");
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
}

static void test_open_on_unhealthy_sessions(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_mkdir(fixture, "proj");
    assert_unavailable(fixture, "semaprax.toml", "E0160"); /* missing manifest */
    spx_fixture_write(fixture, "proj/semaprax.toml", "manifest = \"nope\"\n[project\n");
    assert_unavailable(fixture, "", "E01"); /* a manifest that does not parse */
    spx_daemon_copy_hello(fixture, "proj");
    spx_fixture_remove(fixture, "proj/src/math.spx");
    assert_unavailable(fixture, "src/math.spx", "E0160"); /* a missing source */
    spx_fixture_free(fixture);
}

static void test_repeated_open_and_wrong_revisions(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_t *daemon = start_hello(fixture);
    const char *revisions = spx_daemon_open(daemon);
    CU_ASSERT_STRING_EQUAL(spx_daemon_open(daemon), revisions);
    assert_ping(daemon, "open", pool);
    const char *wrong[] = {
        fake_revisions,
        apr_pstrcat(pool, "\"project_revision\":\"sha256:00\",",
                    strstr(revisions, "\"workspace_revision\""), NULL),
    };
    /* -32012 says which revisions the session holds. */
    json_t *held = json_loads(apr_pstrcat(pool, "{", revisions, "}", NULL), 0, NULL);
    const char *holds =
        apr_psprintf(pool, "which holds project_revision %s and workspace_revision %s",
                     json_string_value(json_object_get(held, "project_revision")),
                     json_string_value(json_object_get(held, "workspace_revision")));
    json_decref(held);
    for (size_t w = 0; w < 2; w++)
        for (size_t i = 0; i < SEMANTIC_COUNT; i++) {
            const char *params =
                strcmp(semantic_methods[i], "context") == 0
                    ? apr_pstrcat(pool, wrong[w], ",\"target_kind\":\"module\",\"target\":\"app\"",
                                  NULL)
                    : wrong[w];
            spx_assert_error(spx_daemon_call(daemon, spx_request_line("\"r\"", semantic_methods[i],
                                                                      params, pool)),
                             SPX_RPC_REVISION_MISMATCH, "\"r\"", "revision_mismatch", holds, pool);
        }
    /* State unchanged: still open, and the right revisions still work. */
    assert_ping(daemon, "open", pool);
    json_t *check = spx_daemon_call_json(daemon, spx_request_line("1", "check", revisions, pool));
    CU_ASSERT_TRUE(json_is_true(json_object_get(json_object_get(check, "result"), "admitted")));
    json_decref(check);
    /* Missing or mistyped revisions are invalid params. */
    const char *bad_params[] = {"", "\"project_revision\":\"sha256:00\"",
                                "\"project_revision\":1,\"workspace_revision\":2"};
    const char *bad_reasons[][2] = {
        {"missing_param", "graph needs project_revision"},
        {"missing_param", "graph needs workspace_revision"},
        {"mistyped_param", "project_revision must be a string"},
    };
    for (size_t i = 0; i < 3; i++)
        spx_assert_error(
            spx_daemon_call(daemon, spx_request_line("6", "graph", bad_params[i], pool)),
            SPX_RPC_INVALID_PARAMS, "6", bad_reasons[i][0], bad_reasons[i][1], pool);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

/* protocol, ping and status report state; then shutdown ends the session. */
static void assert_lifecycle_methods(spx_daemon_t *daemon, const char *state, int healthy,
                                     apr_pool_t *pool)
{
    json_t *protocol =
        spx_daemon_call_json(daemon, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"protocol\"}");
    CU_ASSERT_STRING_EQUAL(
        json_string_value(json_object_get(json_object_get(protocol, "result"), "state")), state);
    json_decref(protocol);
    assert_ping(daemon, state, pool);
    json_t *status = spx_daemon_call_json(
        daemon, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"workspace/status\"}");
    json_t *result = json_object_get(status, "result");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(result, "state")), state);
    CU_ASSERT_EQUAL(json_is_true(json_object_get(result, "healthy")), healthy);
    CU_ASSERT_PTR_NOT_NULL(json_object_get(result, "project_revision"));
    json_decref(status);
    spx_daemon_assert_line(
        spx_daemon_call(daemon, "{\"jsonrpc\":\"2.0\",\"id\":\"s\",\"method\":\"shutdown\"}"),
        "{\"id\":\"s\",\"jsonrpc\":\"2.0\",\"result\":{\"state\":\"shutdown\"}}");
    CU_ASSERT_PTR_NULL(spx_daemon_call(daemon, PING_99));
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    CU_ASSERT_STRING_EQUAL(spx_daemon_rest(daemon), "");
}

static void test_lifecycle_methods_in_every_state(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_t *configured = start_hello(fixture);
    assert_lifecycle_methods(configured, "configured", 1, pool);

    spx_daemon_t *open = spx_daemon_start_on(fixture, "proj", no_extra);
    spx_daemon_open(open);
    assert_lifecycle_methods(open, "open", 1, pool);

    spx_daemon_t *invalid = spx_daemon_start_on(fixture, "proj", no_extra);
    const char *revisions = spx_daemon_open(invalid);
    spx_fixture_expect_denials(fixture);
    spx_fixture_append(fixture, "proj/src/text.spx", "\n");
    json_t *check = spx_daemon_call_json(invalid, spx_request_line("1", "check", revisions, pool));
    if (spx_fixture_denials(fixture) > 0) {
        /* Windows: no other program can change a held input, so a session is
         * never invalidated from outside; it stays open. */
        CU_ASSERT_PTR_NOT_NULL(json_object_get(check, "result"));
        json_decref(check);
        assert_lifecycle_methods(invalid, "open", 1, pool);
        spx_fixture_free(fixture);
        return;
    }
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(json_object_get(check, "error"), "code")),
                    SPX_RPC_SESSION_INVALIDATED);
    json_decref(check);
    assert_lifecycle_methods(invalid, "invalidated", 0, pool);
    spx_fixture_free(fixture);
}

/* --- the methods' results --------------------------------------------------------- */

/* The result member of a response line, as canonical text. */
static const char *result_text(const char *line, apr_pool_t *pool)
{
    json_t *response = json_loads(line, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(response);
    char *text = json_dumps(json_object_get(response, "result"), JSON_COMPACT | JSON_SORT_KEYS);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    const char *copy = apr_pstrdup(pool, text);
    free(text);
    json_decref(response);
    return copy;
}

static void test_results_of_every_method(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_t *daemon = start_hello(fixture);
    const char *manifest = spx_fixture_path(fixture, "proj/semaprax.toml");

    json_t *protocol =
        spx_daemon_call_json(daemon, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"protocol\"}");
    json_t *result = json_object_get(protocol, "result");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(result, "schema")),
                           "semaprax.agent-transport.v2");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(result, "manifest")), manifest);
    char *methods = json_dumps(json_object_get(result, "methods"), JSON_COMPACT);
    CU_ASSERT_STRING_EQUAL(methods, "[\"check\",\"context\",\"graph\",\"ping\",\"protocol\","
                                    "\"shutdown\",\"test\",\"workspace/open\","
                                    "\"workspace/snapshot\",\"workspace/status\"]");
    free(methods);
    json_t *limits = json_object_get(result, "limits");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(limits, "max_request_bytes")), 1048576);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(limits, "max_response_bytes")), 16777216);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(limits, "max_call_depth")), 65536);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(limits, "max_call_depth_default")), 256);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(limits, "max_context_depth")), 16);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(limits, "max_steps")), 10000000000LL);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(limits, "max_memory")), 1073741824LL);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(limits, "max_memory_default")), 268435456LL);
    json_t *nonclaims = json_object_get(result, "nonclaims");
    CU_ASSERT_TRUE(json_array_size(nonclaims) > 5);
    for (size_t i = 1; i < json_array_size(nonclaims); i++)
        CU_ASSERT_TRUE(strcmp(json_string_value(json_array_get(nonclaims, i - 1)),
                              json_string_value(json_array_get(nonclaims, i))) < 0);
    json_decref(protocol);

    const char *revisions = spx_daemon_open(daemon);

    json_t *snapshot =
        spx_daemon_call_json(daemon, spx_request_line("1", "workspace/snapshot", revisions, pool));
    result = json_object_get(snapshot, "result");
    json_t *manifest_facts = json_object_get(result, "manifest");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(manifest_facts, "path")), manifest);
    spx_assert_contains(json_string_value(json_object_get(manifest_facts, "digest")), "sha256:");
    CU_ASSERT_STRING_EQUAL(
        json_string_value(json_object_get(
            json_object_get(json_object_get(manifest_facts, "subject"), "project"), "name")),
        "hello");
    json_t *sources = json_object_get(result, "sources");
    CU_ASSERT_EQUAL_FATAL(json_array_size(sources), 4);
    const char *paths[] = {"src/app.spx", "src/math.spx", "src/text.spx", "src/words.spx"};
    const char *modules[] = {"app", "math", "text", "words"};
    for (size_t i = 0; i < 4; i++) {
        json_t *source = json_array_get(sources, i);
        CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(source, "path")), paths[i]);
        CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(source, "module")), modules[i]);
        CU_ASSERT_EQUAL(
            (apr_size_t)json_integer_value(json_object_get(source, "bytes")),
            strlen(spx_fixture_read(fixture, apr_pstrcat(pool, "proj/", paths[i], NULL))));
    }
    spx_assert_contains(revisions,
                        json_string_value(json_object_get(result, "workspace_revision")));
    json_decref(snapshot);

    spx_process_result_t cli_check =
        SPX_RUN_SEMAPRAX(pool, "check", "--manifest-path", manifest, "--format", "json");
    CU_ASSERT_STRING_EQUAL(
        apr_pstrcat(
            pool,
            result_text(spx_daemon_call(daemon, spx_request_line("1", "check", revisions, pool)),
                        pool),
            "\n", NULL),
        cli_check.out);
    spx_process_result_t cli_graph = SPX_RUN_SEMAPRAX(pool, "graph", "--manifest-path", manifest);
    CU_ASSERT_STRING_EQUAL(
        apr_pstrcat(
            pool,
            result_text(spx_daemon_call(daemon, spx_request_line("1", "graph", revisions, pool)),
                        pool),
            "\n", NULL),
        cli_graph.out);
    spx_process_result_t cli_context =
        SPX_RUN_SEMAPRAX(pool, "context", "--manifest-path", manifest, "--kind", "function",
                         "--target", "math.fib", "--direction", "in", "--depth", "2");
    const char *context_params =
        apr_pstrcat(pool, revisions,
                    ",\"target_kind\":\"function\",\"target\":\"math.fib\","
                    "\"direction\":\"in\",\"depth\":2",
                    NULL);
    CU_ASSERT_STRING_EQUAL(
        apr_pstrcat(pool,
                    result_text(spx_daemon_call(
                                    daemon, spx_request_line("1", "context", context_params, pool)),
                                pool),
                    "\n", NULL),
        cli_context.out);

    const char *test_line = spx_daemon_call(daemon, spx_request_line("1", "test", revisions, pool));
    CU_ASSERT_PTR_NOT_NULL_FATAL(test_line);
    json_t *test = json_loads(test_line, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(test);
    result = json_object_get(test, "result");
    CU_ASSERT_TRUE(json_is_true(json_object_get(result, "command_succeeded")));
    json_t *envelope = json_object_get(result, "envelope");
    /* The same envelope, byte for byte, as the CLI writes. */
    const char *envelope_path = spx_fixture_path(fixture, "envelope.json");
    spx_process_result_t cli_test =
        SPX_RUN_SEMAPRAX(pool, "test", "--manifest-path", manifest, "--envelope", envelope_path);
    CU_ASSERT_EQUAL(cli_test.exit_code, 0);
    CU_ASSERT_STRING_EQUAL(apr_pstrcat(pool, spx_canonical_text(envelope, pool), "\n", NULL),
                           spx_fixture_read(fixture, "envelope.json"));
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(envelope, "schema")),
                           "semaprax.project-execution.v1");
    CU_ASSERT_EQUAL(
        json_integer_value(json_object_get(json_object_get(envelope, "summary"), "passed")), 4);
    /* Language v3: a limit the params did not give is absent from the
     * command's limits; each test records the memory it ran under. */
    CU_ASSERT_PTR_NULL(json_object_get(json_object_get(envelope, "limits"), "max_memory"));
    CU_ASSERT_EQUAL(
        json_integer_value(json_object_get(
            json_object_get(json_array_get(json_object_get(envelope, "tests"), 0), "limits"),
            "max_memory")),
        268435456LL);
    json_decref(test);
    /* max_memory, up to its maximum, is the envelope's limits.max_memory:
     * the same envelope as the CLI's --max-memory, and it verifies. */
    const char *memories[] = {"65536", "12345678", "1073741824"};
    for (size_t i = 0; i < sizeof(memories) / sizeof(memories[0]); i++) {
        json_t *given = spx_daemon_call_json(
            daemon, spx_request_line(
                        "1", "test",
                        apr_pstrcat(pool, revisions, ",\"max_memory\":", memories[i], NULL), pool));
        result = json_object_get(given, "result");
        CU_ASSERT_TRUE(json_is_true(json_object_get(result, "command_succeeded")));
        envelope = json_object_get(result, "envelope");
        CU_ASSERT_EQUAL(
            json_integer_value(json_object_get(json_object_get(envelope, "limits"), "max_memory")),
            apr_atoi64(memories[i]));
        cli_test = SPX_RUN_SEMAPRAX(pool, "test", "--manifest-path", manifest, "--max-memory",
                                    memories[i], "--envelope", envelope_path);
        CU_ASSERT_EQUAL(cli_test.exit_code, 0);
        const char *daemon_envelope =
            apr_pstrcat(pool, spx_canonical_text(envelope, pool), "\n", NULL);
        CU_ASSERT_STRING_EQUAL(daemon_envelope, spx_fixture_read(fixture, "envelope.json"));
        spx_fixture_write(fixture, "daemon-envelope.json", daemon_envelope);
        spx_process_result_t verify =
            SPX_RUN_SEMAPRAX(pool, "verify", spx_fixture_path(fixture, "daemon-envelope.json"),
                             "--manifest-path", manifest);
        CU_ASSERT_EQUAL(verify.exit_code, 0);
        json_decref(given);
    }
    /* Fuel exhaustion is a result with command_succeeded false. */
    json_t *starved = spx_daemon_call_json(
        daemon, spx_request_line("1", "test",
                                 apr_pstrcat(pool, revisions, ",\"max_steps\":1", NULL), pool));
    result = json_object_get(starved, "result");
    CU_ASSERT_TRUE(json_is_false(json_object_get(result, "command_succeeded")));
    CU_ASSERT_EQUAL(
        json_integer_value(json_object_get(
            json_object_get(json_object_get(result, "envelope"), "summary"), "fuel_exhausted")),
        4);
    json_decref(starved);

    /* Each says why: its reason, and a detail naming the param and its range. */
    const char *invalid_params[][4] = {
        {"context", "", "missing_param", "context needs target"},
        {"context", ",\"target_kind\":\"module\"", "missing_param", "context needs target"},
        {"context", ",\"target_kind\":\"module\",\"target\":\"nope\"", "unknown_target",
         "no module 'nope' in this project"},
        {"context", ",\"target_kind\":\"module\",\"target\":\"app\",\"depth\":17", "out_of_range",
         "depth 17 is outside 0..16"},
        {"context", ",\"target_kind\":\"module\",\"target\":\"app\",\"depth\":-1", "out_of_range",
         "depth -1 is outside 0..16"},
        {"context", ",\"target_kind\":\"module\",\"target\":\"app\",\"max_nodes\":0",
         "out_of_range", "max_nodes 0 is outside 1..65536"},
        {"context", ",\"target_kind\":\"module\",\"target\":\"app\",\"direction\":1",
         "mistyped_param", "direction must be a string"},
        {"context", ",\"target_kind\":\"module\",\"target\":\"app\",\"direction\":\"up\"",
         "invalid_value", "unknown direction 'up': use out, in or both"},
        /* 16777216 less {"id":7,"jsonrpc":"2.0","result":} and the LF */
        {"context", ",\"target_kind\":\"module\",\"target\":\"app\",\"max_bytes\":16777217",
         "out_of_range", "max_bytes 16777217 is outside 1..16777181"},
        {"context", ",\"target_kind\":\"module\",\"target\":\"app\",\"max_bytes\":16777182",
         "out_of_range", "max_bytes 16777182 is outside 1..16777181"},
        {"context", ",\"target_kind\":\"module\",\"target\":\"app\",\"depth\":1.0",
         "mistyped_param", "depth must be a JSON integer"},
        {"context", ",\"target_kind\":\"struct\",\"target\":\"module:app\"", "target_kind_mismatch",
         "target 'module:app' is a module id but the target kind given"},
        {"context", ",\"target\":\"app\"", "missing_param",
         "no target kind is given and 'app' is not a node id of the graph"},
        {"context", ",\"target_kind\":\"record\",\"target\":\"app\"", "invalid_value",
         "unknown target kind 'record'"},
        {"context", ",\"target_kind\":\"function\",\"target\":\"math.fib\",\"max_bytes\":10",
         "budget_too_small", "max_bytes 10 cannot hold even the target's outline"},
        {"context", ",\"target_kind\":\"function\",\"target\":\"math.fibb\"", "unknown_target",
         "no function 'math.fibb' in this project; nearest: math.fib, math.fact"},
        {"test", ",\"max_steps\":10000000001", "out_of_range",
         "max_steps 10000000001 is outside 0..10000000000"},
        {"test", ",\"max_steps\":\"10\"", "mistyped_param", "max_steps must be a JSON integer"},
        {"test", ",\"max_bytes\":1048577", "out_of_range",
         "max_bytes 1048577 is outside 0..1048576"},
        {"test", ",\"max_steps\":99999999999999999999999", "out_of_range",
         "max_steps is beyond 2^63-1, outside 0..10000000000"},
        {"test", ",\"max_memory\":1073741825", "out_of_range",
         "max_memory 1073741825 is outside 0..1073741824"},
        {"test", ",\"max_memory\":-1", "out_of_range", "max_memory -1 is outside 0..1073741824"},
        {"test", ",\"max_memory\":\"1024\"", "mistyped_param", "max_memory must be a JSON integer"},
        {"test", ",\"max_memory\":1024.0", "mistyped_param", "max_memory must be a JSON integer"},
        {"test", ",\"max_memory\":null", "mistyped_param", "max_memory must be a JSON integer"},
        {"test", ",\"max_memory\":99999999999999999999999", "out_of_range",
         "max_memory is beyond 2^63-1"},
        {"test", ",\"max_steps\":10,\"max_memory\":true", "mistyped_param",
         "max_memory must be a JSON integer"},
        {"graph", ",\"depth\":1", "unknown_param",
         "unknown param 'depth' for graph, which takes project_revision, workspace_revision"},
        {"check", ",\"x\":null", "unknown_param", "unknown param 'x' for check"},
        {"test", ",\"max_step\":1", "unknown_param",
         "unknown param 'max_step' for test, which takes project_revision, workspace_revision, "
         "max_steps, max_bytes, max_memory, max_call_depth, tests; nearest: max_steps"},
    };
    for (size_t i = 0; i < sizeof(invalid_params) / sizeof(invalid_params[0]); i++) {
        const char *line = spx_daemon_call(
            daemon,
            spx_request_line("7", invalid_params[i][0],
                             apr_pstrcat(pool, revisions, invalid_params[i][1], NULL), pool));
        if (!spx_error_matches(line, SPX_RPC_INVALID_PARAMS, "7", invalid_params[i][2],
                               invalid_params[i][3], pool))
            fprintf(stderr, "\n  params %s %s\n", invalid_params[i][0], invalid_params[i][1]);
        spx_assert_error(line, SPX_RPC_INVALID_PARAMS, "7", invalid_params[i][2],
                         invalid_params[i][3], pool);
    }
    assert_ping(daemon, "open", pool);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

static json_int_t counter(spx_daemon_t *daemon, const char *name)
{
    json_t *status = spx_daemon_call_json(
        daemon, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"workspace/status\"}");
    json_int_t value = json_integer_value(
        json_object_get(json_object_get(json_object_get(status, "result"), "counters"), name));
    json_decref(status);
    return value;
}

static void test_counters_prove_retained_state(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_t *daemon = start_hello(fixture);
    CU_ASSERT_EQUAL(counter(daemon, "phase_a_runs"), 1);
    CU_ASSERT_EQUAL(counter(daemon, "source_reads"), 4); /* startup: four sources */
    CU_ASSERT_EQUAL(counter(daemon, "authentications"), 1);
    const char *revisions = spx_daemon_open(daemon); /* one re-authentication */
    CU_ASSERT_EQUAL(counter(daemon, "source_reads"), 8);
    const char *context =
        apr_pstrcat(pool, revisions, ",\"target_kind\":\"test\",\"target\":\"fib\"", NULL);
    const char *requests[][2] = {{"graph", revisions},
                                 {"context", context},
                                 {"test", revisions},
                                 {"workspace/snapshot", revisions},
                                 {"check", revisions}};
    for (int round = 0; round < 4; round++)
        for (size_t i = 0; i < 5; i++) {
            json_t *answer = spx_daemon_call_json(
                daemon, spx_request_line("1", requests[i][0], requests[i][1], pool));
            CU_ASSERT_PTR_NOT_NULL(json_object_get(answer, "result"));
            json_decref(answer);
        }
    /* 20 semantic requests, each re-authenticating twice, four sources each:
     * no other source read, and Phase A still ran once. */
    CU_ASSERT_EQUAL(counter(daemon, "phase_a_runs"), 1);
    CU_ASSERT_EQUAL(counter(daemon, "authentications"), 2 + 20 * 2);
    CU_ASSERT_EQUAL(counter(daemon, "source_reads"), 8 + 20 * 2 * 4);
    /* Every request counted: 7 status, 1 open, 20 semantic, and this one. */
    CU_ASSERT_EQUAL(counter(daemon, "requests"), 7 + 1 + 20 + 1);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

static void test_project_not_admitted(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_copy_hello(fixture, "proj");
    spx_fixture_write(fixture, "proj/src/text.spx",
                      "export fn greet(name: str) -> str { return 1; }\n"
                      "fn test_greeting() -> int { return 0; }\n");
    spx_daemon_t *daemon = spx_daemon_start_on(fixture, "proj", no_extra);
    const char *revisions = spx_daemon_open(daemon); /* a Phase A failure still opens */
    json_t *check = spx_daemon_call_json(daemon, spx_request_line("1", "check", revisions, pool));
    json_t *result = json_object_get(check, "result");
    CU_ASSERT_TRUE(json_is_false(json_object_get(result, "admitted")));
    char *diagnostics = json_dumps(json_object_get(result, "diagnostics"), JSON_COMPACT);
    CU_ASSERT_TRUE(json_array_size(json_object_get(result, "diagnostics")) >= 1);
    json_decref(check);
    const char *context =
        apr_pstrcat(pool, revisions, ",\"target_kind\":\"module\",\"target\":\"app\"", NULL);
    const char *requests[][2] = {{"graph", revisions}, {"context", context}, {"test", revisions}};
    for (size_t i = 0; i < 3; i++) {
        json_t *answer = spx_daemon_call_json(
            daemon, spx_request_line("2", requests[i][0], requests[i][1], pool));
        json_t *error = json_object_get(answer, "error");
        CU_ASSERT_EQUAL(json_integer_value(json_object_get(error, "code")),
                        SPX_RPC_PROJECT_NOT_ADMITTED);
        char *data = json_dumps(json_object_get(json_object_get(error, "data"), "diagnostics"),
                                JSON_COMPACT);
        CU_ASSERT_STRING_EQUAL(data, diagnostics);
        free(data);
        json_decref(answer);
    }
    free(diagnostics);
    assert_ping(daemon, "open", pool);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

int main(void)
{
    if (sizeof(rules) / sizeof(rules[0]) != RULE_COUNT) {
        fprintf(stderr, "test_daemon: %zu rules but %d rule tests\n",
                sizeof(rules) / sizeof(rules[0]), RULE_COUNT);
        return 1;
    }
    CU_TestInfo tests[] = {
        {rules[0].name, test_rule_0},
        {rules[1].name, test_rule_1},
        {rules[2].name, test_rule_2},
        {rules[3].name, test_rule_3},
        {rules[4].name, test_rule_4},
        {rules[5].name, test_rule_5},
        {rules[6].name, test_rule_6},
        {rules[7].name, test_rule_7},
        {rules[8].name, test_rule_8},
        {rules[9].name, test_rule_9},
        {rules[10].name, test_rule_10},
        {rules[11].name, test_rule_11},
        {rules[12].name, test_rule_12},
        {rules[13].name, test_rule_13},
        {rules[14].name, test_rule_14},
        {rules[15].name, test_rule_15},
        {rules[16].name, test_rule_16},
        {rules[17].name, test_rule_17},
        {rules[18].name, test_rule_18},
        {rules[19].name, test_rule_19},
        {rules[20].name, test_rule_20},
        {rules[21].name, test_rule_21},
        {rules[22].name, test_rule_22},
        {rules[23].name, test_rule_23},
        {rules[24].name, test_rule_24},
        {rules[25].name, test_rule_25},
        {rules[26].name, test_rule_26},
        {rules[27].name, test_rule_27},
        {rules[28].name, test_rule_28},
        {rules[29].name, test_rule_29},
        {rules[30].name, test_rule_30},
        {rules[31].name, test_rule_31},
        {rules[32].name, test_rule_32},
        {rules[33].name, test_rule_33},
        {rules[34].name, test_rule_34},
        {rules[35].name, test_rule_35},
        {rules[36].name, test_rule_36},
        {rules[37].name, test_rule_37},

        {"the command line", test_command_line},
        {"every grammar rule in one session, then ping", test_every_grammar_rule_then_ping},
        {"ids are echoed exactly", test_ids_echoed_exactly},
        {"notifications never answer and never run", test_notifications_never_answer_and_never_run},
        {"the shutdown notification is silent", test_shutdown_notification_is_silent},
        {"end of input", test_end_of_input},
        {"semantic methods before open", test_semantic_methods_before_open},
        {"open on unhealthy sessions", test_open_on_unhealthy_sessions},
        {"repeated open and wrong revisions", test_repeated_open_and_wrong_revisions},
        {"lifecycle methods in every state", test_lifecycle_methods_in_every_state},
        {"results of every method", test_results_of_every_method},
        {"counters prove retained state", test_counters_prove_retained_state},
        {"a project not admitted", test_project_not_admitted},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("daemon", tests);
}
