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

/* What the builder collects before sorting. */
struct spx_index_builder_t {
    apr_pool_t *pool;
    apr_array_header_t *nodes; /* spx_index_node_t */
    apr_array_header_t *calls; /* call_site_t: the calls of the function being walked */
    apr_hash_t *function_ids;  /* const spx_function_t * -> its node id */
    apr_array_header_t *edges; /* pending_edge_t */
    int builtin_called[BUILTIN_COUNT + 1];
};
typedef spx_index_builder_t builder_t;

/* One call of the function being walked, in source order. */
typedef struct call_site_t {
    const spx_function_t *callee; /* NULL for a builtin */
    size_t builtin;               /* index in builtin_table when callee is NULL */
    size_t order;                 /* keeps the sites of one callee in source order */
    spx_span_t span;
} call_site_t;

typedef struct pending_edge_t {
    const char *from;
    const char *to;
    const char *kind;
    apr_array_header_t *sites;
} pending_edge_t;

static spx_index_node_t *add_node(builder_t *builder, const char *id, const char *kind,
                                  const char *name)
{
    spx_index_node_t *node = apr_array_push(builder->nodes);
    memset(node, 0, sizeof(*node));
    node->id = id;
    node->kind = kind;
    node->name = name;
    return node;
}

static void add_edge(builder_t *builder, const char *from, const char *kind, const char *to,
                     apr_array_header_t *sites)
{
    pending_edge_t *edge = apr_array_push(builder->edges);
    edge->from = from;
    edge->kind = kind;
    edge->to = to;
    edge->sites = sites;
}

/* "function:MODULE.NAME", made once per function. */
static const char *function_id(builder_t *builder, const spx_function_t *function)
{
    const char *id = apr_hash_get(builder->function_ids, &function, sizeof(function));
    if (!id) {
        id = apr_pstrcat(builder->pool, "function:", function->module->name, ".",
                         function->name.text, NULL);
        const spx_function_t **key = apr_palloc(builder->pool, sizeof(*key));
        *key = function;
        apr_hash_set(builder->function_ids, key, sizeof(*key), id);
    }
    return id;
}

static void record_call(builder_t *builder, const spx_expr_t *call)
{
    call_site_t site;
    memset(&site, 0, sizeof(site));
    site.callee = call->as.call.target;
    if (!site.callee) {
        for (site.builtin = 0; site.builtin < BUILTIN_COUNT; site.builtin++)
            if (builtin_table[site.builtin].builtin == call->as.call.builtin)
                break;
        if (site.builtin == BUILTIN_COUNT)
            return; /* unresolved: cannot happen in an admitted project */
    }
    site.order = (size_t)builder->calls->nelts;
    site.span = call->span;
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
static void add_call_edges(builder_t *builder, const spx_function_t *caller)
{
    apr_array_header_t *calls = builder->calls;
    call_site_t *sites = (call_site_t *)calls->elts;
    qsort(sites, (size_t)calls->nelts, sizeof(call_site_t), compare_call_sites);
    for (int first = 0, end; first < calls->nelts; first = end) {
        for (end = first + 1; end < calls->nelts && sites[end].callee == sites[first].callee &&
                              sites[end].builtin == sites[first].builtin;
             end++)
            ;
        const char *callee;
        if (sites[first].callee) {
            callee = function_id(builder, sites[first].callee);
        } else {
            builder->builtin_called[sites[first].builtin] = 1;
            callee = apr_pstrcat(builder->pool,
                                 "builtin:", builtin_table[sites[first].builtin].name, NULL);
        }
        apr_array_header_t *spans = apr_array_make(builder->pool, end - first, sizeof(spx_span_t));
        for (int i = first; i < end; i++)
            APR_ARRAY_PUSH(spans, spx_span_t) = sites[i].span;
        add_edge(builder, function_id(builder, caller), "calls", callee, spans);
    }
    calls->nelts = 0;
}

/* Nesting is bounded by the parser (SPX_LIMIT_PARSE_DEPTH), so recursion is too. */
static void collect_expression(builder_t *builder, const spx_expr_t *e)
{
    if (!e)
        return;
    switch (e->kind) {
    case SPX_EXPR_CALL:
        record_call(builder, e);
        for (apr_size_t i = 0; i < e->as.call.argument_count; i++)
            collect_expression(builder, e->as.call.arguments[i]);
        break;
    case SPX_EXPR_UNARY:
        collect_expression(builder, e->as.unary.operand);
        break;
    case SPX_EXPR_BINARY:
        collect_expression(builder, e->as.binary.left);
        collect_expression(builder, e->as.binary.right);
        break;
    default:
        break;
    }
}

static void collect_block(builder_t *builder, const spx_block_t *block);

static void collect_statement(builder_t *builder, const spx_stmt_t *s)
{
    switch (s->kind) {
    case SPX_STMT_LET:
    case SPX_STMT_VAR:
        collect_expression(builder, s->as.binding.value);
        break;
    case SPX_STMT_ASSIGN:
        collect_expression(builder, s->as.assign.value);
        break;
    case SPX_STMT_IF:
        collect_expression(builder, s->as.if_stmt.condition);
        collect_block(builder, &s->as.if_stmt.then_block);
        if (s->as.if_stmt.else_block)
            collect_block(builder, s->as.if_stmt.else_block);
        if (s->as.if_stmt.else_if)
            collect_statement(builder, s->as.if_stmt.else_if);
        break;
    case SPX_STMT_WHILE:
        collect_expression(builder, s->as.while_stmt.condition);
        collect_block(builder, &s->as.while_stmt.body);
        break;
    case SPX_STMT_RETURN:
        collect_expression(builder, s->as.return_stmt.value);
        break;
    case SPX_STMT_EXPR:
        collect_expression(builder, s->as.expr_stmt.expression);
        break;
    }
}

static void collect_block(builder_t *builder, const spx_block_t *block)
{
    for (apr_size_t i = 0; i < block->count; i++)
        collect_statement(builder, block->statements[i]);
}

static int compare_nodes(const void *left, const void *right)
{
    return strcmp(((const spx_index_node_t *)left)->id, ((const spx_index_node_t *)right)->id);
}

static int compare_pending_edges(const void *left, const void *right)
{
    const pending_edge_t *a = left, *b = right;
    int order = strcmp(a->from, b->from);
    if (order == 0)
        order = strcmp(a->kind, b->kind);
    if (order == 0)
        order = strcmp(a->to, b->to);
    return order;
}

int spx_index_find(const spx_index_t *index, const char *id)
{
    const int *number = apr_hash_get(index->node_by_id, id, APR_HASH_KEY_STRING);
    return number ? *number : -1;
}

spx_index_builder_t *spx_index_builder_make(apr_pool_t *pool)
{
    builder_t *builder = apr_pcalloc(pool, sizeof(*builder));
    builder->pool = pool;
    builder->nodes = apr_array_make(pool, 64, sizeof(spx_index_node_t));
    builder->calls = apr_array_make(pool, 64, sizeof(call_site_t));
    builder->function_ids = apr_hash_make(pool);
    builder->edges = apr_array_make(pool, 64, sizeof(pending_edge_t));
    return builder;
}

void spx_index_builder_add_calls(spx_index_builder_t *builder, const spx_module_t *module)
{
    for (apr_size_t f = 0; f < module->function_count; f++) {
        collect_block(builder, &module->functions[f]->body);
        add_call_edges(builder, module->functions[f]);
    }
}

spx_index_t *spx_index_build(spx_index_builder_t *builder, const spx_project_t *project)
{
    apr_pool_t *pool = builder->pool;
    for (apr_size_t m = 0; m < project->module_count; m++) {
        const spx_module_t *module = project->modules[m];
        const char *module_id = apr_pstrcat(pool, "module:", module->name, NULL);
        add_node(builder, module_id, "module", module->name)->module = module;
        for (apr_size_t i = 0; i < module->import_count; i++)
            add_edge(builder, module_id, "imports",
                     apr_pstrcat(pool, "module:", module->imports[i].module.text, NULL), NULL);
        for (apr_size_t f = 0; f < module->function_count; f++) {
            const spx_function_t *function = module->functions[f];
            const char *id = function_id(builder, function);
            spx_index_node_t *node = add_node(builder, id, "function", function->name.text);
            node->module = module;
            node->function = function;
            node->signature = spx_function_signature(function, pool);
            add_edge(builder, module_id, "contains", id, NULL);
        }
    }
    const spx_manifest_t *manifest = project->manifest;
    for (apr_size_t t = 0; t < manifest->test_count; t++) {
        const char *id = apr_pstrcat(pool, "test:", manifest->tests[t].name, NULL);
        add_node(builder, id, "test", manifest->tests[t].name);
        add_edge(builder, id, "tests", function_id(builder, project->tests[t]), NULL);
    }
    if (project->entry) {
        add_node(builder, "entry", "entry", NULL);
        add_edge(builder, "entry", "enters", function_id(builder, project->entry), NULL);
    }
    for (size_t b = 0; b < BUILTIN_COUNT; b++)
        if (builder->builtin_called[b])
            add_node(builder, apr_pstrcat(pool, "builtin:", builtin_table[b].name, NULL), "builtin",
                     builtin_table[b].name)
                ->signature = builtin_table[b].signature;

    spx_index_t *index = apr_pcalloc(pool, sizeof(*index));
    index->node_count = builder->nodes->nelts;
    index->nodes = (spx_index_node_t *)builder->nodes->elts;
    qsort(index->nodes, (size_t)index->node_count, sizeof(spx_index_node_t), compare_nodes);
    index->node_by_id = apr_hash_make(pool);
    for (int i = 0; i < index->node_count; i++) {
        int *number = apr_palloc(pool, sizeof(int));
        *number = i;
        apr_hash_set(index->node_by_id, index->nodes[i].id, APR_HASH_KEY_STRING, number);
        index->nodes[i].out_edges = apr_array_make(pool, 4, sizeof(int));
        index->nodes[i].in_edges = apr_array_make(pool, 4, sizeof(int));
    }

    qsort(builder->edges->elts, (size_t)builder->edges->nelts, sizeof(pending_edge_t),
          compare_pending_edges);
    index->edges = apr_pcalloc(pool, ((size_t)builder->edges->nelts + 1) * sizeof(*index->edges));
    for (int i = 0; i < builder->edges->nelts; i++) {
        const pending_edge_t *pending = &APR_ARRAY_IDX(builder->edges, i, pending_edge_t);
        spx_index_edge_t *edge = &index->edges[index->edge_count];
        edge->from = spx_index_find(index, pending->from);
        edge->to = spx_index_find(index, pending->to);
        edge->kind = pending->kind;
        edge->sites = pending->sites;
        if (edge->from < 0 || edge->to < 0)
            continue; /* cannot happen in an admitted project */
        APR_ARRAY_PUSH(index->nodes[edge->from].out_edges, int) = index->edge_count;
        APR_ARRAY_PUSH(index->nodes[edge->to].in_edges, int) = index->edge_count;
        index->edge_count++;
    }
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
    if (edge->sites)
        json_object_set_new(object, "sites", json_integer(edge->sites->nelts));
    return object;
}

json_t *spx_graph_document(const spx_project_t *project)
{
    const spx_index_t *index = project->index;
    json_t *nodes = json_array(), *edges = json_array();
    for (int i = 0; i < index->node_count; i++)
        json_array_append_new(nodes, spx_index_node_json(&index->nodes[i]));
    for (int i = 0; i < index->edge_count; i++)
        json_array_append_new(edges, spx_index_edge_json(index, &index->edges[i]));
    return json_pack("{s:s, s:s, s:{s:s, s:s}, s:o, s:o}", "schema",
                     "semaprax.project-semantic-graph.v1", "project_revision",
                     project->project_revision, "project", "name", project->manifest->name,
                     "version", project->manifest->version, "nodes", nodes, "edges", edges);
}
