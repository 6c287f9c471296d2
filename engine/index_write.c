/*
 * index_write.c: the graph documents (the project's and a single source's),
 * and each node's and edge's object, written from the retained index
 * through the streaming canonical JSON writer (spx_json_writer.h), with no
 * tree of the document: the one renderer of the graph. Keys are written in
 * canonical (bytewise) order by hand, which the writer checks. It also
 * writes the graph as a rename compares two of them (spx_graph_write_compared),
 * through the same code.
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

static void write_fields(spx_json_writer_t *writer, const spx_index_node_t *node,
                         const spx_graph_node_t *view)
{
    spx_json_array_begin(writer);
    for (apr_size_t i = 0; i < view->field_count; i++) {
        const char *name = NULL, *type = NULL;
        spx_index_node_field(node, i, &name, &type);
        spx_json_object_begin(writer);
        spx_json_key(writer, "name");
        spx_json_string(writer, name);
        spx_json_key(writer, "type");
        spx_json_string(writer, type);
        spx_json_object_end(writer);
    }
    spx_json_array_end(writer);
}

static void write_variants(spx_json_writer_t *writer, const spx_index_node_t *node,
                           const spx_graph_node_t *view)
{
    spx_graph_variant_t variant = {NULL, NULL, 0, 0};
    spx_json_array_begin(writer);
    for (apr_size_t v = 0; v < view->variant_count; v++) {
        spx_index_node_variant(node, v, &variant);
        spx_json_object_begin(writer);
        spx_json_key(writer, "name");
        spx_json_string(writer, variant.name);
        spx_json_key(writer, "payload");
        spx_json_array_begin(writer);
        for (apr_size_t k = 0; k < variant.payload_count; k++)
            spx_json_string(writer, variant.payload[k]);
        spx_json_array_end(writer);
        spx_json_object_end(writer);
    }
    spx_json_array_end(writer);
}

/* The node's object, with extras (when not NULL), and with id and name in
 * place of its own (a rename's view: the renamed node's new id and name),
 * without its span when with_span is 0. What it says of the node is read
 * from its typed record (spx_index_node_view, index_walk.c), as the
 * outline of the CLI reads it. */
static void write_node(spx_json_writer_t *writer, const spx_index_node_t *node,
                       const spx_index_node_extras_t *extras, const char *id, const char *name,
                       int with_span)
{
    spx_graph_node_t view;
    spx_index_node_view(node, -1, &view);
    spx_json_object_begin(writer);
    if (view.bytes >= 0) {
        spx_json_key(writer, "bytes");
        spx_json_integer(writer, view.bytes);
    }
    if (extras) {
        spx_json_key(writer, "distance");
        spx_json_integer(writer, extras->distance);
    }
    if (view.exported >= 0) {
        spx_json_key(writer, "exported");
        spx_json_boolean(writer, view.exported);
    }
    if (strcmp(view.kind, "struct") == 0) {
        spx_json_key(writer, "fields");
        write_fields(writer, node, &view);
    }
    spx_json_key(writer, "id");
    spx_json_string(writer, id);
    spx_json_key(writer, "kind");
    spx_json_string(writer, view.kind);
    if (view.module) {
        spx_json_key(writer, "module");
        spx_json_string(writer, view.module);
    }
    if (name) {
        spx_json_key(writer, "name");
        spx_json_string(writer, name);
    }
    if (view.path) {
        spx_json_key(writer, "path");
        spx_json_string(writer, view.path);
    }
    if (view.signature) {
        spx_json_key(writer, "signature");
        spx_json_string(writer, view.signature);
    }
    if (view.span && with_span) {
        spx_json_key(writer, "span");
        write_span(writer, view.span);
    }
    if (extras && extras->text) {
        spx_json_key(writer, "text");
        spx_json_stringn(writer, extras->text, extras->text_length);
        if (extras->text_truncated) {
            spx_json_key(writer, "text_truncated");
            spx_json_boolean(writer, 1);
        }
    }
    if (view.type) {
        spx_json_key(writer, "type");
        spx_json_string(writer, view.type);
        spx_json_key(writer, "value");
        spx_json_stringn(writer, view.value, view.value_length);
    }
    if (strcmp(view.kind, "enum") == 0) {
        spx_json_key(writer, "variants");
        write_variants(writer, node, &view);
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

void spx_index_write_node(spx_json_writer_t *writer, const spx_index_node_t *node,
                          const spx_index_node_extras_t *extras)
{
    write_node(writer, node, extras, node->id, node->name, 1);
}

/* An edge's object: from, kind, to (node ids) and its sites (0: none). */
static void write_edge(spx_json_writer_t *writer, const char *from, const char *kind,
                       int site_count, const char *to)
{
    spx_json_object_begin(writer);
    spx_json_key(writer, "from");
    spx_json_string(writer, from);
    spx_json_key(writer, "kind");
    spx_json_string(writer, kind);
    if (site_count) {
        spx_json_key(writer, "sites");
        spx_json_integer(writer, site_count);
    }
    spx_json_key(writer, "to");
    spx_json_string(writer, to);
    spx_json_object_end(writer);
}

void spx_index_write_edge(spx_json_writer_t *writer, const spx_index_t *index,
                          const spx_index_edge_t *edge)
{
    write_edge(writer, index->nodes[edge->from].id, spx_index_edge_kind(edge), edge->site_count,
               index->nodes[edge->to].id);
}

/* How a graph is written: as it is (the document), or as a rename compares
 * two (without the revision and spans, one node read under a new id). */
typedef struct graph_view_t {
    int compared;         /* 0: the document itself */
    int renamed;          /* the node read as new_id named new_name, or -1 */
    const char *new_id;   /* its id in this view */
    const char *new_name; /* its name in this view */
} graph_view_t;

static const graph_view_t as_it_is = {0, -1, NULL, NULL};

/* A node's id in view. */
static const char *view_id(const spx_index_t *index, const graph_view_t *view, int node)
{
    return node == view->renamed ? view->new_id : index->nodes[node].id;
}

/* An edge of the view: its ends' ids there, and the edge. */
typedef struct view_edge_t {
    const char *from, *to;
    const spx_index_edge_t *edge;
} view_edge_t;

/* Canonical edge order: by from, kind, to (bytewise), as the index keeps
 * its edges. */
static int compare_view_edges(const void *left, const void *right)
{
    const view_edge_t *a = left, *b = right;
    int order = strcmp(a->from, b->from);
    if (order == 0)
        order = strcmp(spx_index_edge_kind(a->edge), spx_index_edge_kind(b->edge));
    return order != 0 ? order : strcmp(a->to, b->to);
}

static view_edge_t view_edge(const spx_index_t *index, const graph_view_t *view,
                             const spx_index_edge_t *edge)
{
    view_edge_t seen = {view_id(index, view, edge->from), view_id(index, view, edge->to), edge};
    return seen;
}

static void write_view_edge(spx_json_writer_t *writer, const view_edge_t *edge)
{
    write_edge(writer, edge->from, spx_index_edge_kind(edge->edge), edge->edge->site_count,
               edge->to);
}

/* "edges": in the index's order, which is canonical; in a view with a
 * renamed node, the edges that do not touch it in that order, merged with
 * those that do (few: its callers, callees and module), sorted again under
 * its new id. Nothing but those few is copied. */
static void write_edges(spx_json_writer_t *writer, const spx_index_t *index,
                        const graph_view_t *view, apr_pool_t *pool)
{
    spx_json_key(writer, "edges");
    spx_json_array_begin(writer);
    apr_size_t moved_count = 0;
    for (int i = 0; view->renamed >= 0 && i < index->edge_count; i++)
        moved_count += index->edges[i].from == view->renamed || index->edges[i].to == view->renamed;
    view_edge_t *moved = NULL;
    if (moved_count) {
        moved = apr_palloc(pool, moved_count * sizeof(*moved));
        apr_size_t m = 0;
        for (int i = 0; i < index->edge_count; i++)
            if (index->edges[i].from == view->renamed || index->edges[i].to == view->renamed)
                moved[m++] = view_edge(index, view, &index->edges[i]);
        qsort(moved, moved_count, sizeof(*moved), compare_view_edges);
    }
    apr_size_t next_moved = 0;
    for (int i = 0; i < index->edge_count; i++) {
        const spx_index_edge_t *edge = &index->edges[i];
        if (moved_count && (edge->from == view->renamed || edge->to == view->renamed))
            continue;
        view_edge_t kept = view_edge(index, view, edge);
        while (next_moved < moved_count && compare_view_edges(&moved[next_moved], &kept) < 0)
            write_view_edge(writer, &moved[next_moved++]);
        write_view_edge(writer, &kept);
    }
    while (next_moved < moved_count)
        write_view_edge(writer, &moved[next_moved++]);
    spx_json_array_end(writer);
}

static void write_view_node(spx_json_writer_t *writer, const spx_index_t *index,
                            const graph_view_t *view, int node)
{
    const spx_index_node_t *item = &index->nodes[node];
    write_node(writer, item, NULL, view_id(index, view, node),
               node == view->renamed ? view->new_name : item->name, !view->compared);
}

/* "nodes": in the index's order (by id), the renamed node of a view moved
 * to its new id's place. */
static void write_nodes(spx_json_writer_t *writer, const spx_index_t *index,
                        const graph_view_t *view)
{
    spx_json_key(writer, "nodes");
    spx_json_array_begin(writer);
    int renamed_written = view->renamed < 0;
    for (int i = 0; i < index->node_count; i++) {
        if (i == view->renamed)
            continue;
        if (!renamed_written && strcmp(view->new_id, index->nodes[i].id) < 0) {
            write_view_node(writer, index, view, view->renamed);
            renamed_written = 1;
        }
        write_view_node(writer, index, view, i);
    }
    if (!renamed_written)
        write_view_node(writer, index, view, view->renamed);
    spx_json_array_end(writer);
}

/* The project graph in view: "edges", "nodes", "project",
 * "project_revision" (not in a compared view) and "schema". */
static void write_graph(const spx_project_t *project, spx_json_writer_t *writer,
                        const graph_view_t *view, apr_pool_t *pool)
{
    spx_json_object_begin(writer);
    write_edges(writer, project->index, view, pool);
    write_nodes(writer, project->index, view);
    spx_json_key(writer, "project");
    spx_json_object_begin(writer);
    spx_json_key(writer, "name");
    spx_json_string(writer, project->manifest->name);
    spx_json_key(writer, "version");
    spx_json_string(writer, project->manifest->version);
    spx_json_object_end(writer);
    if (!view->compared) {
        spx_json_key(writer, "project_revision");
        spx_json_string(writer, project->project_revision);
    }
    spx_json_key(writer, "schema");
    spx_json_string(writer, "semaprax.project-semantic-graph.v1");
    spx_json_object_end(writer);
}

void spx_graph_write_value(const spx_project_t *project, spx_json_writer_t *writer)
{
    if (!project->index) {
        spx_json_null(writer); /* not admitted, or diagnostics only: no graph */
        return;
    }
    write_graph(project, writer, &as_it_is, NULL);
}

spx_json_status_t spx_graph_write_compared(const spx_project_t *project, const char *old_id,
                                           const char *new_id, const char *new_name,
                                           spx_json_writer_t *writer, apr_pool_t *pool)
{
    if (!project->index)
        return SPX_JSON_MISUSE; /* not admitted, or diagnostics only: no graph */
    graph_view_t view = {1, old_id ? spx_index_find(project->index, old_id) : -1, new_id, new_name};
    apr_pool_t *scratch = NULL;
    apr_pool_create(&scratch, pool);
    write_graph(project, writer, &view, scratch);
    apr_pool_destroy(scratch);
    return spx_json_writer_finish(writer);
}

spx_json_status_t spx_graph_write(const spx_project_t *project, spx_json_writer_t *writer)
{
    if (!project->index)
        return SPX_JSON_MISUSE; /* not admitted, or diagnostics only: no graph */
    spx_graph_write_value(project, writer);
    return spx_json_writer_finish(writer);
}

void spx_source_graph_write_value(const spx_project_t *project, spx_json_writer_t *writer)
{
    spx_json_object_begin(writer);
    write_edges(writer, project->index, &as_it_is, NULL);
    write_nodes(writer, project->index, &as_it_is);
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
