/*
 * test_index.c: the semantic index of language v2's items, on the project
 * tests/projects/items: struct and const nodes with their exact fields,
 * types, values and whole-item spans; uses and reads edges with their exact
 * sites; struct types spelled MOD.Name in signatures and fields, inside
 * their own module too; the v2 builtins and their signatures; context of a
 * struct and a const target (their text, their neighbours, the errors); and
 * the single source of transport v1 keeping its frozen builtin signatures.
 */
#include "spx_canonical.h"
#include "spx_corpus.h"
#include "spx_index.h"
#include "spx_limits.h"
#include "spx_run_fixture.h"
#include "spx_test.h"

#include <apr_strings.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The admitted project tests/projects/items, opened in pool. */
static spx_project_t *open_items(apr_pool_t *pool)
{
    spx_project_t *project = NULL;
    const char *message = NULL;
    const char *manifest =
        apr_pstrcat(pool, spx_corpus_dir("projects/items", pool), "/semaprax.toml", NULL);
    CU_ASSERT_EQUAL_FATAL(spx_project_open(&project, manifest, pool, &message), APR_SUCCESS);
    if (!spx_project_admitted(project))
        fprintf(stderr, "\n  tests/projects/items is not admitted:\n%s",
                spx_corpus_summary(spx_project_diagnostics(project), pool));
    CU_ASSERT_TRUE_FATAL(spx_project_admitted(project));
    return project;
}

/* The text of a source of tests/projects/items. */
static const char *items_source(const char *path, apr_pool_t *pool)
{
    apr_size_t length = 0;
    return spx_corpus_read(
        apr_pstrcat(pool, spx_corpus_dir("projects/items", pool), "/", path, NULL), &length, pool);
}

/* The position of offset in text, as a span's end or start. */
static json_t *position_json(const char *text, size_t offset)
{
    size_t line = 1, column = 1;
    for (size_t i = 0; i < offset; i++) {
        if (text[i] == '\n') {
            line++;
            column = 1;
        } else {
            column++;
        }
    }
    return json_pack("{s:I, s:I, s:I}", "line", (json_int_t)line, "column", (json_int_t)column,
                     "offset", (json_int_t)offset);
}

/* The span of item, which must occur exactly once in text. */
static json_t *item_span(const char *text, const char *item)
{
    const char *at = strstr(text, item);
    CU_ASSERT_PTR_NOT_NULL_FATAL(at);
    CU_ASSERT_PTR_NULL(strstr(at + 1, item));
    size_t start = (size_t)(at - text);
    return json_pack("{s:o, s:o}", "start", position_json(text, start), "end",
                     position_json(text, start + strlen(item)));
}

/* The node must be exactly expected (which is consumed). */
static void assert_node(json_t *document, const char *id, json_t *expected, apr_pool_t *pool)
{
    json_t *node = spx_document_node(document, id);
    CU_ASSERT_PTR_NOT_NULL_FATAL(node);
    if (!json_equal(node, expected))
        fprintf(stderr, "\n  %s is\n  %s\n  expected\n  %s\n", id, spx_canonical_text(node, pool),
                spx_canonical_text(expected, pool));
    CU_ASSERT_TRUE(json_equal(node, expected));
    json_decref(expected);
}

static json_t *field(const char *name, const char *type)
{
    return json_pack("{s:s, s:s}", "name", name, "type", type);
}

static void test_struct_nodes(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    json_t *graph = spx_corpus_graph(open_items(pool));
    const char *geo = items_source("src/geo.spx", pool);
    assert_node(graph, "struct:geo.Point",
                json_pack("{s:s, s:s, s:s, s:s, s:b, s:[o, o], s:s, s:o}", "id", "struct:geo.Point",
                          "kind", "struct", "module", "geo", "name", "Point", "exported", 1,
                          "fields", field("x", "int"), field("y", "int"), "path", "src/geo.spx",
                          "span", item_span(geo, "export struct Point { x: int, y: int }")),
                pool);
    /* Over several lines with a trailing comma; Point written in geo is geo.Point. */
    assert_node(graph, "struct:geo.Path",
                json_pack("{s:s, s:s, s:s, s:s, s:b, s:[o, o], s:s, s:o}", "id", "struct:geo.Path",
                          "kind", "struct", "module", "geo", "name", "Path", "exported", 1,
                          "fields", field("points", "[geo.Point]"), field("name", "str"), "path",
                          "src/geo.spx", "span",
                          item_span(geo, "export struct Path {\n  points: [Point],\n  name: "
                                         "str,\n}")),
                pool);
    assert_node(graph, "struct:geo.Node",
                json_pack("{s:s, s:s, s:s, s:s, s:b, s:[o, o], s:s, s:o}", "id", "struct:geo.Node",
                          "kind", "struct", "module", "geo", "name", "Node", "exported", 0,
                          "fields", field("kids", "[geo.Node]"), field("at", "geo.Point"), "path",
                          "src/geo.spx", "span",
                          item_span(geo, "struct Node { kids: [Node], at: Point }")),
                pool);
    json_decref(graph);
    apr_pool_destroy(pool);
}

/* The const node of module.name as the graph must give it. */
static json_t *const_node(const char *module, const char *name, int exported, const char *type,
                          const char *value, const char *path, json_t *span, apr_pool_t *pool)
{
    return json_pack("{s:s, s:s, s:s, s:s, s:b, s:s, s:s, s:s, s:o}", "id",
                     apr_pstrcat(pool, "const:", module, ".", name, NULL), "kind", "const",
                     "module", module, "name", name, "exported", exported, "type", type, "value",
                     value, "path", path, "span", span);
}

static void test_const_nodes(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    json_t *graph = spx_corpus_graph(open_items(pool));
    /* Values as evaluated at check time: decimal, true/false, the str's own text. */
    static const struct {
        const char *module, *name;
        int exported;
        const char *type, *value, *item;
    } consts[] = {
        {"geo", "ORIGIN_X", 1, "int", "0", "export const ORIGIN_X: int = 0x10 - 16;"},
        {"geo", "SCALE", 1, "int", "6", "export const SCALE: int = ORIGIN_X + 3 * 2;"},
        {"geo", "NAME", 1, "str", "g\xc3\xa9o", "export const NAME: str = \"g\\u{e9}o\";"},
        {"geo", "ON", 0, "bool", "true", "const ON: bool = !false && SCALE > ORIGIN_X;"},
        {"app", "LIMIT", 0, "int", "18", "const LIMIT: int = geo.SCALE * 2 + geo.SCALE;"},
    };
    for (size_t i = 0; i < sizeof(consts) / sizeof(consts[0]); i++) {
        const char *path = apr_pstrcat(pool, "src/", consts[i].module, ".spx", NULL);
        assert_node(graph, apr_pstrcat(pool, "const:", consts[i].module, ".", consts[i].name, NULL),
                    const_node(consts[i].module, consts[i].name, consts[i].exported, consts[i].type,
                               consts[i].value, path,
                               item_span(items_source(path, pool), consts[i].item), pool),
                    pool);
    }
    json_decref(graph);
    apr_pool_destroy(pool);
}

/* The document's edges of the given kinds, one "FROM KIND TO SITES" line each. */
static const char *edge_lines(json_t *document, const char *const *kinds, apr_pool_t *pool)
{
    const char *lines = "";
    size_t index;
    json_t *edge;
    json_array_foreach(json_object_get(document, "edges"), index, edge)
    {
        const char *kind = json_string_value(json_object_get(edge, "kind"));
        for (size_t k = 0; kinds[k]; k++) {
            if (strcmp(kind, kinds[k]) != 0)
                continue;
            json_t *sites = json_object_get(edge, "sites");
            lines = apr_psprintf(pool, "%s%s %s %s", lines,
                                 json_string_value(json_object_get(edge, "from")), kind,
                                 json_string_value(json_object_get(edge, "to")));
            if (sites)
                lines = apr_psprintf(pool, "%s %" APR_INT64_T_FMT, lines,
                                     (apr_int64_t)json_integer_value(sites));
            lines = apr_pstrcat(pool, lines, "\n", NULL);
        }
    }
    return lines;
}

static void assert_text(const char *actual, const char *expected)
{
    if (strcmp(actual, expected) != 0)
        fprintf(stderr, "\n  got:\n%s  expected:\n%s", actual, expected);
    CU_ASSERT_STRING_EQUAL(actual, expected);
}

static void test_uses_reads_and_calls(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    json_t *graph = spx_corpus_graph(open_items(pool));
    static const char *const kinds[] = {"uses", "reads", "calls", NULL};
    /* Sites, one per occurrence that resolves to the target:
     * - geo.shift uses geo.Point 7: parameter p, the result [Point], the
     *   write q.x =, the read q.x, the annotation [Point], the literal
     *   Point { }, the read q.y ("var q = p;" names no struct);
     * - geo.last uses geo.Path 2 (parameter, path.points), geo.Point 1 (result);
     * - geo.extend uses geo.Path 3: parameter, result, and longer.points of
     *   longer.points.push(p) (a field written through);
     * - app.make uses geo.Point 3: result, annotation, literal geo.Point { };
     * - app.main uses geo.Point 4: p.y =, p.x, ps[...].x, p.y;
     *   reads app.LIMIT 2, geo.ORIGIN_X 1 and geo.NAME 1 (m.X);
     *   calls len 3 (in a call's argument, a condition, an index) and make 3
     *   (two in an array literal);
     * - app.LIMIT reads geo.SCALE twice; geo.ON reads both of its consts;
     * - geo.Node uses itself (through an array) and geo.Point. */
    assert_text(edge_lines(graph, kinds, pool), "const:app.LIMIT reads const:geo.SCALE 2\n"
                                                "const:geo.ON reads const:geo.ORIGIN_X 1\n"
                                                "const:geo.ON reads const:geo.SCALE 1\n"
                                                "const:geo.SCALE reads const:geo.ORIGIN_X 1\n"
                                                "function:app.main calls builtin:assert 1\n"
                                                "function:app.main calls builtin:chr 1\n"
                                                "function:app.main calls builtin:len 3\n"
                                                "function:app.main calls function:app.make 3\n"
                                                "function:app.main reads const:app.LIMIT 2\n"
                                                "function:app.main reads const:geo.NAME 1\n"
                                                "function:app.main reads const:geo.ORIGIN_X 1\n"
                                                "function:app.main uses struct:geo.Point 4\n"
                                                "function:app.make calls builtin:stoi 1\n"
                                                "function:app.make uses struct:geo.Point 3\n"
                                                "function:geo.extend calls builtin:push 1\n"
                                                "function:geo.extend uses struct:geo.Path 3\n"
                                                "function:geo.extend uses struct:geo.Point 1\n"
                                                "function:geo.last calls builtin:pop 1\n"
                                                "function:geo.last uses struct:geo.Path 2\n"
                                                "function:geo.last uses struct:geo.Point 1\n"
                                                "function:geo.shift calls builtin:push 1\n"
                                                "function:geo.shift reads const:geo.SCALE 1\n"
                                                "function:geo.shift uses struct:geo.Point 7\n"
                                                "struct:geo.Node uses struct:geo.Node 1\n"
                                                "struct:geo.Node uses struct:geo.Point 1\n"
                                                "struct:geo.Path uses struct:geo.Point 1\n");
    static const char *const contains[] = {"contains", "imports", NULL};
    assert_text(edge_lines(graph, contains, pool), "module:app contains const:app.LIMIT\n"
                                                   "module:app contains function:app.main\n"
                                                   "module:app contains function:app.make\n"
                                                   "module:app imports module:geo\n"
                                                   "module:geo contains const:geo.NAME\n"
                                                   "module:geo contains const:geo.ON\n"
                                                   "module:geo contains const:geo.ORIGIN_X\n"
                                                   "module:geo contains const:geo.SCALE\n"
                                                   "module:geo contains function:geo.extend\n"
                                                   "module:geo contains function:geo.last\n"
                                                   "module:geo contains function:geo.shift\n"
                                                   "module:geo contains struct:geo.Node\n"
                                                   "module:geo contains struct:geo.Path\n"
                                                   "module:geo contains struct:geo.Point\n");
    json_decref(graph);
    apr_pool_destroy(pool);
}

/* The string member of the node id, which must be in the document; NULL
 * when the node has no such member. */
static const char *member_of(json_t *document, const char *id, const char *member)
{
    json_t *node = spx_document_node(document, id);
    CU_ASSERT_PTR_NOT_NULL_FATAL(node);
    return json_string_value(json_object_get(node, member));
}

static const char *signature_of(json_t *document, const char *id)
{
    return member_of(document, id, "signature");
}

static void test_signatures(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    json_t *graph = spx_corpus_graph(open_items(pool));
    /* MOD.Name, inside the struct's own module too. */
    CU_ASSERT_STRING_EQUAL(signature_of(graph, "function:geo.shift"),
                           "fn(p: geo.Point, xs: [int]) -> [geo.Point]");
    CU_ASSERT_STRING_EQUAL(signature_of(graph, "function:geo.last"),
                           "fn(path: geo.Path) -> geo.Point");
    CU_ASSERT_STRING_EQUAL(signature_of(graph, "function:app.make"), "fn(n: int) -> geo.Point");
    CU_ASSERT_STRING_EQUAL(signature_of(graph, "function:app.main"), "fn() -> int");
    static const char *const builtins[][2] = {
        {"builtin:assert", "fn(c: bool, message: str)"},
        {"builtin:chr", "fn(c: int) -> str"},
        {"builtin:len", "fn(x: str | [T] | {K: V}) -> int"},
        {"builtin:pop", "fn(a: [T]) -> T"},
        {"builtin:push", "fn(a: [T], v: T)"},
        {"builtin:stoi", "fn(s: str) -> int"},
    };
    for (size_t i = 0; i < sizeof(builtins) / sizeof(builtins[0]); i++) {
        json_t *node = spx_document_node(graph, builtins[i][0]);
        CU_ASSERT_PTR_NOT_NULL_FATAL(node);
        CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(node, "kind")), "builtin");
        CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(node, "name")),
                               builtins[i][0] + strlen("builtin:"));
        CU_ASSERT_STRING_EQUAL(signature_of(graph, builtins[i][0]), builtins[i][1]);
        CU_ASSERT_EQUAL(json_object_size(node), 4); /* id, kind, name, signature */
    }
    /* Only the builtins that are called appear. */
    CU_ASSERT_PTR_NULL(spx_document_node(graph, "builtin:print"));
    CU_ASSERT_PTR_NULL(spx_document_node(graph, "builtin:itos"));
    json_decref(graph);
    apr_pool_destroy(pool);
}

/* The context of kind target at depth (defaults but those given), which
 * must be answered. */
static json_t *context_of(const spx_project_t *project, const char *kind, const char *target,
                          const char *direction, apr_uint64_t depth, apr_uint64_t max_bytes,
                          apr_pool_t *pool)
{
    spx_context_request_t request = spx_context_defaults();
    request.target_kind = kind;
    request.target = target;
    request.depth = depth;
    if (direction)
        request.direction = direction;
    if (max_bytes)
        request.max_bytes = max_bytes;
    json_t *document = NULL;
    const char *message = NULL;
    apr_status_t status =
        spx_context_document(project, &request, 1u << 24, &document, pool, &message);
    if (status != APR_SUCCESS)
        fprintf(stderr, "\n  context %s %s: %s\n", kind, target, message);
    CU_ASSERT_EQUAL_FATAL(status, APR_SUCCESS);
    return document;
}

/* "ID distance via-kind" per node, in the document's order. */
static const char *node_lines(json_t *document, apr_pool_t *pool)
{
    const char *lines = "";
    size_t index;
    json_t *node;
    json_array_foreach(json_object_get(document, "nodes"), index, node)
    {
        json_t *via = json_object_get(node, "via");
        lines = apr_psprintf(pool, "%s%s %" APR_INT64_T_FMT " %s\n", lines,
                             json_string_value(json_object_get(node, "id")),
                             (apr_int64_t)json_integer_value(json_object_get(node, "distance")),
                             via ? json_string_value(json_object_get(via, "kind")) : "-");
    }
    return lines;
}

static const char *text_of(json_t *document, const char *id)
{
    return member_of(document, id, "text");
}

static void test_context_of_a_struct(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    spx_project_t *project = open_items(pool);
    json_t *context = context_of(project, "struct", "geo.Point", NULL, 1, 0, pool);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(context, "target")),
                           "struct:geo.Point");
    /* Listed in taking order: its users, then its module (outputs.md). */
    assert_text(node_lines(context, pool), "struct:geo.Point 0 -\n"
                                           "function:app.main 1 uses\n"
                                           "function:app.make 1 uses\n"
                                           "function:geo.extend 1 uses\n"
                                           "function:geo.last 1 uses\n"
                                           "function:geo.shift 1 uses\n"
                                           "struct:geo.Node 1 uses\n"
                                           "struct:geo.Path 1 uses\n"
                                           "module:geo 1 contains\n");
    /* Each item's text is its whole item, from the retained source. */
    CU_ASSERT_STRING_EQUAL(text_of(context, "struct:geo.Point"),
                           "export struct Point { x: int, y: int }");
    CU_ASSERT_STRING_EQUAL(text_of(context, "struct:geo.Path"),
                           "export struct Path {\n  points: [Point],\n  name: str,\n}");
    CU_ASSERT_PTR_NULL(text_of(context, "module:geo"));
    /* The target node is the graph's node, plus distance and text. */
    json_t *graph = spx_corpus_graph(project);
    json_t *target = json_deep_copy(spx_document_node(context, "struct:geo.Point"));
    json_object_del(target, "distance");
    json_object_del(target, "text");
    CU_ASSERT_TRUE(json_equal(target, spx_document_node(graph, "struct:geo.Point")));
    json_decref(target);
    json_decref(graph);

    /* The target alone over budget: its text is cut and says so. */
    json_t *whole = context_of(project, "struct", "geo.Path", "out", 0, 0, pool);
    apr_size_t size = strlen(spx_canonical_text(whole, pool));
    json_t *cut = context_of(project, "struct", "geo.Path", "out", 0, size - 20, pool);
    CU_ASSERT_TRUE(
        json_is_true(json_object_get(spx_document_node(cut, "struct:geo.Path"), "text_truncated")));
    const char *text = text_of(cut, "struct:geo.Path");
    const char *full = text_of(whole, "struct:geo.Path");
    CU_ASSERT_PTR_NULL(
        json_object_get(spx_document_node(whole, "struct:geo.Path"), "text_truncated"));
    CU_ASSERT_TRUE(strlen(text) > 0 && strlen(text) < strlen(full));
    CU_ASSERT_EQUAL(strncmp(text, full, strlen(text)), 0); /* a prefix */
    CU_ASSERT_TRUE(strlen(spx_canonical_text(cut, pool)) <= size - 20);
    json_decref(whole);
    json_decref(cut);
    json_decref(context);
    apr_pool_destroy(pool);
}

static void test_context_of_a_const(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    spx_project_t *project = open_items(pool);
    json_t *in = context_of(project, "const", "geo.SCALE", "in", 1, 0, pool);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(in, "target")), "const:geo.SCALE");
    assert_text(node_lines(in, pool), "const:geo.SCALE 0 -\n"
                                      "const:app.LIMIT 1 reads\n"
                                      "const:geo.ON 1 reads\n"
                                      "function:geo.shift 1 reads\n"
                                      "module:geo 1 contains\n");
    CU_ASSERT_STRING_EQUAL(text_of(in, "const:geo.SCALE"),
                           "export const SCALE: int = ORIGIN_X + 3 * 2;");
    CU_ASSERT_STRING_EQUAL(text_of(in, "const:app.LIMIT"),
                           "const LIMIT: int = geo.SCALE * 2 + geo.SCALE;");
    json_t *out = context_of(project, "const", "geo.SCALE", "out", 1, 0, pool);
    assert_text(node_lines(out, pool), "const:geo.SCALE 0 -\n"
                                       "const:geo.ORIGIN_X 1 reads\n");
    json_decref(in);
    json_decref(out);
    apr_pool_destroy(pool);
}

static void test_context_errors(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    spx_project_t *project = open_items(pool);
    static const struct {
        const char *kind, *target, *message;
        spx_context_problem_t problem;
    } refused[] = {
        {"struct", "geo.Nope", "no struct 'geo.Nope' in this project; nearest: geo.Node",
         SPX_CONTEXT_UNKNOWN_TARGET},
        {"const", "geo.Point", "no const 'geo.Point' in this project; there is struct:geo.Point",
         SPX_CONTEXT_UNKNOWN_TARGET},
        {"struct", "geo.SCALE", "no struct 'geo.SCALE' in this project; there is const:geo.SCALE",
         SPX_CONTEXT_UNKNOWN_TARGET},
        {"struct", "Point", "no struct 'Point' in this project", SPX_CONTEXT_UNKNOWN_TARGET},
        {"function", "geo.Point",
         "no function 'geo.Point' in this project; nearest: geo.shift; there is struct:geo.Point",
         SPX_CONTEXT_UNKNOWN_TARGET},
        {"union", "geo.Point",
         "unknown target kind 'union': use module, function, struct, enum, const, test, builtin or "
         "data",
         SPX_CONTEXT_UNKNOWN_KIND},
        /* graph node ids: the kind may be left out, and must agree when given */
        {"const", "struct:geo.Point",
         "target 'struct:geo.Point' is a struct id but the target kind given is 'const': give "
         "the kind 'struct', or leave the kind out",
         SPX_CONTEXT_KIND_MISMATCH},
        {NULL, "struct:geo.Pointt", "no struct 'geo.Pointt' in this project; nearest: geo.Point",
         SPX_CONTEXT_UNKNOWN_TARGET},
        {NULL, "geo.Point",
         "no target kind is given and 'geo.Point' is not a node id of the graph: give the kind "
         "(target_kind, --kind), or a node id such as struct:geo.Point",
         SPX_CONTEXT_MISSING_TARGET},
        {NULL, "record:geo.Point",
         "no target kind is given and 'record:geo.Point' is not a node id of the graph: give the "
         "kind (target_kind, --kind), or a node id such as 'function:app.main'",
         SPX_CONTEXT_MISSING_TARGET},
    };
    for (size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
        spx_context_request_t request = spx_context_defaults();
        request.target_kind = refused[i].kind;
        request.target = refused[i].target;
        json_t *document = NULL;
        const char *message = NULL;
        spx_context_problem_t problem = SPX_CONTEXT_ANSWERED;
        CU_ASSERT_EQUAL(spx_context_document_explained(project, &request, 1u << 24, &document, pool,
                                                       &message, &problem),
                        APR_EINVAL);
        CU_ASSERT_PTR_NULL(document);
        CU_ASSERT_EQUAL(problem, refused[i].problem);
        CU_ASSERT_PTR_NOT_NULL_FATAL(message);
        if (strcmp(message, refused[i].message) != 0)
            fprintf(stderr, "\n  %s %s: %s\n", refused[i].kind ? refused[i].kind : "(none)",
                    refused[i].target, message);
        CU_ASSERT_STRING_EQUAL(message, refused[i].message);
    }
    apr_pool_destroy(pool);
}

/* A graph node id is a target: with its own kind, or with none; the answer
 * is the one the kind and the name give. */
static void test_context_of_a_node_id(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    spx_project_t *project = open_items(pool);
    static const char *const asked[][3] = {
        {"struct", "geo.Point", NULL},
        {NULL, "struct:geo.Point", NULL},
        {"struct", "struct:geo.Point", NULL},
    };
    const char *first = NULL;
    for (size_t i = 0; i < sizeof(asked) / sizeof(asked[0]); i++) {
        spx_context_request_t request = spx_context_defaults();
        request.target_kind = asked[i][0];
        request.target = asked[i][1];
        json_t *document = NULL;
        const char *message = NULL;
        CU_ASSERT_EQUAL_FATAL(
            spx_context_document(project, &request, 1u << 24, &document, pool, &message),
            APR_SUCCESS);
        const char *text = spx_canonical_text(document, pool);
        json_decref(document);
        CU_ASSERT_PTR_NOT_NULL_FATAL(text);
        CU_ASSERT_PTR_NOT_NULL(strstr(text, "\"target\":\"struct:geo.Point\""));
        if (first)
            CU_ASSERT_STRING_EQUAL(text, first);
        first = text;
    }
    /* every kind the graph has, the entry and the builtins included */
    static const char *const ids[] = {"module:geo", "const:geo.SCALE", "entry"};
    for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
        spx_context_request_t request = spx_context_defaults();
        request.target = ids[i];
        json_t *document = NULL;
        const char *message = NULL;
        CU_ASSERT_EQUAL(
            spx_context_document(project, &request, 1u << 24, &document, pool, &message),
            APR_SUCCESS);
        CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(document, "target")), ids[i]);
        json_decref(document);
    }
    apr_pool_destroy(pool);
}

/* edge_kinds: only those edges are followed and listed, and the document
 * names them; without it every kind is (and no "edge_kinds"). */
static void test_context_of_some_edge_kinds(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    spx_project_t *project = open_items(pool);
    static const char *const contains[] = {"contains"};
    spx_context_request_t request = spx_context_defaults();
    request.target_kind = "struct";
    request.target = "geo.Point";
    request.edge_kinds = contains;
    request.edge_kind_count = 1;
    json_t *document = NULL;
    const char *message = NULL;
    CU_ASSERT_EQUAL_FATAL(
        spx_context_document(project, &request, 1u << 24, &document, pool, &message), APR_SUCCESS);
    assert_text(node_lines(document, pool), "struct:geo.Point 0 -\n"
                                            "module:geo 1 contains\n");
    CU_ASSERT_EQUAL(json_array_size(json_object_get(document, "edges")), 1);
    char *kinds = json_dumps(json_object_get(document, "edge_kinds"), JSON_COMPACT);
    CU_ASSERT_STRING_EQUAL(kinds, "[\"contains\"]");
    free(kinds);
    json_decref(document);

    json_t *every = context_of(project, "struct", "geo.Point", NULL, 1, 0, pool);
    CU_ASSERT_PTR_NULL(json_object_get(every, "edge_kinds"));
    CU_ASSERT_TRUE(json_array_size(json_object_get(every, "nodes")) > 2);
    json_decref(every);

    static const char *const unknown[] = {"uses", "likes"};
    request.edge_kinds = unknown;
    request.edge_kind_count = 2;
    document = NULL;
    CU_ASSERT_EQUAL(spx_context_document(project, &request, 1u << 24, &document, pool, &message),
                    APR_EINVAL);
    CU_ASSERT_PTR_NULL(document);
    CU_ASSERT_STRING_EQUAL(message, "unknown edge kind 'likes': use imports, contains, calls, "
                                    "uses, reads, tests or enters");
    request.edge_kind_count = SPX_LIMIT_CONTEXT_EDGE_KINDS + 1;
    CU_ASSERT_EQUAL(spx_context_document(project, &request, 1u << 24, &document, pool, &message),
                    APR_EINVAL);
    CU_ASSERT_STRING_EQUAL(message, "17 edge kinds are over the maximum of 16");
    apr_pool_destroy(pool);
}

/* Transport v1 is byte-frozen: a single source's graph keeps the builtin
 * signatures it had before language v2, where a project's graph of the same
 * source gives v2's. */
static void test_single_source_keeps_v1_signatures(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    static const char source[] = "export fn main() -> int {\n"
                                 "  assert(len(\"ab\") == 2);\n"
                                 "  return 0;\n"
                                 "}\n";
    spx_run_fixture_write(fixture, source, NULL, NULL);
    spx_project_t *single = NULL;
    const char *message = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_project_open_source(&single, spx_fixture_path(fixture, "app.spx"),
                                                  fixture->pool, &message),
                          APR_SUCCESS);
    CU_ASSERT_TRUE_FATAL(spx_project_admitted(single));
    json_t *v1 = spx_corpus_source_graph(single);
    CU_ASSERT_STRING_EQUAL(signature_of(v1, "builtin:len"), "fn(s: str) -> int");
    CU_ASSERT_STRING_EQUAL(signature_of(v1, "builtin:assert"), "fn(c: bool)");
    json_t *graph = spx_corpus_graph(spx_run_fixture_open(fixture));
    CU_ASSERT_STRING_EQUAL(signature_of(graph, "builtin:len"), "fn(x: str | [T] | {K: V}) -> int");
    CU_ASSERT_STRING_EQUAL(signature_of(graph, "builtin:assert"), "fn(c: bool, message: str)");
    json_decref(v1);
    json_decref(graph);
    spx_fixture_free(fixture);
}

/* The string member key of object, or NULL. */
static const char *member(json_t *object, const char *key)
{
    return json_string_value(json_object_get(object, key));
}

static int same_text(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* The graph's typed walk says of every node and edge what the graph
 * document says (read back here), in the same order: the facts the CLI's
 * outline reads are the document's. */
static void assert_walk_matches_graph(const spx_project_t *project)
{
    json_t *graph = spx_corpus_graph(project);
    json_t *nodes = json_object_get(graph, "nodes");
    json_t *edges = json_object_get(graph, "edges");
    CU_ASSERT_EQUAL_FATAL((size_t)spx_graph_node_count(project), json_array_size(nodes));
    size_t next_edge = 0, in_edges = 0;
    for (int number = 0; number < spx_graph_node_count(project); number++) {
        json_t *object = json_array_get(nodes, (size_t)number);
        spx_graph_node_t node;
        spx_graph_node(project, number, &node);
        CU_ASSERT_EQUAL(node.number, number);
        CU_ASSERT_STRING_EQUAL(node.id, member(object, "id"));
        CU_ASSERT_EQUAL(spx_graph_node_find(project, node.id), number);
        CU_ASSERT_STRING_EQUAL(node.kind, member(object, "kind"));
        CU_ASSERT_TRUE(same_text(node.name, member(object, "name")));
        CU_ASSERT_TRUE(same_text(node.module, member(object, "module")));
        CU_ASSERT_TRUE(same_text(node.path, member(object, "path")));
        CU_ASSERT_TRUE(same_text(node.signature, member(object, "signature")));
        CU_ASSERT_TRUE(same_text(node.type, member(object, "type")));
        json_t *exported = json_object_get(object, "exported");
        CU_ASSERT_EQUAL(node.exported, exported ? json_is_true(exported) : -1);
        json_t *value = json_object_get(object, "value");
        CU_ASSERT_EQUAL(node.value != NULL, value != NULL);
        if (value)
            CU_ASSERT_TRUE(node.value_length == json_string_length(value) &&
                           memcmp(node.value, json_string_value(value), node.value_length) == 0);
        json_t *bytes = json_object_get(object, "bytes");
        CU_ASSERT_EQUAL(node.bytes, bytes ? json_integer_value(bytes) : -1);
        CU_ASSERT_EQUAL(node.span != NULL, json_object_get(object, "span") != NULL);
        json_t *fields = json_object_get(object, "fields");
        CU_ASSERT_EQUAL(node.field_count, json_array_size(fields));
        for (apr_size_t i = 0; i < node.field_count; i++) {
            const char *name = NULL, *type = NULL;
            spx_graph_field(project, &node, i, &name, &type);
            CU_ASSERT_STRING_EQUAL(name, member(json_array_get(fields, i), "name"));
            CU_ASSERT_STRING_EQUAL(type, member(json_array_get(fields, i), "type"));
        }
        json_t *variants = json_object_get(object, "variants");
        CU_ASSERT_EQUAL(node.variant_count, json_array_size(variants));
        spx_graph_variant_t variant = {NULL, NULL, 0, 0};
        for (apr_size_t v = 0; v < node.variant_count; v++) {
            spx_graph_variant(project, &node, v, &variant);
            json_t *expected = json_array_get(variants, v);
            CU_ASSERT_STRING_EQUAL(variant.name, member(expected, "name"));
            json_t *payload = json_object_get(expected, "payload");
            CU_ASSERT_EQUAL_FATAL(variant.payload_count, json_array_size(payload));
            for (apr_size_t k = 0; k < variant.payload_count; k++)
                CU_ASSERT_STRING_EQUAL(variant.payload[k],
                                       json_string_value(json_array_get(payload, k)));
        }
        /* Its outgoing edges are the document's next ones, in order. */
        for (int k = 0; k < node.out_count; k++, next_edge++) {
            spx_graph_edge_t edge;
            spx_graph_out_edge(project, number, k, &edge);
            json_t *expected = json_array_get(edges, next_edge);
            spx_graph_node_t to;
            spx_graph_node(project, edge.to, &to);
            CU_ASSERT_EQUAL(edge.number, (int)next_edge);
            CU_ASSERT_EQUAL(edge.from, number);
            CU_ASSERT_STRING_EQUAL(member(expected, "from"), node.id);
            CU_ASSERT_STRING_EQUAL(member(expected, "kind"), edge.kind);
            CU_ASSERT_STRING_EQUAL(member(expected, "to"), to.id);
            CU_ASSERT_EQUAL(json_integer_value(json_object_get(expected, "sites")), edge.sites);
        }
        for (int k = 0; k < node.in_count; k++, in_edges++) {
            spx_graph_edge_t edge;
            spx_graph_in_edge(project, number, k, &edge);
            CU_ASSERT_EQUAL(edge.to, number);
            spx_graph_node_t from;
            spx_graph_node(project, edge.from, &from);
            CU_ASSERT_STRING_EQUAL(member(json_array_get(edges, (size_t)edge.number), "from"),
                                   from.id);
        }
    }
    CU_ASSERT_EQUAL(next_edge, json_array_size(edges));
    CU_ASSERT_EQUAL(in_edges, json_array_size(edges));
    json_decref(graph);
}

static spx_project_t *open_example(const char *name, apr_pool_t *pool)
{
    spx_project_t *project = NULL;
    const char *message = NULL;
    const char *manifest =
        apr_pstrcat(pool, getenv("SPX_EXAMPLES"), "/", name, "/semaprax.toml", NULL);
    CU_ASSERT_EQUAL_FATAL(spx_project_open(&project, manifest, pool, &message), APR_SUCCESS);
    CU_ASSERT_TRUE_FATAL(spx_project_admitted(project));
    return project;
}

static void test_walk_matches_graph(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    assert_walk_matches_graph(open_items(pool));               /* structs, consts, builtins */
    assert_walk_matches_graph(open_example("calc", pool));     /* enums with payloads */
    assert_walk_matches_graph(open_example("wordfreq", pool)); /* a data file */
    apr_pool_destroy(pool);
}

/* A context answer's typed nodes and edges are the ones its document
 * lists, in its order, with their distance and via; a budget's cut lists
 * only what it kept. */
static void test_context_lists_typed(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    spx_project_t *project = open_items(pool);
    for (apr_uint64_t max_nodes = 2; max_nodes <= 64; max_nodes += 62) {
        spx_context_request_t request = spx_context_defaults();
        request.target = "struct:geo.Point";
        request.depth = 2;
        request.max_nodes = max_nodes;
        spx_context_answer_t answer;
        CU_ASSERT_EQUAL_FATAL(spx_context_answer(project, &request, 1u << 24, &answer, pool),
                              APR_SUCCESS);
        json_t *nodes = json_object_get(answer.document, "nodes");
        json_t *edges = json_object_get(answer.document, "edges");
        CU_ASSERT_EQUAL_FATAL(answer.node_count, json_array_size(nodes));
        CU_ASSERT_EQUAL_FATAL(answer.edge_count, json_array_size(edges));
        CU_ASSERT_EQUAL(answer.facts.truncated, max_nodes == 2);
        for (apr_size_t i = 0; i < answer.node_count; i++) {
            const spx_context_node_t *kept = &answer.node_list[i];
            json_t *object = json_array_get(nodes, i);
            spx_graph_node_t node;
            spx_graph_node(project, kept->node, &node);
            CU_ASSERT_STRING_EQUAL(node.id, member(object, "id"));
            CU_ASSERT_EQUAL(kept->distance,
                            json_integer_value(json_object_get(object, "distance")));
            json_t *via = json_object_get(object, "via");
            CU_ASSERT_EQUAL(kept->via_from >= 0, via != NULL);
            if (via) {
                spx_graph_node_t from;
                spx_graph_node(project, kept->via_from, &from);
                CU_ASSERT_STRING_EQUAL(from.id, member(via, "from"));
                CU_ASSERT_STRING_EQUAL(kept->via_kind, member(via, "kind"));
            }
        }
        json_t *graph = spx_corpus_graph(project);
        for (apr_size_t e = 0; e < answer.edge_count; e++) {
            json_t *graph_edge =
                json_array_get(json_object_get(graph, "edges"), (size_t)answer.edge_list[e]);
            CU_ASSERT_TRUE(json_equal(graph_edge, json_array_get(edges, e)));
        }
        json_decref(graph);
        json_decref(answer.document);
    }
    apr_pool_destroy(pool);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"struct nodes", test_struct_nodes},
        {"const nodes", test_const_nodes},
        {"uses, reads and calls edges with their sites", test_uses_reads_and_calls},
        {"signatures: MOD.Name, the v2 builtins", test_signatures},
        {"context of a struct", test_context_of_a_struct},
        {"context of a const", test_context_of_a_const},
        {"context errors", test_context_errors},
        {"context of a graph node id", test_context_of_a_node_id},
        {"context of some edge kinds", test_context_of_some_edge_kinds},
        {"single source: transport v1's builtin signatures",
         test_single_source_keeps_v1_signatures},
        {"the graph's typed walk says what the graph says", test_walk_matches_graph},
        {"a context's typed nodes and edges are its document's", test_context_lists_typed},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("index", tests);
}
