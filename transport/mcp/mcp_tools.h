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

/* What a tool's answer may take (mcp.c): result_bytes, the most bytes of
 * the whole tools/call result, what --max-response-bytes leaves around it;
 * and measure(context, answer), the bytes the result of answer takes in
 * the least form mcp.c writes (its summary or error text without the JSON
 * copy, with revision_changed and its sentence when the project was opened
 * again for this call), measured without rendering it. */
typedef struct mcp_budget_t {
    apr_uint64_t result_bytes;
    apr_uint64_t (*measure)(void *context, const mcp_answer_t *answer, apr_pool_t *pool);
    void *context;
} mcp_budget_t;

/* One tool: its name, title and description, its input schema (made for
 * this server's limits and flags) and output schema (JSON texts), whether
 * only --allow-project-rename lists it, whether --allow-fmt-write lets it
 * write (then it is not read-only, but idempotent), and what it does with
 * the call's arguments (an object, never NULL) within budget. */
typedef struct mcp_tool_t {
    const char *name;
    const char *title;
    const char *description;
    int read_only;
    int needs_rename;
    int writes_with_fmt_flag;
    const char *(*input_schema)(const mcp_server_t *server, apr_pool_t *pool);
    const char *output_schema;
    void (*run)(mcp_server_t *server, json_t *arguments, const mcp_budget_t *budget,
                mcp_answer_t *answer, apr_pool_t *pool);
} mcp_tool_t;

/* The tool named name that this server lists, or NULL. */
const mcp_tool_t *spx_mcp_find_tool(const mcp_server_t *server, const char *name);

/* The tools/list result. A new reference. */
json_t *spx_mcp_tool_list(const mcp_server_t *server);

/* The names of the tools this server lists, for a message ("check, ..."). */
const char *spx_mcp_tool_names(const mcp_server_t *server, apr_pool_t *pool);

#endif /* SPX_MCP_TOOLS_H */
