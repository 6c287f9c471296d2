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
#include "spx_op_held.h"
#include "spx_project.h"

#include <jansson.h>

typedef struct mcp_server_t {
    const spx_session_options_t *options;
    spx_log_t log;                /* stderr: bounded unless --verbose (spx_log.h) */
    apr_pool_t *pool;             /* the server's, for what is kept across requests */
    const char *protocol_version; /* agreed by initialize; NULL before it */
    /* The project (NULL when its inputs could not be authenticated, and
     * unavailable says why), opened again on drift, and the work of the
     * projects held before it (spx_op_held.h). */
    spx_op_held_t held;
    apr_uint64_t requests;      /* requests that expected an answer */
    spx_frame_reader_t *reader; /* the input, which a call reads ahead for cancellations */
    spx_call_t *call;           /* the tools/call being answered (its deadline, its
                                 * cancellation); NULL between calls */
} mcp_server_t;

/* Let the current project go (its work counted) and open the manifest
 * afresh (spx_op_held_open), saying in the log why it is unavailable or
 * not admitted. */
void spx_mcp_reopen(mcp_server_t *server);

/* The project's revisions, or JSON null when it has none. New references. */
json_t *spx_mcp_project_revision(const mcp_server_t *server);
json_t *spx_mcp_workspace_revision(const mcp_server_t *server);

#endif /* SPX_MCP_SERVER_H */
