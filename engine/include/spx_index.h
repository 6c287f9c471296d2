/*
 * spx_index.h: the typed semantic index of an admitted project, and the two
 * documents made from it: the semantic graph and the bounded context.
 *
 * The index is built once in Phase A from the checked program: one node per
 * module, function, struct, const, test, the entry and each builtin that is
 * called; one edge per import, containment, caller/callee pair, user of a
 * struct and reader of a const (these three with every site's span), test
 * and entry. Nodes are kept sorted by id and edges by (from, kind, to),
 * with each node's incoming and outgoing edges, so graph and context answers
 * are rendered from it alone: no source is read or parsed again. Its typed
 * walk (spx_graph_node and the edges by number) is what both the graph's
 * JSON and the CLI's outline of it read.
 */
#ifndef SPX_INDEX_H
#define SPX_INDEX_H

#include "spx_json_writer.h"
#include "spx_project.h"

/* The semaprax.project-semantic-graph.v1 document (outputs.md) written
 * through writer in canonical form (docs/canonical-json.md), with no tree
 * or whole text of it: the one renderer of the graph (index_write.c).
 * Finishes the writer and returns its status (SPX_JSON_OVER_LIMIT when the
 * writer's limit is too small). A project with no graph (not admitted, or
 * built for its diagnostics only: spx_project_diagnostics_only) is
 * SPX_JSON_MISUSE, nothing written; spx_graph_write_value writes null for
 * it, spx_graph_shape counts nothing and the typed walk has no node. */
spx_json_status_t spx_graph_write(const spx_project_t *project, spx_json_writer_t *writer);
/* The same document written as one value inside a larger one (a response
 * line), the writer not finished. */
void spx_graph_write_value(const spx_project_t *project, spx_json_writer_t *writer);

/* The graph document's canonical text written into pool (NUL-terminated,
 * *length bytes without the NUL, allocated once at its size: counted, then
 * written), or NULL and *status SPX_JSON_OVER_LIMIT when it is longer than
 * limit bytes. */
const char *spx_graph_text(const spx_project_t *project, apr_size_t limit, apr_size_t *length,
                           spx_json_status_t *status, apr_pool_t *pool);

/* One module of the graph: its name, its path and the names of the modules
 * it imports (its "imports" edges, in edge order: by name). */
typedef struct spx_graph_module_t {
    const char *name;
    const char *path;
    const char **imports;
    apr_size_t import_count;
} spx_graph_module_t;

/* The graph's shape, typed: what the graph document lists, counted (nodes
 * and edges, and the nodes of each kind and the "imports" edges), and every
 * module with its imports, in name order, as the document lists them. */
typedef struct spx_graph_shape_t {
    apr_size_t nodes, edges;
    apr_size_t modules, functions, structs, consts, tests, builtins, imports;
    const spx_graph_module_t *module_list; /* modules of them */
} spx_graph_shape_t;

/* The shape of an admitted project's graph (module_list in pool). */
void spx_graph_shape(const spx_project_t *project, spx_graph_shape_t *shape, apr_pool_t *pool);

/* The graph's typed walk: every node and edge of an admitted project's
 * index, by number, as the graph document lists them (nodes in id order,
 * numbered 0 to spx_graph_node_count - 1; each node's outgoing edges in
 * edge order, by kind and to; its incoming ones in edge order, by from).
 * What the graph document writes of a node (index_write.c) and the outline
 * of `semaprax graph --format text` (cli_view.c) are both read from
 * spx_graph_node, so the two forms cannot disagree; nothing is copied. */
typedef struct spx_graph_node_t {
    int number;
    const char *id;         /* "function:app.main", "module:app", "entry" */
    const char *kind;       /* module, function, struct, enum, const, test, entry, builtin, data */
    const char *name;       /* NULL for the entry */
    const char *module;     /* an item's module (function, struct, enum, const); else NULL */
    const char *path;       /* a module's and an item's source, a data node's file; else NULL */
    const char *signature;  /* function and builtin nodes: "fn(n: int) -> int"; else NULL */
    int exported;           /* 1 or 0 for the items; -1 for the kinds that do not say */
    apr_size_t field_count; /* struct nodes: spx_graph_field */
    apr_size_t variant_count; /* enum nodes: spx_graph_variant */
    const char *type;         /* const nodes: the value's type; else NULL */
    const char *value;        /* const nodes: the value's text (a str's own bytes) */
    apr_size_t value_length;
    apr_int64_t bytes;       /* data nodes: the file's bytes; else -1 */
    const spx_span_t *span;  /* function, struct, enum and const nodes: the whole item */
    int out_count, in_count; /* its edges: spx_graph_out_edge, spx_graph_in_edge */
} spx_graph_node_t;

typedef struct spx_graph_edge_t {
    int number;       /* in edge order: (from id, kind, to id) */
    int from, to;     /* node numbers */
    const char *kind; /* imports, contains, calls, uses, reads, tests, enters */
    int sites;        /* calls, uses, reads: the sites (at least 1); else 0 */
} spx_graph_edge_t;

/* The nodes of an admitted project's graph (0 when it has no index). */
int spx_graph_node_count(const spx_project_t *project);
/* The node numbered number (0 <= number < spx_graph_node_count). */
void spx_graph_node(const spx_project_t *project, int number, spx_graph_node_t *node);
/* The node's declaration in one line, as hover words it too ("export fn
 * fib(n: int) -> int", "struct Point { x: int, y: int }", "const NAME:
 * str = \"a\\n\"", "module app (src/app.spx)", "test fact"), a str's
 * escaped for a terminal (in pool). */
const char *spx_graph_declaration(const spx_project_t *project, const spx_graph_node_t *node,
                                  apr_pool_t *pool);
/* The node number of a node id, or -1. */
int spx_graph_node_find(const spx_project_t *project, const char *id);
/* A struct node's field i: its name and type, as signatures spell it. */
void spx_graph_field(const spx_project_t *project, const spx_graph_node_t *node, apr_size_t i,
                     const char **name, const char **type);
/* An enum node's variants, read in order (v = 0, 1, ...) into the same
 * record, zeroed before the first, which keeps where the next variant's
 * payload starts, so reading them all takes time in their number: each
 * one's name and its payload's types (payload, payload_count of them). */
typedef struct spx_graph_variant_t {
    const char *name;
    const char *const *payload;
    apr_size_t payload_count;
    apr_size_t next_payload; /* the walk's: where variant v + 1's payload starts */
} spx_graph_variant_t;
void spx_graph_variant(const spx_project_t *project, const spx_graph_node_t *node, apr_size_t v,
                       spx_graph_variant_t *variant);
/* The node's k-th outgoing edge (0 <= k < out_count), or incoming one. */
void spx_graph_out_edge(const spx_project_t *project, int node, int k, spx_graph_edge_t *edge);
void spx_graph_in_edge(const spx_project_t *project, int node, int k, spx_graph_edge_t *edge);

/* The semaprax.source-semantic-graph.v1 document of an admitted single
 * source (spx_project_open_source, transport v1), written through writer
 * (as spx_graph_write, by the same code): the project graph's nodes and
 * edges for its one module, with "schema" and "source_digest" in place of
 * "project" and "project_revision". */
spx_json_status_t spx_source_graph_write(const spx_project_t *project, spx_json_writer_t *writer);
void spx_source_graph_write_value(const spx_project_t *project, spx_json_writer_t *writer);

/* The source graph document's canonical text (as spx_graph_text). */
const char *spx_source_graph_text(const spx_project_t *project, apr_size_t limit,
                                  apr_size_t *length, spx_json_status_t *status, apr_pool_t *pool);

/* A context query (outputs.md, Context). */
typedef struct spx_context_request_t {
    /* "module", "function", "struct", "const", "test" or "builtin"; may be
     * NULL when target is a graph node id */
    const char *target_kind;
    /* "app", "app.main", "geo.Point", "geo.ORIGIN_X", "fact", or a graph node
     * id: "function:app.main", "module:app", "entry", ... */
    const char *target;
    const char *direction; /* "out", "in" or "both" */
    apr_uint64_t depth;
    apr_uint64_t max_nodes;
    apr_uint64_t max_bytes;
    /* Follow only edges of these kinds ("imports", "contains", "calls",
     * "uses", "reads", "tests", "enters"), and list only those among the
     * kept nodes; the document then names them in "edge_kinds". NULL (the
     * default): every kind, and no "edge_kinds" in the document. */
    const char *const *edge_kinds;
    apr_size_t edge_kind_count;
} spx_context_request_t;

/* The request with every optional field at its default (direction "both",
 * depth, max_nodes and max_bytes from spx_limits.h, every edge kind). */
spx_context_request_t spx_context_defaults(void);

/* Why a context query cannot be answered (docs/protocol.md's reasons). */
typedef enum spx_context_problem_t {
    SPX_CONTEXT_ANSWERED = 0,
    SPX_CONTEXT_MISSING_TARGET,    /* no target, or no kind for a target that is not an id */
    SPX_CONTEXT_UNKNOWN_KIND,      /* a target_kind that is no kind of node */
    SPX_CONTEXT_UNKNOWN_DIRECTION, /* a direction other than out, in, both */
    SPX_CONTEXT_UNKNOWN_EDGE_KIND, /* an edge kind the graph does not have */
    SPX_CONTEXT_KIND_MISMATCH,     /* target_kind and the target's id prefix disagree */
    SPX_CONTEXT_OUT_OF_RANGE,      /* depth, max_nodes, max_bytes or edge kinds outside range */
    SPX_CONTEXT_UNKNOWN_TARGET,    /* no such node; the message names the nearest */
    SPX_CONTEXT_BUDGET_TOO_SMALL,  /* max_bytes cannot hold even the target's outline */
    SPX_CONTEXT_NOT_ADMITTED       /* the project has no index */
} spx_context_problem_t;

/* How a context node is tied to the node that reached it (its "via"
 * edge's kind, either way), the most relevant first: the budget takes the
 * nodes of a distance in this order, then by id (outputs.md, Context). */
typedef enum spx_context_tie_t {
    SPX_CONTEXT_TIE_CALLS = 0, /* calls: a caller or a callee */
    SPX_CONTEXT_TIE_USES,      /* uses, reads: a struct, enum, const or data */
    SPX_CONTEXT_TIE_TESTS,     /* tests, enters: a test or the entry */
    SPX_CONTEXT_TIE_MODULE     /* contains, imports: a module and its items */
} spx_context_tie_t;
#define SPX_CONTEXT_TIES 4

/* The tie's name, the key of the document's "omitted_by_tie" ("calls",
 * "uses", "tests", "module"), which the front ends' sentences use too. */
const char *spx_context_tie_name(spx_context_tie_t tie);

/* What a context document holds, typed: the target's node id, the nodes
 * and edges it lists, whether the budget left nodes out (truncated,
 * omitted_nodes, how many of each tie (by spx_context_tie_t; all 0 when
 * not truncated), and how many of them its "frontier" names), and whether
 * the target's own text was cut to fit. */
typedef struct spx_context_facts_t {
    const char *target;
    apr_size_t nodes, edges;
    int truncated;
    apr_size_t omitted_nodes;
    apr_size_t omitted_by_tie[SPX_CONTEXT_TIES];
    apr_size_t frontier;
    int target_text_truncated;
} spx_context_facts_t;

/* A node a context document lists, typed: its number in the graph's walk
 * (spx_graph_node), its distance from the target, and how it was reached
 * (via_from, the node number it was reached from, and via_kind, the edge's
 * kind; -1 and NULL for the target). */
typedef struct spx_context_node_t {
    int node;
    int distance;
    int via_from;
    const char *via_kind;
} spx_context_node_t;

/* A context query's answer: on APR_SUCCESS the document (a new reference)
 * and its facts; on APR_EINVAL the problem and message (one sentence). */
typedef struct spx_context_answer_t {
    json_t *document; /* spx_context_answer: the document; else NULL */
    /* spx_context_answer_text: the document's canonical text (in pool,
     * NUL-terminated) and its length; else NULL */
    const char *text;
    apr_size_t length;
    spx_context_facts_t facts;
    /* spx_context_answer_text: the nodes the document lists, in its order
     * (the target first), and the numbers of the edges it lists
     * (spx_graph_out_edge's edge numbers, ascending: edge order) */
    const spx_context_node_t *node_list;
    apr_size_t node_count;
    const int *edge_list;
    apr_size_t edge_count;
    spx_context_problem_t problem;
    const char *message;
} spx_context_answer_t;

/* The semaprax.project-semantic-context.v1 document. Fails with APR_EINVAL,
 * *problem (when problem is not NULL) and *message (one sentence) for an
 * unknown target kind or direction, a value out of range (max_bytes_limit
 * is the largest max_bytes allowed), a target that does not exist (the
 * message then names the nearest names of that kind, spx_suggest.h), or a
 * max_bytes too small for even the target, an unknown edge kind or more than
 * SPX_LIMIT_CONTEXT_EDGE_KINDS of them.
 *
 * The target: with a target_kind, a name of that kind ("app.main"), or that
 * kind's node id ("function:app.main"); without one, any node id of the
 * graph ("function:app.main", "module:app", "builtin:len", "entry"). A
 * target whose id prefix names another kind than target_kind is refused
 * (SPX_CONTEXT_KIND_MISMATCH), never guessed. */
apr_status_t spx_context_document_explained(const spx_project_t *project,
                                            const spx_context_request_t *request,
                                            apr_uint64_t max_bytes_limit, json_t **document,
                                            apr_pool_t *pool, const char **message,
                                            spx_context_problem_t *problem);

/* spx_context_document_explained with the document's facts, in *answer. */
apr_status_t spx_context_answer(const spx_project_t *project, const spx_context_request_t *request,
                                apr_uint64_t max_bytes_limit, spx_context_answer_t *answer,
                                apr_pool_t *pool);

/* spx_context_answer with the document's canonical text in place of the
 * document (answer->text, answer->length): the budget is searched with the
 * streaming writer counting, and the text chosen written once, at its size,
 * with no tree of it. The same answer and the same bytes. */
apr_status_t spx_context_answer_text(const spx_project_t *project,
                                     const spx_context_request_t *request,
                                     apr_uint64_t max_bytes_limit, spx_context_answer_t *answer,
                                     apr_pool_t *pool);

/* spx_context_document_explained without the problem. */
apr_status_t spx_context_document(const spx_project_t *project,
                                  const spx_context_request_t *request,
                                  apr_uint64_t max_bytes_limit, json_t **document, apr_pool_t *pool,
                                  const char **message);

#endif /* SPX_INDEX_H */
