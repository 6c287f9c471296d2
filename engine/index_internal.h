/*
 * index_internal.h: the index's records, shared by index.c (building it and
 * rendering the graph), context.c (answering context queries) and rename.c
 * (the call sites a rename edits). Nothing outside the engine includes this.
 */
#ifndef SPX_INDEX_INTERNAL_H
#define SPX_INDEX_INTERNAL_H

#include "project_internal.h"
#include "spx_index.h"
#include "spx_leb128.h"

/* The index is built in two steps, because Phase A lets each module's bodies
 * go once they are checked: a builder (in pool, which then holds the index
 * too) takes what every module's bodies say while they are there (each
 * function's calls, uses of structs and reads of consts, with their sites);
 * spx_index_build adds the rest from the declarations, which stay. */
typedef struct spx_index_builder_t spx_index_builder_t;
/* source_bytes, the bytes of all the sources, sizes the builder's first
 * lists (SPX_INDEX_SOURCE_BYTES_PER_NODE, _PER_EDGE). */
spx_index_builder_t *spx_index_builder_make(apr_pool_t *pool, apr_size_t source_bytes);
void spx_index_builder_add_calls(spx_index_builder_t *builder, const spx_module_t *module);

/* The index of an admitted project whose every module went through
 * spx_index_builder_add_calls. A single source (no manifest) has no test
 * or entry nodes. */
spx_index_t *spx_index_build(spx_index_builder_t *builder, const spx_project_t *project);

/* Which declaration a node stands for (spx_index_node_t.item). */
typedef enum spx_index_item_kind_t {
    SPX_INDEX_ITEM_NONE, /* module, test, entry and builtin nodes */
    SPX_INDEX_ITEM_FUNCTION,
    SPX_INDEX_ITEM_STRUCT,
    SPX_INDEX_ITEM_CONST,
    SPX_INDEX_ITEM_ENUM,
    SPX_INDEX_ITEM_DATA
} spx_index_item_kind_t;

/* A node of the index. Phase A keeps one per function of the project, so
 * what only some kinds have shares room: the declaration (read it with the
 * accessors below), and a struct's field types or an enum's payload
 * types. */
typedef struct spx_index_node_t {
    const char *id; /* "function:app.main", "struct:geo.Point", "const:geo.ORIGIN_X" */
    /* "module", "function", "struct", "const", "enum", "test", "entry", "builtin" */
    const char *kind;
    const char *name;           /* NULL for the entry */
    const spx_module_t *module; /* module, function, struct and const nodes */
    union {
        const spx_function_t *function; /* function nodes */
        const spx_struct_t *structure;  /* struct nodes */
        const spx_const_t *constant;    /* const nodes */
        const spx_enum_t *enumeration;  /* enum nodes (v3) */
        const spx_data_entry_t *data;   /* v3 data nodes: the [[data]] entry */
    } item;
    const char *signature; /* function and builtin nodes */
    /* struct nodes: each field's type, as signatures spell it; enum nodes:
     * every variant's payload types in order */
    const char **types;
    const char *value; /* const nodes: the value's text (a str's own bytes) */
    apr_size_t value_length;
    uint32_t item_kind; /* spx_index_item_kind_t */
    /* Its edges, in edge order: out, the edges numbered out_first to
     * out_first + out_count - 1 (the edges are sorted by from); in, the
     * numbers in_count numbers from in_first of the index's in_edges. */
    int out_first, out_count;
    int in_first, in_count;
} spx_index_node_t;

/* The declaration of a node of that kind, or NULL. */
static inline const spx_function_t *spx_index_node_function(const spx_index_node_t *node)
{
    return node->item_kind == SPX_INDEX_ITEM_FUNCTION ? node->item.function : NULL;
}
static inline const spx_struct_t *spx_index_node_struct(const spx_index_node_t *node)
{
    return node->item_kind == SPX_INDEX_ITEM_STRUCT ? node->item.structure : NULL;
}
static inline const spx_const_t *spx_index_node_const(const spx_index_node_t *node)
{
    return node->item_kind == SPX_INDEX_ITEM_CONST ? node->item.constant : NULL;
}
static inline const spx_enum_t *spx_index_node_enum(const spx_index_node_t *node)
{
    return node->item_kind == SPX_INDEX_ITEM_ENUM ? node->item.enumeration : NULL;
}
static inline const spx_data_entry_t *spx_index_node_data(const spx_index_node_t *node)
{
    return node->item_kind == SPX_INDEX_ITEM_DATA ? node->item.data : NULL;
}

/* A site: the byte range in its source of a call expression (calls), of a
 * struct's name or a field's name (uses), of a const's name or m.X (reads);
 * line and column follow from the retained text (spx_span_between). */
typedef struct spx_index_site_t {
    uint32_t start;
    uint32_t end;
} spx_index_site_t;

/* An edge's kind, numbered in the order of the names' bytes, so that the
 * numbers sort as strcmp sorts the names (spx_index_edge_kind gives the
 * name): one byte in the edge instead of an 8-byte pointer. */
typedef enum spx_index_edge_kind_t {
    SPX_EDGE_CALLS,
    SPX_EDGE_CONTAINS,
    SPX_EDGE_ENTERS,
    SPX_EDGE_IMPORTS,
    SPX_EDGE_READS,
    SPX_EDGE_TESTS,
    SPX_EDGE_USES
} spx_index_edge_kind_t;

typedef struct spx_index_edge_t {
    int from; /* node numbers */
    int to;
    /* calls, uses, reads: each site, in source order, packed (read them with
     * spx_index_site_next): two LEB128 numbers a site, its start's distance
     * from the previous site's start (from 0 for the first; zigzag: 2d for
     * d >= 0, -2d - 1 below) and end - start. 3 or 4 bytes a site instead of
     * 8: Phase A keeps one for every call of the project. */
    const uint8_t *sites;
    int site_count; /* calls, uses, reads: at least 1; other kinds: 0 */
    uint8_t kind;   /* spx_index_edge_kind_t */
} spx_index_edge_t;

/* The name of an edge's kind: "calls", "contains", "enters", "imports",
 * "reads", "tests" or "uses". */
static inline const char *spx_index_edge_kind(const spx_index_edge_t *edge)
{
    static const char *const names[] = {"calls", "contains", "enters", "imports",
                                        "reads", "tests",    "uses"};
    return names[edge->kind];
}

/* The next of an edge's sites: *at is the edge's sites at first, and
 * *site zeroed; both move on to the next. */
static inline void spx_index_site_next(const uint8_t **at, spx_index_site_t *site)
{
    uint32_t distance = spx_leb128_get(at);
    site->start = distance & 1 ? site->start - (distance + 1) / 2 : site->start + distance / 2;
    site->end = site->start + spx_leb128_get(at);
}

struct spx_index_t {
    spx_index_node_t *nodes; /* sorted by id */
    int node_count;
    spx_index_edge_t *edges; /* sorted by (from id, kind, to id) */
    int edge_count;
    int *in_edges; /* edge numbers grouped by their to node, each group in edge order */
};

/* The whole item of a function, struct or const node (its span, in its
 * module's retained text), or NULL for other nodes. */
const spx_span_t *spx_index_item_span(const spx_index_node_t *node);

/* What a context document adds to a node's object (context.c). */
typedef struct spx_index_node_extras_t {
    int distance;
    const char *via_from; /* the id of the node it was reached from, or NULL */
    const char *via_kind; /* the kind of the edge that reached it */
    const char *text;     /* the item's text, or NULL */
    apr_size_t text_length;
    int text_truncated;
} spx_index_node_extras_t;

/* The node's graph object (outputs.md), with extras (when not NULL), and
 * the edge's, through the streaming writer (index_write.c): the graph's
 * and the context's one rendering of them. */
void spx_index_write_node(spx_json_writer_t *writer, const spx_index_node_t *node,
                          const spx_index_node_extras_t *extras);
void spx_index_write_edge(spx_json_writer_t *writer, const spx_index_t *index,
                          const spx_index_edge_t *edge);

/* The project graph as a rename compares the graphs before and after it
 * (rename.c), written through writer by the graph's one renderer and the
 * writer finished: the document without "project_revision" and without the
 * nodes' "span" (both move when a name changes length), the node old_id
 * (when not NULL and in the graph) written as new_id named new_name, every
 * edge's end that names it too, and nodes and edges in canonical order
 * again (by id; by from, kind and to). Two graphs that differ by no more
 * than that rename give the same bytes. */
spx_json_status_t spx_graph_write_compared(const spx_project_t *project, const char *old_id,
                                           const char *new_id, const char *new_name,
                                           spx_json_writer_t *writer, apr_pool_t *pool);

/* The typed record of a node of the index (index_walk.c; number is its
 * number there), and a struct node's field i and an enum node's variant v:
 * what spx_graph_node, spx_graph_field and spx_graph_variant give, and what
 * the graph's writer writes of the node. */
void spx_index_node_view(const spx_index_node_t *node, int number, spx_graph_node_t *view);
void spx_index_node_field(const spx_index_node_t *node, apr_size_t i, const char **name,
                          const char **type);
void spx_index_node_variant(const spx_index_node_t *node, apr_size_t v,
                            spx_graph_variant_t *variant);

/* The node number of id (a binary search of the sorted nodes), or -1. */
int spx_index_find(const spx_index_t *index, const char *id);

#endif /* SPX_INDEX_INTERNAL_H */
