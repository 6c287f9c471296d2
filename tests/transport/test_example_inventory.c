/*
 * test_example_inventory.c: process tests of the second example project,
 * examples/inventory (language v2), taken through the real programs where it
 * lies: `semaprax check` admits it; `semaprax run` prints exactly the block
 * its README shows; `graph` and `context` name its structs and consts; `test`
 * passes its seven tests and writes an envelope that `verify` verifies; and
 * `semapraxd --stdio` on the same manifest answers check, graph, context and
 * test with the CLI's documents byte for byte.
 */
#include "spx_canonical.h"
#include "spx_corpus.h"
#include "spx_daemon.h"
#include "spx_process.h"

#include <apr_strings.h>
#include <string.h>

static const char *inventory_path(const char *relative, apr_pool_t *pool)
{
    return apr_pstrcat(pool, spx_program_path("SPX_EXAMPLES"), "/inventory/", relative, NULL);
}

/* The README's expected output of `semaprax run`: its first ```text block. */
static const char *readme_run_block(apr_pool_t *pool)
{
    apr_size_t length = 0;
    const char *readme = spx_corpus_read(inventory_path("README.md", pool), &length, pool);
    const char *open = strstr(readme, "\n```text\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(open);
    open += strlen("\n```text\n");
    const char *close = strstr(open, "\n```\n");
    CU_ASSERT_PTR_NOT_NULL_FATAL(close);
    return apr_pstrndup(pool, open, (apr_size_t)(close - open) + 1); /* its last LF kept */
}

/* `semaprax ARGS...` on the example, which must succeed and say nothing on
 * stderr; its standard output. */
#define RUN_OK(pool, ...) run_ok(SPX_RUN_SEMAPRAX(pool, __VA_ARGS__), #__VA_ARGS__)
static const char *run_ok(spx_process_result_t result, const char *what)
{
    if (result.exit_code != 0 || result.err[0] != '\0')
        fprintf(stderr, "\n  semaprax %s: exit %d\n%s%s\n", what, result.exit_code, result.out,
                result.err);
    CU_ASSERT_EQUAL(result.exit_code, 0);
    CU_ASSERT_STRING_EQUAL(result.err, "");
    return result.out;
}

static json_t *decoded(const char *text)
{
    json_t *document = json_loads(text, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(document);
    return document;
}

static void test_check_and_run_print_the_readme(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    const char *manifest = inventory_path("semaprax.toml", pool);
    CU_ASSERT_STRING_EQUAL(RUN_OK(pool, "check", "--manifest-path", manifest),
                           "semaprax: project 'inventory' admitted: 4 modules, 7 tests\n");
    const char *expected = readme_run_block(pool);
    spx_assert_contains(expected, "total 131.94\nlow: GEAR-12 MOT-40\n");
    const char *out = RUN_OK(pool, "run", "--manifest-path", manifest);
    if (strcmp(out, expected) != 0)
        fprintf(stderr, "\n  run printed:\n%s\n  the README shows:\n%s\n", out, expected);
    CU_ASSERT_STRING_EQUAL(out, expected);
    spx_fixture_free(fixture);
}

static void test_graph_and_context_know_its_items(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    const char *manifest = inventory_path("semaprax.toml", pool);
    json_t *graph = decoded(RUN_OK(pool, "graph", "--manifest-path", manifest));
    static const char *const ids[] = {
        "module:app",           "module:item",       "module:stock",      "module:text",
        "struct:stock.Stock",   "struct:item.Item",  "struct:app.Loaded", "const:stock.LOW",
        "const:app.CATALOGUE",  "function:app.main", "test:day",          "entry",
        "function:stock.by_sku"};
    for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++)
        if (!spx_document_node(graph, ids[i])) {
            fprintf(stderr, "\n  no node %s in the graph\n", ids[i]);
            CU_FAIL("a node is missing from the graph");
        }
    size_t tests = 0;
    json_t *node = NULL;
    size_t index = 0;
    json_array_foreach(json_object_get(graph, "nodes"), index, node) tests +=
        strncmp(json_string_value(json_object_get(node, "id")), "test:", 5) == 0;
    CU_ASSERT_EQUAL(tests, 7);
    json_decref(graph);

    /* The stock's struct: its fields, and its users as neighbours. */
    json_t *stock = decoded(RUN_OK(pool, "context", "--manifest-path", manifest, "--kind", "struct",
                                   "--target", "stock.Stock"));
    node = spx_document_node(stock, "struct:stock.Stock");
    CU_ASSERT_PTR_NOT_NULL_FATAL(node);
    json_t *fields = json_object_get(node, "fields");
    CU_ASSERT_EQUAL_FATAL(json_array_size(fields), 2);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_array_get(fields, 0), "name")),
                           "items");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_array_get(fields, 1), "name")),
                           "log");
    CU_ASSERT_PTR_NOT_NULL(spx_document_node(stock, "function:stock.ship"));
    json_decref(stock);

    json_t *low = decoded(RUN_OK(pool, "context", "--manifest-path", manifest, "--kind", "const",
                                 "--target", "stock.LOW"));
    node = spx_document_node(low, "const:stock.LOW");
    CU_ASSERT_PTR_NOT_NULL_FATAL(node);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(node, "type")), "int");
    CU_ASSERT_PTR_NOT_NULL(spx_document_node(low, "function:stock.low"));
    json_decref(low);
    spx_fixture_free(fixture);
}

static void test_tests_pass_and_verify(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    const char *manifest = inventory_path("semaprax.toml", pool);
    const char *envelope_path = spx_fixture_path(fixture, "envelope.json");
    const char *out =
        RUN_OK(pool, "test", "--manifest-path", manifest, "--envelope", envelope_path);
    static const char *const names[] = {"split", "text", "parse", "moves", "order", "money", "day"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        spx_assert_contains(out, apr_pstrcat(pool, "test ", names[i], " (", NULL));
    spx_assert_contains(out, "semaprax: 7 tests: 7 passed, 0 failed, 0 language failures, "
                             "0 out of fuel, 0 out of depth\n");
    json_t *envelope = decoded(spx_fixture_read(fixture, "envelope.json"));
    json_t *summary = json_object_get(envelope, "summary");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(summary, "passed")), 7);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(summary, "total")), 7);
    CU_ASSERT_STRING_EQUAL(
        json_string_value(json_object_get(json_object_get(envelope, "engine"), "language")),
        "semaprax.language.v3");
    CU_ASSERT_EQUAL(
        json_array_size(json_object_get(json_object_get(envelope, "subject"), "sources")), 4);
    json_decref(envelope);
    CU_ASSERT_STRING_EQUAL(RUN_OK(pool, "verify", envelope_path, "--manifest-path", manifest),
                           "digest: ok\nsubject: ok\nre-run: ok\n"
                           "semaprax: the envelope is verified\n");
    spx_fixture_free(fixture);
}

/* The "result" of a response line, as the CLI prints a document: compact,
 * keys sorted, LF at the end. */
static const char *result_document(const char *line, apr_pool_t *pool)
{
    CU_ASSERT_PTR_NOT_NULL_FATAL(line);
    json_t *response = decoded(line);
    json_t *result = json_object_get(response, "result");
    if (!result)
        fprintf(stderr, "\n  not a result: %.300s\n", line);
    CU_ASSERT_PTR_NOT_NULL_FATAL(result);
    const char *text = apr_pstrcat(pool, spx_canonical_text(result, pool), "\n", NULL);
    json_decref(response);
    return text;
}

static void test_daemon_answers_as_the_cli(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    const char *manifest = inventory_path("semaprax.toml", pool);
    spx_daemon_t *daemon = spx_daemon_start(
        "SPX_SEMAPRAXD", (const char *const[]){"--stdio", "--manifest-path", manifest, NULL},
        fixture->root, pool);
    const char *revisions = spx_daemon_open(daemon);

    CU_ASSERT_STRING_EQUAL(
        result_document(spx_daemon_call(daemon, spx_request_line("1", "check", revisions, pool)),
                        pool),
        RUN_OK(pool, "check", "--manifest-path", manifest, "--format", "json"));
    CU_ASSERT_STRING_EQUAL(
        result_document(spx_daemon_call(daemon, spx_request_line("2", "graph", revisions, pool)),
                        pool),
        RUN_OK(pool, "graph", "--manifest-path", manifest));
    static const char *const targets[][2] = {{"function", "app.main"},
                                             {"module", "stock"},
                                             {"struct", "item.Item"},
                                             {"const", "app.ORDERS"}};
    for (size_t i = 0; i < sizeof(targets) / sizeof(targets[0]); i++) {
        const char *params = apr_psprintf(pool, "%s,\"target_kind\":\"%s\",\"target\":\"%s\"",
                                          revisions, targets[i][0], targets[i][1]);
        CU_ASSERT_STRING_EQUAL(
            result_document(spx_daemon_call(daemon, spx_request_line("3", "context", params, pool)),
                            pool),
            RUN_OK(pool, "context", "--manifest-path", manifest, "--kind", targets[i][0],
                   "--target", targets[i][1]));
    }

    /* test: the CLI's envelope byte for byte, and it verifies. */
    json_t *test = spx_daemon_call_json(daemon, spx_request_line("4", "test", revisions, pool));
    json_t *result = json_object_get(test, "result");
    CU_ASSERT_PTR_NOT_NULL_FATAL(result);
    CU_ASSERT_TRUE(json_is_true(json_object_get(result, "command_succeeded")));
    const char *daemon_envelope = apr_pstrcat(
        pool, spx_canonical_text(json_object_get(result, "envelope"), pool), "\n", NULL);
    json_decref(test);
    RUN_OK(pool, "test", "--manifest-path", manifest, "--envelope",
           spx_fixture_path(fixture, "envelope.json"));
    CU_ASSERT_STRING_EQUAL(daemon_envelope, spx_fixture_read(fixture, "envelope.json"));
    spx_fixture_write(fixture, "daemon-envelope.json", daemon_envelope);
    RUN_OK(pool, "verify", spx_fixture_path(fixture, "daemon-envelope.json"), "--manifest-path",
           manifest);

    json_t *shutdown = spx_daemon_call_json(daemon, spx_request_line("5", "shutdown", "", pool));
    CU_ASSERT_PTR_NOT_NULL(json_object_get(shutdown, "result"));
    json_decref(shutdown);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    CU_ASSERT_STRING_EQUAL(spx_daemon_rest(daemon), "");
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"check admits it and run prints its README's output", test_check_and_run_print_the_readme},
        {"graph and context know its structs and consts", test_graph_and_context_know_its_items},
        {"its seven tests pass and the envelope verifies", test_tests_pass_and_verify},
        {"semapraxd answers check, graph, context and test as the CLI",
         test_daemon_answers_as_the_cli},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("examples/inventory through the programs", tests);
}
