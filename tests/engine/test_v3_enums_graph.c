/*
 * test_v3_enums_graph.c: language v3's enums in the semantic documents
 * (docs/outputs.md): the enum:MOD.Name node with its variants and payload
 * types, its module's contains edge, the uses edges from an enum to what
 * its payloads name and to an enum from each function, struct or enum that
 * names, constructs or matches on it (each constructor and each match one
 * site); context with target_kind enum (the item's bytes as its text); and
 * rename refusing a v3 keyword or an enum of the function's module.
 */
#include "spx_corpus.h"
#include "spx_index.h"
#include "spx_project.h"
#include "spx_rename.h"
#include "spx_test.h"

#include <apr_strings.h>
#include <string.h>

static const char manifest[] = "manifest = \"semaprax.project-manifest.v1\"\n\n"
                               "[project]\nname = \"shapes\"\nversion = \"1.0.0\"\n\n"
                               "[[source]]\nmodule = \"app\"\npath = \"src/app.spx\"\n\n"
                               "[[source]]\nmodule = \"geo\"\npath = \"src/geo.spx\"\n";

static const char geo[] = "export struct Point { x: int, y: int }\n"
                          "export enum Shape { Circle(Point, int), Poly([Point]), Empty }\n"
                          "export enum Tree { Leaf(Shape), Node(Tree, Tree) }\n"
                          "export fn origin() -> Shape { return Shape.Empty; }\n";

static const char app[] = "import geo;\n"
                          "struct Holder { s: geo.Shape }\n"
                          "export fn size(s: geo.Shape) -> int {\n"
                          "  match s {\n"
                          "    Circle(_, r) => { return r; }\n"
                          "    Poly(ps) => { return len(ps); }\n"
                          "    Empty => { return 0; }\n"
                          "  }\n"
                          "}\n"
                          "export fn main() -> int {\n"
                          "  let h = Holder { s: geo.Shape.Circle(geo.Point { x: 0, y: 0 }, 2) };\n"
                          "  match geo.origin() { _ => { } }\n"
                          "  return size(h.s) + size(geo.Shape.Empty);\n"
                          "}\n";

static spx_project_t *open_shapes(spx_fixture_t *fixture)
{
    spx_fixture_write(fixture, "semaprax.toml", manifest);
    spx_fixture_write(fixture, "src/geo.spx", geo);
    spx_fixture_write(fixture, "src/app.spx", app);
    spx_project_t *project = NULL;
    const char *message = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_project_open(&project, spx_fixture_path(fixture, "semaprax.toml"),
                                           fixture->pool, &message),
                          APR_SUCCESS);
    if (!spx_project_admitted(project))
        fprintf(stderr, "\n%s",
                spx_corpus_summary(spx_project_diagnostics(project), fixture->pool));
    CU_ASSERT_TRUE_FATAL(spx_project_admitted(project));
    return project;
}

/* The compact JSON of value, without the span (checked apart). */
static const char *compact(json_t *value, apr_pool_t *pool)
{
    json_t *copy = json_deep_copy(value);
    json_object_del(copy, "span");
    char *text = json_dumps(copy, JSON_COMPACT | JSON_SORT_KEYS);
    const char *kept = apr_pstrdup(pool, text);
    free(text);
    json_decref(copy);
    return kept;
}

/* The edges of graph from `from` (any when NULL) to `to`, as "FROM KIND TO
 * SITES;" in the document's order. */
static const char *edges_to(json_t *graph, const char *to, apr_pool_t *pool)
{
    const char *text = "";
    size_t i;
    json_t *edge;
    json_array_foreach(json_object_get(graph, "edges"), i, edge)
    {
        if (strcmp(json_string_value(json_object_get(edge, "to")), to) != 0)
            continue;
        json_t *sites = json_object_get(edge, "sites");
        text = apr_psprintf(pool, "%s%s %s %s %d;", text,
                            json_string_value(json_object_get(edge, "from")),
                            json_string_value(json_object_get(edge, "kind")), to,
                            sites ? (int)json_integer_value(sites) : 0);
    }
    return text;
}

static void test_graph(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_project_t *project = open_shapes(fixture);
    json_t *graph = spx_corpus_graph(project);
    json_t *shape = spx_document_node(graph, "enum:geo.Shape");
    CU_ASSERT_PTR_NOT_NULL_FATAL(shape);
    CU_ASSERT_STRING_EQUAL(
        compact(shape, fixture->pool),
        "{\"exported\":true,\"id\":\"enum:geo.Shape\",\"kind\":\"enum\",\"module\":\"geo\","
        "\"name\":\"Shape\",\"path\":\"src/geo.spx\",\"variants\":[{\"name\":\"Circle\","
        "\"payload\":[\"geo.Point\",\"int\"]},{\"name\":\"Poly\",\"payload\":[\"[geo.Point]\"]},"
        "{\"name\":\"Empty\",\"payload\":[]}]}");
    json_t *span = json_object_get(shape, "span");
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(json_object_get(span, "start"), "line")), 2);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(json_object_get(span, "end"), "column")),
                    63);
    /* uses into geo.Shape: from app.Holder's field type (1), app.main's
     * constructors (2: geo.Shape.Circle, geo.Shape.Empty) and its match on
     * geo.origin() (1), app.size's parameter type and its match (2), geo's
     * origin result type and constructor (2), geo.Tree's payload (1) */
    CU_ASSERT_STRING_EQUAL(edges_to(graph, "enum:geo.Shape", fixture->pool),
                           "enum:geo.Tree uses enum:geo.Shape 1;"
                           "function:app.main uses enum:geo.Shape 3;"
                           "function:app.size uses enum:geo.Shape 2;"
                           "function:geo.origin uses enum:geo.Shape 2;"
                           "module:geo contains enum:geo.Shape 0;"
                           "struct:app.Holder uses enum:geo.Shape 1;");
    /* an enum uses the structs and enums its payloads name, itself too */
    CU_ASSERT_STRING_EQUAL(edges_to(graph, "struct:geo.Point", fixture->pool),
                           "enum:geo.Shape uses struct:geo.Point 2;"
                           "function:app.main uses struct:geo.Point 1;"
                           "module:geo contains struct:geo.Point 0;");
    CU_ASSERT_STRING_EQUAL(edges_to(graph, "enum:geo.Tree", fixture->pool),
                           "enum:geo.Tree uses enum:geo.Tree 2;"
                           "module:geo contains enum:geo.Tree 0;");
    json_decref(graph);
    spx_fixture_free(fixture);
}

static void test_context(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_project_t *project = open_shapes(fixture);
    spx_context_request_t request = spx_context_defaults();
    request.target_kind = "enum";
    request.target = "geo.Tree";
    request.depth = 0;
    json_t *document = NULL;
    const char *message = NULL;
    CU_ASSERT_EQUAL_FATAL(
        spx_context_document(project, &request, 1u << 24, &document, fixture->pool, &message),
        APR_SUCCESS);
    json_t *node = json_array_get(json_object_get(document, "nodes"), 0);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(node, "id")), "enum:geo.Tree");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(node, "text")),
                           "export enum Tree { Leaf(Shape), Node(Tree, Tree) }");
    json_decref(document);
    /* the id alone, and a name of no enum */
    request.target_kind = NULL;
    request.target = "enum:geo.Shape";
    CU_ASSERT_EQUAL(
        spx_context_document(project, &request, 1u << 24, &document, fixture->pool, &message),
        APR_SUCCESS);
    json_decref(document);
    request.target_kind = "enum";
    request.target = "geo.Point";
    CU_ASSERT_NOT_EQUAL(
        spx_context_document(project, &request, 1u << 24, &document, fixture->pool, &message),
        APR_SUCCESS);
    CU_ASSERT_STRING_EQUAL(message, "no enum 'geo.Point' in this project; there is "
                                    "struct:geo.Point");
    spx_fixture_free(fixture);
}

static void test_rename(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_project_t *project = open_shapes(fixture);
    static const struct {
        const char *new_name, *cause, *reason;
    } refusals[] = {
        {"match", "name_is_keyword", "'match' is a keyword since language v3"},
        {"enum", "name_is_keyword", "'enum' is a keyword since language v3"},
        {"Tree", "name_taken",
         "module 'geo' already has an enum 'Tree' (functions, structs, enums and consts share one "
         "namespace)"},
    };
    for (size_t i = 0; i < sizeof(refusals) / sizeof(refusals[0]); i++) {
        spx_rename_plan_t *plan = NULL;
        spx_rename_failure_t failure;
        memset(&failure, 0, sizeof(failure));
        CU_ASSERT_NOT_EQUAL(spx_rename_plan(project, "geo.origin", refusals[i].new_name, &plan,
                                            fixture->pool, &failure),
                            APR_SUCCESS);
        CU_ASSERT_STRING_EQUAL(failure.cause, refusals[i].cause);
        CU_ASSERT_STRING_EQUAL(failure.reason, refusals[i].reason);
    }
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"graph: enum nodes, contains, uses and their sites", test_graph},
        {"context: target_kind enum, the item's text", test_context},
        {"rename: v3 keywords and enum names refused", test_rename},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("language v3: enums in the graph, context and rename", tests);
}
