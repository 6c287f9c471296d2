/*
 * spx_mcp.h: `semapraxd --mcp`: the daemon's engine served as a Model
 * Context Protocol server over stdio (docs/agents.md). MCP 2025-11-25, or
 * 2025-06-18 for a host that asks for it; newline-delimited JSON-RPC read
 * and written by the agent transports' frame reader, request grammar and
 * response writer. The tools (check, context, test, run, graph_summary,
 * status, fmt, which writes only with --allow-fmt-write, and rename with
 * --allow-project-rename) answer from a project that every call
 * re-authenticates first, and opens again, saying so, when it changed.
 */
#ifndef SPX_MCP_H
#define SPX_MCP_H

#include "spx_session.h"

/* The protocol versions the server speaks: the newest first, which it
 * answers to a host that asks for one it does not know. */
#define SPX_MCP_PROTOCOL_LATEST "2025-11-25"
#define SPX_MCP_PROTOCOL_PREVIOUS "2025-06-18"

/* Serve MCP on stdio with options (the same as --stdio's; allow_rename adds
 * the rename tool, allow_fmt_write lets fmt write) until end of input: SPX_SESSION_EXIT_OK, or
 * SPX_SESSION_EXIT_STOPPED after an oversized request or response or a
 * failing read or write. */
spx_session_exit_t spx_mcp_run(const spx_session_options_t *options, spx_stdio_t *stdio,
                               apr_pool_t *pool);

#endif /* SPX_MCP_H */
