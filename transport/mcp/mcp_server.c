/*
 * mcp_server.c: the project the MCP server holds (mcp_server.h): its
 * revisions and opening it afresh (spx_op_held.h holds it). The protocol
 * (mcp.c) and the tools (mcp_tools.c) both call these; this file calls
 * neither.
 */
#include "mcp_server.h"

#include "spx_inputs.h"
#include "spx_status.h"

#include <apr_strings.h>

json_t *spx_mcp_project_revision(const mcp_server_t *server)
{
    const char *revision = server->held.project ? spx_project_revision(server->held.project) : NULL;
    return revision ? json_string(revision) : json_null();
}

json_t *spx_mcp_workspace_revision(const mcp_server_t *server)
{
    const char *revision =
        server->held.project ? spx_project_workspace_revision(server->held.project) : NULL;
    return revision ? json_string(revision) : json_null();
}

void spx_mcp_reopen(mcp_server_t *server)
{
    spx_op_held_open(&server->held);
    if (server->held.unavailable)
        spx_log_event(&server->log, "%s", server->held.unavailable);
    else if (!spx_project_has_manifest(server->held.project))
        spx_log_event(&server->log, "the manifest has diagnostics");
}
