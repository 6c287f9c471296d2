/*
 * index_walk.c: the graph's typed walk (spx_index.h): each node and edge of
 * the retained index read by number into a typed record, with no copy.
 * The graph document's node objects (index_write.c) and the CLI's outline
 * of the graph and of a context (cli_view.c) are read through it, so the
 * JSON and the text say the same facts of a node.
 */
#include "index_internal.h"
#include "spx_declaration.h"

#include <apr_strings.h>

#include <string.h>

int spx_graph_node_count(const spx_project_t *project)
{
    return project->index ? project->index->node_count : 0;
}

int spx_graph_node_find(const spx_project_t *project, const char *id)
{
    return project->index ? spx_index_find(project->index, id) : -1;
}

/* Whether the node is exported, for the nodes that say so (-1: not said). */
static int exported(const spx_index_node_t *node)
{
    const spx_function_t *function = spx_index_node_function(node);
    const spx_struct_t *structure = spx_index_node_struct(node);
    const spx_enum_t *enumeration = spx_index_node_enum(node);
    const spx_const_t *constant = spx_index_node_const(node);
    return function      ? function->exported
           : structure   ? structure->exported
           : enumeration ? enumeration->exported
           : constant    ? constant->exported
                         : -1;
}

void spx_index_node_view(const spx_index_node_t *node, int number, spx_graph_node_t *view)
{
    const spx_struct_t *structure = spx_index_node_struct(node);
    const spx_enum_t *enumeration = spx_index_node_enum(node);
    const spx_const_t *constant = spx_index_node_const(node);
    const spx_data_entry_t *data = spx_index_node_data(node);
    memset(view, 0, sizeof(*view));
    view->number = number;
    view->id = node->id;
    view->kind = node->kind;
    view->name = node->name;
    view->span = spx_index_item_span(node);
    view->module = view->span ? node->module->name : NULL;
    view->path = data ? data->path : node->module ? node->module->path : NULL;
    view->signature = node->signature;
    view->exported = exported(node);
    view->field_count = structure ? structure->field_count : 0;
    view->variant_count = enumeration ? enumeration->variant_count : 0;
    view->type = constant ? spx_type_name(constant->type) : NULL;
    view->value = constant ? node->value : NULL;
    view->value_length = constant ? node->value_length : 0;
    view->bytes = data ? (apr_int64_t)data->length : -1;
    view->out_count = node->out_count;
    view->in_count = node->in_count;
}

void spx_graph_node(const spx_project_t *project, int number, spx_graph_node_t *node)
{
    spx_index_node_view(&project->index->nodes[number], number, node);
}

void spx_index_node_field(const spx_index_node_t *record, apr_size_t i, const char **name,
                          const char **type)
{
    *name = spx_index_node_struct(record)->fields[i].name.text;
    *type = record->types[i];
}

void spx_graph_field(const spx_project_t *project, const spx_graph_node_t *node, apr_size_t i,
                     const char **name, const char **type)
{
    spx_index_node_field(&project->index->nodes[node->number], i, name, type);
}

void spx_index_node_variant(const spx_index_node_t *record, apr_size_t v,
                            spx_graph_variant_t *variant)
{
    const spx_enum_t *enumeration = spx_index_node_enum(record);
    if (v == 0)
        variant->next_payload = 0;
    variant->name = enumeration->variants[v].name.text;
    variant->payload = record->types + variant->next_payload;
    variant->payload_count = enumeration->variants[v].payload_count;
    variant->next_payload += variant->payload_count;
}

void spx_graph_variant(const spx_project_t *project, const spx_graph_node_t *node, apr_size_t v,
                       spx_graph_variant_t *variant)
{
    spx_index_node_variant(&project->index->nodes[node->number], v, variant);
}

static void edge_view(const spx_index_t *index, int number, spx_graph_edge_t *view)
{
    const spx_index_edge_t *edge = &index->edges[number];
    view->number = number;
    view->from = edge->from;
    view->to = edge->to;
    view->kind = spx_index_edge_kind(edge);
    view->sites = edge->site_count;
}

void spx_graph_out_edge(const spx_project_t *project, int node, int k, spx_graph_edge_t *edge)
{
    const spx_index_t *index = project->index;
    edge_view(index, index->nodes[node].out_first + k, edge);
}

void spx_graph_in_edge(const spx_project_t *project, int node, int k, spx_graph_edge_t *edge)
{
    const spx_index_t *index = project->index;
    edge_view(index, index->in_edges[index->nodes[node].in_first + k], edge);
}

const char *spx_graph_declaration(const spx_project_t *project, const spx_graph_node_t *node,
                                  apr_pool_t *pool)
{
    const spx_index_node_t *record = &project->index->nodes[node->number];
    const spx_function_t *function = spx_index_node_function(record);
    const spx_struct_t *structure = spx_index_node_struct(record);
    const spx_enum_t *enumeration = spx_index_node_enum(record);
    const spx_const_t *constant = spx_index_node_const(record);
    if (function)
        return spx_declaration_function(function, pool);
    if (structure)
        return spx_declaration_struct(structure, pool);
    if (enumeration)
        return spx_declaration_enum(enumeration, pool);
    if (constant)
        return spx_declaration_const(constant, pool);
    if (strcmp(node->kind, "builtin") == 0)
        return spx_declaration_builtin(node->name, pool);
    if (strcmp(node->kind, "module") == 0)
        return spx_declaration_module(record->module, pool);
    if (node->bytes >= 0)
        return apr_psprintf(pool, "data %s (%s, %" APR_INT64_T_FMT " byte%s)", node->name,
                            node->path, node->bytes, node->bytes == 1 ? "" : "s");
    return node->name ? apr_pstrcat(pool, node->kind, " ", node->name, NULL) : node->kind;
}
