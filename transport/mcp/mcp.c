/*
 * mcp.c: `semapraxd --mcp`, the protocol side of the MCP server (spx_mcp.h,
 * docs/agents.md): the lifecycle (initialize, ping, tools/list, tools/call;
 * every notification dropped), JSON-RPC errors with data {reason, detail},
 * and the freshness of every answer. The request loop is the agent
 * transports' (loop.c, spx_loop_run_with_hooks): this file gives it the
 * hooks that word MCP's refusals, drop notifications (no silent
 * shutdown) and write each method's answer.
 *
 * Fresh, never stale: each tools/call first re-authenticates every held
 * input, as v2 does. Where v2 invalidates its session on drift, this server
 * lets the project go, opens the manifest afresh (authentication and Phase
 * A again) and answers from that, saying so in the result's
 * revision_changed. The answer is rendered whole, then the inputs are
 * re-authenticated again (the response writer's gate); drift then means it
 * is answered again from a project opened afresh, at most
 * SPX_LIMIT_MCP_DRIFT_RETRIES times, then the call is a tool error. Without
 * drift nothing is opened or built again (the status tool's counters show
 * it). The test-only daemon pauses before the second re-authentication
 * as v2's session does (SPX_TEST_PAUSE_DIR, spx_session_hooks.h).
 *
 * Bounded: each tools/call is watched (spx_call.h): a test run past
 * --max-call-seconds is stopped and the call answered with a tool error,
 * and a notifications/cancelled naming the call's id, read ahead while it
 * runs, stops it with no answer at all (MCP's rule for a cancelled request).
 */
#include "mcp_server.h"
#include "mcp_tools.h"

#include "spx_canonical.h"
#include "spx_detail.h"
#include "spx_frame.h"
#include "spx_inputs.h"
#include "spx_limits.h"
#include "spx_loop.h"
#include "spx_request.h"
#include "spx_response.h"
#include "spx_rpc.h"
#include "spx_session_hooks.h"

#include <apr_strings.h>
#include <stdio.h>
#include <string.h>

/* What one tools/call found changed: the revision it started from, the
 * drift records (at most SPX_LIMIT_MCP_DRIFT_LISTED, the rest counted), and
 * whether the project was opened again. */
typedef struct mcp_change_t {
    int changed;
    json_t *from;
    json_t *drift;
    apr_size_t drift_omitted;
} mcp_change_t;

static void note_drift(mcp_change_t *change, const char *path, const char *reason)
{
    if (json_array_size(change->drift) >= SPX_LIMIT_MCP_DRIFT_LISTED) {
        change->drift_omitted++;
        return;
    }
    json_array_append_new(change->drift, json_pack("{s:s,s:s}", "path", path, "reason", reason));
}

/* Re-authenticate every held input: 1 when nothing changed; 0, with the
 * drift noted in change, when something did, when it cannot be verified, or
 * when no project is held. */
static int held_inputs_current(mcp_server_t *server, mcp_change_t *change, apr_pool_t *pool)
{
    apr_array_header_t *found = NULL;
    switch (spx_op_held_check(&server->held, NULL, NULL, &found, pool)) {
    case SPX_OP_HELD_CURRENT:
        return 1;
    case SPX_OP_HELD_UNVERIFIABLE:
        note_drift(change, "", "unverifiable");
        return 0;
    case SPX_OP_HELD_DRIFTED:
        for (int i = 0; i < found->nelts; i++) {
            const spx_drift_t *record = &APR_ARRAY_IDX(found, i, spx_drift_t);
            note_drift(change, record->path, spx_drift_reason_name(record->reason));
        }
        return 0;
    case SPX_OP_HELD_NONE:
        break;
    }
    return 0;
}

/* Before a tool runs: the held project when it is current, else the
 * manifest opened afresh (a project that could not be opened is tried
 * again at every call). */
static void refresh(mcp_server_t *server, mcp_change_t *change, apr_pool_t *pool)
{
    if (held_inputs_current(server, change, pool))
        return;
    int held = server->held.project != NULL;
    if (held)
        spx_log_event(&server->log, "drift found: the project is opened again");
    spx_mcp_reopen(server);
    if (held || server->held.project)
        change->changed = 1;
}

/* The gate between rendering and writing: the second re-authentication. */
typedef struct gate_context_t {
    mcp_server_t *server;
    mcp_change_t *change;
    apr_pool_t *pool;
} gate_context_t;

static int second_check(void *context)
{
    gate_context_t *gate = context;
    /* The test-only daemon's pause (spx_session_hooks.h): a process test
     * changes a file here. */
    const spx_session_hooks_t *hooks = spx_session_hooks();
    if (hooks->pause)
        hooks->pause(SPX_SESSION_PAUSE_SECOND_CHECK, gate->pool);
    return held_inputs_current(gate->server, gate->change, gate->pool);
}

/* --- results ------------------------------------------------------------------ */

static json_t *revision_changed(const mcp_server_t *server, const mcp_change_t *change)
{
    json_t *object = json_pack("{s:O,s:o,s:O}", "from", change->from, "to",
                               spx_mcp_project_revision(server), "drift", change->drift);
    if (change->drift_omitted)
        json_object_set_new(object, "drift_omitted",
                            json_integer((json_int_t)change->drift_omitted));
    return object;
}

/* One sentence on what changed, for a result's text. */
static const char *change_sentence(const mcp_server_t *server, const mcp_change_t *change,
                                   apr_pool_t *pool)
{
    const char *to = server->held.project ? spx_project_revision(server->held.project) : NULL;
    const char *from = json_string_value(change->from);
    const char *sentence =
        apr_psprintf(pool,
                     "The project changed since it was last read, so it was opened again "
                     "(project revision %s -> %s); drift:",
                     from ? from : "none", to ? to : "none");
    size_t index;
    json_t *record;
    json_array_foreach(change->drift, index, record)
    {
        const char *path = json_string_value(json_object_get(record, "path"));
        sentence = apr_pstrcat(pool, sentence, index ? ", " : " ", *path ? path : "(the inputs)",
                               " ", json_string_value(json_object_get(record, "reason")), NULL);
    }
    if (json_array_size(change->drift) == 0)
        sentence = apr_pstrcat(pool, sentence, " none (it could not be opened before)", NULL);
    if (change->drift_omitted)
        sentence =
            apr_psprintf(pool, "%s and %" APR_SIZE_T_FMT " more", sentence, change->drift_omitted);
    return apr_pstrcat(pool, sentence, ".", NULL);
}

/* The tools/call result of answer: a text block (the summary, then the
 * structured content as JSON when with_json) and structuredContent; or a
 * text block and isError. */
static json_t *tool_result(const mcp_server_t *server, const mcp_answer_t *answer,
                           const mcp_change_t *change, int with_json, apr_pool_t *pool)
{
    const char *prefix = change->changed ? change_sentence(server, change, pool) : NULL;
    if (answer->is_error) {
        const char *text =
            prefix ? apr_pstrcat(pool, prefix, "\n", answer->error_text, NULL) : answer->error_text;
        return json_pack("{s:[{s:s,s:s}],s:b}", "content", "type", "text", "text", text, "isError",
                         1);
    }
    json_t *structured = json_deep_copy(answer->structured);
    if (change->changed)
        json_object_set_new(structured, "revision_changed", revision_changed(server, change));
    const char *text = answer->summary;
    if (prefix)
        text = apr_pstrcat(pool, prefix, "\n", text, NULL);
    if (with_json) {
        const char *json_text = spx_canonical_text(structured, pool);
        text = apr_pstrcat(pool, text, "\n", json_text ? json_text : "", NULL);
    }
    return json_pack("{s:[{s:s,s:s}],s:o,s:b}", "content", "type", "text", "text", text,
                     "structuredContent", structured, "isError", 0);
}

/* The bytes of document's canonical text, measured without rendering it. */
static apr_uint64_t canonical_bytes(const json_t *document)
{
    return json_dumpb(document, NULL, 0, SPX_CANONICAL_FLAGS);
}

/* The canonical text of answer's result within largest bytes: with the
 * JSON in its text when that fits, else with the summary alone, else a tool
 * error saying how large it would have been. Each form is measured before
 * it is rendered, and one that cannot fit is never rendered: the JSON copy
 * is tried only when twice the structured content fits. */
static const char *render_result(const mcp_server_t *server, const mcp_answer_t *answer,
                                 const mcp_change_t *change, apr_uint64_t largest, apr_pool_t *pool)
{
    apr_uint64_t needed = 0;
    int mirror = answer->is_error || 2 * canonical_bytes(answer->structured) <= largest;
    for (int with_json = mirror; with_json >= 0; with_json--) {
        json_t *result = tool_result(server, answer, change, with_json, pool);
        needed = canonical_bytes(result);
        const char *text = needed <= largest ? spx_canonical_text(result, pool) : NULL;
        json_decref(result);
        if (text)
            return text;
        if (answer->is_error)
            break;
    }
    mcp_answer_t refusal = {0};
    refusal.is_error = 1;
    refusal.error_text = apr_psprintf(pool,
                                      "the answer would need %" APR_UINT64_T_FMT
                                      " bytes, over the %" APR_UINT64_T_FMT
                                      " that --max-response-bytes %" APR_SIZE_T_FMT
                                      " leaves: ask for less (max_bytes, max_nodes, max_modules)",
                                      needed, largest, server->options->max_response_bytes);
    json_t *result = tool_result(server, &refusal, change, 0, pool);
    const char *text = spx_canonical_text(result, pool);
    json_decref(result);
    return text;
}

/* The budget's measure (mcp_tools.h): the result of an answer in its least
 * form, as render_result would make it in this call. */
typedef struct measuring_t {
    const mcp_server_t *server;
    const mcp_change_t *change;
} measuring_t;

static apr_uint64_t measure_answer(void *context, const mcp_answer_t *answer, apr_pool_t *pool)
{
    const measuring_t *measuring = context;
    json_t *result = tool_result(measuring->server, answer, measuring->change, 0, pool);
    apr_uint64_t bytes = canonical_bytes(result);
    json_decref(result);
    return bytes;
}

/* --- JSON-RPC ------------------------------------------------------------------- */

static apr_status_t write_error(mcp_server_t *server, spx_response_writer_t *writer, json_t *id,
                                int code, const char *reason, const char *detail,
                                spx_response_outcome_t *outcome)
{
    spx_log_request(&server->log, "refused (%s): %s", reason, detail);
    json_t *data = json_pack("{s:s,s:s}", "reason", reason, "detail", detail);
    apr_status_t status =
        spx_response_write_error_said(writer, id, code, data, detail, NULL, outcome);
    json_decref(data);
    return status;
}

/* Write result (released here); NULL, a result that could not be made
 * (memory, or bytes that are not UTF-8), is written as -32603. */
static apr_status_t write_result(spx_response_writer_t *writer, json_t *id, json_t *result,
                                 spx_response_outcome_t *outcome)
{
    if (!result)
        return spx_response_write_error_said(writer, id, SPX_RPC_INTERNAL_ERROR, NULL,
                                             spx_rpc_default_detail(SPX_RPC_INTERNAL_ERROR), NULL,
                                             outcome);
    apr_status_t status = spx_response_write_result(writer, id, result, outcome);
    json_decref(result);
    return status;
}

static const char *param_string(const spx_request_t *request, const char *key)
{
    json_t *member = request->params ? json_object_get(request->params, key) : NULL;
    return json_is_string(member) ? json_string_value(member) : NULL;
}

/* --- the methods ------------------------------------------------------------------ */

static const char *instructions(const mcp_server_t *server, apr_pool_t *pool)
{
    return apr_psprintf(
        pool,
        "semapraxd holds one Semaprax project (the manifest %s and the sources it declares) and "
        "answers from its checked semantic state. Every tool call first re-authenticates every "
        "file it holds; when one changed, the project is opened again and the result says so in "
        "revision_changed, so no answer is stale. Start with status or check, use graph_summary "
        "for the shape of the project and context for one module, function, struct, const or "
        "test with its neighbours, test to run the manifest's tests, run to run the entry or "
        "another function with arguments, and fmt for the canonical layout of the sources "
        "(a diff, or the text)%s.%s",
        server->options->manifest_path,
        server->options->allow_fmt_write ? "; with write: true it writes the changed sources" : "",
        server->options->allow_rename
            ? " rename renames an exported function and every call of it, and writes the files "
              "(dry_run shows the edits first)."
            : "");
}

static apr_status_t answer_initialize(mcp_server_t *server, const spx_request_t *request,
                                      spx_response_writer_t *writer,
                                      spx_response_outcome_t *outcome, apr_pool_t *pool)
{
    const char *asked = param_string(request, "protocolVersion");
    if (!asked)
        return write_error(server, writer, request->id, SPX_RPC_INVALID_PARAMS, "invalid_params",
                           "initialize needs params.protocolVersion, a string", outcome);
    if (server->protocol_version)
        return write_error(server, writer, request->id, SPX_RPC_INVALID_REQUEST,
                           "already_initialized",
                           apr_psprintf(pool, "the session was initialized already, with %s",
                                        server->protocol_version),
                           outcome);
    server->protocol_version = strcmp(asked, SPX_MCP_PROTOCOL_PREVIOUS) == 0
                                   ? SPX_MCP_PROTOCOL_PREVIOUS
                                   : SPX_MCP_PROTOCOL_LATEST;
    spx_log_request(&server->log, "initialize: asked for %s, answered %s", asked,
                    server->protocol_version);
    return write_result(writer, request->id,
                        json_pack("{s:s,s:{s:{}},s:{s:s,s:s},s:s}", "protocolVersion",
                                  server->protocol_version, "capabilities", "tools", "serverInfo",
                                  "name", "semapraxd", "version", SPX_VERSION, "instructions",
                                  instructions(server, pool)),
                        outcome);
}

/* Answer tools/call: refresh, run the tool, write its result behind the
 * second re-authentication, and on drift there answer again from the
 * project opened afresh. */
static apr_status_t answer_tool_call(mcp_server_t *server, const spx_request_t *request,
                                     spx_response_writer_t *writer, spx_response_outcome_t *outcome,
                                     apr_pool_t *pool)
{
    const char *name = param_string(request, "name");
    json_t *arguments = request->params ? json_object_get(request->params, "arguments") : NULL;
    if (!name)
        return write_error(server, writer, request->id, SPX_RPC_INVALID_PARAMS, "invalid_params",
                           "tools/call needs params.name, a string", outcome);
    if (arguments && !json_is_object(arguments))
        return write_error(server, writer, request->id, SPX_RPC_INVALID_PARAMS, "invalid_params",
                           "params.arguments of tools/call must be an object", outcome);
    const mcp_tool_t *tool = spx_mcp_find_tool(server, name);
    if (!tool)
        return write_error(server, writer, request->id, SPX_RPC_INVALID_PARAMS, "unknown_tool",
                           apr_psprintf(pool, "no tool '%s'; the tools are %s",
                                        spx_detail_echo(name, pool),
                                        spx_mcp_tool_names(server, pool)),
                           outcome);
    json_t *no_arguments = json_object();
    if (!arguments)
        arguments = no_arguments;

    server->call = spx_call_watch(request, apr_time_now(), server->options->max_call_seconds,
                                  server->reader, pool);
    apr_uint64_t around = spx_response_result_frame_bytes(request->id);
    apr_uint64_t limit = server->options->max_response_bytes;
    apr_uint64_t largest = limit > around ? limit - around : 0;
    mcp_change_t change = {0, spx_mcp_project_revision(server), json_array(), 0};
    apr_status_t status = APR_SUCCESS;
    int answered = 0;
    for (unsigned attempt = 0; attempt <= SPX_LIMIT_MCP_DRIFT_RETRIES && !answered; attempt++) {
        if (attempt == 0)
            refresh(server, &change, pool);
        mcp_answer_t answer = {0};
        measuring_t measuring = {server, &change};
        const mcp_budget_t budget = {largest, measure_answer, &measuring};
        tool->run(server, arguments, &budget, &answer, pool);
        if (spx_call_stopped(server->call) == SPX_CALL_CANCELLED) {
            spx_log_request(&server->log, "%s: cancelled by the client, not answered", tool->name);
            json_decref(answer.structured);
            answered = 1;
            break;
        }
        const char *text = render_result(server, &answer, &change, largest, pool);
        json_decref(answer.structured);
        if (!text) {
            status = write_result(writer, request->id, NULL, outcome);
            answered = 1;
            break;
        }
        gate_context_t gate_context = {server, &change, pool};
        spx_response_gate_t gate = {second_check, &gate_context};
        int gated =
            !answer.ungated && server->held.project && spx_project_inputs(server->held.project);
        status = spx_response_write_result_text(writer, request->id, text, strlen(text),
                                                gated ? &gate : NULL, outcome);
        if (status != APR_SUCCESS || *outcome != SPX_RESPONSE_WITHHELD) {
            answered = 1;
            break;
        }
        /* Drift between rendering and writing: answer from the project
         * opened afresh. */
        spx_log_event(&server->log, "drift during %s: the project is opened again", tool->name);
        spx_mcp_reopen(server);
        change.changed = 1;
    }
    if (!answered) {
        mcp_answer_t refusal = {0};
        refusal.is_error = 1;
        refusal.error_text = apr_psprintf(
            pool,
            "the project changed while this call was answered, %u times in a row; no answer "
            "was given from it: call again once the files are no longer being changed",
            SPX_LIMIT_MCP_DRIFT_RETRIES + 1);
        const char *text = render_result(server, &refusal, &change, largest, pool);
        status = text ? spx_response_write_result_text(writer, request->id, text, strlen(text),
                                                       NULL, outcome)
                      : write_result(writer, request->id, NULL, outcome);
    }
    server->call = NULL;
    json_decref(no_arguments);
    json_decref(change.from);
    json_decref(change.drift);
    return status;
}

static apr_status_t dispatch(mcp_server_t *server, const spx_request_t *request,
                             spx_response_writer_t *writer, spx_response_outcome_t *outcome,
                             apr_pool_t *pool)
{
    const char *method = request->method;
    server->requests++;
    if (strcmp(method, "initialize") == 0)
        return answer_initialize(server, request, writer, outcome, pool);
    if (strcmp(method, "ping") == 0)
        return write_result(writer, request->id, json_object(), outcome);
    int tools_list = strcmp(method, "tools/list") == 0;
    int tools_call = strcmp(method, "tools/call") == 0;
    if (!tools_list && !tools_call)
        return write_error(server, writer, request->id, SPX_RPC_METHOD_NOT_FOUND,
                           "method_not_found",
                           apr_psprintf(pool,
                                        "semapraxd --mcp answers initialize, ping, tools/list and "
                                        "tools/call, not '%s'",
                                        spx_detail_echo(method, pool)),
                           outcome);
    if (!server->protocol_version)
        return write_error(server, writer, request->id, SPX_RPC_INVALID_REQUEST, "not_initialized",
                           apr_psprintf(pool, "%s before initialize: initialize first",
                                        spx_detail_echo(method, pool)),
                           outcome);
    if (tools_list) {
        json_t *cursor = request->params ? json_object_get(request->params, "cursor") : NULL;
        if (cursor && !json_is_string(cursor))
            return write_error(server, writer, request->id, SPX_RPC_INVALID_PARAMS,
                               "invalid_params", "params.cursor of tools/list must be a string",
                               outcome);
        return write_result(writer, request->id, spx_mcp_tool_list(server), outcome);
    }
    return answer_tool_call(server, request, writer, outcome, pool);
}

/* --- the loop's hooks (spx_loop.h) ---------------------------------------------------- */

/* The loop (loop.c) reads the frames and ends the session; these say what
 * MCP answers: refusals with data {reason, detail} in this file's words,
 * every notification dropped (MCP has no silent shutdown), and each method
 * writing its own answer. */

static apr_status_t refuse_oversized(void *context, spx_response_writer_t *writer,
                                     apr_size_t max_request_bytes, spx_response_outcome_t *outcome,
                                     apr_pool_t *pool)
{
    return write_error(context, writer, NULL, SPX_RPC_REQUEST_TOO_LARGE, "request_too_large",
                       apr_psprintf(pool,
                                    "a request line was over --max-request-bytes %" APR_SIZE_T_FMT,
                                    max_request_bytes),
                       outcome);
}

/* A line that may well be JSON but is over a limit of the grammar, which
 * is not decoded: -32600 with its own reason, not -32700 ("not JSON"). */
static const char *const over_a_limit[][2] = {
    {"too many values", "too_many_values"},
    {"nesting too deep", "too_deep"},
};

static apr_status_t refuse_invalid(void *context, spx_response_writer_t *writer,
                                   const spx_request_error_t *error,
                                   spx_response_outcome_t *outcome, apr_pool_t *pool)
{
    for (size_t i = 0; error->detail && i < sizeof(over_a_limit) / sizeof(over_a_limit[0]); i++)
        if (strcmp(error->detail, over_a_limit[i][0]) == 0)
            return write_error(
                context, writer, error->id, SPX_RPC_INVALID_REQUEST, over_a_limit[i][1],
                apr_psprintf(pool,
                             "the line holds more than %u JSON values or nests them deeper than "
                             "%u (%s): it is not read",
                             SPX_LIMIT_REQUEST_JSON_VALUES, SPX_LIMIT_REQUEST_JSON_DEPTH,
                             error->detail),
                outcome);
    return write_error(context, writer, error->id, error->code, spx_rpc_default_reason(error->code),
                       error->detail ? error->detail : spx_rpc_default_detail(error->code),
                       outcome);
}

static int notified(void *context, const spx_request_t *request)
{
    mcp_server_t *server = context;
    if (request->is_response)
        spx_log_request(&server->log, "a response from the client: nothing to do");
    else
        spx_log_request(&server->log, "notification %s: nothing to do", request->method);
    return 0;
}

static apr_status_t respond(void *context, const spx_request_t *request,
                            spx_response_writer_t *writer, spx_response_outcome_t *outcome,
                            int *stop, apr_pool_t *pool)
{
    (void)stop; /* MCP has no shutdown method: the host closes our input */
    return dispatch(context, request, writer, outcome, pool);
}

/* MCP's JSON-RPC: any integer id, and responses never answered. */
static const spx_request_dialect_t mcp_dialect = {.negative_ids = 1, .responses = 1};

static const spx_loop_hooks_t mcp_hooks = {
    .refuse_oversized = refuse_oversized,
    .refuse_invalid = refuse_invalid,
    .notified = notified,
    .respond = respond,
    .dialect = &mcp_dialect,
};

spx_session_exit_t spx_mcp_run(const spx_session_options_t *options, spx_stdio_t *stdio,
                               apr_pool_t *pool)
{
    mcp_server_t *server = apr_pcalloc(pool, sizeof(*server));
    server->options = options;
    server->pool = pool;
    spx_log_init(&server->log, "semapraxd", options->verbose);
    spx_op_held_init(&server->held, options->manifest_path, pool);
    spx_mcp_reopen(server); /* startup: a failure is said at each tool call */

    spx_frame_reader_t *reader = NULL;
    spx_response_writer_t *writer = NULL;
    if (spx_frame_reader_create_stdio(&reader, stdio, options->max_request_bytes, pool) !=
            APR_SUCCESS ||
        spx_response_writer_create_stdio(&writer, stdio, options->max_response_bytes, pool) !=
            APR_SUCCESS)
        return SPX_SESSION_EXIT_STOPPED;
    server->reader = reader;
    spx_loop_report_t report;
    spx_loop_run_with_hooks(reader, writer, &mcp_hooks, server, pool, &report);
    spx_loop_explain(&report, "semapraxd", options->max_request_bytes, options->max_response_bytes);
    return spx_loop_exit_status(report.end) ? SPX_SESSION_EXIT_STOPPED : SPX_SESSION_EXIT_OK;
}
