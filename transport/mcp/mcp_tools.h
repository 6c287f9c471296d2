/*
 * mcp_tools.h: the tools of `semapraxd --mcp` as mcp.c finds, lists and
 * runs them (mcp_tools.c). A tool receives the server (mcp_server.h) and
 * answers through mcp_answer_t; mcp.c writes that answer. The arrows point
 * one way: mcp.c -> mcp_tools.h -> mcp_server.h.
 */
#ifndef SPX_MCP_TOOLS_H
#define SPX_MCP_TOOLS_H

#include "mcp_server.h"

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

/* The tool named name that this server lists, or NULL. */
const mcp_tool_t *spx_mcp_find_tool(const mcp_server_t *server, const char *name);

/* The tools/list result. A new reference. */
json_t *spx_mcp_tool_list(const mcp_server_t *server);

/* The names of the tools this server lists, for a message ("check, ..."). */
const char *spx_mcp_tool_names(const mcp_server_t *server, apr_pool_t *pool);

#endif /* SPX_MCP_TOOLS_H */
