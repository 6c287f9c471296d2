/*
 * test_stream_sameness.c: the graph and context documents written by the
 * streaming canonical writer, for every project of tests/projects and
 * examples/, one with escapes and non-ASCII in its strings, and a large
 * generated one (tests/bench/gen_project.py). The graph, which has no
 * other renderer: read back by Jansson (duplicate keys refused) and written
 * again in canonical form (SPX_CANONICAL_FLAGS, docs/canonical-json.md), it
 * gives the same bytes, with every node and edge of the index; the
 * counting, fixed and stream sinks agree and its limit falls at its last
 * byte. The graph as a rename compares two (spx_graph_write_compared),
 * unrenamed and with functions renamed to names that move them first, last
 * and nowhere: the bytes of the Jansson tree rename's check used to make of
 * the graph read back. The context of every node (of the first ones in the
 * large project), for a spread of queries and budgets that cut nodes and
 * the target's text: canonical, within its budget, and holding what the
 * test's own walk over every edge of the index says it must
 * (assert_context_sound); every refusal the same as text and as a
 * document.
 */
#include "index_internal.h"
#include "spx_canonical.h"
#include "spx_corpus.h"
#include "spx_index.h"
#include "spx_json_writer.h"
#include "spx_limits.h"
#include "spx_test.h"

#include <apr_strings.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static spx_project_t *open_manifest(const char *manifest, apr_pool_t *pool)
{
    spx_project_t *project = NULL;
    const char *message = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_project_open(&project, manifest, pool, &message), APR_SUCCESS);
    CU_ASSERT_TRUE_FATAL(spx_project_admitted(project));
    return project;
}

/* What a stream writer wrote, gathered. */
typedef struct gathered_t {
    char *bytes;
    apr_size_t length, capacity;
} gathered_t;

static apr_status_t gather(void *context, const char *bytes, apr_size_t length)
{
    gathered_t *gathered = context;
    if (gathered->length + length > gathered->capacity) {
        gathered->capacity = (gathered->length + length) * 2;
        gathered->bytes = realloc(gathered->bytes, gathered->capacity);
    }
    memcpy(gathered->bytes + gathered->length, bytes, length);
    gathered->length += length;
    return APR_SUCCESS;
}

static void assert_graph_same(const spx_project_t *project, apr_pool_t *pool)
{
    apr_size_t length = 0;
    spx_json_status_t status = SPX_JSON_MISUSE;
    const char *text = spx_graph_text(project, (apr_size_t)-1, &length, &status, pool);
    CU_ASSERT_EQUAL_FATAL(status, SPX_JSON_OK);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_EQUAL(strlen(text), length);

    /* read back by an independent parser and written again in canonical
     * form: the same bytes, so they are canonical */
    json_error_t error;
    json_t *document = json_loadb(text, length, JSON_REJECT_DUPLICATES, &error);
    if (!document)
        fprintf(stderr, "\n  the graph is not JSON: %s at %d\n", error.text, error.position);
    CU_ASSERT_PTR_NOT_NULL_FATAL(document);
    const char *expected = spx_canonical_text(document, pool);
    CU_ASSERT_PTR_NOT_NULL_FATAL(expected);
    apr_size_t whole = strlen(expected);
    CU_ASSERT_EQUAL(length, whole);
    CU_ASSERT_TRUE(strcmp(text, expected) == 0);
    /* every node and edge of the index, in its order */
    const spx_index_t *index = project->index;
    json_t *nodes = json_object_get(document, "nodes"), *edges = json_object_get(document, "edges");
    CU_ASSERT_EQUAL(json_array_size(nodes), (size_t)index->node_count);
    CU_ASSERT_EQUAL(json_array_size(edges), (size_t)index->edge_count);
    for (int i = 0; i < index->node_count && (size_t)i < json_array_size(nodes); i++)
        CU_ASSERT_STRING_EQUAL(
            json_string_value(json_object_get(json_array_get(nodes, (size_t)i), "id")),
            index->nodes[i].id);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(document, "project_revision")),
                           project->project_revision);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(document, "schema")),
                           "semaprax.project-semantic-graph.v1");
    json_decref(document);

    gathered_t gathered = {NULL, 0, 0};
    CU_ASSERT_EQUAL(
        spx_graph_write(project, spx_json_writer_stream(gather, &gathered, (apr_size_t)-1, pool)),
        SPX_JSON_OK);
    CU_ASSERT_EQUAL(gathered.length, whole);
    CU_ASSERT_TRUE(gathered.length == whole && memcmp(gathered.bytes, expected, whole) == 0);
    free(gathered.bytes);

    /* the limit: exactly the text's bytes fit, one fewer does not */
    CU_ASSERT_PTR_NOT_NULL(spx_graph_text(project, whole, &length, &status, pool));
    CU_ASSERT_EQUAL(status, SPX_JSON_OK);
    CU_ASSERT_PTR_NULL(spx_graph_text(project, whole - 1, &length, &status, pool));
    CU_ASSERT_EQUAL(status, SPX_JSON_OVER_LIMIT);
}

static int compare_nodes_by_id(const void *left, const void *right)
{
    return strcmp(json_string_value(json_object_get(*(json_t *const *)left, "id")),
                  json_string_value(json_object_get(*(json_t *const *)right, "id")));
}

static int compare_edges(const void *left, const void *right)
{
    static const char *const keys[] = {"from", "kind", "to"};
    for (int k = 0; k < 3; k++) {
        int order = strcmp(json_string_value(json_object_get(*(json_t *const *)left, keys[k])),
                           json_string_value(json_object_get(*(json_t *const *)right, keys[k])));
        if (order != 0)
            return order;
    }
    return 0;
}

static void sort_array(json_t *array, int (*compare)(const void *, const void *), apr_pool_t *pool)
{
    size_t count = json_array_size(array);
    json_t **items = apr_palloc(pool, (count + 1) * sizeof(json_t *));
    for (size_t i = 0; i < count; i++)
        items[i] = json_incref(json_array_get(array, i));
    qsort(items, count, sizeof(json_t *), compare);
    json_array_clear(array);
    for (size_t i = 0; i < count; i++)
        json_array_append_new(array, items[i]);
}

/* What spx_graph_write_compared writes, made the way rename's check made it
 * from a Jansson tree before (here from the graph read back): the document
 * without its revision and spans, old_id read as new_id named new_name,
 * sorted again; its canonical text. */
static const char *compared_by_tree(const spx_project_t *project, const char *old_id,
                                    const char *new_id, const char *new_name, apr_pool_t *pool)
{
    json_t *document = spx_corpus_graph(project);
    json_object_del(document, "project_revision");
    size_t i;
    json_t *item;
    json_array_foreach(json_object_get(document, "nodes"), i, item)
    {
        json_object_del(item, "span");
        if (old_id && strcmp(json_string_value(json_object_get(item, "id")), old_id) == 0) {
            json_object_set_new(item, "id", json_string(new_id));
            json_object_set_new(item, "name", json_string(new_name));
        }
    }
    json_array_foreach(json_object_get(document, "edges"), i, item)
    {
        static const char *const ends[] = {"from", "to"};
        for (int e = 0; old_id && e < 2; e++)
            if (strcmp(json_string_value(json_object_get(item, ends[e])), old_id) == 0)
                json_object_set_new(item, ends[e], json_string(new_id));
    }
    sort_array(json_object_get(document, "nodes"), compare_nodes_by_id, pool);
    sort_array(json_object_get(document, "edges"), compare_edges, pool);
    const char *text = spx_canonical_text(document, pool);
    json_decref(document);
    return text;
}

static void assert_compared_same(const spx_project_t *project, const char *old_id,
                                 const char *new_id, const char *new_name, apr_pool_t *pool)
{
    spx_json_writer_t *writer = spx_json_writer_buffer((apr_size_t)-1, pool);
    CU_ASSERT_EQUAL_FATAL(spx_graph_write_compared(project, old_id, new_id, new_name, writer, pool),
                          SPX_JSON_OK);
    const char *text = spx_json_writer_bytes(writer);
    apr_size_t length = spx_json_writer_length(writer);
    const char *expected = compared_by_tree(project, old_id, new_id, new_name, pool);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(expected);
    if (strlen(expected) != length || memcmp(expected, text, length) != 0)
        fprintf(stderr, "\n  %s as %s compared differently\n", old_id ? old_id : "(none)",
                new_id ? new_id : "(none)");
    CU_ASSERT_EQUAL(strlen(expected), length);
    CU_ASSERT_TRUE(strlen(expected) == length && memcmp(expected, text, length) == 0);
    spx_json_writer_release(writer);
}

/* The graph as a rename compares it: unrenamed, and each of the first
 * max_functions functions renamed to a name that sorts first in its
 * module, one that sorts last, and one beside its own; the same bytes as
 * the tree rename's check made before. */
static void assert_compared_views_same(const spx_project_t *project, int max_functions,
                                       apr_pool_t *parent)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, parent);
    assert_compared_same(project, NULL, NULL, NULL, pool);
    const spx_index_t *index = project->index;
    int renamed = 0;
    for (int n = 0; n < index->node_count && renamed < max_functions; n++) {
        const spx_index_node_t *node = &index->nodes[n];
        if (strcmp(node->kind, "function") != 0 || !node->module)
            continue;
        const char *names[] = {"A", "zzzz", apr_pstrcat(pool, node->name, "_", NULL)};
        for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
            const char *new_id = apr_psprintf(pool, "function:%s.%s", node->module->name, names[k]);
            if (spx_index_find(index, new_id) < 0) /* a rename is refused onto a taken name */
                assert_compared_same(project, node->id, new_id, names[k], pool);
        }
        renamed++;
        apr_pool_clear(pool);
    }
    CU_ASSERT_TRUE(renamed > 0);
    apr_pool_destroy(pool);
}

/* Whether the query follows edges of kind (the test's own reading of
 * edge_kinds). */
static int query_follows(const spx_context_request_t *request, const char *kind)
{
    if (!request->edge_kinds)
        return 1;
    for (apr_size_t i = 0; i < request->edge_kind_count; i++)
        if (strcmp(request->edge_kinds[i], kind) == 0)
            return 1;
    return 0;
}

/* The tie of an edge kind (outputs.md, Context), by the test's own list:
 * 0 calls, 1 uses and reads, 2 tests and enters, 3 contains and imports. */
static int tie_of_kind(const char *kind)
{
    static const char *const kinds[][2] = {
        {"calls", "calls"}, {"uses", "reads"}, {"tests", "enters"}, {"contains", "imports"}};
    for (int tie = 0; tie < 4; tie++)
        if (strcmp(kind, kinds[tie][0]) == 0 || strcmp(kind, kinds[tie][1]) == 0)
            return tie;
    CU_FAIL("an edge kind of no tie");
    return 4;
}

/* The distance of every node from target (-1 when not reached), found by
 * the test's own breadth-first walk over every edge of the index, and in
 * *ties the tie of each reached node but the target: the most relevant
 * tie of the followed edges that join it to the level before. */
static int *distances_from(const spx_index_t *index, const spx_context_request_t *request,
                           int target, int **ties, apr_pool_t *pool)
{
    int *distance = apr_palloc(pool, (size_t)index->node_count * sizeof(int));
    int *tie = apr_palloc(pool, (size_t)index->node_count * sizeof(int));
    for (int n = 0; n < index->node_count; n++) {
        distance[n] = -1;
        tie[n] = 4;
    }
    distance[target] = 0;
    int out = strcmp(request->direction, "in") != 0, in = strcmp(request->direction, "out") != 0;
    for (int level = 0; (apr_uint64_t)level < request->depth; level++)
        for (int e = 0; e < index->edge_count; e++) {
            const spx_index_edge_t *edge = &index->edges[e];
            if (!query_follows(request, spx_index_edge_kind(edge)))
                continue;
            int reached[2] = {-1, -1};
            if (out && distance[edge->from] == level &&
                (distance[edge->to] < 0 || distance[edge->to] == level + 1))
                reached[0] = edge->to;
            if (in && distance[edge->to] == level &&
                (distance[edge->from] < 0 || distance[edge->from] == level + 1))
                reached[1] = edge->from;
            for (int r = 0; r < 2; r++)
                if (reached[r] >= 0) {
                    distance[reached[r]] = level + 1;
                    if (tie_of_kind(spx_index_edge_kind(edge)) < tie[reached[r]])
                        tie[reached[r]] = tie_of_kind(spx_index_edge_kind(edge));
                }
        }
    *ties = tie;
    return distance;
}

/* The node number of a document node's id; fails the test when none. */
static int node_of(const spx_index_t *index, const json_t *node)
{
    int number = spx_index_find(index, json_string_value(json_object_get(node, "id")));
    CU_ASSERT_TRUE(number >= 0);
    return number;
}

/* The context of request, as text and as a document: the same status,
 * refusal and bytes; canonical text within max_bytes; its nodes at the
 * distances of the test's own walk, in (distance, tie, id) order, each
 * one's via of its tie, every reached node shown or counted as omitted (by
 * tie, as omitted_by_tie says); its edges exactly those of the index
 * between shown nodes that the query follows, in edge order; the facts as
 * the document says. Returns whether an answer was checked. */
static int assert_context_sound(const spx_project_t *project, const spx_context_request_t *request,
                                apr_pool_t *parent)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, parent);
    spx_context_answer_t text, tree;
    apr_uint64_t limit = SPX_LIMIT_RESPONSE_BYTES_DEFAULT;
    apr_status_t text_status = spx_context_answer_text(project, request, limit, &text, pool);
    apr_status_t tree_status = spx_context_answer(project, request, limit, &tree, pool);
    CU_ASSERT_EQUAL(text_status, tree_status);
    CU_ASSERT_EQUAL(text.problem, tree.problem);
    int checked = 0;
    if (text_status != APR_SUCCESS || tree_status != APR_SUCCESS) {
        CU_ASSERT_PTR_NOT_NULL(text.message);
        CU_ASSERT_STRING_EQUAL(text.message ? text.message : "", tree.message ? tree.message : "");
        apr_pool_destroy(pool);
        return 0;
    }
    const spx_index_t *index = project->index;
    CU_ASSERT_EQUAL(strlen(text.text), text.length);
    CU_ASSERT_TRUE(text.length <= request->max_bytes);
    CU_ASSERT_STRING_EQUAL(spx_canonical_text(tree.document, pool), text.text);
    const json_t *document = tree.document;
    const json_t *nodes = json_object_get(document, "nodes");
    const json_t *edges = json_object_get(document, "edges");
    CU_ASSERT_EQUAL(json_array_size(nodes), text.facts.nodes);
    CU_ASSERT_EQUAL(json_array_size(edges), text.facts.edges);
    CU_ASSERT_TRUE(json_array_size(nodes) <= request->max_nodes);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(document, "target")),
                           text.facts.target);
    CU_ASSERT_EQUAL(json_is_true(json_object_get(document, "truncated")), text.facts.truncated);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(document, "omitted_nodes")),
                    (json_int_t)text.facts.omitted_nodes);
    CU_ASSERT_EQUAL(json_array_size(json_object_get(document, "frontier")), text.facts.frontier);

    int target = spx_index_find(index, text.facts.target);
    CU_ASSERT_TRUE_FATAL(target >= 0);
    int *tie = NULL;
    int *distance = distances_from(index, request, target, &tie, pool);
    int reached = 0;
    json_int_t omitted_by_tie[4] = {0, 0, 0, 0};
    for (int n = 0; n < index->node_count; n++) {
        reached += distance[n] >= 0;
        if (distance[n] > 0)
            omitted_by_tie[tie[n]]++;
    }
    CU_ASSERT_EQUAL((apr_size_t)reached, text.facts.nodes + text.facts.omitted_nodes);
    char *shown = apr_pcalloc(pool, (size_t)index->node_count);
    int last = -1, last_distance = 0, last_tie = 0;
    for (size_t i = 0; i < json_array_size(nodes); i++) {
        const json_t *node = json_array_get(nodes, i);
        int number = node_of(index, node);
        if (number < 0)
            continue;
        int d = (int)json_integer_value(json_object_get(node, "distance"));
        CU_ASSERT_EQUAL(d, distance[number]);
        /* Taken by (distance, tie, id); the tie is the via edge's. */
        int t = d > 0 ? tie[number] : 0;
        if (d > 0) {
            const json_t *via = json_object_get(node, "via");
            CU_ASSERT_EQUAL(tie_of_kind(json_string_value(json_object_get(via, "kind"))), t);
            omitted_by_tie[t]--;
        }
        CU_ASSERT_TRUE(last < 0 || d > last_distance ||
                       (d == last_distance && (t > last_tie || (t == last_tie && number > last))));
        shown[number] = 1;
        last = number;
        last_distance = d;
        last_tie = t;
    }
    /* What was left out, counted by tie, as the document says. */
    const json_t *by_tie = json_object_get(document, "omitted_by_tie");
    CU_ASSERT_EQUAL(by_tie != NULL, text.facts.truncated);
    static const char *const tie_names[4] = {"calls", "uses", "tests", "module"};
    for (int t = 0; by_tie && t < 4; t++) {
        CU_ASSERT_EQUAL(json_integer_value(json_object_get(by_tie, tie_names[t])),
                        omitted_by_tie[t]);
        CU_ASSERT_EQUAL((json_int_t)text.facts.omitted_by_tie[t], omitted_by_tie[t]);
    }
    CU_ASSERT_TRUE(json_array_size(nodes) == 0 ||
                   node_of(index, json_array_get(nodes, 0)) == target);
    size_t at = 0;
    for (int e = 0; e < index->edge_count; e++) {
        const spx_index_edge_t *edge = &index->edges[e];
        if (!shown[edge->from] || !shown[edge->to] ||
            !query_follows(request, spx_index_edge_kind(edge)))
            continue;
        const json_t *written = json_array_get(edges, at++);
        CU_ASSERT_PTR_NOT_NULL_FATAL(written);
        CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(written, "from")),
                               index->nodes[edge->from].id);
        CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(written, "to")),
                               index->nodes[edge->to].id);
        CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(written, "kind")),
                               spx_index_edge_kind(edge));
    }
    CU_ASSERT_EQUAL(at, json_array_size(edges));
    checked = 1;
    json_decref(tree.document);
    apr_pool_destroy(pool);
    return checked;
}

/* Queries over the first max_targets nodes: each direction, depths 0 to 3,
 * few nodes, budgets that cut nodes and text, edge kinds, and refusals. */
static void assert_contexts_sound(const spx_project_t *project, int max_targets, apr_pool_t *pool)
{
    static const char *const directions[] = {"both", "out", "in"};
    static const apr_uint64_t budgets[] = {65536, 2000, 700, 300, 120, 1};
    static const char *const some_kinds[] = {"calls", "uses", "contains"};
    const spx_index_t *index = project->index;
    int targets = index->node_count < max_targets ? index->node_count : max_targets;
    int checked = 0;
    for (int n = 0; n < targets; n++) {
        spx_context_request_t request = spx_context_defaults();
        request.target = index->nodes[n].id;
        checked += assert_context_sound(project, &request, pool);
        for (size_t d = 0; d < 3; d++)
            for (apr_uint64_t depth = 0; depth <= 3; depth++) {
                request = spx_context_defaults();
                request.target = index->nodes[n].id;
                request.direction = directions[d];
                request.depth = depth;
                checked += assert_context_sound(project, &request, pool);
            }
        for (size_t b = 0; b < sizeof(budgets) / sizeof(budgets[0]); b++) {
            request = spx_context_defaults();
            request.target = index->nodes[n].id;
            request.depth = 2;
            request.max_bytes = budgets[b];
            checked += assert_context_sound(project, &request, pool);
            request.max_nodes = 3;
            request.edge_kinds = some_kinds;
            request.edge_kind_count = 1 + (size_t)n % 3;
            checked += assert_context_sound(project, &request, pool);
        }
    }
    /* refusals: an unknown target, kind, direction, a budget out of range */
    spx_context_request_t request = spx_context_defaults();
    request.target = "function:no.such";
    assert_context_sound(project, &request, pool);
    request.target = "x";
    request.target_kind = "nothing";
    assert_context_sound(project, &request, pool);
    request.target_kind = NULL;
    request.target = index->nodes[0].id;
    request.direction = "sideways";
    assert_context_sound(project, &request, pool);
    request.direction = "both";
    request.max_bytes = 0;
    assert_context_sound(project, &request, pool);
    CU_ASSERT_TRUE(checked > 0);
}

static void assert_project_same(const char *manifest, int max_targets)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_project_t *project = open_manifest(manifest, fixture->session);
    assert_graph_same(project, fixture->pool);
    assert_compared_views_same(project, 1 << 30, fixture->pool);
    assert_contexts_sound(project, max_targets, fixture->pool);
    spx_fixture_free(fixture);
}

static void test_corpus_projects(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    const char *examples = getenv("SPX_EXAMPLES");
    CU_ASSERT_PTR_NOT_NULL_FATAL(examples);
    static const char *const names[] = {"calc", "hello", "inventory", "wordfreq"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        assert_project_same(apr_pstrcat(pool, examples, "/", names[i], "/semaprax.toml", NULL),
                            1 << 30);
    assert_project_same(
        apr_pstrcat(pool, spx_corpus_dir("projects/items", pool), "/semaprax.toml", NULL), 1 << 30);
    apr_pool_destroy(pool);
}

static void test_escapes_and_non_ascii(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_write(fixture, "semaprax.toml",
                      "manifest = \"semaprax.project-manifest.v1\"\n"
                      "[project]\nname = \"cafe\"\nversion = \"0.1.0\"\n"
                      "entry = \"app.main\"\n"
                      "[[source]]\nmodule = \"app\"\npath = \"src/app.spx\"\n"
                      "[[source]]\nmodule = \"w\"\npath = \"src/w.spx\"\n"
                      "[[test]]\nname = \"it\"\nfunction = \"app.test_it\"\n");
    spx_fixture_write(
        fixture, "src/w.spx",
        "// \xe2\x82\xac and \xf0\x9f\x98\x80 \"quoted\" \\ back\r\n"
        "export const TEXT: str = \"a\\tb\\n\\u{1}\\u{1f}\\u{7f}\\\"\\\\/\\u{d}\\u{e9}"
        "\\u{20ac}\\u{1f600}\";\r\n"
        "export const FLAG: bool = true;\r\n"
        "export const BIG: int = 9223372036854775807;\r\n"
        "export struct P { x: int, y: [str] }\r\n"
        "export fn f(p: P) -> str { return TEXT; }\r\n");
    spx_fixture_write(
        fixture, "src/app.spx",
        "import w;\n"
        "// caf\xc3\xa9\n"
        "fn g() -> int { return w.BIG - 1; }\n"
        "export fn main() -> int {\n"
        "  var p = w.P { x: g(), y: [\"\xc3\xa9\\t\"] };\n"
        "  return len(w.f(p));\n"
        "}\n"
        "export fn test_it() -> int { assert(w.FLAG, \"\xe2\x82\xac\"); return 0; }\n");
    const char *manifest = spx_fixture_path(fixture, "semaprax.toml");
    spx_project_t *project = NULL;
    const char *message = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_project_open(&project, manifest, fixture->session, &message),
                          APR_SUCCESS);
    if (!spx_project_admitted(project))
        fprintf(stderr, "\n  not admitted:\n%s",
                spx_corpus_summary(spx_project_diagnostics(project), fixture->pool));
    CU_ASSERT_TRUE_FATAL(spx_project_admitted(project));
    assert_graph_same(project, fixture->pool);
    assert_compared_views_same(project, 1 << 30, fixture->pool);
    assert_contexts_sound(project, 1 << 30, fixture->pool);
    spx_fixture_free(fixture);
}

static void test_large_generated_project(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    const char *script =
        apr_pstrcat(fixture->pool, spx_corpus_dir("bench", fixture->pool), "/gen_project.py", NULL);
    const char *command =
        apr_psprintf(fixture->pool, "python3 \"%s\" \"%s\" --lines 30000 > /dev/null", script,
                     spx_fixture_path(fixture, "large"));
    if (system(command) != 0) {
        fprintf(stderr, "\n  skipped: python3 could not generate the project\n");
        spx_fixture_free(fixture);
        return;
    }
    spx_project_t *project =
        open_manifest(spx_fixture_path(fixture, "large/spx/semaprax.toml"), fixture->session);
    assert_graph_same(project, fixture->pool);
    assert_compared_views_same(project, 2, fixture->pool);
    assert_contexts_sound(project, 40, fixture->pool);
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"tests/projects and examples/: the same bytes", test_corpus_projects},
        {"escapes and non-ASCII: the same bytes", test_escapes_and_non_ascii},
        {"a large generated project: the same bytes", test_large_generated_project},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("stream_sameness", tests);
}
