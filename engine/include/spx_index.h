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
 * are rendered from it alone: no source is read or parsed again.
 */
#ifndef SPX_INDEX_H
#define SPX_INDEX_H

#include "spx_project.h"

/* The semaprax.project-semantic-graph.v1 document (outputs.md). A new reference. */
json_t *spx_graph_document(const spx_project_t *project);

/* The semaprax.source-semantic-graph.v1 document of an admitted single
 * source (spx_project_open_source, transport v1): the project graph's nodes
 * and edges for its one module, with "schema" and "source_digest" in place of
 * "project" and "project_revision". A new reference. */
json_t *spx_source_graph_document(const spx_project_t *project);

/* A context query (outputs.md, Context). */
typedef struct spx_context_request_t {
    const char *target_kind; /* "module", "function", "struct", "const" or "test" */
    const char *target;      /* "app", "app.main", "geo.Point", "geo.ORIGIN_X", "fact" */
    const char *direction;   /* "out", "in" or "both" */
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

/* The semaprax.project-semantic-context.v1 document. Fails with APR_EINVAL
 * and *message for an unknown target kind or direction, a value out of range
 * (max_bytes_limit is the largest max_bytes allowed), a target that does not
 * exist, a max_bytes too small for even the target, an unknown edge kind or
 * more than SPX_LIMIT_CONTEXT_EDGE_KINDS of them. */
apr_status_t spx_context_document(const spx_project_t *project,
                                  const spx_context_request_t *request,
                                  apr_uint64_t max_bytes_limit, json_t **document, apr_pool_t *pool,
                                  const char **message);

#endif /* SPX_INDEX_H */
