/*
 * test_mcp.c: process tests of `semapraxd --mcp`, the MCP server, over
 * pipes: initialize and its version negotiation, tools/list (rename only
 * with --allow-project-rename), each tool's answer, an edit between two
 * calls (revision_changed and a fresh answer, and Phase A once more), the
 * counters standing still without edits, a broken project (a tool error
 * with its diagnostics), the test tool's tests and max_call_depth (a
 * selection, the depth outcome, the refusals), a bad target and bad
 * arguments (tool errors with the reason), a project that cannot be read
 * until it can, drift between rendering and writing (the test-only
 * daemon's pause: answered again, or a tool error after too many),
 * JSON-RPC errors with data, the request loop's refusals, notifications
 * and ends byte for byte (an oversized request, refused frames, `shutdown`
 * and `exit` notifications dropped, a closed output), each request a phase
 * of the allocation gate, and the command line. On Windows, where holding
 * is authority, edits of held files are denied, so the tests that edit
 * them are left out there.
 */
#include "spx_canonical.h"
#include "spx_corpus.h"
#include "spx_daemon.h"
#include "spx_limits.h"
#include "spx_response.h"
#include "spx_process.h"
#include "spx_rpc.h"

#include <apr_env.h>
#include <apr_file_io.h>
#include <apr_strings.h>
#include <stdlib.h>
#include <string.h>

#define INITIALIZE_FORMAT                                                                          \
    "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"     \
    "\"%s\",\"capabilities\":{},\"clientInfo\":{\"name\":\"test_mcp\",\"version\":\"1\"}}}"

static const char *const mcp_only[] = {"--mcp", NULL};

/* Start semapraxd --mcp (and extra) on a copy of examples/hello in proj. */
static spx_daemon_t *start(spx_fixture_t *fixture, const char *const *extra)
{
    spx_daemon_copy_hello(fixture, "proj");
    return spx_daemon_start_on(fixture, "proj", extra ? extra : mcp_only);
}

static json_t *initialize(spx_daemon_t *daemon, const char *version, apr_pool_t *pool)
{
    json_t *answer = spx_daemon_call_json(daemon, apr_psprintf(pool, INITIALIZE_FORMAT, version));
    const char *initialized = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n";
    CU_ASSERT_EQUAL(spx_daemon_send(daemon, initialized, strlen(initialized)), APR_SUCCESS);
    return answer;
}

static void start_initialized(spx_daemon_t *daemon, apr_pool_t *pool)
{
    json_decref(initialize(daemon, "2025-11-25", pool));
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

/* The text of a tool result's first content block (NULL when it has none). */
static const char *result_text(json_t *result)
{
    return json_string_value(
        json_object_get(json_array_get(json_object_get(result, "content"), 0), "text"));
}

/* A result that is not a tool error: its structuredContent (a new
 * reference), whose copy is in the text after the summary line. */
static json_t *structured(json_t *result, apr_pool_t *pool)
{
    CU_ASSERT_TRUE(json_is_false(json_object_get(result, "isError")));
    json_t *content = json_object_get(result, "structuredContent");
    CU_ASSERT_TRUE_FATAL(json_is_object(content));
    const char *text = result_text(result);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    const char *json_text = strrchr(text, '\n');
    CU_ASSERT_PTR_NOT_NULL_FATAL(json_text);
    json_t *copy = json_loads(json_text + 1, 0, NULL);
    CU_ASSERT_TRUE(json_equal(copy, content));
    json_decref(copy);
    (void)pool;
    return json_incref(content);
}

/* A tool error: its text. */
static const char *error_text(json_t *result, apr_pool_t *pool)
{
    CU_ASSERT_TRUE(json_is_true(json_object_get(result, "isError")));
    CU_ASSERT_PTR_NULL(json_object_get(result, "structuredContent"));
    const char *text = result_text(result);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    return apr_pstrdup(pool, text);
}

static json_int_t counter(json_t *status, const char *name)
{
    return json_integer_value(json_object_get(json_object_get(status, "counters"), name));
}

static json_t *call_status(spx_daemon_t *daemon, apr_pool_t *pool)
{
    json_t *result = call_tool(daemon, "status", "{}", pool);
    json_t *content = structured(result, pool);
    json_decref(result);
    return content;
}

/* --- the lifecycle ---------------------------------------------------------------- */

static void assert_version_answered(spx_fixture_t *fixture, const char *asked, const char *answered)
{
    spx_daemon_t *daemon = spx_daemon_start_on(fixture, "proj", mcp_only);
    json_t *answer = initialize(daemon, asked, fixture->pool);
    json_t *result = json_object_get(answer, "result");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(result, "protocolVersion")), answered);
    CU_ASSERT_STRING_EQUAL(
        json_string_value(json_object_get(json_object_get(result, "serverInfo"), "name")),
        "semapraxd");
    CU_ASSERT_TRUE(
        json_is_string(json_object_get(json_object_get(result, "serverInfo"), "version")));
    CU_ASSERT_TRUE(
        json_is_object(json_object_get(json_object_get(result, "capabilities"), "tools")));
    CU_ASSERT_TRUE(json_string_length(json_object_get(result, "instructions")) > 100);
    json_decref(answer);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
}

static void test_initialize_and_versions(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_daemon_copy_hello(fixture, "proj");
    assert_version_answered(fixture, "2025-11-25", "2025-11-25");
    assert_version_answered(fixture, "2025-06-18", "2025-06-18");
    assert_version_answered(fixture, "2024-11-05", "2025-11-25");
    assert_version_answered(fixture, "1999-01-01", "2025-11-25");

    spx_daemon_t *daemon = spx_daemon_start_on(fixture, "proj", mcp_only);
    /* Before initialize: ping answers, the tools do not. */
    CU_ASSERT_STRING_EQUAL(
        spx_daemon_call(daemon, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}"),
        "{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{}}");
    spx_assert_contains(
        spx_daemon_call(daemon, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}"),
        "{\"error\":{\"code\":-32600,\"data\":{\"detail\":\"tools/list before initialize: "
        "initialize first\",\"reason\":\"not_initialized\"}");
    spx_assert_contains(spx_daemon_call(daemon,
                                        "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"initialize\","
                                        "\"params\":{}}"),
                        "\"reason\":\"invalid_params\"");
    start_initialized(daemon, fixture->pool);
    spx_assert_contains(
        spx_daemon_call(daemon, apr_psprintf(fixture->pool, INITIALIZE_FORMAT, "2025-11-25")),
        "\"reason\":\"already_initialized\"");
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

static const char *tool_names(json_t *list, apr_pool_t *pool)
{
    const char *names = "";
    size_t index;
    json_t *tool;
    json_array_foreach(json_object_get(list, "tools"), index, tool)
    {
        names = apr_pstrcat(pool, names, index ? " " : "",
                            json_string_value(json_object_get(tool, "name")), NULL);
        CU_ASSERT_STRING_EQUAL(
            json_string_value(json_object_get(json_object_get(tool, "inputSchema"), "type")),
            "object");
        CU_ASSERT_STRING_EQUAL(
            json_string_value(json_object_get(json_object_get(tool, "outputSchema"), "type")),
            "object");
        CU_ASSERT_TRUE(json_string_length(json_object_get(tool, "description")) > 40);
    }
    return names;
}

static void test_tools_list(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    for (int rename = 0; rename <= 1; rename++) {
        spx_daemon_t *daemon =
            start(fixture,
                  rename ? (const char *const[]){"--mcp", "--allow-project-rename", NULL} : NULL);
        start_initialized(daemon, fixture->pool);
        json_t *answer = spx_daemon_call_json(
            daemon, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{}}");
        /* The whole list fits the smallest --max-response-bytes of --mcp,
         * twice over. */
        char *list_text = json_dumps(answer, JSON_COMPACT);
        CU_ASSERT_TRUE(strlen(list_text) < SPX_LIMIT_MCP_RESPONSE_BYTES_MINIMUM / 2);
        free(list_text);
        CU_ASSERT_STRING_EQUAL(tool_names(json_object_get(answer, "result"), fixture->pool),
                               rename ? "check context test run graph_summary status fmt rename"
                                      : "check context test run graph_summary status fmt");
        json_decref(answer);
        if (rename) {
            json_t *call = call_tool(
                daemon, "rename",
                "{\"function\":\"math.fact\",\"new_name\":\"f\",\"dry_run\":true}", fixture->pool);
            json_t *content = structured(call, fixture->pool);
            CU_ASSERT_TRUE(json_is_false(json_object_get(content, "committed")));
            CU_ASSERT_TRUE(json_array_size(json_object_get(content, "edits")) >= 2);
            json_decref(content);
            json_decref(call);
        }
        CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    }
    /* Without the flag rename is an unknown tool: a JSON-RPC error. */
    spx_daemon_t *daemon = start(fixture, NULL);
    start_initialized(daemon, fixture->pool);
    spx_assert_contains(
        spx_daemon_call(daemon, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\","
                                "\"params\":{\"name\":\"rename\",\"arguments\":{}}}"),
        "{\"error\":{\"code\":-32602,\"data\":{\"detail\":\"no tool 'rename'; the tools are "
        "check, context, test, run, graph_summary, status, fmt\",\"reason\":\"unknown_tool\"}");
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

/* --- the tools ------------------------------------------------------------------------ */

static void test_each_tool(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_t *daemon = start(fixture, NULL);
    start_initialized(daemon, pool);

    json_t *result = call_tool(daemon, "check", "{}", pool);
    json_t *content = structured(result, pool);
    CU_ASSERT_TRUE(json_is_true(json_object_get(content, "admitted")));
    CU_ASSERT_EQUAL(json_array_size(json_object_get(content, "diagnostics")), 0);
    CU_ASSERT_TRUE(json_is_string(json_object_get(content, "project_revision")));
    CU_ASSERT_PTR_NULL(json_object_get(content, "revision_changed"));
    json_decref(content);
    json_decref(result);

    result = call_tool(daemon, "context",
                       "{\"target_kind\":\"function\",\"target\":\"math.fact\",\"direction\":"
                       "\"in\",\"edge_kinds\":[\"calls\"]}",
                       pool);
    content = structured(result, pool);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(content, "target")),
                           "function:math.fact");
    CU_ASSERT_EQUAL(
        json_integer_value(json_object_get(json_object_get(content, "limits"), "max_bytes")),
        SPX_LIMIT_MCP_CONTEXT_BYTES_DEFAULT);
    size_t index;
    json_t *edge;
    json_array_foreach(json_object_get(content, "edges"), index, edge)
    {
        CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(edge, "kind")), "calls");
    }
    CU_ASSERT_EQUAL(json_array_size(json_object_get(content, "nodes")), 3); /* fact, main, test */
    json_decref(content);
    json_decref(result);

    /* Without edge_kinds every kind is followed: the module contains it. */
    result = call_tool(daemon, "context",
                       "{\"target_kind\":\"function\",\"target\":\"math.fact\",\"direction\":"
                       "\"in\"}",
                       pool);
    content = structured(result, pool);
    CU_ASSERT_EQUAL(json_array_size(json_object_get(content, "nodes")), 4);
    CU_ASSERT_PTR_NULL(json_object_get(content, "edge_kinds"));
    json_decref(content);
    json_decref(result);

    result = call_tool(daemon, "test", "{}", pool);
    content = structured(result, pool);
    json_t *summary = json_object_get(json_object_get(content, "envelope"), "summary");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(summary, "passed")), 4);
    CU_ASSERT_TRUE(json_is_true(json_object_get(content, "command_succeeded")));
    json_decref(content);
    json_decref(result);

    /* Fuel exhausted is a result, not a tool error. */
    result = call_tool(daemon, "test", "{\"max_steps\":10}", pool);
    content = structured(result, pool);
    summary = json_object_get(json_object_get(content, "envelope"), "summary");
    CU_ASSERT_TRUE(json_integer_value(json_object_get(summary, "fuel_exhausted")) > 0);
    CU_ASSERT_TRUE(json_is_false(json_object_get(content, "command_succeeded")));
    json_decref(content);
    json_decref(result);

    result = call_tool(daemon, "graph_summary", "{\"max_modules\":1}", pool);
    content = structured(result, pool);
    char *counts = json_dumps(json_object_get(content, "counts"), JSON_SORT_KEYS | JSON_COMPACT);
    CU_ASSERT_STRING_EQUAL(counts, "{\"consts\":2,\"edges\":58,\"functions\":14,\"imports\":3,"
                                   "\"modules\":4,\"nodes\":31,\"structs\":1,\"tests\":4}");
    free(counts);
    char *modules = json_dumps(json_object_get(content, "modules"), JSON_SORT_KEYS | JSON_COMPACT);
    CU_ASSERT_STRING_EQUAL(modules, "[{\"imports\":[\"math\",\"text\",\"words\"],\"name\":"
                                    "\"app\",\"path\":\"src/app.spx\"}]");
    free(modules);
    CU_ASSERT_TRUE(json_is_true(json_object_get(content, "truncated")));
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(content, "omitted_modules")), 3);
    json_decref(content);
    json_decref(result);

    json_t *status = call_status(daemon, pool);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(status, "state")), "open");
    CU_ASSERT_TRUE(json_is_true(json_object_get(status, "admitted")));
    CU_ASSERT_EQUAL(counter(status, "phase_a_runs"), 1);
    CU_ASSERT_EQUAL(counter(status, "requests"), 8); /* initialize and 7 calls */
    json_decref(status);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

static void test_counters_stand_still_without_edits(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_t *daemon = start(fixture, NULL);
    start_initialized(daemon, pool);
    json_t *first = call_status(daemon, pool);
    for (int i = 0; i < 20; i++)
        json_decref(call_tool(daemon, i % 2 ? "check" : "graph_summary", "{}", pool));
    json_t *last = call_status(daemon, pool);
    CU_ASSERT_EQUAL(counter(first, "phase_a_runs"), 1);
    CU_ASSERT_EQUAL(counter(last, "phase_a_runs"), 1);
    /* Every call re-authenticates (twice: before and after rendering). */
    CU_ASSERT_EQUAL(counter(last, "authentications"), counter(first, "authentications") + 2 * 21);
    /* The sources are read once, at authentication; re-authentication
     * reads them to compare, never to build. */
    CU_ASSERT_EQUAL(counter(last, "source_reads") - counter(first, "source_reads"),
                    (counter(last, "authentications") - counter(first, "authentications")) * 4);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(first, "project_revision")),
                           json_string_value(json_object_get(last, "project_revision")));
    CU_ASSERT_PTR_NULL(json_object_get(last, "revision_changed"));
    json_decref(first);
    json_decref(last);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

static void test_edit_between_calls(void)
{
    if (spx_held_inputs_locked())
        return; /* Windows: the edit is denied while the file is held */
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_t *daemon = start(fixture, NULL);
    start_initialized(daemon, pool);
    json_t *before = call_status(daemon, pool);
    spx_fixture_append(fixture, "proj/src/math.spx",
                       "\nexport fn twice(n: int) -> int {\n  return n * 2;\n}\n");
    json_t *result = call_tool(daemon, "context",
                               "{\"target_kind\":\"function\",\"target\":\"math.twice\"}", pool);
    json_t *content = structured(result, pool);
    json_t *change = json_object_get(content, "revision_changed");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(change, "from")),
                           json_string_value(json_object_get(before, "project_revision")));
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(change, "to")),
                           json_string_value(json_object_get(content, "project_revision")));
    CU_ASSERT_STRING_NOT_EQUAL(json_string_value(json_object_get(change, "from")),
                               json_string_value(json_object_get(change, "to")));
    char *drift = json_dumps(json_object_get(change, "drift"), JSON_SORT_KEYS | JSON_COMPACT);
    CU_ASSERT_STRING_EQUAL(drift, "[{\"path\":\"src/math.spx\",\"reason\":\"content_changed\"}]");
    free(drift);
    spx_assert_contains(json_string_value(json_object_get(
                            json_array_get(json_object_get(content, "nodes"), 0), "text")),
                        "return n * 2;");
    spx_assert_contains(result_text(result),
                        "The project changed since it was last read, so it was opened again");
    json_decref(content);
    json_decref(result);
    json_t *after = call_status(daemon, pool);
    CU_ASSERT_EQUAL(counter(after, "phase_a_runs"), 2);
    CU_ASSERT_PTR_NULL(json_object_get(after, "revision_changed"));
    json_decref(after);
    json_decref(before);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

/* A context cut by max_nodes keeps the callers and callees first, and the
 * summary says what it dropped by tie (tests/projects/relevance). */
static void test_cut_context_by_tie(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    static const char *const files[] = {"semaprax.toml", "src/shop.spx", "src/depot.spx",
                                        "src/ware.spx"};
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        apr_size_t length = 0;
        spx_fixture_write(
            fixture, apr_pstrcat(pool, "proj/", files[i], NULL),
            spx_corpus_read(
                apr_pstrcat(pool, spx_corpus_dir("projects/relevance", pool), "/", files[i], NULL),
                &length, pool));
    }
    spx_daemon_t *daemon = spx_daemon_start_on(fixture, "proj", mcp_only);
    start_initialized(daemon, pool);
    json_t *result =
        call_tool(daemon, "context", "{\"target\":\"function:shop.price\",\"max_nodes\":3}", pool);
    json_t *content = structured(result, pool);
    spx_assert_contains(result_text(result),
                        "Context of function:shop.price (direction both, depth 1): 3 nodes, 2 "
                        "edges; 4 more nodes did not fit (by tie: uses 2, tests 1, module 1; see "
                        "frontier)\n");
    json_t *nodes = json_object_get(content, "nodes");
    CU_ASSERT_EQUAL(json_array_size(nodes), 3);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_array_get(nodes, 1), "id")),
                           "function:shop.base");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_array_get(nodes, 2), "id")),
                           "function:shop.quote");
    char *by_tie =
        json_dumps(json_object_get(content, "omitted_by_tie"), JSON_SORT_KEYS | JSON_COMPACT);
    CU_ASSERT_STRING_EQUAL(by_tie, "{\"calls\":0,\"module\":1,\"tests\":1,\"uses\":2}");
    free(by_tie);
    json_decref(content);
    json_decref(result);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

/* Language v3: a data file is a held input like a source. After it changes,
 * the next call opens the project again, says so with the drift, and answers
 * from the new bytes (the data node's size). */
static void test_data_edit_between_calls(void)
{
    if (spx_held_inputs_locked())
        return; /* Windows: the edit is denied while the file is held */
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_fixture_write(fixture, "proj/semaprax.toml",
                      "manifest = \"semaprax.project-manifest.v2\"\n\n[project]\n"
                      "name = \"words\"\nversion = \"0.1.0\"\nentry = \"app.main\"\n\n"
                      "[[source]]\nmodule = \"app\"\npath = \"src/app.spx\"\n\n"
                      "[[data]]\nname = \"words\"\npath = \"data/words.txt\"\n");
    spx_fixture_write(fixture, "proj/src/app.spx",
                      "export fn main() -> int {\n    return len(read_data(\"words\"));\n}\n");
    spx_fixture_write(fixture, "proj/data/words.txt", "a b c");
    spx_daemon_t *daemon = spx_daemon_start_on(fixture, "proj", mcp_only);
    start_initialized(daemon, pool);
    json_t *before = call_status(daemon, pool);
    spx_fixture_append(fixture, "proj/data/words.txt", " d e");
    json_t *result =
        call_tool(daemon, "context", "{\"target_kind\":\"data\",\"target\":\"words\"}", pool);
    json_t *content = structured(result, pool);
    json_t *change = json_object_get(content, "revision_changed");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(change, "from")),
                           json_string_value(json_object_get(before, "project_revision")));
    char *drift = json_dumps(json_object_get(change, "drift"), JSON_SORT_KEYS | JSON_COMPACT);
    CU_ASSERT_STRING_EQUAL(drift, "[{\"path\":\"data/words.txt\",\"reason\":\"content_changed\"}]");
    free(drift);
    json_t *node = json_array_get(json_object_get(content, "nodes"), 0);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(node, "id")), "data:words");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(node, "bytes")), 9);
    spx_assert_contains(result_text(result),
                        "The project changed since it was last read, so it was opened again");
    json_decref(content);
    json_decref(result);
    json_decref(before);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

/* Many edits, each seen by a call: standard error stays within its bound
 * without --verbose (spx_log.h), and every call answers afresh. */
static void test_many_edits_bounded_stderr(void)
{
    if (spx_held_inputs_locked())
        return;
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_t *daemon = start(fixture, NULL);
    start_initialized(daemon, pool);
    enum { EDITS = 40 };
    for (int i = 0; i < EDITS; i++) {
        spx_fixture_append(fixture, "proj/src/words.spx", "\n// another line\n");
        json_t *result = call_tool(daemon, "check", "{}", pool);
        json_t *content = structured(result, pool);
        CU_ASSERT_PTR_NOT_NULL(json_object_get(content, "revision_changed"));
        json_decref(content);
        json_decref(result);
    }
    json_t *status = call_status(daemon, pool);
    CU_ASSERT_EQUAL(counter(status, "phase_a_runs"), 1 + EDITS);
    json_decref(status);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    const char *err = spx_daemon_stderr(daemon);
    int lines = 0;
    for (const char *at = err; *at; at++)
        lines += *at == '\n';
    CU_ASSERT_EQUAL(lines, SPX_LIMIT_LOG_LINES + 1);
    spx_assert_contains(err, "further messages are not shown (--verbose shows them)");
    spx_fixture_free(fixture);
}

static void test_broken_project(void)
{
    if (spx_held_inputs_locked())
        return;
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_t *daemon = start(fixture, NULL);
    start_initialized(daemon, pool);
    spx_fixture_append(fixture, "proj/src/math.spx", "\nexport fn broken( -> int {\n");
    const char *tools[] = {"test", "context", "graph_summary"};
    const char *arguments[] = {"{}", "{\"target_kind\":\"module\",\"target\":\"math\"}", "{}"};
    for (int i = 0; i < 3; i++) {
        json_t *result = call_tool(daemon, tools[i], arguments[i], pool);
        const char *text = error_text(result, pool);
        spx_assert_contains(text, "the project is not admitted: 1 diagnostic\nsrc/math.spx:");
        spx_assert_contains(text, "error E0220: expected a parameter name");
        /* Only the first call after the edit says that it changed. */
        CU_ASSERT_EQUAL(strstr(text, "The project changed") != NULL, i == 0);
        json_decref(result);
    }
    json_t *result = call_tool(daemon, "check", "{}", pool);
    json_t *content = structured(result, pool);
    CU_ASSERT_TRUE(json_is_false(json_object_get(content, "admitted")));
    CU_ASSERT_EQUAL(json_array_size(json_object_get(content, "diagnostics")), 1);
    json_decref(content);
    json_decref(result);
    json_t *status = call_status(daemon, pool);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(status, "state")), "open");
    CU_ASSERT_TRUE(json_is_false(json_object_get(status, "admitted")));
    json_decref(status);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

/* An admitted project's diagnostics are warnings: check's text counts and
 * lists them rather than saying there are none. */
static void test_check_with_warnings(void)
{
    if (spx_held_inputs_locked())
        return;
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_t *daemon = start(fixture, NULL);
    start_initialized(daemon, pool);
    json_t *result = call_tool(daemon, "check", "{}", pool);
    spx_assert_contains(result_text(result), "The project is admitted: no diagnostics.\n");
    json_decref(result);
    spx_fixture_append(fixture, "proj/src/math.spx",
                       "\nfn unused_helper() -> int {\n    return 1;\n}\n");
    result = call_tool(daemon, "check", "{}", pool);
    json_t *content = structured(result, pool);
    CU_ASSERT_TRUE(json_is_true(json_object_get(content, "admitted")));
    CU_ASSERT_EQUAL(json_array_size(json_object_get(content, "diagnostics")), 1);
    const char *text = result_text(result);
    spx_assert_contains(text, "The project is admitted: 1 warning\nsrc/math.spx:");
    spx_assert_contains(text, "warning W0604: function 'unused_helper' is never called");
    json_decref(content);
    json_decref(result);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

static void assert_tool_error(spx_daemon_t *daemon, const char *tool, const char *arguments,
                              const char *reason, apr_pool_t *pool)
{
    json_t *result = call_tool(daemon, tool, arguments, pool);
    CU_ASSERT_STRING_EQUAL(error_text(result, pool), reason);
    json_decref(result);
}

static void test_bad_target_and_arguments(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_t *daemon = start(fixture, NULL);
    start_initialized(daemon, pool);
    assert_tool_error(daemon, "context", "{\"target_kind\":\"function\",\"target\":\"math.nope\"}",
                      "no function 'math.nope' in this project", pool);
    assert_tool_error(daemon, "context", "{\"target_kind\":\"planet\",\"target\":\"math\"}",
                      "unknown target kind 'planet': use module, function, struct, enum, const, "
                      "test, builtin or data",
                      pool);
    assert_tool_error(daemon, "context", "{\"target\":\"function:math.fibb\"}",
                      "no function 'math.fibb' in this project; nearest: math.fib, math.fact",
                      pool);
    assert_tool_error(daemon, "context",
                      "{\"target_kind\":\"module\",\"target\":\"math\",\"edge_kinds\":[\"calls\","
                      "\"likes\"]}",
                      "unknown edge kind 'likes': use imports, contains, calls, uses, reads, tests "
                      "or enters",
                      pool);
    assert_tool_error(daemon, "context", "{\"target\":\"math\",\"depth\":99}",
                      "depth must be an integer in 0..16", pool);
    assert_tool_error(
        daemon, "context", "{\"target_kind\":\"module\"}",
        "target is required: the name of a module, function, struct, enum, const, test, "
        "builtin or data entry, or a graph node id",
        pool);
    assert_tool_error(daemon, "check", "{\"colour\":1}",
                      "unknown argument 'colour': this tool takes no arguments", pool);
    assert_tool_error(daemon, "test", "{\"max_steps\":\"many\"}",
                      "max_steps must be an integer in 0..10000000000", pool);
    json_t *status = call_status(daemon, pool);
    CU_ASSERT_EQUAL(counter(status, "phase_a_runs"), 1); /* tool errors build nothing */
    json_decref(status);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

/* The test tool's tests and max_call_depth, as v2's test takes them:
 * tools/list describes them; a selection runs only the named tests (in
 * manifest order, whatever the order and form of the names) and the
 * envelope's selection says which, the same envelope as `semaprax test
 * NAME...`; an unknown name is a tool error naming the nearest tests;
 * max_call_depth outside 1..65536 is refused, and one too small for
 * math.fact(5) (test_fact and five calls of fact: 6 active calls) makes the
 * fact test depth_exhausted, a result and not an error. */
static void test_selection_and_call_depth(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_t *daemon = start(fixture, NULL);
    start_initialized(daemon, pool);

    json_t *list = spx_daemon_call_json(
        daemon, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\",\"params\":{}}");
    json_t *properties = NULL;
    size_t index;
    json_t *tool;
    json_array_foreach(json_object_get(json_object_get(list, "result"), "tools"), index, tool)
    {
        if (strcmp(json_string_value(json_object_get(tool, "name")), "test") == 0)
            properties = json_object_get(json_object_get(tool, "inputSchema"), "properties");
    }
    CU_ASSERT_PTR_NOT_NULL_FATAL(properties);
    json_t *depth = json_object_get(properties, "max_call_depth");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(depth, "minimum")), 1);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(depth, "maximum")),
                    SPX_LIMIT_CALL_DEPTH_MAXIMUM);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(depth, "default")),
                    SPX_LIMIT_CALL_DEPTH_DEFAULT);
    json_t *names = json_object_get(properties, "tests");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(names, "type")), "array");
    CU_ASSERT_STRING_EQUAL(
        json_string_value(json_object_get(json_object_get(names, "items"), "type")), "string");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(names, "minItems")), 1);
    json_decref(list);

    /* fib, and fact by its function: fact then fib, as the manifest orders them */
    json_t *result =
        call_tool(daemon, "test", "{\"tests\":[\"fib\",\"app.test_fact\",\"fib\"]}", pool);
    json_t *content = structured(result, pool);
    json_t *envelope = json_object_get(content, "envelope");
    char *selection = json_dumps(json_object_get(envelope, "selection"), JSON_COMPACT);
    CU_ASSERT_PTR_NOT_NULL_FATAL(selection);
    CU_ASSERT_STRING_EQUAL(selection, "[\"fact\",\"fib\"]");
    free(selection);
    json_t *tests = json_object_get(envelope, "tests");
    CU_ASSERT_EQUAL_FATAL(json_array_size(tests), 2);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_array_get(tests, 0), "name")),
                           "fact");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_array_get(tests, 1), "name")),
                           "fib");
    json_t *summary = json_object_get(envelope, "summary");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(summary, "total")), 2);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(summary, "passed")), 2);
    CU_ASSERT_TRUE(json_is_true(json_object_get(content, "command_succeeded")));
    spx_assert_contains(result_text(result), "Tests: 2 of 2 passed");
    /* the same envelope as the CLI's, byte for byte */
    const char *tool_text = apr_pstrcat(pool, spx_canonical_text(envelope, pool), "\n", NULL);
    spx_process_result_t cli =
        SPX_RUN_SEMAPRAX(pool, "test", "fact", "fib", "--manifest-path",
                         spx_fixture_path(fixture, "proj/semaprax.toml"), "--envelope",
                         spx_fixture_path(fixture, "cli.json"));
    CU_ASSERT_EQUAL(cli.exit_code, 0);
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "cli.json"), tool_text);
    json_decref(content);
    json_decref(result);

    /* without tests every test runs and the envelope has no selection */
    result = call_tool(daemon, "test", "{}", pool);
    content = structured(result, pool);
    envelope = json_object_get(content, "envelope");
    CU_ASSERT_PTR_NULL(json_object_get(envelope, "selection"));
    CU_ASSERT_EQUAL(json_array_size(json_object_get(envelope, "tests")), 4);
    /* language v3: each test records the depth it ran under */
    CU_ASSERT_EQUAL(
        json_integer_value(json_object_get(
            json_object_get(json_array_get(json_object_get(envelope, "tests"), 0), "limits"),
            "max_call_depth")),
        SPX_LIMIT_CALL_DEPTH_DEFAULT);
    json_decref(content);
    json_decref(result);

    /* too shallow for fact(5) by one call: depth_exhausted, a result */
    result = call_tool(daemon, "test", "{\"tests\":[\"fact\"],\"max_call_depth\":5}", pool);
    content = structured(result, pool);
    envelope = json_object_get(content, "envelope");
    json_t *record = json_array_get(json_object_get(envelope, "tests"), 0);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(record, "outcome")),
                           "depth_exhausted");
    const char *failure =
        json_string_value(json_object_get(json_object_get(record, "failure"), "message"));
    CU_ASSERT_PTR_NOT_NULL_FATAL(failure);
    spx_assert_contains(failure, "the call-depth limit of 5");
    summary = json_object_get(envelope, "summary");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(summary, "depth_exhausted")), 1);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(summary, "total")), 1);
    CU_ASSERT_EQUAL(
        json_integer_value(json_object_get(json_object_get(envelope, "limits"), "max_call_depth")),
        5);
    CU_ASSERT_TRUE(json_is_false(json_object_get(content, "command_succeeded")));
    json_decref(content);
    json_decref(result);
    /* exactly deep enough: passed */
    result = call_tool(daemon, "test", "{\"tests\":[\"fact\"],\"max_call_depth\":6}", pool);
    content = structured(result, pool);
    record = json_array_get(json_object_get(json_object_get(content, "envelope"), "tests"), 0);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(record, "outcome")), "passed");
    json_decref(content);
    json_decref(result);

    /* the refusals: tool errors, in the words of v2's test */
    static const struct {
        const char *arguments, *text;
    } refused[] = {
        {"{\"tests\":[\"fact\",\"fibb\"]}", "no test 'fibb' in this project; nearest: fib"},
        {"{\"tests\":[]}", "tests must name at least one test; leave it out to run them all"},
        {"{\"tests\":\"fact\"}", "tests must be an array of test names (strings)"},
        {"{\"tests\":[\"fact\",7]}", "tests[1] must be a string (a test name)"},
        {"{\"max_call_depth\":0}", "max_call_depth must be an integer in 1..65536"},
        {"{\"max_call_depth\":65537}", "max_call_depth must be an integer in 1..65536"},
        {"{\"max_call_depth\":\"9\"}", "max_call_depth must be an integer in 1..65536"},
        {"{\"max_call_depth\":-1,\"tests\":[\"fact\"]}",
         "max_call_depth must be an integer in 1..65536"},
        {"{\"test\":[\"fact\"]}", "unknown argument 'test': this tool takes max_steps, max_bytes, "
                                  "max_memory, max_call_depth, tests"},
    };
    for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
        result = call_tool(daemon, "test", refused[i].arguments, pool);
        spx_assert_contains(error_text(result, pool), refused[i].text);
        json_decref(result);
    }
    json_t *status = call_status(daemon, pool);
    CU_ASSERT_EQUAL(counter(status, "phase_a_runs"), 1);
    json_decref(status);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

static void test_unreadable_until_it_is_not(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_copy_hello(fixture, "proj");
    const char *manifest = spx_fixture_read(fixture, "proj/semaprax.toml");
    spx_fixture_rename(fixture, "proj/semaprax.toml", "proj/away.toml");
    spx_daemon_t *daemon = spx_daemon_start_on(fixture, "proj", mcp_only);
    start_initialized(daemon, pool);
    json_t *status = call_status(daemon, pool);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(status, "state")), "unavailable");
    CU_ASSERT_TRUE(json_is_null(json_object_get(status, "project_revision")));
    spx_assert_contains(json_string_value(json_object_get(status, "unavailable")), "semaprax.toml");
    json_decref(status);
    json_t *result = call_tool(daemon, "check", "{}", pool);
    spx_assert_contains(error_text(result, pool), "the project cannot be read: ");
    json_decref(result);
    /* The manifest is back: the next call opens the project. */
    spx_fixture_write(fixture, "proj/semaprax.toml", manifest);
    result = call_tool(daemon, "check", "{}", pool);
    json_t *content = structured(result, pool);
    CU_ASSERT_TRUE(json_is_true(json_object_get(content, "admitted")));
    json_t *change = json_object_get(content, "revision_changed");
    CU_ASSERT_TRUE(json_is_null(json_object_get(change, "from")));
    CU_ASSERT_TRUE(json_is_string(json_object_get(change, "to")));
    CU_ASSERT_EQUAL(json_array_size(json_object_get(change, "drift")), 0);
    json_decref(content);
    json_decref(result);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

/* --- drift between rendering and writing (the test-only daemon) ------------------------- */

/* Let the paused daemon go on. The pauses of one call follow each other
 * within milliseconds and the daemon removes "paused" only after it has
 * seen "go": the test removes it first, so that the next wait sees the next
 * pause, never this one. */
static void resume_pause(spx_fixture_t *fixture, const char *pause_dir)
{
    CU_ASSERT_EQUAL(
        apr_file_remove(apr_pstrcat(fixture->pool, pause_dir, "/paused", NULL), fixture->pool),
        APR_SUCCESS);
    spx_daemon_resume(fixture, pause_dir);
}

/* A check call whose answer is rendered edits times, each followed by an
 * edit of math.spx in the pause, then once more without one when edits
 * leaves room; the result. */
static json_t *check_with_edits_in_pause(spx_fixture_t *fixture, int edits)
{
    const char *pause_dir = NULL;
    spx_daemon_copy_hello(fixture, "proj");
    spx_daemon_t *daemon =
        spx_daemon_start_pausing(fixture, "proj", mcp_only, "SPX_TEST_PAUSE_DIR", &pause_dir);
    start_initialized(daemon, fixture->pool);
    const char *line = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{"
                       "\"name\":\"check\",\"arguments\":{}}}\n";
    CU_ASSERT_EQUAL(spx_daemon_send(daemon, line, strlen(line)), APR_SUCCESS);
    int renderings = edits <= (int)SPX_LIMIT_MCP_DRIFT_RETRIES ? edits + 1 : edits;
    for (int i = 0; i < renderings; i++) {
        spx_daemon_wait_for_pause(fixture, pause_dir);
        if (i < edits)
            spx_fixture_append(fixture, "proj/src/math.spx", "\n// edited in the pause\n");
        resume_pause(fixture, pause_dir);
    }
    json_t *answer = json_loads(spx_daemon_read_line(daemon), 0, NULL);
    json_t *result = json_incref(json_object_get(answer, "result"));
    json_decref(answer);
    CU_ASSERT_PTR_NOT_NULL_FATAL(result);
    /* The status call pauses once more (its own second check). */
    line = "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\",\"params\":{"
           "\"name\":\"status\",\"arguments\":{}}}\n";
    CU_ASSERT_EQUAL(spx_daemon_send(daemon, line, strlen(line)), APR_SUCCESS);
    spx_daemon_wait_for_pause(fixture, pause_dir);
    resume_pause(fixture, pause_dir);
    answer = json_loads(spx_daemon_read_line(daemon), 0, NULL);
    json_t *status = json_object_get(json_object_get(answer, "result"), "structuredContent");
    CU_ASSERT_EQUAL(counter(status, "phase_a_runs"), 1 + edits);
    json_decref(answer);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    return result;
}

static void test_drift_after_rendering(void)
{
    if (spx_held_inputs_locked())
        return;
    spx_fixture_t *fixture = spx_fixture_new();
    json_t *result = check_with_edits_in_pause(fixture, 1);
    json_t *content = structured(result, fixture->pool);
    json_t *change = json_object_get(content, "revision_changed");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(change, "to")),
                           json_string_value(json_object_get(content, "project_revision")));
    CU_ASSERT_STRING_NOT_EQUAL(json_string_value(json_object_get(change, "from")),
                               json_string_value(json_object_get(change, "to")));
    char *drift = json_dumps(json_object_get(change, "drift"), JSON_SORT_KEYS | JSON_COMPACT);
    CU_ASSERT_STRING_EQUAL(drift, "[{\"path\":\"src/math.spx\",\"reason\":\"content_changed\"}]");
    free(drift);
    json_decref(content);
    json_decref(result);
    spx_fixture_free(fixture);
}

static void test_drift_after_every_rendering(void)
{
    if (spx_held_inputs_locked())
        return;
    spx_fixture_t *fixture = spx_fixture_new();
    json_t *result = check_with_edits_in_pause(fixture, SPX_LIMIT_MCP_DRIFT_RETRIES + 1);
    const char *text = error_text(result, fixture->pool);
    spx_assert_contains(text, "the project changed while this call was answered, 4 times in a "
                              "row; no answer was given from it");
    spx_assert_contains(text, "src/math.spx content_changed");
    json_decref(result);
    spx_fixture_free(fixture);
}

/* A rename whose commit fails (the test-only daemon's injection): a tool
 * error saying where, every file as it was, and the server answers on. */
static void test_rename_failure(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_copy_hello(fixture, "proj");
    const char *app = spx_fixture_read(fixture, "proj/src/app.spx");
    const char *math = spx_fixture_read(fixture, "proj/src/math.spx");
    const char *arguments[] = {"--mcp", "--manifest-path",
                               spx_fixture_path(fixture, "proj/semaprax.toml"),
                               "--allow-project-rename", NULL};
    CU_ASSERT_EQUAL_FATAL(apr_env_set("SPX_TEST_RENAME_FAIL", "replace:last", pool), APR_SUCCESS);
    spx_daemon_t *daemon = spx_daemon_start("SPX_SEMAPRAXD_TEST", arguments, fixture->root, pool);
    apr_env_delete("SPX_TEST_RENAME_FAIL", pool);
    start_initialized(daemon, pool);
    json_t *result = call_tool(daemon, "rename",
                               "{\"function\":\"math.fact\",\"new_name\":\"factorial\"}", pool);
    CU_ASSERT_STRING_EQUAL(error_text(result, pool),
                           "rename failed at commit (replace of src/math.spx): replace of "
                           "'src/math.spx' failed: injected failure "
                           "(SPX_TEST_RENAME_FAIL=replace:last); restored [\"src/app.spx\"], not "
                           "restored []");
    json_decref(result);
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "proj/src/app.spx"), app);
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "proj/src/math.spx"), math);
    result = call_tool(daemon, "context", "{\"target_kind\":\"function\",\"target\":\"math.fact\"}",
                       pool);
    json_t *content = structured(result, pool);
    CU_ASSERT_PTR_NULL(json_object_get(content, "revision_changed"));
    json_decref(content);
    json_decref(result);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

/* With 400 more calls of math.fact in app, the committed rename lists 400
 * more changes: under --max-response-bytes 65536 (the least --mcp takes)
 * the rename is refused before
 * anything is written (a tool error naming the bytes it needs) and the
 * server answers on. With the budget it names exactly (half of what the
 * limit leaves around a result to id 7, the structured content's share)
 * the rename commits and its answer is written whole. */
static void test_rename_answer_too_large(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_copy_hello(fixture, "proj");
    const char *many = "\nexport fn many() -> int {\n    return 0";
    for (int i = 0; i < 400; i++)
        many = apr_pstrcat(pool, many, "\n        + math.fact(1)", NULL);
    const char *app =
        apr_pstrcat(pool, spx_fixture_read(fixture, "proj/src/app.spx"), many, ";\n}\n", NULL);
    spx_fixture_write(fixture, "proj/src/app.spx", app);
    const char *math = spx_fixture_read(fixture, "proj/src/math.spx");
    json_t *id = json_integer(7);
    long around = (long)spx_response_result_frame_bytes(id);
    json_decref(id);
    long limit = 65536, needed = 0;
    for (int round = 0; round < 2; round++) {
        const char *arguments[] = {"--mcp",
                                   "--manifest-path",
                                   spx_fixture_path(fixture, "proj/semaprax.toml"),
                                   "--allow-project-rename",
                                   "--max-response-bytes",
                                   apr_psprintf(pool, "%ld", limit),
                                   NULL};
        spx_daemon_t *daemon = spx_daemon_start("SPX_SEMAPRAXD", arguments, fixture->root, pool);
        start_initialized(daemon, pool);
        json_t *result = call_tool(daemon, "rename",
                                   "{\"function\":\"math.fact\",\"new_name\":\"factorial\"}", pool);
        if (round == 0) {
            const char *text = error_text(result, pool);
            spx_assert_contains(text, "rename refused: its answer would need ");
            spx_assert_contains(text, "--max-response-bytes 65536");
            spx_assert_contains(text, "nothing was written");
            needed = strtol(strstr(text, "would need ") + strlen("would need "), NULL, 10);
            CU_ASSERT_TRUE(needed > (65536 - around) / 2);
            CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "proj/src/app.spx"), app);
            CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "proj/src/math.spx"), math);
            /* the server answers on, from the same files */
            json_t *context = call_tool(
                daemon, "context", "{\"target_kind\":\"function\",\"target\":\"math.fact\"}", pool);
            json_t *content = structured(context, pool);
            CU_ASSERT_PTR_NULL(json_object_get(content, "revision_changed"));
            json_decref(content);
            json_decref(context);
            limit = 2 * needed + around;
        } else {
            /* the structured content fills its share: the text is the
             * summary alone */
            CU_ASSERT_TRUE(json_is_false(json_object_get(result, "isError")));
            json_t *content = json_object_get(result, "structuredContent");
            CU_ASSERT_TRUE(json_is_true(json_object_get(content, "committed")));
            CU_ASSERT_EQUAL(json_array_size(json_object_get(content, "edits")), 2);
            spx_assert_contains(spx_fixture_read(fixture, "proj/src/app.spx"),
                                " + math.factorial(1)");
        }
        json_decref(result);
        CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    }
    spx_fixture_free(fixture);
}

/* --- JSON-RPC errors and the command line ---------------------------------------------- */

static void test_jsonrpc_errors(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_daemon_t *daemon = start(fixture, NULL);
    start_initialized(daemon, fixture->pool);
    CU_ASSERT_STRING_EQUAL(spx_daemon_call(daemon, "{not json"),
                           "{\"error\":{\"code\":-32700,\"data\":{\"detail\":\"invalid JSON\","
                           "\"reason\":\"parse_error\"},\"message\":\"parse error: invalid JSON\"},"
                           "\"id\":null,\"jsonrpc\":\"2.0\"}");
    spx_assert_contains(spx_daemon_call(daemon, "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":"
                                                "\"ping\"}]"),
                        "{\"error\":{\"code\":-32600,\"data\":{\"detail\":");
    CU_ASSERT_STRING_EQUAL(
        spx_daemon_call(daemon, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"resources/list\"}"),
        "{\"error\":{\"code\":-32601,\"data\":{\"detail\":\"semapraxd --mcp answers initialize, "
        "ping, tools/list and tools/call, not 'resources/list'\",\"reason\":"
        "\"method_not_found\"},\"message\":\"method not found: semapraxd --mcp answers "
        "initialize, ping, tools/list and tools/call, not 'resources/list'\"},\"id\":2,"
        "\"jsonrpc\":\"2.0\"}");
    spx_assert_contains(
        spx_daemon_call(daemon, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\","
                                "\"params\":{\"arguments\":{}}}"),
        "{\"error\":{\"code\":-32602,\"data\":{\"detail\":\"tools/call needs params.name, a "
        "string\",\"reason\":\"invalid_params\"}");
    spx_assert_contains(spx_daemon_call(daemon,
                                        "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\","
                                        "\"params\":{\"name\":\"check\",\"arguments\":[]}}"),
                        "\"reason\":\"invalid_params\"");
    spx_assert_contains(spx_daemon_call(daemon,
                                        "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\","
                                        "\"params\":{\"name\":\"nope\"}}"),
                        "\"reason\":\"unknown_tool\"");
    /* A name that long is repeated cut. */
    char *long_name = apr_palloc(fixture->pool, 5001);
    memset(long_name, 'm', 5000);
    long_name[5000] = '\0';
    const char *refusal = spx_daemon_call(
        daemon,
        apr_psprintf(fixture->pool, "{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"%s\"}", long_name));
    spx_assert_contains(refusal, apr_psprintf(fixture->pool, "not '%.*s...'\"",
                                              (int)SPX_LIMIT_DETAIL_ECHO_BYTES, long_name));
    /* the detail and the message each repeat it cut */
    CU_ASSERT_TRUE(strlen(refusal) < 768);
    /* Notifications are dropped, shutdown too (MCP has none): the next
     * request is answered. */
    const char *notifications =
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{}}\n"
        "{\"jsonrpc\":\"2.0\",\"method\":\"shutdown\"}\n";
    CU_ASSERT_EQUAL(spx_daemon_send(daemon, notifications, strlen(notifications)), APR_SUCCESS);
    CU_ASSERT_STRING_EQUAL(
        spx_daemon_call(daemon, "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"ping\"}"),
        "{\"id\":6,\"jsonrpc\":\"2.0\",\"result\":{}}");
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    CU_ASSERT_STRING_EQUAL(spx_daemon_stderr(daemon), ""); /* nothing said without --verbose */
    spx_fixture_free(fixture);
}

/* --- the loop: refused frames, notifications, how it ends -------------------------------- */

/* A request line over --max-request-bytes: refused with data, nothing after
 * it is run, exit 1, and stderr says why (with --verbose, the refusal
 * first). */
static void test_oversized_request(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_copy_hello(fixture, "proj");
    for (int verbose = 0; verbose <= 1; verbose++) {
        const char *const arguments[] = {"--mcp", "--max-request-bytes", "256",
                                         verbose ? "--verbose" : NULL, NULL};
        spx_daemon_t *daemon = spx_daemon_start_on(fixture, "proj", arguments);
        char *input = apr_palloc(pool, 301);
        memset(input, 'x', 300);
        input[300] = '\n';
        input = apr_pstrcat(pool, apr_pstrndup(pool, input, 301),
                            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n", NULL);
        CU_ASSERT_EQUAL(spx_daemon_send(daemon, input, strlen(input)), APR_SUCCESS);
        CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 1);
        CU_ASSERT_STRING_EQUAL(spx_daemon_rest(daemon),
                               "{\"error\":{\"code\":-32002,\"data\":{\"detail\":\"a request line "
                               "was over --max-request-bytes 256\",\"reason\":\"request_too_"
                               "large\"},\"message\":\"request too large: a request line "
                               "was over --max-request-bytes 256\"},\"id\":null,"
                               "\"jsonrpc\":\"2.0\"}\n");
        CU_ASSERT_STRING_EQUAL(spx_daemon_stderr(daemon),
                               verbose ? "semapraxd: refused (request_too_large): a request line "
                                         "was over --max-request-bytes 256\n"
                                         "semapraxd: a request was over 256 bytes: stopping\n"
                                       : "semapraxd: a request was over 256 bytes: stopping\n");
    }
    spx_fixture_free(fixture);
}

/* Frames the request grammar refuses, each answered with data {reason,
 * detail} (the rule's name as the detail, the request's id when it had a
 * valid one); notifications, `shutdown` and `exit` among them, dropped
 * without a word on stdout and the session going on; a last line without
 * LF dropped, exit 0. With --verbose stderr says a line for each refusal
 * and notification; without it only the dropped tail. */
static void test_refused_frames_and_notifications(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_copy_hello(fixture, "proj");
    const char *input = "\n"
                        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r\n"
                        "{\"jsonrpc\":\"1.0\",\"id\":5,\"method\":\"ping\"}\n"
                        "[1]\n"
                        "{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"ping\"}\n"
                        "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\",\"extra\":1}\n"
                        "{\"jsonrpc\":\"2.0\",\"method\":\"shutdown\"}\n"
                        "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}\n"
                        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
                        "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"ping\"}\n"
                        "tail";
    const char *output =
        "{\"error\":{\"code\":-32700,\"data\":{\"detail\":\"empty frame\",\"reason\":\"parse_"
        "error\"},\"message\":\"parse error: empty frame\"},\"id\":null,\"jsonrpc\":\"2.0\"}\n"
        "{\"error\":{\"code\":-32700,\"data\":{\"detail\":\"CR byte\",\"reason\":\"parse_error\"},"
        "\"message\":\"parse error: CR byte\"},\"id\":null,\"jsonrpc\":\"2.0\"}\n"
        "{\"error\":{\"code\":-32600,\"data\":{\"detail\":\"jsonrpc is not \\\"2.0\\\"\","
        "\"reason\":\"invalid_request\"},\"message\":\"invalid request: jsonrpc is not "
        "\\\"2.0\\\"\"},\"id\":5,\"jsonrpc\":\"2.0\"}\n"
        "{\"error\":{\"code\":-32600,\"data\":{\"detail\":\"batch\",\"reason\":\"invalid_"
        "request\"},\"message\":\"invalid request: batch\"},\"id\":null,\"jsonrpc\":\"2.0\"}\n"
        "{\"error\":{\"code\":-32600,\"data\":{\"detail\":\"bad id\",\"reason\":\"invalid_"
        "request\"},\"message\":\"invalid request: bad id\"},\"id\":null,\"jsonrpc\":\"2.0\"}\n"
        "{\"error\":{\"code\":-32600,\"data\":{\"detail\":\"unknown top-level key\",\"reason\":"
        "\"invalid_request\"},\"message\":\"invalid request: unknown top-level key\"},\"id\":2,"
        "\"jsonrpc\":\"2.0\"}\n"
        "{\"id\":3,\"jsonrpc\":\"2.0\",\"result\":{}}\n";
    const char *tail = "semapraxd: 4 bytes at end of input without LF: not a frame, dropped\n";
    for (int verbose = 0; verbose <= 1; verbose++) {
        const char *const arguments[] = {"--mcp", verbose ? "--verbose" : NULL, NULL};
        spx_daemon_t *daemon = spx_daemon_start_on(fixture, "proj", arguments);
        CU_ASSERT_EQUAL(spx_daemon_send(daemon, input, strlen(input)), APR_SUCCESS);
        CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
        CU_ASSERT_STRING_EQUAL(spx_daemon_rest(daemon), output);
        CU_ASSERT_STRING_EQUAL(
            spx_daemon_stderr(daemon),
            verbose ? apr_pstrcat(pool,
                                  "semapraxd: refused (parse_error): empty frame\n"
                                  "semapraxd: refused (parse_error): CR byte\n"
                                  "semapraxd: refused (invalid_request): jsonrpc is not \"2.0\"\n"
                                  "semapraxd: refused (invalid_request): batch\n"
                                  "semapraxd: refused (invalid_request): bad id\n"
                                  "semapraxd: refused (invalid_request): unknown top-level key\n"
                                  "semapraxd: notification shutdown: nothing to do\n"
                                  "semapraxd: notification exit: nothing to do\n"
                                  "semapraxd: notification notifications/initialized: nothing to "
                                  "do\n",
                                  tail, NULL)
                    : tail);
    }
    spx_fixture_free(fixture);
}

/* Generous for valgrind; a spinning server never exits at all. */
#define EXIT_SECONDS 60

/* A client that closes the server's output: the next answer cannot be
 * written, and the server says so and exits 1 by itself. */
static void test_output_closed_by_the_client(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_daemon_t *daemon = start(fixture, NULL);
    start_initialized(daemon, fixture->pool);
    spx_daemon_close_output(daemon);
    const char *ping = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n";
    CU_ASSERT_EQUAL(spx_daemon_send(daemon, ping, strlen(ping)), APR_SUCCESS);
    CU_ASSERT_TRUE(spx_daemon_exited_within(daemon, EXIT_SECONDS));
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 1);
    spx_assert_contains(spx_daemon_stderr(daemon),
                        "semapraxd: cannot write a response to standard output (");
    spx_fixture_free(fixture);
}

/* The test-only daemon's allocation gate (spx_allocation.h) counts each
 * request in a phase named after its method, as for --stdio: a tools/call
 * of check is counted, and its first and last counted allocations failing
 * each end the server with status 3, having written only the initialize
 * answer, whole. */
static spx_daemon_t *run_with_gate(spx_fixture_t *fixture, const char *setting)
{
    apr_pool_t *pool = fixture->pool;
    CU_ASSERT_EQUAL_FATAL(apr_env_set("SPX_TEST_ALLOCATION", setting, pool), APR_SUCCESS);
    const char *arguments[] = {"--mcp", "--manifest-path",
                               spx_fixture_path(fixture, "proj/semaprax.toml"), NULL};
    spx_daemon_t *daemon = spx_daemon_start("SPX_SEMAPRAXD_TEST", arguments, NULL, pool);
    apr_env_delete("SPX_TEST_ALLOCATION", pool);
    const char *lines =
        apr_pstrcat(pool, apr_psprintf(pool, INITIALIZE_FORMAT, "2025-11-25"), "\n",
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{"
                    "\"name\":\"check\",\"arguments\":{}}}\n",
                    NULL);
    spx_daemon_send(daemon, lines, strlen(lines)); /* it may be gone already */
    return daemon;
}

static void test_allocation_phase_per_request(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_copy_hello(fixture, "proj");
    spx_daemon_t *counted = run_with_gate(fixture, "tools/call:count");
    CU_ASSERT_EQUAL(spx_daemon_finish(counted), 0);
    const char *prefix = "semaprax: allocations in tools/call: ";
    const char *at = strstr(spx_daemon_stderr(counted), prefix);
    CU_ASSERT_PTR_NOT_NULL_FATAL(at);
    unsigned long total = strtoul(at + strlen(prefix), NULL, 10);
    CU_ASSERT_TRUE_FATAL(total >= 3);
    const unsigned long failing[] = {1, total};
    for (size_t f = 0; f < 2; f++) {
        spx_daemon_t *daemon =
            run_with_gate(fixture, apr_psprintf(pool, "tools/call:%lu", failing[f]));
        CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 3);
        spx_assert_contains(spx_daemon_stderr(daemon), "semapraxd: out of memory: stopping");
        const char *rest = spx_daemon_rest(daemon);
        const char *first_end = strchr(rest, '\n');
        CU_ASSERT_PTR_NOT_NULL_FATAL(first_end);
        CU_ASSERT_EQUAL(first_end[1], '\0'); /* one line: the initialize answer */
        spx_assert_contains(rest, "\"protocolVersion\":\"2025-11-25\"");
    }
    spx_fixture_free(fixture);
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
    assert_usage_error(pool, (const char *const[]){"--mcp", "--stdio", NULL},
                       "--stdio and --mcp cannot be given together");
    assert_usage_error(pool, (const char *const[]){"--mcp", "--mcp", NULL},
                       "option given twice: --mcp");
    assert_usage_error(pool, (const char *const[]){"--stdio", "--allow-fmt-write", NULL},
                       "--allow-fmt-write is for --mcp (its fmt tool); --stdio has no fmt");
    assert_usage_error(
        pool, (const char *const[]){"--mcp", "--allow-fmt-write", "--allow-fmt-write", NULL},
        "option given twice: --allow-fmt-write");
    assert_usage_error(pool, (const char *const[]){"--mcp", "--max-response-bytes", "65535", NULL},
                       "--max-response-bytes must be 65536..1073741824 with --mcp, not 65535");
    spx_process_result_t help = spx_process_run(spx_program_path("SPX_SEMAPRAXD"),
                                                (const char *const[]){"--help", NULL}, NULL, pool);
    CU_ASSERT_EQUAL(help.exit_code, 0);
    spx_assert_contains(help.out, "semapraxd --mcp [--manifest-path PATH]");
    spx_assert_contains(help.out, "with --mcp 8388608, 65536..");
    spx_assert_contains(help.out, "--allow-fmt-write        with --mcp: the fmt tool takes write");
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"initialize and version negotiation", test_initialize_and_versions},
        {"tools/list, rename only with the flag", test_tools_list},
        {"each tool", test_each_tool},
        {"counters stand still without edits", test_counters_stand_still_without_edits},
        {"an edit between calls: revision_changed, fresh answer", test_edit_between_calls},
        {"a cut context: callers and callees first, the rest counted by tie",
         test_cut_context_by_tie},
        {"a data file edited between calls (language v3)", test_data_edit_between_calls},
        {"many edits: stderr stays bounded", test_many_edits_bounded_stderr},
        {"a broken project: tool errors with diagnostics", test_broken_project},
        {"check of an admitted project with warnings: counted and listed",
         test_check_with_warnings},
        {"test: tests and max_call_depth as v2 takes them", test_selection_and_call_depth},
        {"a bad target and bad arguments: tool errors with the reason",
         test_bad_target_and_arguments},
        {"a project that cannot be read, until it can", test_unreadable_until_it_is_not},
        {"drift after rendering: answered again (test hook)", test_drift_after_rendering},
        {"drift after every rendering: a tool error (test hook)", test_drift_after_every_rendering},
        {"a rename whose commit fails: a tool error (test hook)", test_rename_failure},
        {"a rename whose answer would not fit: refused before writing",
         test_rename_answer_too_large},
        {"JSON-RPC errors with data", test_jsonrpc_errors},
        {"an oversized request: refused, exit 1", test_oversized_request},
        {"refused frames and notifications, shutdown and exit too: answered or dropped",
         test_refused_frames_and_notifications},
        {"output closed by the client: exit 1", test_output_closed_by_the_client},
        {"each request is a phase of the allocation gate (test hook)",
         test_allocation_phase_per_request},
        {"the command line", test_command_line},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("mcp", tests);
}
