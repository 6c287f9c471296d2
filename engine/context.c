/*
 * context.c: the bounded context of one target (outputs.md, Context),
 * answered from the retained index and the retained source bytes.
 *
 * Nodes are found breadth-first up to the requested depth, level by level.
 * Each level is taken in (tie, id) order, the tie being how its "via" edge
 * ties it to what reached it: calls, then uses and reads, then tests and
 * enters, then contains and imports (outputs.md, Context). A node's "via" is
 * the edge of the most relevant tie among those from the level before,
 * the first such in the walk (parents in taking order, each one's edges in
 * edge order). The budget then keeps the longest prefix of that
 * (distance, tie, id) order whose whole rendered document fits
 * max_bytes and max_nodes: adding a node only ever makes the document
 * longer, so the prefix is found by bisection over real renderings, each
 * counted by the streaming writer (spx_json_writer.h), which stops at the
 * first byte past max_bytes. The answer is then written once more as its
 * canonical text, at the size counted (spx_context_answer_text: the
 * daemon, the CLI), and parsed for a front end that adds to it
 * (spx_context_answer: MCP). The work of a request grows with the nodes it
 * reaches and shows, not with the project, beside one array per node of
 * the index for the walk.
 */
#include "index_internal.h"

#include "spx_canonical.h"
#include "spx_json_writer.h"
#include "spx_limits.h"
#include "spx_suggest.h"
#include "spx_utf8.h"

#include <apr_strings.h>
#include <stdlib.h>
#include <string.h>

typedef struct walk_t {
    const spx_project_t *project;
    const spx_index_t *index;
    const spx_context_request_t *request;
    const char *target_id;
    int *order; /* node numbers in taking order: (distance, tie, id) */
    int count;
    apr_size_t tie_total[SPX_CONTEXT_TIES]; /* the reached nodes of each tie */
    int *distance;                          /* by node number; -1 when not reached */
    int *via_from;                          /* by node number */
    int *via_edge;                          /* by node number */
    int *position;                          /* by node number: its place in order (when reached) */
} walk_t;

static int compare_ints(const void *left, const void *right)
{
    int a = *(const int *)left, b = *(const int *)right;
    return (a > b) - (a < b);
}

/* Whether the query follows edges of kind: every kind unless it names some. */
static int follows(const spx_context_request_t *request, const char *kind)
{
    if (!request->edge_kinds)
        return 1;
    for (apr_size_t i = 0; i < request->edge_kind_count; i++)
        if (strcmp(request->edge_kinds[i], kind) == 0)
            return 1;
    return 0;
}

/* How an edge of kind ties the node it reaches to the one it comes from,
 * either way: the most relevant first. */
static spx_context_tie_t tie_of_kind(const char *kind)
{
    if (strcmp(kind, "calls") == 0)
        return SPX_CONTEXT_TIE_CALLS;
    if (strcmp(kind, "uses") == 0 || strcmp(kind, "reads") == 0)
        return SPX_CONTEXT_TIE_USES;
    if (strcmp(kind, "tests") == 0 || strcmp(kind, "enters") == 0)
        return SPX_CONTEXT_TIE_TESTS;
    return SPX_CONTEXT_TIE_MODULE; /* contains, imports */
}

/* The tie of a reached node other than the target: its via edge's. */
static spx_context_tie_t tie_of(const walk_t *walk, int node)
{
    return tie_of_kind(spx_index_edge_kind(&walk->index->edges[walk->via_edge[node]]));
}

static void visit(walk_t *walk, int node, int from, int edge, int distance)
{
    if (walk->distance[node] >= 0) {
        /* Reached again from the level before: a more relevant tie wins. */
        if (walk->distance[node] == distance && edge >= 0 &&
            tie_of_kind(spx_index_edge_kind(&walk->index->edges[edge])) < tie_of(walk, node)) {
            walk->via_from[node] = from;
            walk->via_edge[node] = edge;
        }
        return;
    }
    walk->distance[node] = distance;
    walk->via_from[node] = from;
    walk->via_edge[node] = edge;
    walk->order[walk->count++] = node;
}

/* Whether node is among the first kept nodes of the walk's order. */
static int is_kept(const walk_t *walk, int node, int kept)
{
    return walk->distance[node] >= 0 && walk->position[node] < kept;
}

/* The edges the document shows: those between two kept nodes that the query
 * follows, in edge order. Found through the kept nodes' own edges, so the
 * work grows with what is shown, not with the project. */
static int kept_edges(const walk_t *walk, int kept, int **edges, apr_pool_t *pool)
{
    const spx_index_t *index = walk->index;
    int total = 0;
    for (int i = 0; i < kept; i++)
        total += index->nodes[walk->order[i]].out_count;
    int *found = apr_palloc(pool, ((size_t)total + 1) * sizeof(int));
    int count = 0;
    for (int i = 0; i < kept; i++) {
        const spx_index_node_t *node = &index->nodes[walk->order[i]];
        for (int edge = node->out_first; edge < node->out_first + node->out_count; edge++)
            if (is_kept(walk, index->edges[edge].to, kept) &&
                follows(walk->request, spx_index_edge_kind(&index->edges[edge])))
                found[count++] = edge;
    }
    qsort(found, (size_t)count, sizeof(int), compare_ints);
    *edges = found;
    return count;
}

static int compare_keys(const void *left, const void *right)
{
    apr_uint64_t a = *(const apr_uint64_t *)left, b = *(const apr_uint64_t *)right;
    return (a > b) - (a < b);
}

/* Sorts the level order[start..end) by (tie, id): node numbers are in id
 * order, so each key is the tie above the node number. */
static void sort_level(walk_t *walk, int start, int end, apr_pool_t *pool)
{
    if (end - start < 2)
        return;
    apr_uint64_t *keys = apr_palloc(pool, (size_t)(end - start) * sizeof(*keys));
    for (int i = start; i < end; i++)
        keys[i - start] = ((apr_uint64_t)tie_of(walk, walk->order[i]) << 32) |
                          (apr_uint64_t)(apr_uint32_t)walk->order[i];
    qsort(keys, (size_t)(end - start), sizeof(*keys), compare_keys);
    for (int i = start; i < end; i++)
        walk->order[i] = (int)(keys[i - start] & 0xffffffffu);
}

/* Breadth-first from the target, each level walked in taking order. */
static void walk_graph(walk_t *walk, int target, apr_pool_t *pool)
{
    int n = walk->index->node_count;
    walk->order = apr_palloc(pool, (size_t)n * sizeof(int));
    walk->distance = apr_palloc(pool, (size_t)n * sizeof(int));
    walk->via_from = apr_palloc(pool, (size_t)n * sizeof(int));
    walk->via_edge = apr_palloc(pool, (size_t)n * sizeof(int));
    walk->position = apr_palloc(pool, (size_t)n * sizeof(int));
    for (int i = 0; i < n; i++)
        walk->distance[i] = -1;
    walk->count = 0;
    visit(walk, target, -1, -1, 0);
    int follow_out = strcmp(walk->request->direction, "in") != 0;
    int follow_in = strcmp(walk->request->direction, "out") != 0;
    int level_start = 0;
    for (apr_uint64_t depth = 0; depth < walk->request->depth; depth++) {
        int level_end = walk->count;
        for (int i = level_start; i < level_end; i++) {
            int node = walk->order[i];
            const spx_index_node_t *at = &walk->index->nodes[node];
            const int *in = walk->index->in_edges + at->in_first;
            int o = 0, k = 0;
            int out_count = follow_out ? at->out_count : 0, in_count = follow_in ? at->in_count : 0;
            /* Merge both lists in edge order. */
            while (o < out_count || k < in_count) {
                int take_out = k >= in_count || (o < out_count && at->out_first + o <= in[k]);
                int edge = take_out ? at->out_first + o++ : in[k++];
                const spx_index_edge_t *record = &walk->index->edges[edge];
                if (!follows(walk->request, spx_index_edge_kind(record)))
                    continue;
                visit(walk, take_out ? record->to : record->from, node, edge, (int)depth + 1);
            }
        }
        sort_level(walk, level_end, walk->count, pool);
        if (walk->count == level_end)
            break;
        level_start = level_end;
    }
    for (int i = 0; i < walk->count; i++) {
        walk->position[walk->order[i]] = i;
        if (i > 0)
            walk->tie_total[tie_of(walk, walk->order[i])]++;
    }
}

const char *spx_context_tie_name(spx_context_tie_t tie)
{
    static const char *const names[SPX_CONTEXT_TIES] = {"calls", "uses", "tests", "module"};
    return names[tie];
}

/* The bytes of a function's, struct's, enum's or const's whole item. */
static apr_size_t item_length(const spx_index_node_t *node)
{
    const spx_span_t *span = spx_index_item_span(node);
    return span->end.offset - span->start.offset;
}

/* The document with the first kept nodes of the walk, written through
 * writer, and its facts; the target's text is cut to text_limit bytes when
 * text_limit is not (apr_size_t)-1. An item's text is as stored in the
 * retained source bytes: a CR LF stays CR LF (docs/language.md, Lexical),
 * and max_bytes counts it. */
static void write_context(const walk_t *walk, int kept, apr_size_t text_limit,
                          spx_context_facts_t *facts, spx_json_writer_t *writer, apr_pool_t *pool)
{
    memset(facts, 0, sizeof(*facts));
    facts->target = walk->target_id;
    const spx_index_t *index = walk->index;
    const spx_context_request_t *request = walk->request;
    int *edges = NULL;
    int edge_count = kept_edges(walk, kept, &edges, pool);
    spx_json_object_begin(writer);
    spx_json_key(writer, "depth");
    spx_json_integer(writer, (int64_t)request->depth);
    spx_json_key(writer, "direction");
    spx_json_string(writer, request->direction);
    if (request->edge_kinds) {
        spx_json_key(writer, "edge_kinds");
        spx_json_array_begin(writer);
        for (apr_size_t i = 0; i < request->edge_kind_count; i++)
            spx_json_string(writer, request->edge_kinds[i]);
        spx_json_array_end(writer);
    }
    spx_json_key(writer, "edges");
    spx_json_array_begin(writer);
    for (int e = 0; e < edge_count && spx_json_writer_status(writer) == SPX_JSON_OK; e++) {
        spx_index_write_edge(writer, index, &index->edges[edges[e]]);
        facts->edges++;
    }
    spx_json_array_end(writer);
    if (kept < walk->count) {
        /* The first left out at the cut distance, in taking order, listed by
         * id: the level's left-out nodes follow the kept ones. */
        int frontier[SPX_LIMIT_CONTEXT_FRONTIER];
        int cut_distance = walk->distance[walk->order[kept]];
        for (int i = kept; i < walk->count && facts->frontier < SPX_LIMIT_CONTEXT_FRONTIER &&
                           walk->distance[walk->order[i]] == cut_distance;
             i++)
            frontier[facts->frontier++] = walk->order[i];
        qsort(frontier, facts->frontier, sizeof(int), compare_ints);
        spx_json_key(writer, "frontier");
        spx_json_array_begin(writer);
        for (apr_size_t i = 0; i < facts->frontier; i++)
            spx_json_string(writer, index->nodes[frontier[i]].id);
        spx_json_array_end(writer);
    }
    spx_json_key(writer, "limits");
    spx_json_object_begin(writer);
    spx_json_key(writer, "max_bytes");
    spx_json_integer(writer, (int64_t)request->max_bytes);
    spx_json_key(writer, "max_nodes");
    spx_json_integer(writer, (int64_t)request->max_nodes);
    spx_json_object_end(writer);
    spx_json_key(writer, "nodes");
    spx_json_array_begin(writer);
    for (int i = 0; i < kept && spx_json_writer_status(writer) == SPX_JSON_OK; i++) {
        int number = walk->order[i];
        const spx_index_node_t *node = &index->nodes[number];
        spx_index_node_extras_t extras = {walk->distance[number], NULL, NULL, NULL, 0, 0};
        if (walk->via_from[number] >= 0) {
            extras.via_from = index->nodes[walk->via_from[number]].id;
            extras.via_kind = spx_index_edge_kind(&index->edges[walk->via_edge[number]]);
        }
        if (spx_index_item_span(node)) {
            apr_size_t limit = i == 0 ? text_limit : (apr_size_t)-1;
            extras.text =
                (const char *)node->module->text + spx_index_item_span(node)->start.offset;
            extras.text_length = item_length(node);
            if (limit < extras.text_length) { /* never split a UTF-8 sequence */
                extras.text_length =
                    spx_utf8_cut((const unsigned char *)extras.text, extras.text_length, limit);
                extras.text_truncated = 1;
                if (i == 0)
                    facts->target_text_truncated = 1;
            }
        }
        spx_index_write_node(writer, node, &extras);
    }
    spx_json_array_end(writer);
    facts->nodes = (apr_size_t)kept;
    facts->truncated = kept < walk->count;
    facts->omitted_nodes = (apr_size_t)(walk->count - kept);
    if (facts->truncated) {
        /* The reached nodes of each tie less the kept ones. */
        for (int tie = 0; tie < SPX_CONTEXT_TIES; tie++)
            facts->omitted_by_tie[tie] = walk->tie_total[tie];
        for (int i = 1; i < kept; i++)
            facts->omitted_by_tie[tie_of(walk, walk->order[i])]--;
        spx_json_key(writer, "omitted_by_tie");
        spx_json_object_begin(writer); /* keys in canonical (bytewise) order */
        static const spx_context_tie_t sorted[SPX_CONTEXT_TIES] = {
            SPX_CONTEXT_TIE_CALLS, SPX_CONTEXT_TIE_MODULE, SPX_CONTEXT_TIE_TESTS,
            SPX_CONTEXT_TIE_USES};
        for (int k = 0; k < SPX_CONTEXT_TIES; k++) {
            spx_json_key(writer, spx_context_tie_name(sorted[k]));
            spx_json_integer(writer, (int64_t)facts->omitted_by_tie[sorted[k]]);
        }
        spx_json_object_end(writer);
    }
    spx_json_key(writer, "omitted_nodes");
    spx_json_integer(writer, walk->count - kept);
    spx_json_key(writer, "project_revision");
    spx_json_string(writer, walk->project->project_revision);
    spx_json_key(writer, "schema");
    spx_json_string(writer, "semaprax.project-semantic-context.v1");
    spx_json_key(writer, "target");
    spx_json_string(writer, walk->target_id);
    spx_json_key(writer, "truncated");
    spx_json_boolean(writer, kept < walk->count);
    spx_json_object_end(writer);
}

/* The rendering the budget search kept: its kept nodes, the target's text
 * limit, its bytes and its facts. */
typedef struct chosen_t {
    int kept;
    apr_size_t text_limit;
    apr_size_t length;
    spx_context_facts_t facts;
} chosen_t;

/* Whether the rendering fits the byte budget, counted by the streaming
 * writer, which stops at the first byte past max_bytes; keeps it in *best
 * when it does. */
static int fits(const walk_t *walk, int kept, apr_size_t text_limit, chosen_t *best,
                apr_pool_t *pool)
{
    apr_pool_t *scratch = NULL;
    apr_pool_create(&scratch, pool);
    spx_context_facts_t facts;
    apr_size_t budget = walk->request->max_bytes < (apr_uint64_t)(apr_size_t)-1
                            ? (apr_size_t)walk->request->max_bytes
                            : (apr_size_t)-1;
    spx_json_writer_t *counter = spx_json_writer_counting(budget, scratch);
    write_context(walk, kept, text_limit, &facts, counter, scratch);
    int ok = spx_json_writer_finish(counter) == SPX_JSON_OK;
    apr_size_t length = spx_json_writer_length(counter);
    if (ok)
        *best = (chosen_t){kept, text_limit, length, facts};
    apr_pool_destroy(scratch);
    return ok;
}

typedef struct refusal_t {
    const char **message;
    spx_context_problem_t *problem;
} refusal_t;

static apr_status_t refuse(const refusal_t *refusal, spx_context_problem_t problem,
                           const char *text)
{
    if (refusal->message)
        *refusal->message = text;
    if (refusal->problem)
        *refusal->problem = problem;
    return APR_EINVAL;
}

spx_context_request_t spx_context_defaults(void)
{
    spx_context_request_t request = {NULL,
                                     NULL,
                                     "both",
                                     SPX_LIMIT_CONTEXT_DEPTH_DEFAULT,
                                     SPX_LIMIT_CONTEXT_NODES_DEFAULT,
                                     SPX_LIMIT_CONTEXT_BYTES_DEFAULT,
                                     NULL,
                                     0};
    return request;
}

/* The kinds a target may name, as target_kind and as an id's prefix. */
static const char *const target_kinds[] = {"module", "function", "struct", "const",
                                           "test",   "builtin",  "data",   "enum"};
#define TARGET_KIND_COUNT (sizeof(target_kinds) / sizeof(target_kinds[0]))

/* The kind target's id prefix names ("function" for "function:app.main"),
 * or NULL when it has none; *name is what follows the colon. */
static const char *id_kind(const char *target, const char **name)
{
    const char *colon = strchr(target, ':');
    for (size_t k = 0; colon && k < TARGET_KIND_COUNT; k++)
        if ((size_t)(colon - target) == strlen(target_kinds[k]) &&
            memcmp(target, target_kinds[k], strlen(target_kinds[k])) == 0) {
            *name = colon + 1;
            return target_kinds[k];
        }
    return NULL;
}

static int known_kind(const char *kind)
{
    for (size_t k = 0; k < TARGET_KIND_COUNT; k++)
        if (strcmp(kind, target_kinds[k]) == 0)
            return 1;
    return 0;
}

/* "no function 'math.fibb' in this project; nearest: math.fib, math.fact",
 * naming the nearest names of that kind, or a node of another kind with that
 * very name. */
static const char *unknown_target(const spx_index_t *index, const char *kind, const char *name,
                                  apr_pool_t *pool)
{
    const char *text = apr_psprintf(pool, "no %s '%s' in this project", kind, name);
    apr_size_t prefix = strlen(kind) + 1;
    const char **names = apr_palloc(pool, ((size_t)index->node_count + 1) * sizeof(*names));
    size_t count = 0;
    for (int i = 0; i < index->node_count; i++)
        if (strcmp(index->nodes[i].kind, kind) == 0 && strlen(index->nodes[i].id) > prefix)
            names[count++] = index->nodes[i].id + prefix;
    const char *nearest[SPX_LIMIT_SUGGESTIONS];
    size_t found = spx_suggest_nearest(name, names, count, SPX_LIMIT_SUGGESTIONS, nearest);
    for (size_t i = 0; i < found; i++)
        text = apr_pstrcat(pool, text, i == 0 ? "; nearest: " : ", ", nearest[i], NULL);
    for (size_t k = 0; k < TARGET_KIND_COUNT; k++) {
        const char *id = apr_pstrcat(pool, target_kinds[k], ":", name, NULL);
        if (strcmp(target_kinds[k], kind) != 0 && spx_index_find(index, id) >= 0)
            text = apr_pstrcat(pool, text, "; there is ", id, NULL);
    }
    return text;
}

/* The node ids of any kind with that very name ("function:math.fact"), or
 * an example id when there is none. */
static const char *ids_named(const spx_index_t *index, const char *name, apr_pool_t *pool)
{
    const char *ids = NULL;
    for (size_t k = 0; k < TARGET_KIND_COUNT; k++) {
        const char *id = apr_pstrcat(pool, target_kinds[k], ":", name, NULL);
        if (spx_index_find(index, id) >= 0)
            ids = ids ? apr_pstrcat(pool, ids, " or ", id, NULL) : id;
    }
    return ids ? ids : "'function:app.main'";
}

/* The node the request's target names (-1 and a refusal when none). */
static int find_target(const spx_index_t *index, const spx_context_request_t *request,
                       const refusal_t *refusal, apr_pool_t *pool, apr_status_t *status)
{
    const char *name = NULL;
    const char *kind = id_kind(request->target, &name);
    *status = APR_SUCCESS;
    if (!request->target_kind) {
        int node = spx_index_find(index, request->target);
        if (node >= 0 && (kind || strchr(request->target, ':') == NULL))
            return node; /* a node id of any kind: "function:app.main", "entry" */
        if (kind)
            *status = refuse(refusal, SPX_CONTEXT_UNKNOWN_TARGET,
                             unknown_target(index, kind, name, pool));
        else
            *status =
                refuse(refusal, SPX_CONTEXT_MISSING_TARGET,
                       apr_psprintf(pool,
                                    "no target kind is given and '%s' is not a node id of "
                                    "the graph: give the kind (target_kind, --kind), or a "
                                    "node id such as %s",
                                    request->target, ids_named(index, request->target, pool)));
        return -1;
    }
    if (kind && strcmp(kind, request->target_kind) != 0) {
        *status = refuse(refusal, SPX_CONTEXT_KIND_MISMATCH,
                         apr_psprintf(pool,
                                      "target '%s' is a %s id but the target kind given is "
                                      "'%s': give the kind '%s', or leave the kind out",
                                      request->target, kind, request->target_kind, kind));
        return -1;
    }
    if (!kind)
        name = request->target;
    int node = spx_index_find(index, apr_pstrcat(pool, request->target_kind, ":", name, NULL));
    if (node < 0)
        *status = refuse(refusal, SPX_CONTEXT_UNKNOWN_TARGET,
                         unknown_target(index, request->target_kind, name, pool));
    return node;
}

apr_status_t spx_context_document(const spx_project_t *project,
                                  const spx_context_request_t *request,
                                  apr_uint64_t max_bytes_limit, json_t **document, apr_pool_t *pool,
                                  const char **message)
{
    return spx_context_document_explained(project, request, max_bytes_limit, document, pool,
                                          message, NULL);
}

apr_status_t spx_context_document_explained(const spx_project_t *project,
                                            const spx_context_request_t *request,
                                            apr_uint64_t max_bytes_limit, json_t **document,
                                            apr_pool_t *pool, const char **message,
                                            spx_context_problem_t *problem)
{
    spx_context_answer_t answer;
    apr_status_t status = spx_context_answer(project, request, max_bytes_limit, &answer, pool);
    if (status == APR_SUCCESS)
        *document = answer.document;
    if (message && status != APR_SUCCESS)
        *message = answer.message;
    if (problem)
        *problem = answer.problem;
    return status;
}

/* The query checked, the walk made and the budget's rendering chosen
 * (*chosen), or a refusal in answer. */
static apr_status_t choose(const spx_project_t *project, const spx_context_request_t *request,
                           apr_uint64_t max_bytes_limit, spx_context_answer_t *answer,
                           walk_t *chosen_walk, chosen_t *chosen, apr_pool_t *pool)
{
    memset(answer, 0, sizeof(*answer));
    answer->problem = SPX_CONTEXT_ANSWERED;
    refusal_t refusal = {&answer->message, &answer->problem};
    if (!request->target)
        return refuse(&refusal, SPX_CONTEXT_MISSING_TARGET, "a context query needs a target");
    if (request->target_kind && !known_kind(request->target_kind))
        return refuse(&refusal, SPX_CONTEXT_UNKNOWN_KIND,
                      apr_psprintf(pool,
                                   "unknown target kind '%s': use module, function, struct, "
                                   "enum, const, test, builtin or data",
                                   request->target_kind));
    if (strcmp(request->direction, "out") != 0 && strcmp(request->direction, "in") != 0 &&
        strcmp(request->direction, "both") != 0)
        return refuse(
            &refusal, SPX_CONTEXT_UNKNOWN_DIRECTION,
            apr_psprintf(pool, "unknown direction '%s': use out, in or both", request->direction));
    if (request->depth > SPX_LIMIT_CONTEXT_DEPTH_MAXIMUM)
        return refuse(&refusal, SPX_CONTEXT_OUT_OF_RANGE,
                      apr_psprintf(pool, "depth %" APR_UINT64_T_FMT " is outside 0..%u",
                                   request->depth, SPX_LIMIT_CONTEXT_DEPTH_MAXIMUM));
    if (request->max_nodes < 1 || request->max_nodes > SPX_LIMIT_CONTEXT_NODES_MAXIMUM)
        return refuse(&refusal, SPX_CONTEXT_OUT_OF_RANGE,
                      apr_psprintf(pool, "max_nodes %" APR_UINT64_T_FMT " is outside 1..%u",
                                   request->max_nodes, SPX_LIMIT_CONTEXT_NODES_MAXIMUM));
    if (request->max_bytes < 1 || request->max_bytes > max_bytes_limit)
        return refuse(
            &refusal, SPX_CONTEXT_OUT_OF_RANGE,
            apr_psprintf(pool, "max_bytes %" APR_UINT64_T_FMT " is outside 1..%" APR_UINT64_T_FMT,
                         request->max_bytes, max_bytes_limit));
    static const char *const edge_kinds[] = {"imports", "contains", "calls", "uses",
                                             "reads",   "tests",    "enters"};
    if (request->edge_kinds && request->edge_kind_count > SPX_LIMIT_CONTEXT_EDGE_KINDS)
        return refuse(&refusal, SPX_CONTEXT_OUT_OF_RANGE,
                      apr_psprintf(pool,
                                   "%" APR_SIZE_T_FMT " edge kinds are over the maximum of %u",
                                   request->edge_kind_count, SPX_LIMIT_CONTEXT_EDGE_KINDS));
    for (apr_size_t i = 0; request->edge_kinds && i < request->edge_kind_count; i++) {
        size_t known = 0;
        while (known < sizeof(edge_kinds) / sizeof(edge_kinds[0]) &&
               strcmp(request->edge_kinds[i], edge_kinds[known]) != 0)
            known++;
        if (known == sizeof(edge_kinds) / sizeof(edge_kinds[0]))
            return refuse(&refusal, SPX_CONTEXT_UNKNOWN_EDGE_KIND,
                          apr_psprintf(pool,
                                       "unknown edge kind '%s': use imports, contains, calls, "
                                       "uses, reads, tests or enters",
                                       request->edge_kinds[i]));
    }
    if (project->diagnostics_only)
        return refuse(&refusal, SPX_CONTEXT_NOT_ADMITTED,
                      "the project was built for its diagnostics only: it has no graph");
    if (!project->index)
        return refuse(&refusal, SPX_CONTEXT_NOT_ADMITTED, "the project is not admitted");

    walk_t walk;
    memset(&walk, 0, sizeof(walk));
    memset(chosen, 0, sizeof(*chosen));
    walk.project = project;
    walk.index = project->index;
    walk.request = request;
    apr_status_t status = APR_SUCCESS;
    int target = find_target(walk.index, request, &refusal, pool, &status);
    if (target < 0)
        return status;
    walk.target_id = walk.index->nodes[target].id;
    walk_graph(&walk, target, pool);
    *chosen_walk = walk;

    /* chosen keeps the last rendering that fitted (fits). */
    apr_size_t whole = (apr_size_t)-1;
    if (!fits(&walk, 1, whole, chosen, pool)) {
        /* The target alone is over budget: cut its text, or give up. */
        const spx_index_node_t *node = &walk.index->nodes[target];
        int has_text = spx_index_item_span(node) != NULL;
        apr_size_t low = 0, high = has_text ? item_length(node) : 0;
        if (!has_text || !fits(&walk, 1, 0, chosen, pool))
            return refuse(&refusal, SPX_CONTEXT_BUDGET_TOO_SMALL,
                          apr_psprintf(pool,
                                       "max_bytes %" APR_UINT64_T_FMT
                                       " cannot hold even the target's outline",
                                       request->max_bytes));
        while (low + 1 < high) { /* the text of low bytes fits, of high bytes does not */
            apr_size_t middle = low + (high - low) / 2;
            if (fits(&walk, 1, middle, chosen, pool))
                low = middle;
            else
                high = middle;
        }
        return APR_SUCCESS; /* the rendering with low bytes of text */
    }
    int low = 1, high = walk.count < (int)request->max_nodes ? walk.count : (int)request->max_nodes;
    if (high > 1 && fits(&walk, high, whole, chosen, pool))
        return APR_SUCCESS;
    while (low + 1 < high) { /* low nodes fit, high nodes do not */
        int middle = low + (high - low) / 2;
        if (fits(&walk, middle, whole, chosen, pool))
            low = middle;
        else
            high = middle;
    }
    return APR_SUCCESS; /* the rendering with low nodes */
}

/* The first kept nodes of the walk and the edges among them, typed, in
 * answer (for a front end's text form of the same document). */
static void list_kept(const walk_t *walk, int kept, spx_context_answer_t *answer, apr_pool_t *pool)
{
    spx_context_node_t *nodes = apr_palloc(pool, ((size_t)kept + 1) * sizeof(*nodes));
    for (int i = 0; i < kept; i++) {
        int number = walk->order[i];
        int reached = walk->via_from[number] >= 0;
        nodes[i] = (spx_context_node_t){
            number, walk->distance[number], walk->via_from[number],
            reached ? spx_index_edge_kind(&walk->index->edges[walk->via_edge[number]]) : NULL};
    }
    int *edges = NULL;
    answer->edge_count = (apr_size_t)kept_edges(walk, kept, &edges, pool);
    answer->edge_list = edges;
    answer->node_list = nodes;
    answer->node_count = (apr_size_t)kept;
}

apr_status_t spx_context_answer_text(const spx_project_t *project,
                                     const spx_context_request_t *request,
                                     apr_uint64_t max_bytes_limit, spx_context_answer_t *answer,
                                     apr_pool_t *pool)
{
    walk_t walk;
    chosen_t chosen;
    apr_status_t status = choose(project, request, max_bytes_limit, answer, &walk, &chosen, pool);
    if (status != APR_SUCCESS)
        return status;
    /* Written once more, at the size counted, into pool. */
    char *text = apr_palloc(pool, chosen.length + 1);
    spx_json_writer_t *writer = spx_json_writer_fixed(text, chosen.length + 1, pool);
    write_context(&walk, chosen.kept, chosen.text_limit, &answer->facts, writer, pool);
    if (spx_json_writer_finish(writer) != SPX_JSON_OK)
        return APR_ENOMEM;
    text[chosen.length] = '\0';
    list_kept(&walk, chosen.kept, answer, pool);
    answer->text = text;
    answer->length = chosen.length;
    return APR_SUCCESS;
}

/* The same text, parsed: a document no larger than max_bytes, for a front
 * end that adds to it (MCP). A source may hold NUL, which the text escapes. */
apr_status_t spx_context_answer(const spx_project_t *project, const spx_context_request_t *request,
                                apr_uint64_t max_bytes_limit, spx_context_answer_t *answer,
                                apr_pool_t *pool)
{
    apr_status_t status = spx_context_answer_text(project, request, max_bytes_limit, answer, pool);
    if (status != APR_SUCCESS)
        return status;
    json_error_t error;
    answer->document = json_loadb(answer->text, answer->length, JSON_ALLOW_NUL, &error);
    return answer->document ? APR_SUCCESS : APR_ENOMEM;
}
