/*
 * test_operations_query.c: the typed results of the query and fmt
 * operations (spx_op_query.h, spx_op_fmt.h) say what their documents and
 * files say: the graph the operation writes (whole, inside a larger value,
 * and cut by its sink's limit) has the summary's counts per kind and its
 * modules with their imports, the summary's cut at max_modules, a context's target, nodes,
 * edges, truncation, omitted nodes and frontier (whole, cut by max_nodes,
 * and with the target's text cut by max_bytes), the snapshot's sources and
 * bytes, and each formatted file's changed, written and refused; the held
 * project's sources formatted from the bytes it holds (their layout, their
 * diff, within the bytes allowed, only those named, and a write that never
 * replaces a file saved since it was read).
 */
#include "spx_canonical.h"
#include "spx_corpus.h"
#include "spx_limits.h"
#include "spx_operations.h"
#include "spx_process.h"
#include "spx_run_fixture.h"
#include "spx_test.h"

#include <apr_strings.h>
#include <string.h>

/* The admitted project tests/projects/items (modules geo and app, app
 * importing geo), opened in pool. */
static spx_project_t *open_items(apr_pool_t *pool)
{
    spx_project_t *project = NULL;
    const char *message = NULL;
    const char *manifest =
        apr_pstrcat(pool, spx_corpus_dir("projects/items", pool), "/semaprax.toml", NULL);
    CU_ASSERT_EQUAL_FATAL(spx_project_open(&project, manifest, pool, &message), APR_SUCCESS);
    CU_ASSERT_TRUE_FATAL(spx_project_admitted(project));
    return project;
}

/* The nodes of document whose kind is kind. */
static apr_size_t nodes_of_kind(json_t *document, const char *kind)
{
    apr_size_t count = 0;
    size_t index;
    json_t *node;
    json_array_foreach(json_object_get(document, "nodes"), index, node)
    {
        count += strcmp(json_string_value(json_object_get(node, "kind")), kind) == 0;
    }
    return count;
}

/* The shape agrees with the graph document, node by node and edge by edge. */
static void assert_shape_is_document(const spx_graph_shape_t *shape, json_t *document)
{
    CU_ASSERT_EQUAL(shape->nodes, json_array_size(json_object_get(document, "nodes")));
    CU_ASSERT_EQUAL(shape->edges, json_array_size(json_object_get(document, "edges")));
    CU_ASSERT_EQUAL(shape->modules, nodes_of_kind(document, "module"));
    CU_ASSERT_EQUAL(shape->functions, nodes_of_kind(document, "function"));
    CU_ASSERT_EQUAL(shape->structs, nodes_of_kind(document, "struct"));
    CU_ASSERT_EQUAL(shape->consts, nodes_of_kind(document, "const"));
    CU_ASSERT_EQUAL(shape->tests, nodes_of_kind(document, "test"));
    CU_ASSERT_EQUAL(shape->builtins, nodes_of_kind(document, "builtin"));
    apr_size_t imports = 0;
    size_t index;
    json_t *edge;
    json_array_foreach(json_object_get(document, "edges"), index, edge)
    {
        if (strcmp(json_string_value(json_object_get(edge, "kind")), "imports") == 0)
            imports++;
    }
    CU_ASSERT_EQUAL(shape->imports, imports);
    for (apr_size_t m = 0; m < shape->modules; m++) {
        const spx_graph_module_t *module = &shape->module_list[m];
        char id[256];
        snprintf(id, sizeof(id), "module:%s", module->name);
        json_t *node = spx_document_node(document, id);
        CU_ASSERT_PTR_NOT_NULL_FATAL(node);
        CU_ASSERT_STRING_EQUAL(module->path, json_string_value(json_object_get(node, "path")));
        apr_size_t listed = 0;
        json_array_foreach(json_object_get(document, "edges"), index, edge)
        {
            if (strcmp(json_string_value(json_object_get(edge, "kind")), "imports") != 0 ||
                strcmp(json_string_value(json_object_get(edge, "from")), id) != 0)
                continue;
            CU_ASSERT_FATAL(listed < module->import_count);
            CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(edge, "to")) + 7,
                                   module->imports[listed]);
            listed++;
        }
        CU_ASSERT_EQUAL(listed, module->import_count);
    }
}

/* The graph as spx_op_graph_write writes it into a buffer, read back by
 * Jansson (a new reference); *length: its bytes. */
static json_t *written_graph(const spx_project_t *project, apr_size_t *length, apr_pool_t *pool)
{
    spx_json_writer_t *writer = spx_json_writer_buffer((apr_size_t)-1, pool);
    spx_op_graph_write(project, writer);
    CU_ASSERT_EQUAL_FATAL(spx_json_writer_finish(writer), SPX_JSON_OK);
    *length = spx_json_writer_length(writer);
    json_t *document =
        json_loadb(spx_json_writer_bytes(writer), *length, JSON_REJECT_DUPLICATES, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(document);
    CU_ASSERT_EQUAL(strlen(spx_canonical_text(document, pool)), *length);
    spx_json_writer_release(writer);
    return document;
}

/* The shape of project's graph, from the summary operation (in pool). */
static spx_graph_shape_t shape_of(const spx_project_t *project, apr_pool_t *pool)
{
    spx_graph_summary_t summary;
    spx_op_graph_summary(project, 1000, &summary, pool);
    json_decref(summary.document);
    return summary.shape;
}

static void test_graph_shape(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    spx_project_t *project = open_items(pool);
    apr_size_t length = 0;
    json_t *document = written_graph(project, &length, pool);
    spx_graph_shape_t shape = shape_of(project, pool);
    assert_shape_is_document(&shape, document);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(document, "schema")),
                           "semaprax.project-semantic-graph.v1");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(document, "project_revision")),
                           spx_project_revision(project));
    CU_ASSERT_EQUAL(shape.modules, 2);
    CU_ASSERT_STRING_EQUAL(shape.module_list[0].name, "app");
    CU_ASSERT_EQUAL(shape.module_list[0].import_count, 1);
    CU_ASSERT_STRING_EQUAL(shape.module_list[0].imports[0], "geo");
    CU_ASSERT_EQUAL(shape.module_list[1].import_count, 0);
    CU_ASSERT_TRUE(shape.structs > 0 && shape.consts > 0);

    /* Inside a larger value (as the daemon writes it into a response
     * line): the same bytes; a limit one byte short of them refuses it. */
    const char *whole = spx_canonical_text(document, pool);
    const char *line = apr_psprintf(pool, "{\"result\":%s}", whole);
    for (int short_by = 0; short_by <= 1; short_by++) {
        spx_json_writer_t *writer =
            spx_json_writer_buffer(strlen(line) - (apr_size_t)short_by, pool);
        spx_json_object_begin(writer);
        spx_json_key(writer, "result");
        spx_op_graph_write(project, writer);
        spx_json_object_end(writer);
        spx_json_status_t status = spx_json_writer_finish(writer);
        CU_ASSERT_EQUAL(status, short_by ? SPX_JSON_OVER_LIMIT : SPX_JSON_OK);
        if (!short_by)
            CU_ASSERT_TRUE(spx_json_writer_length(writer) == strlen(line) &&
                           memcmp(spx_json_writer_bytes(writer), line, strlen(line)) == 0);
        spx_json_writer_release(writer);
    }
    json_decref(document);

    /* A project with tests: their nodes are counted too. */
    spx_fixture_t *fixture = spx_fixture_new();
    spx_run_fixture_write(fixture,
                          "fn f() -> int { return 1; }\n"
                          "fn t() -> int { return f() - 1; }\n",
                          NULL, (const char *const[]){"one=app.t", NULL});
    project = spx_run_fixture_open(fixture);
    document = written_graph(project, &length, pool);
    shape = shape_of(project, pool);
    assert_shape_is_document(&shape, document);
    CU_ASSERT_EQUAL(shape.tests, 1);
    json_decref(document);
    spx_fixture_free(fixture);
    apr_pool_destroy(pool);
}

static void test_graph_summary(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    spx_project_t *project = open_items(pool);
    spx_graph_summary_t summary;
    spx_op_graph_summary(project, 5, &summary, pool);
    CU_ASSERT_EQUAL(summary.listed, 2);
    CU_ASSERT_EQUAL(summary.omitted_modules, 0);
    CU_ASSERT_FALSE(summary.truncated);
    json_t *modules = json_object_get(summary.document, "modules");
    CU_ASSERT_EQUAL(json_array_size(modules), 2);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_array_get(
                               json_object_get(json_array_get(modules, 0), "imports"), 0)),
                           "geo");
    CU_ASSERT_EQUAL(
        json_integer_value(json_object_get(json_object_get(summary.document, "counts"), "nodes")),
        (json_int_t)summary.shape.nodes);
    json_decref(summary.document);

    spx_op_graph_summary(project, 1, &summary, pool);
    CU_ASSERT_EQUAL(summary.listed, 1);
    CU_ASSERT_EQUAL(summary.omitted_modules, 1);
    CU_ASSERT_TRUE(summary.truncated);
    CU_ASSERT_EQUAL(json_array_size(json_object_get(summary.document, "modules")), 1);
    CU_ASSERT_TRUE(json_is_true(json_object_get(summary.document, "truncated")));
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(summary.document, "omitted_modules")), 1);
    json_decref(summary.document);
    apr_pool_destroy(pool);
}

/* The facts agree with the context document they came with. */
static void assert_facts_are_document(const spx_context_facts_t *facts, json_t *document)
{
    CU_ASSERT_STRING_EQUAL(facts->target, json_string_value(json_object_get(document, "target")));
    json_t *nodes = json_object_get(document, "nodes");
    CU_ASSERT_EQUAL(facts->nodes, json_array_size(nodes));
    CU_ASSERT_EQUAL(facts->edges, json_array_size(json_object_get(document, "edges")));
    CU_ASSERT_EQUAL(facts->truncated, json_is_true(json_object_get(document, "truncated")));
    CU_ASSERT_EQUAL((json_int_t)facts->omitted_nodes,
                    json_integer_value(json_object_get(document, "omitted_nodes")));
    CU_ASSERT_EQUAL(facts->frontier, json_array_size(json_object_get(document, "frontier")));
    CU_ASSERT_EQUAL(facts->target_text_truncated,
                    json_is_true(json_object_get(json_array_get(nodes, 0), "text_truncated")));
}

static void test_context_facts(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    spx_project_t *project = open_items(pool);
    spx_context_request_t query = spx_op_context_query(SPX_LIMIT_CONTEXT_BYTES_DEFAULT, 1u << 24);
    query.target_kind = "function";
    query.target = "app.main";
    spx_context_result_t context;
    CU_ASSERT_EQUAL_FATAL(spx_op_context(project, &query, 1u << 24, &context, pool), APR_SUCCESS);
    assert_facts_are_document(&context.facts, context.document);
    CU_ASSERT_STRING_EQUAL(context.facts.target, "function:app.main");
    CU_ASSERT_FALSE(context.facts.truncated);
    CU_ASSERT_TRUE(context.facts.nodes > 2 && context.facts.edges > 0);
    apr_size_t whole = context.facts.nodes;
    json_decref(context.document);

    /* Cut by max_nodes: the rest is omitted, its nearest named in the frontier. */
    query.max_nodes = 2;
    CU_ASSERT_EQUAL_FATAL(spx_op_context(project, &query, 1u << 24, &context, pool), APR_SUCCESS);
    assert_facts_are_document(&context.facts, context.document);
    CU_ASSERT_EQUAL(context.facts.nodes, 2);
    CU_ASSERT_TRUE(context.facts.truncated);
    CU_ASSERT_EQUAL(context.facts.omitted_nodes, whole - 2);
    CU_ASSERT_TRUE(context.facts.frontier > 0);
    json_decref(context.document);

    /* A budget that holds only part of the target's text: a little less
     * than the target alone takes. */
    query.max_nodes = 1;
    CU_ASSERT_EQUAL_FATAL(spx_op_context(project, &query, 1u << 24, &context, pool), APR_SUCCESS);
    query.max_bytes = strlen(spx_canonical_text(context.document, pool)) - 16;
    json_decref(context.document);
    query.max_nodes = SPX_LIMIT_CONTEXT_NODES_DEFAULT;
    CU_ASSERT_EQUAL_FATAL(spx_op_context(project, &query, 1u << 24, &context, pool), APR_SUCCESS);
    assert_facts_are_document(&context.facts, context.document);
    CU_ASSERT_EQUAL(context.facts.nodes, 1);
    CU_ASSERT_TRUE(context.facts.target_text_truncated);
    json_decref(context.document);

    /* A refusal: the problem and the engine's sentence, no document. */
    query.target = "app.nowhere";
    CU_ASSERT_EQUAL(spx_op_context(project, &query, 1u << 24, &context, pool), APR_EINVAL);
    CU_ASSERT_EQUAL(context.problem, SPX_CONTEXT_UNKNOWN_TARGET);
    CU_ASSERT_PTR_NULL(context.document);
    CU_ASSERT_PTR_NOT_NULL(strstr(context.message, "app.nowhere"));

    /* The default budget is cut to what the answer can hold. */
    CU_ASSERT_EQUAL(spx_op_context_query(65536, 1000).max_bytes, 1000);
    CU_ASSERT_EQUAL(spx_op_context_query(1000, 65536).max_bytes, 1000);
    apr_pool_destroy(pool);
}

static void test_snapshot(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    spx_project_t *project = open_items(pool);
    spx_snapshot_result_t snapshot;
    spx_op_snapshot(project, "semaprax.toml", &snapshot);
    json_t *sources = json_object_get(snapshot.document, "sources");
    CU_ASSERT_EQUAL(snapshot.sources, 2);
    CU_ASSERT_EQUAL(snapshot.sources, json_array_size(sources));
    json_int_t bytes = 0;
    size_t index;
    json_t *source;
    json_array_foreach(sources, index, source)
    {
        bytes += json_integer_value(json_object_get(source, "bytes"));
    }
    CU_ASSERT_EQUAL((json_int_t)snapshot.source_bytes, bytes);
    CU_ASSERT_STRING_EQUAL(snapshot.project_revision, json_string_value(json_object_get(
                                                          snapshot.document, "project_revision")));
    CU_ASSERT_STRING_EQUAL(
        snapshot.workspace_revision,
        json_string_value(json_object_get(snapshot.document, "workspace_revision")));
    json_decref(snapshot.document);
    apr_pool_destroy(pool);
}

/* Each file's result, as the operation reports it while it runs. */
static void count_reported(void *context, const spx_fmt_file_t *file)
{
    (void)file;
    (*(int *)context)++;
}

static void test_fmt_results(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_write(fixture, "messy.spx", "fn f(a:int)->int{return a;}\n");
    spx_fixture_write(fixture, "tidy.spx", "fn f(a: int) -> int {\n    return a;\n}\n");
    spx_fixture_write(fixture, "broken.spx", "fn f( {\n");
    const char *paths[] = {spx_fixture_path(fixture, "messy.spx"),
                           spx_fixture_path(fixture, "tidy.spx"),
                           spx_fixture_path(fixture, "broken.spx"), NULL};
    const char *before = spx_fixture_inventory(fixture);
    spx_fmt_result_t result;
    int reported = 0;
    /* Each run in a pool of its own, let go before the next: on Windows a
     * file the platform still holds cannot be replaced. */
    apr_pool_t *run_pool = NULL;
    apr_pool_create(&run_pool, fixture->pool);
    const spx_fmt_options_t check = {1, SPX_FMT_KEEP_NOTHING, 0, count_reported, &reported, NULL};
    spx_op_fmt_paths(paths, &check, &result, run_pool);
    CU_ASSERT_EQUAL(reported, 3);
    CU_ASSERT_EQUAL(result.stopped, SPX_FMT_FINISHED);
    CU_ASSERT_EQUAL_FATAL(result.files->nelts, 3);
    const spx_fmt_file_t *files = (const spx_fmt_file_t *)result.files->elts;
    CU_ASSERT_TRUE(files[0].changed && !files[0].written && !files[0].refused);
    CU_ASSERT_TRUE(!files[1].changed && !files[1].written && !files[1].refused);
    CU_ASSERT_EQUAL(files[2].refused, SPX_FMT_SYNTAX);
    CU_ASSERT_TRUE(spx_diagnostics_count(files[2].diagnostics) > 0);
    CU_ASSERT_EQUAL(result.changed, 1);
    CU_ASSERT_EQUAL(result.refused, 1);
    CU_ASSERT_FALSE(result.succeeded);
    CU_ASSERT_STRING_EQUAL(spx_fixture_inventory(fixture), before); /* a check writes nothing */
    apr_pool_destroy(run_pool);

    apr_pool_create(&run_pool, fixture->pool);
    const spx_fmt_options_t write = {0, SPX_FMT_KEEP_NOTHING, 0, NULL, NULL, NULL};
    spx_op_fmt_paths(paths, &write, &result, run_pool);
    files = (const spx_fmt_file_t *)result.files->elts;
    CU_ASSERT_TRUE(files[0].changed && files[0].written);
    CU_ASSERT_FALSE(files[1].written);
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "messy.spx"),
                           "fn f(a: int) -> int {\n    return a;\n}\n");
    apr_pool_destroy(run_pool);

    /* An unreadable path stops the run before anything is formatted. */
    const char *missing[] = {spx_fixture_path(fixture, "missing.spx"), NULL};
    spx_op_fmt_paths(missing, &write, &result, fixture->pool);
    CU_ASSERT_EQUAL(result.stopped, SPX_FMT_UNREADABLE);
    CU_ASSERT_PTR_NOT_NULL(strstr(result.message, "missing.spx"));
    CU_ASSERT_EQUAL(result.files->nelts, 0);
    CU_ASSERT_FALSE(result.succeeded);
    spx_fixture_free(fixture);
}

static void test_fmt_held(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_write(fixture, "semaprax.toml",
                      "manifest = \"semaprax.project-manifest.v1\"\n[project]\nname = \"p\"\n"
                      "version = \"0.1.0\"\n[[source]]\nmodule = \"a\"\npath = \"a.spx\"\n"
                      "[[source]]\nmodule = \"b\"\npath = \"b.spx\"\n");
    spx_fixture_write(fixture, "a.spx", "fn f(a:int)->int{return a;}\n");
    spx_fixture_write(fixture, "b.spx", "fn g(a: int) -> int {\n    return a;\n}\n");
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, fixture->pool);
    spx_project_t *project = NULL;
    const char *message = NULL;
    CU_ASSERT_EQUAL_FATAL(
        spx_project_read(&project, spx_fixture_path(fixture, "semaprax.toml"), pool, &message),
        APR_SUCCESS);
    spx_input_set_t *inputs = spx_project_inputs(project);
    spx_fmt_result_t result;
    /* The layouts, every source, nothing written. */
    const char *before = spx_fixture_inventory(fixture);
    spx_fmt_options_t options = {1, SPX_FMT_KEEP_TEXT, 1u << 20, NULL, NULL, NULL};
    spx_op_fmt_held(inputs, NULL, 0, &options, &result, pool);
    CU_ASSERT_EQUAL_FATAL(result.files->nelts, 2);
    const spx_fmt_file_t *files = (const spx_fmt_file_t *)result.files->elts;
    CU_ASSERT_STRING_EQUAL(files[0].path, "a.spx");
    CU_ASSERT_TRUE(files[0].changed && !files[0].written);
    CU_ASSERT_STRING_EQUAL(files[0].text, "fn f(a: int) -> int {\n    return a;\n}\n");
    CU_ASSERT_FALSE(files[1].changed);
    CU_ASSERT_STRING_EQUAL(files[1].text, "fn g(a: int) -> int {\n    return a;\n}\n");
    CU_ASSERT_FALSE(result.texts_omitted);
    CU_ASSERT_STRING_EQUAL(spx_fixture_inventory(fixture), before);
    /* The diff of the one named. */
    options.keep = SPX_FMT_KEEP_DIFF;
    const char *named[] = {"a.spx"};
    spx_op_fmt_held(inputs, named, 1, &options, &result, pool);
    CU_ASSERT_EQUAL_FATAL(result.files->nelts, 1);
    files = (const spx_fmt_file_t *)result.files->elts;
    CU_ASSERT_STRING_EQUAL(files[0].text, "--- a/a.spx\n+++ b/a.spx\n@@ -1 +1,3 @@\n"
                                          "-fn f(a:int)->int{return a;}\n+fn f(a: int) -> int {\n"
                                          "+    return a;\n+}\n");
    /* Over the bytes allowed: formatted and counted, the text left out. */
    options.keep = SPX_FMT_KEEP_TEXT;
    options.max_kept_bytes = 50;
    spx_op_fmt_held(inputs, NULL, 0, &options, &result, pool);
    files = (const spx_fmt_file_t *)result.files->elts;
    CU_ASSERT_TRUE(result.texts_omitted);
    CU_ASSERT_PTR_NOT_NULL(files[0].text);
    CU_ASSERT_PTR_NULL(files[1].text);
    CU_ASSERT_EQUAL(result.changed, 1);
    /* A path that names no source: nothing formatted. */
    const char *unknown[] = {"c.spx"};
    spx_op_fmt_held(inputs, unknown, 1, &options, &result, pool);
    CU_ASSERT_EQUAL(result.stopped, SPX_FMT_UNREADABLE);
    spx_assert_contains(result.message, "no source 'c.spx' in the manifest");
    /* A save made since the project read a.spx: never replaced. (Windows
     * denies the save while the project holds the file, so there is no
     * other save to keep there.) */
    spx_fixture_expect_denials(fixture);
    spx_fixture_write(fixture, "a.spx", "fn f(b:int)->int{return b;}\n");
    int denied = spx_fixture_denials(fixture) > 0;
    spx_fixture_end_session(fixture);
    const char *saved = denied ? "a" : "b";
    options.check = 0;
    if (!denied) {
        spx_op_fmt_held(inputs, NULL, 0, &options, &result, pool);
        files = (const spx_fmt_file_t *)result.files->elts;
        CU_ASSERT_EQUAL(result.stopped, SPX_FMT_SAVED_MEANWHILE);
        CU_ASSERT_EQUAL(files[0].refused, SPX_FMT_CHANGED);
        CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "a.spx"), "fn f(b:int)->int{return b;}\n");
    }
    apr_pool_destroy(pool);
    /* Read again: written. */
    apr_pool_create(&pool, fixture->pool);
    CU_ASSERT_EQUAL_FATAL(
        spx_project_read(&project, spx_fixture_path(fixture, "semaprax.toml"), pool, &message),
        APR_SUCCESS);
    spx_op_fmt_held(spx_project_inputs(project), NULL, 0, &options, &result, pool);
    files = (const spx_fmt_file_t *)result.files->elts;
    CU_ASSERT_TRUE(result.succeeded && files[0].written && !files[1].written);
    apr_pool_destroy(pool);
    CU_ASSERT_STRING_EQUAL(
        spx_fixture_read(fixture, "a.spx"),
        apr_psprintf(fixture->pool, "fn f(%s: int) -> int {\n    return %s;\n}\n", saved, saved));
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"the graph's shape is its document's", test_graph_shape},
        {"the graph summary lists max_modules modules", test_graph_summary},
        {"a context's facts are its document's", test_context_facts},
        {"the snapshot's sources and bytes", test_snapshot},
        {"fmt: each file's result", test_fmt_results},
        {"fmt: a held project's sources", test_fmt_held},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("operations_query", tests);
}
