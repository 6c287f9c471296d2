/*
 * spx_op_query.h: the query operations on an admitted project (`semaprax
 * graph` and `context`, the daemon's graph, context and workspace/snapshot,
 * MCP's context and graph_summary): each one's document, rendered once by
 * the engine and shared by `--format json`, the daemon's result and MCP's
 * structuredContent, with the facts a front end words, typed, so that none
 * reads a document back by key. The graph is only ever written, streamed
 * into the front end's sink (spx_op_graph_write).
 */
#ifndef SPX_OP_QUERY_H
#define SPX_OP_QUERY_H

#include "spx_index.h"
#include "spx_project.h"

/* --- graph ----------------------------------------------------------------- */

/* The semantic graph of an admitted project (semaprax.project-semantic-graph.v1)
 * written through writer as one value, by the streaming canonical writer
 * with no tree or whole text of it (spx_graph_write_value): `semaprax
 * graph` streams it to stdout and finishes the writer, the daemon's v2 and
 * v3 graph write it inside the response line under its budget. The writer
 * is not finished; its status says whether the graph was written whole. */
void spx_op_graph_write(const spx_project_t *project, spx_json_writer_t *writer);

/* --- graph summary ---------------------------------------------------------------- */

typedef struct spx_graph_summary_t {
    spx_graph_shape_t shape; /* every count, and every module */
    apr_size_t listed;       /* the modules listed: the first max_modules of shape's */
    apr_size_t omitted_modules;
    int truncated; /* some modules are not listed */
    apr_uint64_t max_modules;
    /* {"counts":{modules, functions, structs, consts, tests, nodes, edges,
     * imports}, "modules":[{name, path, imports}...], "truncated",
     * "omitted_modules", "max_modules"}: a new reference */
    json_t *document;
} spx_graph_summary_t;

/* The graph of an admitted project in counts and its import graph: the
 * first max_modules modules (in name order) with the modules each imports
 * (everything in pool). */
void spx_op_graph_summary(const spx_project_t *project, apr_uint64_t max_modules,
                          spx_graph_summary_t *summary, apr_pool_t *pool);

/* --- context ------------------------------------------------------------------------- */

/* The document (semaprax.project-semantic-context.v1, a new reference, on
 * APR_SUCCESS) with its facts (target, nodes, edges, truncated, omitted,
 * frontier), or the problem and the engine's sentence (on APR_EINVAL). */
typedef spx_context_answer_t spx_context_result_t;

/* A query with every field at its default (spx_context_defaults) but
 * max_bytes: default_bytes, cut to max_bytes_limit, the most the caller's
 * answer can hold, so that a query left at its default is always answered. */
spx_context_request_t spx_op_context_query(apr_uint64_t default_bytes,
                                           apr_uint64_t max_bytes_limit);

/* The bounded context of query's target in project, whose max_bytes may be
 * at most max_bytes_limit. APR_SUCCESS, or APR_EINVAL with the problem and
 * message (an unknown target names the nearest; a project not admitted is
 * SPX_CONTEXT_NOT_ADMITTED). */
apr_status_t spx_op_context(const spx_project_t *project, const spx_context_request_t *query,
                            apr_uint64_t max_bytes_limit, spx_context_result_t *result,
                            apr_pool_t *pool);

/* spx_op_context with the document's canonical text (result->text,
 * result->length, in pool) in place of the document, written by the
 * streaming writer with no tree of it (spx_context_answer_text). */
apr_status_t spx_op_context_text(const spx_project_t *project, const spx_context_request_t *query,
                                 apr_uint64_t max_bytes_limit, spx_context_result_t *result,
                                 apr_pool_t *pool);

/* The words that count a cut context's omitted nodes by tie, the most
 * relevant tie first and only the ties it dropped: "by tie: uses 2, tests
 * 1, module 1" (outputs.md, Context). MCP's summary sentence and the CLI's
 * outline of `semaprax context` each put them in their own sentence. facts
 * are of a truncated context, which always omits a node of some tie (the
 * target is always kept; every other node is reached over a tie). In pool. */
const char *spx_op_context_omitted_by_tie(const spx_context_facts_t *facts, apr_pool_t *pool);

/* --- snapshot ------------------------------------------------------------------------ */

typedef struct spx_snapshot_result_t {
    /* the daemon's workspace/snapshot result (spx_project_snapshot_document):
     * a new reference */
    json_t *document;
    const char *manifest_path; /* as the project was opened */
    const char *project_revision, *workspace_revision;
    apr_size_t sources;        /* the sources listed */
    apr_uint64_t source_bytes; /* their bytes, all together */
} spx_snapshot_result_t;

/* The snapshot of a project opened from the manifest at manifest_path
 * (with the manifest's inputs held). */
void spx_op_snapshot(const spx_project_t *project, const char *manifest_path,
                     spx_snapshot_result_t *result);

#endif /* SPX_OP_QUERY_H */
