/*
 * index_write.c: the graph document, and each node's and edge's object,
 * written from the retained index through the streaming canonical JSON
 * writer (spx_json_writer.h), with no tree of the document: the same bytes
 * as spx_graph_document's canonical text (index.c), keys written in
 * canonical (bytewise) order by hand, which the writer checks.
 *
 * A node's keys, with those a context document adds (context.c), in that
 * order: bytes, distance, exported, fields, id, kind, module, name, path,
 * signature, span, text, text_truncated, type, value, variants, via.
 */
#include "index_internal.h"

#include "spx_limits.h"

#include <string.h>

static void write_position(spx_json_writer_t *writer, const spx_position_t *position)
{
    spx_json_object_begin(writer);
    spx_json_key(writer, "column");
    spx_json_integer(writer, position->column);
    spx_json_key(writer, "line");
    spx_json_integer(writer, position->line);
    spx_json_key(writer, "offset");
    spx_json_integer(writer, position->offset);
    spx_json_object_end(writer);
}

static void write_span(spx_json_writer_t *writer, const spx_span_t *span)
{
    spx_json_object_begin(writer);
    spx_json_key(writer, "end");
    write_position(writer, &span->end);
    spx_json_key(writer, "start");
    write_position(writer, &span->start);
    spx_json_object_end(writer);
}

static void write_fields(spx_json_writer_t *writer, const spx_index_node_t *node)
{
    const spx_struct_t *structure = node->structure;
    spx_json_array_begin(writer);
    for (apr_size_t i = 0; i < structure->field_count; i++) {
        spx_json_object_begin(writer);
        spx_json_key(writer, "name");
        spx_json_string(writer, structure->fields[i].name.text);
        spx_json_key(writer, "type");
        spx_json_string(writer, node->field_types[i]);
        spx_json_object_end(writer);
    }
    spx_json_array_end(writer);
}

static void write_variants(spx_json_writer_t *writer, const spx_index_node_t *node)
{
    const spx_enum_t *enumeration = node->enumeration;
    apr_size_t next = 0;
    spx_json_array_begin(writer);
    for (apr_size_t v = 0; v < enumeration->variant_count; v++) {
        spx_json_object_begin(writer);
        spx_json_key(writer, "name");
        spx_json_string(writer, enumeration->variants[v].name.text);
        spx_json_key(writer, "payload");
        spx_json_array_begin(writer);
        for (apr_size_t k = 0; k < enumeration->variants[v].payload_count; k++)
            spx_json_string(writer, node->payload_types[next++]);
        spx_json_array_end(writer);
        spx_json_object_end(writer);
    }
    spx_json_array_end(writer);
}

/* Whether the node is exported, for the nodes that say so (-1: not said). */
static int exported(const spx_index_node_t *node)
{
    return node->function      ? node->function->exported
           : node->structure   ? node->structure->exported
           : node->enumeration ? node->enumeration->exported
           : node->constant    ? node->constant->exported
                               : -1;
}

void spx_index_write_node(spx_json_writer_t *writer, const spx_index_node_t *node,
                          const spx_index_node_extras_t *extras)
{
    const spx_span_t *span = spx_index_item_span(node);
    spx_json_object_begin(writer);
    if (node->data) {
        spx_json_key(writer, "bytes");
        spx_json_integer(writer, (int64_t)node->data->length);
    }
    if (extras) {
        spx_json_key(writer, "distance");
        spx_json_integer(writer, extras->distance);
    }
    if (exported(node) >= 0) {
        spx_json_key(writer, "exported");
        spx_json_boolean(writer, exported(node));
    }
    if (node->structure) {
        spx_json_key(writer, "fields");
        write_fields(writer, node);
    }
    spx_json_key(writer, "id");
    spx_json_string(writer, node->id);
    spx_json_key(writer, "kind");
    spx_json_string(writer, node->kind);
    if (span) {
        spx_json_key(writer, "module");
        spx_json_string(writer, node->module->name);
    }
    if (node->name) {
        spx_json_key(writer, "name");
        spx_json_string(writer, node->name);
    }
    if (node->data || node->module) {
        spx_json_key(writer, "path");
        spx_json_string(writer, node->data ? node->data->path : node->module->path);
    }
    if (node->signature) {
        spx_json_key(writer, "signature");
        spx_json_string(writer, node->signature);
    }
    if (span) {
        spx_json_key(writer, "span");
        write_span(writer, span);
    }
    if (extras && extras->text) {
        spx_json_key(writer, "text");
        spx_json_stringn(writer, extras->text, extras->text_length);
        if (extras->text_truncated) {
            spx_json_key(writer, "text_truncated");
            spx_json_boolean(writer, 1);
        }
    }
    if (node->constant) {
        spx_json_key(writer, "type");
        spx_json_string(writer, spx_type_name(node->constant->type));
        spx_json_key(writer, "value");
        spx_json_stringn(writer, node->value, node->value_length);
    }
    if (node->enumeration) {
        spx_json_key(writer, "variants");
        write_variants(writer, node);
    }
    if (extras && extras->via_from) {
        spx_json_key(writer, "via");
        spx_json_object_begin(writer);
        spx_json_key(writer, "from");
        spx_json_string(writer, extras->via_from);
        spx_json_key(writer, "kind");
        spx_json_string(writer, extras->via_kind);
        spx_json_object_end(writer);
    }
    spx_json_object_end(writer);
}

void spx_index_write_edge(spx_json_writer_t *writer, const spx_index_t *index,
                          const spx_index_edge_t *edge)
{
    spx_json_object_begin(writer);
    spx_json_key(writer, "from");
    spx_json_string(writer, index->nodes[edge->from].id);
    spx_json_key(writer, "kind");
    spx_json_string(writer, edge->kind);
    if (edge->site_count) {
        spx_json_key(writer, "sites");
        spx_json_integer(writer, edge->site_count);
    }
    spx_json_key(writer, "to");
    spx_json_string(writer, index->nodes[edge->to].id);
    spx_json_object_end(writer);
}

/* "edges" and "nodes", the first keys of both graph documents. */
static void write_edges_and_nodes(spx_json_writer_t *writer, const spx_index_t *index)
{
    spx_json_key(writer, "edges");
    spx_json_array_begin(writer);
    for (int i = 0; i < index->edge_count; i++)
        spx_index_write_edge(writer, index, &index->edges[i]);
    spx_json_array_end(writer);
    spx_json_key(writer, "nodes");
    spx_json_array_begin(writer);
    for (int i = 0; i < index->node_count; i++)
        spx_index_write_node(writer, &index->nodes[i], NULL);
    spx_json_array_end(writer);
}

void spx_graph_write_value(const spx_project_t *project, spx_json_writer_t *writer)
{
    spx_json_object_begin(writer);
    write_edges_and_nodes(writer, project->index);
    spx_json_key(writer, "project");
    spx_json_object_begin(writer);
    spx_json_key(writer, "name");
    spx_json_string(writer, project->manifest->name);
    spx_json_key(writer, "version");
    spx_json_string(writer, project->manifest->version);
    spx_json_object_end(writer);
    spx_json_key(writer, "project_revision");
    spx_json_string(writer, project->project_revision);
    spx_json_key(writer, "schema");
    spx_json_string(writer, "semaprax.project-semantic-graph.v1");
    spx_json_object_end(writer);
}

spx_json_status_t spx_graph_write(const spx_project_t *project, spx_json_writer_t *writer)
{
    spx_graph_write_value(project, writer);
    return spx_json_writer_finish(writer);
}

void spx_source_graph_write_value(const spx_project_t *project, spx_json_writer_t *writer)
{
    spx_json_object_begin(writer);
    write_edges_and_nodes(writer, project->index);
    spx_json_key(writer, "schema");
    spx_json_string(writer, "semaprax.source-semantic-graph.v1");
    spx_json_key(writer, "source_digest");
    spx_json_string(writer, project->source_digest);
    spx_json_object_end(writer);
}

spx_json_status_t spx_source_graph_write(const spx_project_t *project, spx_json_writer_t *writer)
{
    spx_source_graph_write_value(project, writer);
    return spx_json_writer_finish(writer);
}

/* The canonical text of the document write writes, in pool: counted first,
 * so that it is allocated once, at its size. */
static const char *text_of(spx_json_status_t (*write)(const spx_project_t *, spx_json_writer_t *),
                           const spx_project_t *project, apr_size_t limit, apr_size_t *length,
                           spx_json_status_t *status, apr_pool_t *pool)
{
    apr_pool_t *scratch = NULL;
    apr_pool_create(&scratch, pool);
    spx_json_writer_t *counter = spx_json_writer_counting(limit, scratch);
    *status = write(project, counter);
    apr_size_t size = spx_json_writer_length(counter);
    apr_pool_destroy(scratch);
    *length = 0;
    if (*status != SPX_JSON_OK)
        return NULL;
    char *text = apr_palloc(pool, size + 1);
    *status = write(project, spx_json_writer_fixed(text, size + 1, pool));
    if (*status != SPX_JSON_OK)
        return NULL;
    text[size] = '\0';
    *length = size;
    return text;
}

const char *spx_graph_text(const spx_project_t *project, apr_size_t limit, apr_size_t *length,
                           spx_json_status_t *status, apr_pool_t *pool)
{
    return text_of(spx_graph_write, project, limit, length, status, pool);
}

const char *spx_source_graph_text(const spx_project_t *project, apr_size_t limit,
                                  apr_size_t *length, spx_json_status_t *status, apr_pool_t *pool)
{
    return text_of(spx_source_graph_write, project, limit, length, status, pool);
}
