/*
 * test_daemon_items.c: process tests of language v2's items (structs and
 * consts) in the semantic documents, through the real programs: `semaprax
 * context --kind struct|const` and `semaprax graph`, and the same requests
 * to `semapraxd --stdio` over pipes, which must answer the CLI's documents
 * byte for byte; unknown targets are refused by both, with the reason.
 * The project is a copy of tests/projects/items.
 */
#include "spx_corpus.h"
#include "spx_daemon.h"
#include "spx_process.h"
#include "spx_rpc.h"

#include <apr_strings.h>
#include <string.h>

/* Copy tests/projects/items into the fixture's folder "proj"; its manifest path. */
static const char *copy_items(spx_fixture_t *fixture)
{
    static const char *const files[] = {"semaprax.toml", "src/geo.spx", "src/app.spx"};
    const char *from = spx_corpus_dir("projects/items", fixture->pool);
    for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
        apr_size_t length = 0;
        const char *text = spx_corpus_read(apr_pstrcat(fixture->pool, from, "/", files[i], NULL),
                                           &length, fixture->pool);
        spx_fixture_write(fixture, apr_pstrcat(fixture->pool, "proj/", files[i], NULL), text);
    }
    return spx_fixture_path(fixture, "proj/semaprax.toml");
}

/* The node of the document with this id; it must be there. */
static json_t *node_of(json_t *document, const char *id)
{
    json_t *node = spx_document_node(document, id);
    CU_ASSERT_PTR_NOT_NULL_FATAL(node);
    return node;
}

/* `semaprax context` of kind target; it must succeed. Its document is in
 * *document (the test must json_decref it); its exact output is returned. */
static const char *cli_context(spx_fixture_t *fixture, const char *manifest, const char *kind,
                               const char *target, json_t **document)
{
    spx_process_result_t result = SPX_RUN_SEMAPRAX(fixture->pool, "context", "--manifest-path",
                                                   manifest, "--kind", kind, "--target", target);
    if (result.exit_code != 0)
        fprintf(stderr, "\n  context %s %s: %s\n", kind, target, result.err);
    CU_ASSERT_EQUAL_FATAL(result.exit_code, 0);
    CU_ASSERT_STRING_EQUAL(result.err, "");
    *document = json_loads(result.out, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(*document);
    return result.out;
}

static void test_cli_context_of_struct_and_const(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    const char *manifest = copy_items(fixture);
    json_t *point = NULL;
    cli_context(fixture, manifest, "struct", "geo.Point", &point);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(point, "target")), "struct:geo.Point");
    json_t *node = node_of(point, "struct:geo.Point");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(node, "text")),
                           "export struct Point { x: int, y: int }");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(node, "kind")), "struct");
    json_t *fields = json_object_get(node, "fields");
    CU_ASSERT_EQUAL(json_array_size(fields), 2);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(json_array_get(fields, 1), "name")),
                           "y");
    /* Its users are its neighbours, reached by "uses". */
    CU_ASSERT_STRING_EQUAL(
        json_string_value(
            json_object_get(json_object_get(node_of(point, "function:geo.shift"), "via"), "kind")),
        "uses");
    json_decref(point);

    json_t *origin = NULL;
    cli_context(fixture, manifest, "const", "geo.ORIGIN_X", &origin);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(origin, "target")),
                           "const:geo.ORIGIN_X");
    node = node_of(origin, "const:geo.ORIGIN_X");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(node, "text")),
                           "export const ORIGIN_X: int = 0x10 - 16;");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(node, "value")), "0");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(node, "type")), "int");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(
                               json_object_get(node_of(origin, "const:geo.SCALE"), "via"), "kind")),
                           "reads");
    json_decref(origin);

    static const char *const refused[][3] = {
        {"struct", "geo.Nope", "no struct 'geo.Nope' in this project; nearest: geo.Node"},
        {"const", "geo.Point", "no const 'geo.Point' in this project; there is struct:geo.Point"},
        {"record", "geo.Point", "unknown target kind 'record'"},
    };
    for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
        spx_process_result_t result =
            SPX_RUN_SEMAPRAX(fixture->pool, "context", "--manifest-path", manifest, "--kind",
                             refused[i][0], "--target", refused[i][1]);
        CU_ASSERT_EQUAL(result.exit_code, 2);
        CU_ASSERT_STRING_EQUAL(result.out, "");
        spx_assert_contains(result.err, refused[i][2]);
    }
    spx_fixture_free(fixture);
}

static void test_daemon_answers_as_the_cli(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    const char *manifest = copy_items(fixture);
    spx_daemon_t *daemon = spx_daemon_start_on(fixture, "proj", (const char *const[]){NULL});
    const char *revisions = spx_daemon_open(daemon);

    spx_process_result_t graph = SPX_RUN_SEMAPRAX(pool, "graph", "--manifest-path", manifest);
    CU_ASSERT_EQUAL(graph.exit_code, 0);
    spx_assert_contains(graph.out, "\"id\":\"struct:geo.Point\"");
    spx_assert_contains(graph.out, "\"id\":\"const:geo.ORIGIN_X\"");
    spx_daemon_assert_line(spx_daemon_call(daemon, spx_request_line("1", "graph", revisions, pool)),
                           spx_daemon_result_line("1", graph.out, pool));

    static const char *const targets[][2] = {
        {"struct", "geo.Point"},
        {"struct", "geo.Node"},
        {"const", "geo.ORIGIN_X"},
        {"const", "app.LIMIT"},
    };
    for (size_t i = 0; i < sizeof(targets) / sizeof(targets[0]); i++) {
        json_t *document = NULL;
        const char *out = cli_context(fixture, manifest, targets[i][0], targets[i][1], &document);
        json_decref(document);
        const char *params = apr_psprintf(pool, "%s,\"target_kind\":\"%s\",\"target\":\"%s\"",
                                          revisions, targets[i][0], targets[i][1]);
        spx_daemon_assert_line(
            spx_daemon_call(daemon, spx_request_line("2", "context", params, pool)),
            spx_daemon_result_line("2", out, pool));
    }

    /* Unknown targets: invalid params whose data.detail is the CLI's
     * sentence, with the nearest names; the session goes on. */
    static const char *const refused[][3] = {
        {"struct", "geo.Nope", "no struct 'geo.Nope' in this project; nearest: geo.Node"},
        {"const", "geo.Point", "no const 'geo.Point' in this project; there is struct:geo.Point"},
    };
    for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
        const char *params = apr_psprintf(pool, "%s,\"target_kind\":\"%s\",\"target\":\"%s\"",
                                          revisions, refused[i][0], refused[i][1]);
        const char *line = spx_daemon_call(daemon, spx_request_line("3", "context", params, pool));
        spx_assert_error(line, SPX_RPC_INVALID_PARAMS, "3", "unknown_target", refused[i][2], pool);
        CU_ASSERT_STRING_EQUAL(spx_error_detail(line, pool), refused[i][2]);
        spx_process_result_t cli =
            SPX_RUN_SEMAPRAX(pool, "context", "--manifest-path", manifest, "--kind", refused[i][0],
                             "--target", refused[i][1]);
        spx_assert_contains(cli.err, apr_pstrcat(pool, "semaprax: ", refused[i][2], "\n", NULL));
    }
    /* A graph node id as the target: the same answer as kind and name. */
    {
        json_t *document = NULL;
        const char *out = cli_context(fixture, manifest, "struct", "geo.Point", &document);
        json_decref(document);
        const char *params = apr_psprintf(pool, "%s,\"target\":\"struct:geo.Point\"", revisions);
        spx_daemon_assert_line(
            spx_daemon_call(daemon, spx_request_line("5", "context", params, pool)),
            spx_daemon_result_line("5", out, pool));
        params = apr_psprintf(pool, "%s,\"target_kind\":\"const\",\"target\":\"struct:geo.Point\"",
                              revisions);
        spx_assert_error(spx_daemon_call(daemon, spx_request_line("6", "context", params, pool)),
                         SPX_RPC_INVALID_PARAMS, "6", "target_kind_mismatch",
                         "target 'struct:geo.Point' is a struct id but the target kind given is "
                         "'const'",
                         pool);
    }
    json_t *ping = spx_daemon_call_json(daemon, spx_request_line("4", "ping", "", pool));
    CU_ASSERT_STRING_EQUAL(
        json_string_value(json_object_get(json_object_get(ping, "result"), "state")), "open");
    json_decref(ping);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"semaprax context of a struct and a const", test_cli_context_of_struct_and_const},
        {"semapraxd answers graph and context as the CLI", test_daemon_answers_as_the_cli},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("items through the programs", tests);
}
