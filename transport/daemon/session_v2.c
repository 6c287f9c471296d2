/*
 * session_v2.c: the methods of semaprax.agent-transport.v2 (docs/
 * protocol-v2.md) and their table, and v2's profile: its schema, what it
 * does not claim, and that table. session.c has checked the state, the
 * params' names and, for a semantic method, the revisions and a first
 * re-authentication before a method runs; a method computes its answer from
 * the retained project only.
 */
#include "session_internal.h"

#include "spx_call.h"
#include "spx_canonical.h"
#include "spx_detail.h"
#include "spx_envelope.h"
#include "spx_index.h"
#include "spx_limits.h"
#include "spx_operations.h"
#include "spx_params.h"
#include "spx_rpc.h"

#include <apr_strings.h>
#include <stdio.h>
#include <string.h>

/* What v2 does not claim (the contract's list), sorted bytewise. */
static const char *const nonclaims[] = {
    "batch, concurrent or out-of-order execution",
    "build or mutation methods",
    "durability or recovery",
    "exactly-once effects",
    "incremental refresh or automatic reopen",
    "network, socket, TLS or peer authentication",
    "persistent disk cache",
    "provenance, signature, approval or reusable authorization",
    "repository index",
    "request deduplication",
    "request-selected root or arbitrary filesystem read",
    "source write, patch, rename, change, impact or review authority",
    "target execution or test discovery",
    "web or native build publication",
};

/* --- params ---------------------------------------------------------------- */

/* 1 when an optional unsigned integer param within [minimum, maximum] is
 * absent or valid (found); 0 when mistyped or out of range (given), and
 * the reply says which and why. */
static int count_accepted(spx_param_found_t found, const char *key, apr_int64_t given,
                          apr_uint64_t minimum, apr_uint64_t maximum, reply_t *reply,
                          apr_pool_t *pool)
{
    switch (found) {
    case SPX_PARAM_ABSENT:
    case SPX_PARAM_VALID:
        return 1;
    case SPX_PARAM_OUT_OF_RANGE:
        spx_session_invalid_params(reply, pool, "out_of_range",
                                   "%s %" APR_INT64_T_FMT " is outside %" APR_UINT64_T_FMT
                                   "..%" APR_UINT64_T_FMT,
                                   key, given, minimum, maximum);
        return 0;
    case SPX_PARAM_BEYOND_INT64:
        spx_session_invalid_params(reply, pool, "out_of_range",
                                   "%s is beyond 2^63-1, outside %" APR_UINT64_T_FMT
                                   "..%" APR_UINT64_T_FMT,
                                   key, minimum, maximum);
        return 0;
    default:
        spx_session_invalid_params(reply, pool, "mistyped_param",
                                   "%s must be a JSON integer (written without fraction or "
                                   "exponent) in %" APR_UINT64_T_FMT "..%" APR_UINT64_T_FMT,
                                   key, minimum, maximum);
        return 0;
    }
}

/* An optional unsigned integer param within [minimum, maximum]: 1 when absent
 * (value untouched) or valid; 0 when mistyped or out of range, and the
 * reply says which and why. */
static int optional_count(const spx_request_t *request, const char *key, apr_uint64_t minimum,
                          apr_uint64_t maximum, apr_uint64_t *value, reply_t *reply,
                          apr_pool_t *pool)
{
    apr_int64_t given = 0;
    spx_param_found_t found = spx_param_optional_count(request->params, key, minimum, maximum,
                                                       request->integers_as_reals, value, &given);
    return count_accepted(found, key, given, minimum, maximum, reply, pool);
}

/* The run limits among the params (spx_op_run_limits, in its order) over
 * the defaults in limits: 1 when each is absent or applied; 0 when one is
 * mistyped or refused, and the reply says which and why. */
static int limit_params(const spx_request_t *request, spx_run_limits_t *limits, reply_t *reply,
                        apr_pool_t *pool)
{
    for (apr_size_t i = 0; i < SPX_OP_RUN_LIMIT_COUNT; i++) {
        const spx_op_run_limit_t *limit = &spx_op_run_limits[i];
        apr_uint64_t value = 0;
        apr_int64_t given = 0;
        spx_param_found_t found =
            spx_param_optional_count(request->params, limit->param, 0, APR_UINT64_MAX,
                                     request->integers_as_reals, &value, &given);
        if (found == SPX_PARAM_VALID &&
            spx_op_run_limit_apply(limits, i, value) != SPX_OP_LIMIT_APPLIED) {
            found = SPX_PARAM_OUT_OF_RANGE;
            given = (apr_int64_t)value; /* a JSON integer: at most 2^63-1 */
        }
        if (!count_accepted(found, limit->param, given, limit->minimum, limit->maximum, reply,
                            pool))
            return 0;
    }
    return 1;
}

/* An optional (required when needed) string param: 1 when absent or a
 * string (*value set then), 0 when mistyped or missing though needed, and
 * the reply says so. */
static int string_param(const spx_request_t *request, const char *key, int needed,
                        const char **value, reply_t *reply, apr_pool_t *pool)
{
    switch (spx_param_optional_string(request->params, key, value)) {
    case SPX_PARAM_VALID:
        return 1;
    case SPX_PARAM_ABSENT:
        if (!needed)
            return 1;
        spx_session_invalid_params(reply, pool, "missing_param", "%s needs %s (a string)",
                                   request->method, key);
        return 0;
    default:
        spx_session_invalid_params(reply, pool, "mistyped_param", "%s must be a string", key);
        return 0;
    }
}

/* --- the methods ------------------------------------------------------------ */

static json_t *state_name(const session_t *session)
{
    return json_string(spx_session_state_name(session));
}

static void run_ping(session_t *session, const spx_request_t *request, reply_t *reply,
                     apr_pool_t *pool)
{
    (void)request;
    (void)pool;
    reply->result = json_pack("{s:o}", "state", state_name(session));
}

static int healthy(const session_t *session)
{
    return session->unavailable == NULL && session->state != STATE_INVALIDATED;
}

static void run_status(session_t *session, const spx_request_t *request, reply_t *reply,
                       apr_pool_t *pool)
{
    (void)request;
    (void)pool;
    spx_input_counters_t counters = {0, 0};
    apr_uint64_t phase_a_runs = 0;
    if (session->project) {
        counters = spx_input_set_counters(spx_project_inputs(session->project));
        phase_a_runs = spx_project_phase_a_runs(session->project);
    }
    counters.authentications += session->earlier.authentications;
    counters.source_reads += session->earlier.source_reads;
    json_t *result = json_pack("{s:o,s:b,s:{s:I,s:I,s:I,s:I}}", "state", state_name(session),
                               "healthy", healthy(session), "counters", "phase_a_runs",
                               (json_int_t)phase_a_runs, "requests", (json_int_t)session->requests,
                               "authentications", (json_int_t)counters.authentications,
                               "source_reads", (json_int_t)counters.source_reads);
    if (session->project_revision) {
        json_object_set_new(result, "project_revision", json_string(session->project_revision));
        json_object_set_new(result, "workspace_revision", json_string(session->workspace_revision));
    }
    reply->result = result;
}

static void run_open(session_t *session, const spx_request_t *request, reply_t *reply,
                     apr_pool_t *pool)
{
    (void)request;
    if (session->state == STATE_INVALIDATED) {
        spx_session_invalidated(session, reply);
        return;
    }
    if (session->unavailable) {
        const char *message = session->unavailable_message;
        spx_session_refuse(
            reply, SPX_RPC_WORKSPACE_UNAVAILABLE,
            json_pack("{s:O}", "diagnostics", session->unavailable), "workspace_unavailable",
            apr_psprintf(pool,
                         "the daemon could not authenticate the project's inputs or parse its "
                         "manifest at startup (%s); this session cannot open: fix the project "
                         "and start a new semapraxd",
                         spx_detail_echo(message ? message : "see data.diagnostics", pool)));
        return;
    }
    if (!spx_session_reauthenticate(session, pool)) {
        spx_session_invalidated(session, reply);
        return;
    }
    session->state = STATE_OPEN;
    reply->result =
        json_pack("{s:s,s:s}", "project_revision", spx_project_revision(session->project),
                  "workspace_revision", spx_project_workspace_revision(session->project));
}

static void run_shutdown(session_t *session, const spx_request_t *request, reply_t *reply,
                         apr_pool_t *pool)
{
    (void)request;
    (void)pool;
    session->state = STATE_SHUTDOWN;
    reply->result = json_pack("{s:o}", "state", state_name(session));
}

static void run_snapshot(session_t *session, const spx_request_t *request, reply_t *reply,
                         apr_pool_t *pool)
{
    (void)request;
    (void)pool;
    spx_snapshot_result_t snapshot;
    spx_op_snapshot(session->project, session->options->manifest_path, &snapshot);
    reply->result = snapshot.document;
}

static void run_check(session_t *session, const spx_request_t *request, reply_t *reply,
                      apr_pool_t *pool)
{
    (void)request;
    (void)pool;
    reply->result = spx_project_check_document(session->project);
}

static void write_graph(void *context, spx_json_writer_t *writer)
{
    spx_op_graph_write(context, writer);
}

static void run_graph(session_t *session, const spx_request_t *request, reply_t *reply,
                      apr_pool_t *pool)
{
    (void)request;
    if (!spx_session_admitted(session, reply, pool))
        return;
    /* Written from the index straight into the response line, never past
     * what it can hold, and its memory given back once it is written. */
    reply->result_stream = write_graph;
    reply->result_context = (void *)session->project;
}

/* The -32602 reason of a context query the engine refused. */
static const char *context_reason(spx_context_problem_t problem)
{
    switch (problem) {
    case SPX_CONTEXT_MISSING_TARGET:
        return "missing_param";
    case SPX_CONTEXT_UNKNOWN_KIND:
    case SPX_CONTEXT_UNKNOWN_DIRECTION:
    case SPX_CONTEXT_UNKNOWN_EDGE_KIND:
        return "invalid_value";
    case SPX_CONTEXT_KIND_MISMATCH:
        return "target_kind_mismatch";
    case SPX_CONTEXT_OUT_OF_RANGE:
        return "out_of_range";
    case SPX_CONTEXT_UNKNOWN_TARGET:
        return "unknown_target";
    case SPX_CONTEXT_BUDGET_TOO_SMALL:
        return "budget_too_small";
    default:
        return "invalid_value";
    }
}

static void run_context(session_t *session, const spx_request_t *request, reply_t *reply,
                        apr_pool_t *pool)
{
    /* max_bytes is the document's budget: what the response line can hold
     * around it is the largest that is accepted, and the default is cut to
     * it, so an accepted request is always answered. */
    apr_uint64_t largest = spx_session_largest_result(session, request);
    spx_context_request_t query = spx_op_context_query(SPX_LIMIT_CONTEXT_BYTES_DEFAULT, largest);
    if (!string_param(request, "target", 1, &query.target, reply, pool) ||
        !string_param(request, "target_kind", 0, &query.target_kind, reply, pool) ||
        !string_param(request, "direction", 0, &query.direction, reply, pool) ||
        !optional_count(request, "depth", 0, SPX_LIMIT_CONTEXT_DEPTH_MAXIMUM, &query.depth, reply,
                        pool) ||
        !optional_count(request, "max_nodes", 1, SPX_LIMIT_CONTEXT_NODES_MAXIMUM, &query.max_nodes,
                        reply, pool) ||
        !optional_count(request, "max_bytes", 1, largest, &query.max_bytes, reply, pool))
        return;
    if (!spx_session_admitted(session, reply, pool))
        return;
    spx_context_result_t context;
    apr_status_t status = spx_op_context_text(session->project, &query, largest, &context, pool);
    if (status == APR_EINVAL) {
        spx_log_request(&session->log, "context: %s",
                        context.message ? context.message : "invalid params");
        spx_session_refuse(reply, SPX_RPC_INVALID_PARAMS, NULL, context_reason(context.problem),
                           context.message);
    } else if (status != APR_SUCCESS) {
        spx_session_refuse(reply, SPX_RPC_INTERNAL_ERROR, NULL, "internal_error",
                           "the context could not be made (out of memory); nothing changed");
    } else {
        reply->result_text = context.text;
        reply->result_length = context.length;
    }
}

/* The optional param tests: 1 when absent (*names NULL) or an array of one
 * or more strings (*names, *count set), 0 otherwise, and the reply says why. */
static int test_names_param(const spx_request_t *request, const char ***names, apr_size_t *count,
                            reply_t *reply, apr_pool_t *pool)
{
    apr_size_t item = 0;
    spx_param_found_t found = spx_param_test_names(request->params, names, count, &item, pool);
    if (found == SPX_PARAM_ABSENT || found == SPX_PARAM_VALID)
        return 1;
    spx_session_invalid_params(reply, pool,
                               found == SPX_PARAM_EMPTY ? "invalid_value" : "mistyped_param", "%s",
                               spx_param_test_names_problem(found, item, pool));
    return 0;
}

static void run_test(session_t *session, const spx_request_t *request, reply_t *reply,
                     apr_pool_t *pool)
{
    spx_op_test_request_t test = {spx_op_test_limits_default(), NULL, 0, NULL, 0, NULL};
    const char **names = NULL;
    if (!limit_params(request, &test.limits, reply, pool) ||
        !test_names_param(request, &names, &test.name_count, reply, pool) ||
        !spx_session_admitted(session, reply, pool))
        return;
    test.names = names;
    /* Nothing is built past what the response line can hold. */
    test.max_answer_bytes = spx_session_largest_result(session, request);
    spx_call_t *call =
        spx_call_watch(request, apr_time_now(), session->options->max_call_seconds, NULL, pool);
    spx_op_test_result_t run;
    const char *message = NULL;
    test.interrupt = spx_call_interrupt(call);
    switch (spx_op_test(session->project, &test, &run, pool, &message)) {
    case SPX_OP_TEST_TOO_LARGE:
        /* The answer that would not fit: the fixed -32001, and the session
         * ends, as for any response over --max-response-bytes. */
        spx_log_request(&session->log, "test: %s", message);
        spx_session_refuse(reply, SPX_RPC_RESPONSE_TOO_LARGE, NULL, NULL, NULL);
        return;
    case SPX_OP_TEST_UNKNOWN_NAME:
        spx_log_request(&session->log, "test: %s", message);
        spx_session_refuse(reply, SPX_RPC_INVALID_PARAMS, NULL, "unknown_target", message);
        return;
    case SPX_OP_TEST_INTERRUPTED: /* v2 has no cancellation: only the deadline stops a call */
        spx_log_event(&session->log, "test: stopped past --max-call-seconds %" APR_UINT64_T_FMT,
                      session->options->max_call_seconds);
        spx_session_refuse(reply, SPX_RPC_CALL_TOO_LONG, NULL, "call_too_long",
                           spx_call_too_long_sentence(call, pool));
        return;
    case SPX_OP_TEST_NOT_RUN:
        spx_log_event(&session->log, "test: %s", message);
        spx_session_refuse(reply, SPX_RPC_INTERNAL_ERROR, NULL, "internal_error",
                           apr_psprintf(pool, "the tests could not be run: %s", message));
        return;
    default:
        reply->result = json_pack("{s:b,s:o}", "command_succeeded", run.command_succeeded,
                                  "envelope", run.envelope);
    }
}

/* The profile in force (v2, or v3 with --allow-project-rename) says the
 * schema, the methods and the nonclaims; the limits are the same. */
static void run_protocol(session_t *session, const spx_request_t *request, reply_t *reply,
                         apr_pool_t *pool)
{
    (void)request;
    (void)pool;
    const spx_session_options_t *options = session->options;
    const session_profile_t *profile = session->profile;
    json_t *claims = json_array();
    for (size_t i = 0; i < profile->nonclaim_count; i++)
        json_array_append_new(claims, json_string(profile->nonclaims[i]));
    reply->result = json_pack(
        "{s:s,s:s,s:o,s:o,s:s,s:o,s:{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I}}", "schema",
        profile->schema, "version", SPX_VERSION, "state", state_name(session), "methods",
        spx_session_method_names(session), "manifest", options->manifest_path, "nonclaims", claims,
        "limits", "max_request_bytes", (json_int_t)options->max_request_bytes, "max_response_bytes",
        (json_int_t)options->max_response_bytes, "max_steps",
        (json_int_t)SPX_LIMIT_MAX_STEPS_MAXIMUM, "max_steps_default",
        (json_int_t)SPX_LIMIT_MAX_STEPS_DEFAULT, "max_bytes",
        (json_int_t)SPX_LIMIT_MAX_BYTES_MAXIMUM, "max_memory",
        (json_int_t)SPX_LIMIT_MAX_MEMORY_MAXIMUM, "max_memory_default",
        (json_int_t)SPX_LIMIT_MAX_MEMORY_DEFAULT, "max_call_depth",
        (json_int_t)SPX_LIMIT_CALL_DEPTH_MAXIMUM, "max_call_depth_default",
        (json_int_t)SPX_LIMIT_CALL_DEPTH_DEFAULT, "max_context_depth",
        (json_int_t)SPX_LIMIT_CONTEXT_DEPTH_MAXIMUM, "max_context_nodes",
        (json_int_t)SPX_LIMIT_CONTEXT_NODES_MAXIMUM, "max_id_string_bytes",
        (json_int_t)SPX_LIMIT_ID_STRING_BYTES);
}

/* --- the table and the profile ------------------------------------------------ */

const char *const spx_session_no_params[] = {NULL};
static const char *const context_params[] = {"target_kind", "target",    "direction", "depth",
                                             "max_bytes",   "max_nodes", NULL};
static const char *const test_params[] = {"max_steps",      "max_bytes", "max_memory",
                                          "max_call_depth", "tests",     NULL};

/* Sorted by name. */
static const session_method_t methods[] = {
    {"check", 1, spx_session_no_params, run_check},
    {"context", 1, context_params, run_context},
    {"graph", 1, spx_session_no_params, run_graph},
    {"ping", 0, spx_session_no_params, run_ping},
    {"protocol", 0, spx_session_no_params, run_protocol},
    {"shutdown", 0, spx_session_no_params, run_shutdown},
    {"test", 1, test_params, run_test},
    {"workspace/open", 0, spx_session_no_params, run_open},
    {"workspace/snapshot", 1, spx_session_no_params, run_snapshot},
    {"workspace/status", 0, spx_session_no_params, run_status},
};

const session_methods_t spx_session_v2_methods = {methods, sizeof(methods) / sizeof(methods[0])};

const session_profile_t spx_session_v2_profile = {
    SPX_SESSION_SCHEMA,
    nonclaims,
    sizeof(nonclaims) / sizeof(nonclaims[0]),
    {&spx_session_v2_methods, NULL},
};
