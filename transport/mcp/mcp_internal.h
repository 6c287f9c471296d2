/*
 * mcp_internal.h: what the two files of the MCP server share, and nothing
 * outside them sees (spx_mcp.h is its public face). mcp.c is the protocol:
 * the lifecycle, its hooks of the shared request loop (spx_loop.h),
 * JSON-RPC errors, keeping the project fresh and writing each tool's result
 * behind the second re-authentication; mcp_tools.c is the tools: their
 * schemas and what each answers.
 */
#ifndef SPX_MCP_INTERNAL_H
#define SPX_MCP_INTERNAL_H

#include "spx_mcp.h"

#include "spx_log.h"
#include "spx_project.h"

#include <jansson.h>

typedef struct mcp_server_t {
    const spx_session_options_t *options;
    spx_log_t log;                /* stderr: bounded unless --verbose (spx_log.h) */
    apr_pool_t *pool;             /* the server's, for what is kept across requests */
    const char *protocol_version; /* agreed by initialize; NULL before it */
    spx_project_t *project;       /* NULL when its inputs could not be authenticated */
    apr_pool_t *project_pool;     /* the project's; replaced when it is opened again */
    const char *unavailable;      /* why project is NULL (in pool) */
    /* The work of the projects held before the current one. */
    apr_uint64_t earlier_phase_a_runs, earlier_authentications, earlier_source_reads;
    apr_uint64_t requests; /* requests that expected an answer */
} mcp_server_t;

/* A tool's answer: structured (a new reference, which the tool's
 * outputSchema describes) and a one-line summary; or is_error with the
 * text that says why. ungated: written without the second
 * re-authentication (a committed rename, which wrote the files itself). */
typedef struct mcp_answer_t {
    json_t *structured;
    const char *summary;
    int is_error;
    const char *error_text;
    int ungated;
} mcp_answer_t;

/* One tool: its name, title and description, its input and output schemas
 * (JSON texts), whether only --allow-project-rename lists it, and what it
 * does with the call's arguments (an object, never NULL). largest is the
 * most bytes its structured answer may take. */
typedef struct mcp_tool_t {
    const char *name;
    const char *title;
    const char *description;
    int read_only;
    int needs_rename;
    const char *(*input_schema)(apr_pool_t *pool);
    const char *output_schema;
    void (*run)(mcp_server_t *server, json_t *arguments, apr_uint64_t largest, mcp_answer_t *answer,
                apr_pool_t *pool);
} mcp_tool_t;

/* --- mcp_tools.c, for mcp.c ---------------------------------------------- */

/* The tool named name that this server lists, or NULL. */
const mcp_tool_t *spx_mcp_find_tool(const mcp_server_t *server, const char *name);

/* The tools/list result. A new reference. */
json_t *spx_mcp_tool_list(const mcp_server_t *server);

/* The names of the tools this server lists, for a message ("check, ..."). */
const char *spx_mcp_tool_names(const mcp_server_t *server, apr_pool_t *pool);

/* --- mcp.c, for the tools ---------------------------------------------------- */

/* Let the current project go (its work counted) and open the manifest
 * afresh: authentication and Phase A. On failure project is NULL and
 * unavailable says why. */
void spx_mcp_reopen(mcp_server_t *server);

/* Answer from fresh (in fresh_pool, a subpool of the server's) from now
 * on: the current project's work is counted and it goes (a committed
 * rename's project, opened by spx_op_rename). */
void spx_mcp_adopt(mcp_server_t *server, spx_project_t *fresh, apr_pool_t *fresh_pool);

/* The project's revisions, or JSON null when it has none. New references. */
json_t *spx_mcp_project_revision(const mcp_server_t *server);
json_t *spx_mcp_workspace_revision(const mcp_server_t *server);

#endif /* SPX_MCP_INTERNAL_H */
