/*
 * mcp_server.c: the project the MCP server holds (mcp_server.h): its
 * revisions, opening it afresh and adopting a renamed one. The protocol (mcp.c) and the tools
 * (mcp_tools.c) both call these; this file calls neither.
 */
#include "mcp_server.h"

#include "spx_inputs.h"
#include "spx_status.h"

#include <apr_strings.h>

json_t *spx_mcp_project_revision(const mcp_server_t *server)
{
    const char *revision = server->project ? spx_project_revision(server->project) : NULL;
    return revision ? json_string(revision) : json_null();
}

json_t *spx_mcp_workspace_revision(const mcp_server_t *server)
{
    const char *revision = server->project ? spx_project_workspace_revision(server->project) : NULL;
    return revision ? json_string(revision) : json_null();
}

void spx_mcp_reopen(mcp_server_t *server)
{
    if (server->project) {
        const spx_input_set_t *inputs = spx_project_inputs(server->project);
        if (inputs) {
            spx_input_counters_t counters = spx_input_set_counters(inputs);
            server->earlier_authentications += counters.authentications;
            server->earlier_source_reads += counters.source_reads;
        }
        server->earlier_phase_a_runs += spx_project_phase_a_runs(server->project);
        server->project = NULL;
    }
    if (server->project_pool)
        apr_pool_destroy(server->project_pool);
    apr_pool_create(&server->project_pool, server->pool);
    const char *message = NULL;
    apr_status_t status = spx_project_open(&server->project, server->options->manifest_path,
                                           server->project_pool, &message);
    server->unavailable = NULL;
    if (status != APR_SUCCESS) {
        char reason[256];
        server->project = NULL;
        server->unavailable = apr_pstrdup(
            server->project_pool, message ? message : spx_strerror(status, reason, sizeof(reason)));
        spx_log_event(&server->log, "%s", server->unavailable);
    } else if (!spx_project_has_manifest(server->project)) {
        spx_log_event(&server->log, "the manifest has diagnostics");
    }
}

void spx_mcp_adopt(mcp_server_t *server, spx_project_t *fresh, apr_pool_t *fresh_pool)
{
    apr_pool_t *old_pool = server->project_pool;
    if (server->project) {
        spx_input_counters_t counters = spx_input_set_counters(spx_project_inputs(server->project));
        server->earlier_authentications += counters.authentications;
        server->earlier_source_reads += counters.source_reads;
        server->earlier_phase_a_runs += spx_project_phase_a_runs(server->project);
    }
    server->project = fresh;
    server->project_pool = fresh_pool;
    server->unavailable = NULL;
    if (old_pool)
        apr_pool_destroy(old_pool);
}
