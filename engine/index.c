/*
 * index.c: builds the semantic index from the checked HIR, and renders the
 * semantic graph document from it.
 *
 * Phase A hands each module's checked bodies to the builder
 * (spx_index_builder_add_calls) before it lets them go, so the builder keeps
 * only the call edges and their sites; spx_index_build then adds the nodes
 * and the other edges from the declarations, which stay.
 */
#include "index_internal.h"

#include "spx_limits.h"

#include <apr_strings.h>
#include <stdlib.h>
#include <string.h>

static const struct {
    spx_builtin_t builtin;
    const char *name;
    const char *signature;
} builtin_table[] = {
    {SPX_BUILTIN_PRINT, "print", "fn(s: str)"},
    {SPX_BUILTIN_ITOS, "itos", "fn(i: int) -> str"},
    {SPX_BUILTIN_LEN, "len", "fn(s: str) -> int"},
    {SPX_BUILTIN_ASSERT, "assert", "fn(c: bool)"},
};
#define BUILTIN_COUNT (sizeof(builtin_table) / sizeof(builtin_table[0]))

/* What the builder collects before sorting. Nodes are made when first
 * needed (a call may name a function of a module not indexed yet) and
 * edges refer to them by their position in nodes. */
struct spx_index_builder_t {
    apr_pool_t *pool;
    spx_arena_t *arena;        /* nodes, pending edges, call sites */
    apr_array_header_t *nodes; /* spx_index_node_t * (in the arena), in the order made */
    apr_hash_t *node_of;       /* a module (its address) -> int * position */
    int builtin_node[BUILTIN_COUNT];
    apr_array_header_t *calls; /* call_site_t: the calls of the function being walked */
    apr_array_header_t *edges; /* pending_edge_t * (in the arena) */
    apr_array_header_t *spine; /* const spx_expr_t *: operator chains being walked */
};
typedef spx_index_builder_t builder_t;

/* One call of the function being walked, in source order. */
typedef struct call_site_t {
    spx_function_t *callee; /* NULL for a builtin */
    size_t builtin;         /* index in builtin_table when callee is NULL */
    size_t order;           /* keeps the sites of one callee in source order */
    spx_index_site_t site;
} call_site_t;

typedef struct pending_edge_t {
    int from; /* positions in the builder's nodes, then in the sorted index */
    int to;
    const char *kind;
    const spx_index_site_t *sites;
    int site_count;
} pending_edge_t;

static int add_node(builder_t *builder, const char *id, const char *kind, const char *name)
{
    spx_index_node_t *node = SPX_ARENA_NEW(builder->arena, spx_index_node_t);
    APR_ARRAY_PUSH(builder->nodes, spx_index_node_t *) = node;
    node->id = id;
    node->kind = kind;
    node->name = name;
    return builder->nodes->nelts - 1;
}

static spx_index_node_t *node_at(builder_t *builder, int position)
{
    return APR_ARRAY_IDX(builder->nodes, position, spx_index_node_t *);
}

static void add_edge(builder_t *builder, int from, const char *kind, int to)
{
    pending_edge_t *edge = SPX_ARENA_ARRAY(builder->arena, pending_edge_t, 1);
    APR_ARRAY_PUSH(builder->edges, pending_edge_t *) = edge;
    edge->from = from;
    edge->kind = kind;
    edge->to = to;
    edge->sites = NULL;
    edge->site_count = 0;
}

/* The node of a module or function made before, or -1. */
static int known_node(builder_t *builder, const void *owner)
{
    const int *position = apr_hash_get(builder->node_of, &owner, sizeof(owner));
    return position ? *position : -1;
}

static void remember_node(builder_t *builder, const void *owner, int position)
{
    const void **key = apr_palloc(builder->pool, sizeof(*key));
    int *value = apr_palloc(builder->pool, sizeof(*value));
    *key = owner;
    *value = position;
    apr_hash_set(builder->node_of, key, sizeof(*key), value);
}

static int module_node(builder_t *builder, const spx_module_t *module)
{
    int position = known_node(builder, module);
    if (position < 0) {
        position = add_node(builder, apr_pstrcat(builder->pool, "module:", module->name, NULL),
                            "module", module->name);
        node_at(builder, position)->module = module;
        remember_node(builder, module, position);
    }
    return position;
}

/* "function:MODULE.NAME", made once per function. */
static int function_node(builder_t *builder, spx_function_t *function)
{
    int position = (int)function->index_node - 1;
    if (position < 0) {
        position = add_node(builder,
                            apr_pstrcat(builder->pool, "function:", function->module->name, ".",
                                        function->name.text, NULL),
                            "function", function->name.text);
        spx_index_node_t *node = node_at(builder, position);
        node->module = function->module;
        node->function = function;
        node->signature = spx_function_signature(function, builder->pool);
        function->index_node = (uint32_t)position + 1;
    }
    return position;
}

static int builtin_node(builder_t *builder, size_t builtin)
{
    if (builder->builtin_node[builtin] < 0) {
        int position = add_node(
            builder, apr_pstrcat(builder->pool, "builtin:", builtin_table[builtin].name, NULL),
            "builtin", builtin_table[builtin].name);
        node_at(builder, position)->signature = builtin_table[builtin].signature;
        builder->builtin_node[builtin] = position;
    }
    return builder->builtin_node[builtin];
}

static void record_call(builder_t *builder, const spx_expr_t *call)
{
    call_site_t site;
    memset(&site, 0, sizeof(site));
    site.callee = call->as.call->target;
    if (!site.callee) {
        for (site.builtin = 0; site.builtin < BUILTIN_COUNT; site.builtin++)
            if (builtin_table[site.builtin].builtin == call->as.call->builtin)
                break;
        if (site.builtin == BUILTIN_COUNT)
            return; /* unresolved: cannot happen in an admitted project */
    }
    site.order = (size_t)builder->calls->nelts;
    site.site.start = call->span.start.offset;
    site.site.end = call->span.end.offset;
    *(call_site_t *)apr_array_push(builder->calls) = site;
}

static int compare_call_sites(const void *left, const void *right)
{
    const call_site_t *a = left, *b = right;
    if (a->callee != b->callee) /* any fixed order of callees will do: edges are sorted later */
        return (uintptr_t)a->callee < (uintptr_t)b->callee ? -1 : 1;
    if (a->builtin != b->builtin)
        return a->builtin < b->builtin ? -1 : 1;
    return a->order < b->order ? -1 : a->order > b->order;
}

/* One "calls" edge per callee of caller, with its sites in source order. */
static void add_call_edges(builder_t *builder, spx_function_t *caller)
{
    apr_array_header_t *calls = builder->calls;
    call_site_t *sites = (call_site_t *)calls->elts;
    int caller_node = calls->nelts ? function_node(builder, caller) : -1;
    qsort(sites, (size_t)calls->nelts, sizeof(call_site_t), compare_call_sites);
    for (int first = 0, end; first < calls->nelts; first = end) {
        for (end = first + 1; end < calls->nelts && sites[end].callee == sites[first].callee &&
                              sites[end].builtin == sites[first].builtin;
             end++)
            ;
        int callee = sites[first].callee ? function_node(builder, sites[first].callee)
                                         : builtin_node(builder, sites[first].builtin);
        spx_index_site_t *spans = SPX_ARENA_ARRAY(builder->arena, spx_index_site_t, end - first);
        for (int i = first; i < end; i++)
            spans[i - first] = sites[i].site;
        add_edge(builder, caller_node, "calls", callee);
        pending_edge_t *edge =
            APR_ARRAY_IDX(builder->edges, builder->edges->nelts - 1, pending_edge_t *);
        edge->sites = spans;
        edge->site_count = end - first;
    }
    calls->nelts = 0;
}

/* Records the calls in e in source order. The chain of unary operators and
 * left operands below e is unrolled onto builder->spine, as the checker does,
 * so a long "a + b + c + ..." costs no C stack; right operands and every
 * other child (spx_expr_visit_children) recurse, which the parse depth
 * (SPX_LIMIT_PARSE_DEPTH) bounds. */
static void collect_expression(void *context, const spx_expr_t *e)
{
    builder_t *builder = context;
    apr_array_header_t *spine = builder->spine;
    int base = spine->nelts;
    while (e->kind == SPX_EXPR_UNARY || e->kind == SPX_EXPR_BINARY) {
        APR_ARRAY_PUSH(spine, const spx_expr_t *) = e;
        e = e->kind == SPX_EXPR_UNARY ? e->as.unary.operand : e->as.binary.left;
    }
    if (e->kind == SPX_EXPR_CALL)
        record_call(builder, e);
    spx_expr_visit_children(e, collect_expression, builder); /* every v2 position too */
    while (spine->nelts > base) {
        const spx_expr_t *top = APR_ARRAY_IDX(spine, spine->nelts - 1, const spx_expr_t *);
        spine->nelts--; /* popped before recursing: the recursion reuses the slot */
        if (top->kind == SPX_EXPR_BINARY)
            collect_expression(builder, top->as.binary.right);
    }
}

/* A node's id and where the builder made it, sorted by id. */
typedef struct node_order_t {
    const char *id;
    int made;
} node_order_t;

static int compare_node_orders(const void *left, const void *right)
{
    return strcmp(((const node_order_t *)left)->id, ((const node_order_t *)right)->id);
}

/* Positions are sorted positions, which follow the ids' order. */
static int compare_pending_edges(const void *left, const void *right)
{
    const pending_edge_t *a = *(const pending_edge_t *const *)left;
    const pending_edge_t *b = *(const pending_edge_t *const *)right;
    if (a->from != b->from)
        return a->from < b->from ? -1 : 1;
    int order = strcmp(a->kind, b->kind);
    if (order != 0)
        return order;
    return a->to < b->to ? -1 : a->to > b->to;
}

static int compare_node_id(const void *key, const void *node)
{
    return strcmp((const char *)key, ((const spx_index_node_t *)node)->id);
}

int spx_index_find(const spx_index_t *index, const char *id)
{
    const spx_index_node_t *node = bsearch(id, index->nodes, (size_t)index->node_count,
                                           sizeof(spx_index_node_t), compare_node_id);
    return node ? (int)(node - index->nodes) : -1;
}

spx_index_builder_t *spx_index_builder_make(apr_pool_t *pool)
{
    builder_t *builder = apr_pcalloc(pool, sizeof(*builder));
    builder->pool = pool;
    builder->arena = spx_arena_make(pool);
    builder->nodes = apr_array_make(pool, 64, sizeof(spx_index_node_t *));
    builder->node_of = apr_hash_make(pool);
    for (size_t b = 0; b < BUILTIN_COUNT; b++)
        builder->builtin_node[b] = -1;
    builder->calls = apr_array_make(pool, 64, sizeof(call_site_t));
    builder->edges = apr_array_make(pool, 64, sizeof(pending_edge_t *));
    builder->spine = apr_array_make(pool, 64, sizeof(const spx_expr_t *));
    return builder;
}

void spx_index_builder_add_calls(spx_index_builder_t *builder, const spx_module_t *module)
{
    for (apr_size_t f = 0; f < module->function_count; f++) {
        spx_block_visit_expressions(&module->functions[f]->body, collect_expression, builder);
        add_call_edges(builder, module->functions[f]);
    }
}

/* The nodes sorted by id, and every edge's ends moved to match. */
static void sort_nodes(builder_t *builder, spx_index_t *index)
{
    apr_pool_t *pool = builder->pool;
    int count = builder->nodes->nelts;
    node_order_t *order = apr_palloc(pool, ((size_t)count + 1) * sizeof(*order));
    for (int i = 0; i < count; i++) {
        order[i].id = node_at(builder, i)->id;
        order[i].made = i;
    }
    qsort(order, (size_t)count, sizeof(*order), compare_node_orders);
    int *sorted_position = apr_palloc(pool, ((size_t)count + 1) * sizeof(int));
    index->nodes = apr_palloc(pool, ((size_t)count + 1) * sizeof(spx_index_node_t));
    index->node_count = count;
    for (int i = 0; i < count; i++) {
        index->nodes[i] = *node_at(builder, order[i].made);
        sorted_position[order[i].made] = i;
    }
    for (int i = 0; i < builder->edges->nelts; i++) {
        pending_edge_t *edge = APR_ARRAY_IDX(builder->edges, i, pending_edge_t *);
        edge->from = sorted_position[edge->from];
        edge->to = sorted_position[edge->to];
    }
}

/* The edges sorted by (from, kind, to), and each node's lists of them. */
static void sort_edges(builder_t *builder, spx_index_t *index)
{
    apr_pool_t *pool = builder->pool;
    pending_edge_t **pending = (pending_edge_t **)builder->edges->elts;
    int count = builder->edges->nelts;
    qsort(pending, (size_t)count, sizeof(*pending), compare_pending_edges);
    int *out_count = apr_pcalloc(pool, ((size_t)index->node_count + 1) * sizeof(int));
    int *in_count = apr_pcalloc(pool, ((size_t)index->node_count + 1) * sizeof(int));
    index->edges = apr_palloc(pool, ((size_t)count + 1) * sizeof(*index->edges));
    index->edge_count = count;
    for (int i = 0; i < count; i++) {
        spx_index_edge_t *edge = &index->edges[i];
        edge->from = pending[i]->from;
        edge->to = pending[i]->to;
        edge->kind = pending[i]->kind;
        edge->sites = pending[i]->sites;
        edge->site_count = pending[i]->site_count;
        out_count[edge->from]++;
        in_count[edge->to]++;
    }
    for (int n = 0; n < index->node_count; n++) {
        index->nodes[n].out_edges = apr_array_make(pool, out_count[n], sizeof(int));
        index->nodes[n].in_edges = apr_array_make(pool, in_count[n], sizeof(int));
    }
    for (int i = 0; i < count; i++) {
        APR_ARRAY_PUSH(index->nodes[index->edges[i].from].out_edges, int) = i;
        APR_ARRAY_PUSH(index->nodes[index->edges[i].to].in_edges, int) = i;
    }
}

spx_index_t *spx_index_build(spx_index_builder_t *builder, const spx_project_t *project)
{
    apr_pool_t *pool = builder->pool;
    for (apr_size_t m = 0; m < project->module_count; m++) {
        const spx_module_t *module = project->modules[m];
        int module_position = module_node(builder, module);
        for (apr_size_t i = 0; i < module->import_count; i++)
            add_edge(builder, module_position, "imports",
                     module_node(builder, module->imports[i].target));
        for (apr_size_t f = 0; f < module->function_count; f++)
            add_edge(builder, module_position, "contains",
                     function_node(builder, module->functions[f]));
    }
    const spx_manifest_t *manifest = project->manifest; /* NULL for a single source */
    for (apr_size_t t = 0; manifest && t < manifest->test_count; t++) {
        int test = add_node(builder, apr_pstrcat(pool, "test:", manifest->tests[t].name, NULL),
                            "test", manifest->tests[t].name);
        add_edge(builder, test, "tests", function_node(builder, project->tests[t]));
    }
    if (project->entry)
        add_edge(builder, add_node(builder, "entry", "entry", NULL), "enters",
                 function_node(builder, project->entry));

    spx_index_t *index = apr_pcalloc(pool, sizeof(*index));
    sort_nodes(builder, index);
    sort_edges(builder, index);
    return index;
}

json_t *spx_index_node_json(const spx_index_node_t *node)
{
    json_t *object = json_pack("{s:s, s:s}", "id", node->id, "kind", node->kind);
    if (node->name)
        json_object_set_new(object, "name", json_string(node->name));
    if (node->signature)
        json_object_set_new(object, "signature", json_string(node->signature));
    if (node->module)
        json_object_set_new(object, "path", json_string(node->module->path));
    if (node->function) {
        json_object_set_new(object, "module", json_string(node->module->name));
        json_object_set_new(object, "exported", json_boolean(node->function->exported));
        json_object_set_new(object, "span", spx_span_json(&node->function->span));
    }
    return object;
}

json_t *spx_index_edge_json(const spx_index_t *index, const spx_index_edge_t *edge)
{
    json_t *object = json_pack("{s:s, s:s, s:s}", "from", index->nodes[edge->from].id, "kind",
                               edge->kind, "to", index->nodes[edge->to].id);
    if (edge->site_count)
        json_object_set_new(object, "sites", json_integer(edge->site_count));
    return object;
}

/* The document's "nodes" and "edges", rendered from the index (outputs.md);
 * document is returned. */
static json_t *add_nodes_and_edges(json_t *document, const spx_index_t *index)
{
    json_t *nodes = json_array(), *edges = json_array();
    for (int i = 0; i < index->node_count; i++)
        json_array_append_new(nodes, spx_index_node_json(&index->nodes[i]));
    for (int i = 0; i < index->edge_count; i++)
        json_array_append_new(edges, spx_index_edge_json(index, &index->edges[i]));
    json_object_set_new(document, "nodes", nodes);
    json_object_set_new(document, "edges", edges);
    return document;
}

json_t *spx_graph_document(const spx_project_t *project)
{
    return add_nodes_and_edges(
        json_pack("{s:s, s:s, s:{s:s, s:s}}", "schema", "semaprax.project-semantic-graph.v1",
                  "project_revision", project->project_revision, "project", "name",
                  project->manifest->name, "version", project->manifest->version),
        project->index);
}

json_t *spx_source_graph_document(const spx_project_t *project)
{
    return add_nodes_and_edges(json_pack("{s:s, s:s}", "schema",
                                         "semaprax.source-semantic-graph.v1", "source_digest",
                                         project->source_digest),
                               project->index);
}
