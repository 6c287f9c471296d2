/*
 * mcp_server.h: the MCP server's state (the project it holds and how it
 * holds it) and what may be done with it, below both mcp.c (the protocol)
 * and mcp_tools.c (the tools), which include it and never each other's
 * declarations: mcp.c -> mcp_tools.h -> mcp_server.h. mcp_server.c owns
 * these functions; nothing outside the MCP room sees them (spx_mcp.h is its
 * public face).
 */
#ifndef SPX_MCP_SERVER_H
#define SPX_MCP_SERVER_H

#include "spx_mcp.h"

#include "spx_call.h"
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
    apr_uint64_t requests;      /* requests that expected an answer */
    spx_frame_reader_t *reader; /* the input, which a call reads ahead for cancellations */
    spx_call_t *call;           /* the tools/call being answered (its deadline, its
                                 * cancellation); NULL between calls */
} mcp_server_t;

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

#endif /* SPX_MCP_SERVER_H */
