/*
 * session.c: the v2 agent session (spx_session.h): startup, the request
 * loop, the state machine and the closed method set of
 * semaprax.agent-transport.v2. Every semantic method checks the state and the
 * revisions, re-authenticates every held input, computes from the retained
 * project only, renders the whole response, re-authenticates again (the
 * response writer's gate) and only then writes; drift at either check
 * answers -32013 instead. docs/protocol-v2.md.
 *
 * With --allow-project-rename the session is semaprax.agent-transport.v3:
 * the same plus project/rename, the Project Rename Transaction of
 * spx_rename.h, after which the session answers from the renamed project
 * (docs/protocol-v3.md). Without it, project/rename is neither listed nor
 * routed.
 *
 * Built twice: into semapraxd, and with SPX_TEST_HOOKS into the test-only
 * semapraxd_test, whose gate first pauses (test_pause) so that a process test
 * can change a source between rendering and the second check; whose rename
 * pauses the same way before its re-check of step 4 and after its commit;
 * and whose rename commit fails on demand at a point the environment
 * names (failure injection).
 */
#include "spx_session.h"

#include "spx_allocation.h"
#include "spx_canonical.h"
#include "spx_loop.h"

#include "spx_envelope.h"
#include "spx_frame.h"
#include "spx_index.h"
#include "spx_limits.h"
#include "spx_project.h"
#include "spx_rename.h"
#include "spx_request.h"
#include "spx_response.h"
#include "spx_rpc.h"

#include <apr_strings.h>
#include <stdio.h>
#include <string.h>

#ifdef SPX_TEST_HOOKS
#include <apr_file_info.h>
#include <apr_file_io.h>
#include <apr_time.h>
#include <stdlib.h>
#endif

typedef enum state_t { STATE_CONFIGURED, STATE_OPEN, STATE_INVALIDATED, STATE_SHUTDOWN } state_t;

static const char *const state_names[] = {"configured", "open", "invalidated", "shutdown"};

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

/* What v3 does not claim: v2's list, with the write authority narrowed to
 * the one rename it admits. Sorted bytewise. */
static const char *const nonclaims_v3[] = {
    "batch, concurrent or out-of-order execution",
    "build methods, or any mutation but project/rename",
    "exactly-once effects",
    "incremental refresh or automatic reopen",
    "network, socket, TLS or peer authentication",
    "persistent disk cache",
    "provenance, signature, approval or reusable authorization",
    "recovery of a transaction interrupted by a crash",
    "repository index",
    "request deduplication",
    "request-selected root or arbitrary filesystem read",
    /* one entry, in parentheses so clang does not take it for a missing comma */
    ("source write, patch, change, impact or review authority beyond renaming one exported "
     "function"),
    "target execution or test discovery",
    "web or native build publication",
};

typedef struct session_t {
    const spx_session_options_t *options;
    state_t state;
    spx_project_t *project; /* NULL when startup authentication failed */
    json_t *unavailable;    /* the diagnostics of -32011; NULL when healthy */
    json_t *drift;          /* data.drift of -32013 once invalidated */
    const char *project_revision, *workspace_revision; /* last authenticated, or NULL */
    apr_uint64_t requests;
    apr_pool_t *pool; /* the session's, for what is kept across requests */
    /* The graph's canonical text, rendered at the first graph request and
     * kept: the project cannot change while the session answers. */
    const char *graph_text;
    apr_size_t graph_length;
    apr_pool_t *project_pool; /* the project's, replaced after a rename */
    /* The counters of the input sets the session held before the current
     * one (a rename holds the project afresh). */
    spx_input_counters_t earlier;
} session_t;

/* A method's answer (spx_loop.h): a result (or its text, already rendered),
 * or an error code with optional data; a semantic one is gated by the
 * second re-authentication. */
typedef spx_answer_t reply_t;

static void reply_error(reply_t *reply, int code, json_t *data)
{
    reply->error_code = code;
    reply->error_data = data;
}

/* --- authentication ------------------------------------------------------ */

/* Re-authenticate every held input. 1 when nothing changed; otherwise the
 * session is invalidated for good, its drift recorded, and 0. */
static int reauthenticate(session_t *session, apr_pool_t *pool)
{
    apr_array_header_t *found = NULL;
    apr_status_t status =
        spx_input_set_reauthenticate(spx_project_inputs(session->project), pool, &found);
    if (status == APR_SUCCESS && found->nelts == 0) {
        session->project_revision = spx_project_revision(session->project);
        session->workspace_revision = spx_project_workspace_revision(session->project);
        return 1;
    }
    json_t *drift = json_array();
    if (status != APR_SUCCESS) {
        json_array_append_new(drift, json_pack("{s:s,s:s}", "path", "", "reason", "unverifiable"));
    } else {
        for (int i = 0; i < found->nelts; i++) {
            const spx_drift_t *record = &APR_ARRAY_IDX(found, i, spx_drift_t);
            json_array_append_new(drift, json_pack("{s:s,s:s}", "path", record->path, "reason",
                                                   spx_drift_reason_name(record->reason)));
        }
    }
    if (session->drift)
        json_decref(session->drift);
    session->drift = drift;
    session->state = STATE_INVALIDATED;
    fprintf(stderr, "semapraxd: drift found: the session is invalidated\n");
    return 0;
}

static void invalidated(session_t *session, reply_t *reply)
{
    reply_error(reply, SPX_RPC_SESSION_INVALIDATED, json_pack("{s:O}", "drift", session->drift));
}

#ifdef SPX_TEST_HOOKS
/* Test build only: when the environment variable names a directory, create
 * the file "paused" in it, then wait until the test creates "go" there
 * (looking every millisecond, for at most SPX_TEST_PAUSE_SECONDS), and remove
 * both. SPX_TEST_PAUSE_DIR pauses between rendering and the second
 * re-authentication; SPX_TEST_STARTUP_PAUSE_DIR at startup, after every
 * input is authenticated and before Phase A; SPX_TEST_RENAME_PAUSE_DIR after
 * a rename's plan, before the re-check of its step 4;
 * SPX_TEST_RENAME_COMMITTED_DIR after its commit, before step 6. Files, not a
 * fifo, so that the same tests run on Windows. */
static void test_pause(const char *variable, apr_pool_t *pool)
{
    const char *dir = getenv(variable);
    if (!dir)
        return;
    const char *paused = apr_pstrcat(pool, dir, "/paused", NULL);
    const char *go = apr_pstrcat(pool, dir, "/go", NULL);
    apr_file_t *file = NULL;
    if (apr_file_open(&file, paused, APR_FOPEN_WRITE | APR_FOPEN_CREATE | APR_FOPEN_EXCL,
                      APR_FPROT_OS_DEFAULT, pool) != APR_SUCCESS)
        return;
    apr_file_close(file);
    apr_finfo_t info;
    for (long waited = 0; waited < SPX_TEST_PAUSE_SECONDS * 1000L; waited++) {
        if (apr_stat(&info, go, APR_FINFO_TYPE, pool) == APR_SUCCESS)
            break;
        apr_sleep(apr_time_from_msec(1));
    }
    apr_file_remove(go, pool);
    apr_file_remove(paused, pool);
}
#endif

typedef struct gate_context_t {
    session_t *session;
    apr_pool_t *pool;
} gate_context_t;

/* The answer written in place of one the second re-authentication
 * withheld (the loop's context is the session). */
static void drifted(void *context, spx_answer_t *replacement)
{
    invalidated(context, replacement);
}

static int second_check(void *context)
{
    gate_context_t *gate = context;
#ifdef SPX_TEST_HOOKS
    test_pause("SPX_TEST_PAUSE_DIR", gate->pool);
#endif
    return reauthenticate(gate->session, gate->pool);
}

/* --- params ---------------------------------------------------------------- */

/* An optional unsigned integer param within [minimum, maximum]: 1 when absent
 * (value untouched) or valid, 0 when mistyped or out of range. */
static int optional_count(json_t *params, const char *key, apr_uint64_t minimum,
                          apr_uint64_t maximum, apr_uint64_t *value)
{
    json_t *member = params ? json_object_get(params, key) : NULL;
    if (!member)
        return 1;
    if (!json_is_integer(member) || json_integer_value(member) < 0)
        return 0;
    apr_uint64_t given = (apr_uint64_t)json_integer_value(member);
    if (given < minimum || given > maximum)
        return 0;
    *value = given;
    return 1;
}

/* A string param; NULL when absent or not a string. */
static const char *string_param(json_t *params, const char *key)
{
    json_t *member = params ? json_object_get(params, key) : NULL;
    return json_is_string(member) ? json_string_value(member) : NULL;
}

/* --- the methods ------------------------------------------------------------ */

typedef struct method_t {
    const char *name;
    int semantic;             /* needs an open session and the revisions */
    int v3;                   /* only with --allow-project-rename */
    const char *const *extra; /* params beyond the revisions, NULL-terminated */
    void (*run)(session_t *session, const spx_request_t *request, reply_t *reply, apr_pool_t *pool);
} method_t;

static const char *const no_params[] = {NULL};
static const char *const context_params[] = {"target_kind", "target",    "direction", "depth",
                                             "max_bytes",   "max_nodes", NULL};
static const char *const test_params[] = {"max_steps", "max_bytes", NULL};

static json_t *state_name(const session_t *session)
{
    return json_string(state_names[session->state]);
}

static void run_protocol(session_t *session, const spx_request_t *request, reply_t *reply,
                         apr_pool_t *pool);

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
        invalidated(session, reply);
        return;
    }
    if (session->unavailable) {
        reply_error(reply, SPX_RPC_WORKSPACE_UNAVAILABLE,
                    json_pack("{s:O}", "diagnostics", session->unavailable));
        return;
    }
    if (!reauthenticate(session, pool)) {
        invalidated(session, reply);
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
    reply->result =
        spx_project_snapshot_document(session->project, session->options->manifest_path);
}

static void run_check(session_t *session, const spx_request_t *request, reply_t *reply,
                      apr_pool_t *pool)
{
    (void)request;
    (void)pool;
    reply->result = spx_project_check_document(session->project);
}

/* graph, context and test need an admitted project: otherwise -32014. */
static int admitted(const session_t *session, reply_t *reply)
{
    if (spx_project_admitted(session->project))
        return 1;
    reply_error(reply, SPX_RPC_PROJECT_NOT_ADMITTED,
                json_pack("{s:o}", "diagnostics",
                          spx_diagnostics_json(spx_project_diagnostics(session->project))));
    return 0;
}

static void run_graph(session_t *session, const spx_request_t *request, reply_t *reply,
                      apr_pool_t *pool)
{
    (void)request;
    (void)pool;
    if (!admitted(session, reply))
        return;
    if (!session->graph_text) {
        json_t *graph = spx_graph_document(session->project);
        const char *text = graph ? spx_canonical_text(graph, session->pool) : NULL;
        json_decref(graph);
        if (!text) {
            reply_error(reply, SPX_RPC_INTERNAL_ERROR, NULL);
            return;
        }
        session->graph_text = text;
        session->graph_length = strlen(text);
    }
    reply->result_text = session->graph_text;
    reply->result_length = session->graph_length;
}

/* The largest result, in canonical bytes, that a response line to request
 * can hold: --max-response-bytes less {"id":ID,"jsonrpc":"2.0","result":}
 * and the LF. */
static apr_uint64_t largest_result(const session_t *session, const spx_request_t *request)
{
    apr_uint64_t around = spx_response_result_frame_bytes(request->id);
    apr_uint64_t limit = session->options->max_response_bytes;
    return limit > around ? limit - around : 0;
}

static void run_context(session_t *session, const spx_request_t *request, reply_t *reply,
                        apr_pool_t *pool)
{
    json_t *params = request->params;
    spx_context_request_t query = spx_context_defaults();
    query.target_kind = string_param(params, "target_kind");
    query.target = string_param(params, "target");
    json_t *direction = json_object_get(params, "direction");
    if (direction)
        query.direction = json_string_value(direction);
    /* max_bytes is the document's budget: what the response line can hold
     * around it is the largest that is accepted, and the default is cut to
     * it, so an accepted request is always answered. */
    apr_uint64_t response_bytes = session->options->max_response_bytes;
    apr_uint64_t largest = largest_result(session, request);
    if (query.max_bytes > largest)
        query.max_bytes = largest;
    if (!query.target_kind || !query.target || (direction && !query.direction) ||
        !optional_count(params, "depth", 0, SPX_LIMIT_CONTEXT_DEPTH_MAXIMUM, &query.depth) ||
        !optional_count(params, "max_nodes", 1, SPX_LIMIT_CONTEXT_NODES_MAXIMUM,
                        &query.max_nodes) ||
        !optional_count(params, "max_bytes", 1, response_bytes, &query.max_bytes)) {
        reply_error(reply, SPX_RPC_INVALID_PARAMS, NULL);
        return;
    }
    if (!admitted(session, reply))
        return;
    const char *message = NULL;
    json_t *document = NULL;
    apr_status_t status =
        spx_context_document(session->project, &query, largest, &document, pool, &message);
    if (status == APR_EINVAL) {
        fprintf(stderr, "semapraxd: context: %s\n", message ? message : "invalid params");
        reply_error(reply, SPX_RPC_INVALID_PARAMS, NULL);
    } else if (status != APR_SUCCESS) {
        reply_error(reply, SPX_RPC_INTERNAL_ERROR, NULL);
    } else {
        reply->result = document;
    }
}

static void run_test(session_t *session, const spx_request_t *request, reply_t *reply,
                     apr_pool_t *pool)
{
    spx_run_limits_t limits = spx_run_limits_default();
    /* APR's type, not uint64_t: on macOS one is unsigned long, the other
     * unsigned long long. */
    apr_uint64_t max_steps = limits.max_steps, max_bytes = limits.max_bytes;
    if (!optional_count(request->params, "max_steps", 0, SPX_LIMIT_MAX_STEPS_MAXIMUM, &max_steps) ||
        !optional_count(request->params, "max_bytes", 0, SPX_LIMIT_MAX_BYTES_MAXIMUM, &max_bytes)) {
        reply_error(reply, SPX_RPC_INVALID_PARAMS, NULL);
        return;
    }
    limits.max_steps = max_steps;
    limits.max_bytes = (apr_size_t)max_bytes;
    if (!admitted(session, reply))
        return;
    json_t *envelope = NULL;
    const char *message = NULL;
    if (spx_envelope_build(session->project, &limits, &envelope, pool, &message) != APR_SUCCESS) {
        fprintf(stderr, "semapraxd: test: %s\n", message ? message : "cannot run");
        reply_error(reply, SPX_RPC_INTERNAL_ERROR, NULL);
        return;
    }
    reply->result = json_pack("{s:O,s:o}", "command_succeeded",
                              json_object_get(envelope, "command_succeeded"), "envelope", envelope);
}

/* --- project/rename (v3) ----------------------------------------------------- */

#ifdef SPX_TEST_HOOKS
/* Test build only: SPX_TEST_RENAME_FAIL=POINT:WHICH makes the commit fail at
 * POINT (create, write, flush, replace, sync) of the first or last changed
 * file (WHICH: first, last). */
static apr_status_t test_probe(void *context, spx_commit_point_t point, apr_size_t file,
                               apr_size_t files, const char **message, apr_pool_t *pool)
{
    (void)context;
    const char *wanted = getenv("SPX_TEST_RENAME_FAIL");
    if (!wanted)
        return APR_SUCCESS;
    const char *name = spx_commit_point_name(point);
    apr_size_t length = strlen(name);
    if (strncmp(wanted, name, length) != 0 || wanted[length] != ':')
        return APR_SUCCESS;
    const char *which = wanted + length + 1;
    if ((strcmp(which, "first") == 0 && file == 0) ||
        (strcmp(which, "last") == 0 && file + 1 == files)) {
        *message = apr_psprintf(pool, "injected failure (SPX_TEST_RENAME_FAIL=%s)", wanted);
        return APR_EGENERAL;
    }
    return APR_SUCCESS;
}

#endif

static json_t *string_list(const apr_array_header_t *list)
{
    json_t *array = json_array();
    for (int i = 0; list && i < list->nelts; i++)
        json_array_append_new(array, json_string(APR_ARRAY_IDX(list, i, const char *)));
    return array;
}

/* The session answers from fresh (in pool) from now on; the old project and
 * everything it held go. */
static void rebind_session(session_t *session, spx_project_t *fresh, apr_pool_t *pool)
{
    spx_input_counters_t old = spx_input_set_counters(spx_project_inputs(session->project));
    session->earlier.authentications += old.authentications;
    session->earlier.source_reads += old.source_reads;
    apr_pool_destroy(session->project_pool);
    session->project_pool = pool;
    session->project = fresh;
    session->project_revision = spx_project_revision(fresh);
    session->workspace_revision = spx_project_workspace_revision(fresh);
    session->graph_text = NULL; /* rendered again from the new project when asked */
    session->graph_length = 0;
}

/* Open the project afresh in a new pool and, when it is exactly what is
 * expected, answer from it; otherwise invalidate the session. 1 when
 * rebound; *reason says why not. */
static int rebind_to(session_t *session, const spx_rename_plan_t *plan, const char *expected,
                     const char **reason, apr_pool_t *request_pool)
{
    apr_pool_t *fresh_pool = NULL;
    spx_project_t *fresh = NULL;
    apr_pool_create(&fresh_pool, session->pool);
    if (spx_rename_rebind(session->project, plan, expected, &fresh, fresh_pool, reason) ==
        APR_SUCCESS) {
        *reason = apr_pstrdup(request_pool, *reason ? *reason : "");
        rebind_session(session, fresh, fresh_pool);
        return 1;
    }
    *reason = apr_pstrdup(request_pool, *reason);
    apr_pool_destroy(fresh_pool);
    return 0;
}

/* -32016: what failed and where, what was restored, and what the session is
 * bound to now (or its drift when it could not be bound again). */
static void rename_failed(session_t *session, const spx_rename_plan_t *plan,
                          spx_rename_failure_t *failure, reply_t *reply, apr_pool_t *pool)
{
    if (failure->inputs_touched) {
        const char *why = NULL;
        if (!rebind_to(session, plan, spx_project_revision(session->project), &why, pool)) {
            failure->reason = apr_psprintf(pool,
                                           "%s; then the session could not hold the "
                                           "restored project again: %s",
                                           failure->reason, why);
            /* Still open only if what the session holds is still what it
             * authenticated; otherwise invalidated with that drift. */
            reauthenticate(session, pool);
        }
    }
    json_t *data =
        json_pack("{s:s,s:s,s:o,s:o,s:s}", "step", spx_rename_step_name(failure->step), "reason",
                  failure->reason, "restored", string_list(failure->restored), "not_restored",
                  string_list(failure->not_restored), "state", state_names[session->state]);
    if (failure->operation)
        json_object_set_new(data, "operation", json_string(failure->operation));
    if (failure->path)
        json_object_set_new(data, "path", json_string(failure->path));
    if (session->state == STATE_OPEN) {
        json_object_set_new(data, "project_revision", json_string(session->project_revision));
        json_object_set_new(data, "workspace_revision", json_string(session->workspace_revision));
    }
    fprintf(stderr, "semapraxd: rename failed at %s: %s\n", spx_rename_step_name(failure->step),
            failure->reason);
    reply_error(reply, SPX_RPC_RENAME_FAILED, data);
}

/* NULL when both answers a commit can end in fit the response limit: the
 * committed result (its revisions after the commit have the length of
 * today's) and a -32016 whose data names every file as restored and as not
 * restored, with a reason of SPX_LIMIT_RENAME_REASON_BYTES. Else the reason
 * to refuse, naming the sizes. */
static const char *rename_answer_too_large(const session_t *session, const spx_request_t *request,
                                           json_t *edits, apr_pool_t *pool)
{
    json_t *committed =
        json_pack("{s:b,s:O,s:s,s:s}", "committed", 1, "edits", edits, "project_revision",
                  spx_project_revision(session->project), "workspace_revision",
                  spx_project_workspace_revision(session->project));
    json_t *paths = json_array();
    size_t index;
    json_t *edit;
    json_array_foreach(edits, index, edit)
    {
        json_array_append(paths, json_object_get(edit, "path"));
    }
    char *reason = apr_palloc(pool, SPX_LIMIT_RENAME_REASON_BYTES + 1);
    memset(reason, 'x', SPX_LIMIT_RENAME_REASON_BYTES);
    reason[SPX_LIMIT_RENAME_REASON_BYTES] = '\0';
    const char *first_path = json_string_value(json_array_get(paths, 0));
    json_t *failed =
        json_pack("{s:{s:i,s:{s:s,s:s,s:O,s:O,s:s,s:s,s:s,s:s,s:s},s:s}}", "error", "code",
                  SPX_RPC_RENAME_FAILED, "data", "step", spx_rename_step_name(SPX_RENAME_REBIND),
                  "reason", reason, "restored", paths, "not_restored", paths, "state",
                  "invalidated", "operation", "replace", "path", first_path ? first_path : "",
                  "project_revision", spx_project_revision(session->project), "workspace_revision",
                  spx_project_workspace_revision(session->project), "message",
                  spx_rpc_message(SPX_RPC_RENAME_FAILED));
    json_decref(paths);
    const char *committed_text = spx_canonical_text(committed, pool);
    const char *failed_text = spx_canonical_text(failed, pool);
    json_decref(committed);
    json_decref(failed);
    apr_uint64_t largest = largest_result(session, request);
    apr_uint64_t needed = committed_text ? strlen(committed_text) : largest + 1;
    /* an error line is {"error":E,"id":ID,"jsonrpc":"2.0"}: the frame of a
     * result's, with "error" for "result" */
    if (failed_text && strlen(failed_text) - (sizeof("{\"error\":}") - 1) > needed)
        needed = strlen(failed_text) - (sizeof("{\"error\":}") - 1);
    if (needed <= largest)
        return NULL;
    return apr_psprintf(
        pool,
        "its answer would need %" APR_UINT64_T_FMT " bytes of result, over the %" APR_UINT64_T_FMT
        " that --max-response-bytes %" APR_SIZE_T_FMT " leaves with this id; nothing was written",
        needed, largest, session->options->max_response_bytes);
}

static void run_rename(session_t *session, const spx_request_t *request, reply_t *reply,
                       apr_pool_t *pool)
{
    json_t *params = request->params;
    const char *function = string_param(params, "function");
    const char *new_name = string_param(params, "new_name");
    json_t *dry_run = json_object_get(params, "dry_run");
    if (!function || !new_name || (dry_run && !json_is_boolean(dry_run))) {
        reply_error(reply, SPX_RPC_INVALID_PARAMS, NULL);
        return;
    }
    if (!admitted(session, reply))
        return;
    /* Steps 2 and 3. */
    spx_rename_plan_t *plan = NULL;
    spx_rename_failure_t failure;
    if (spx_rename_plan(session->project, function, new_name, &plan, pool, &failure) !=
        APR_SUCCESS) {
        fprintf(stderr, "semapraxd: rename refused: %s\n", failure.reason);
        reply_error(reply, SPX_RPC_RENAME_REFUSED,
                    json_pack("{s:s,s:s}", "step", spx_rename_step_name(failure.step), "reason",
                              failure.reason));
        return;
    }
#ifdef SPX_TEST_HOOKS
    test_pause("SPX_TEST_RENAME_PAUSE_DIR", pool);
#endif
    /* Step 4: nothing is written over a change made since step 1. */
    if (!reauthenticate(session, pool)) {
        invalidated(session, reply);
        reply->gate.pass = NULL;
        return;
    }
    json_t *edits = spx_rename_edits_json(plan);
    if (json_is_true(dry_run)) {
        reply->result =
            json_pack("{s:b,s:o,s:s,s:s}", "committed", 0, "edits", edits, "project_revision",
                      spx_project_revision(session->project), "workspace_revision",
                      spx_project_workspace_revision(session->project));
        return; /* gated like any semantic answer */
    }
    /* Nothing is written unless its answer can be: the committed answer and
     * a failure's, with every file named, must fit the response limit. */
    const char *too_large = rename_answer_too_large(session, request, edits, pool);
    if (too_large) {
        json_decref(edits);
        fprintf(stderr, "semapraxd: rename refused: %s\n", too_large);
        reply_error(reply, SPX_RPC_RENAME_REFUSED,
                    json_pack("{s:s,s:s}", "step", spx_rename_step_name(SPX_RENAME_PLAN), "reason",
                              too_large));
        return;
    }
    /* A committed rename is answered ungated: step 6 is its check, and the
     * answer reports what is now on disk. */
    reply->gate.pass = NULL;
    /* Step 5. */
    spx_commit_probe_fn probe = NULL;
#ifdef SPX_TEST_HOOKS
    probe = test_probe;
#endif
    if (spx_rename_commit(plan, probe, NULL, pool, &failure) != APR_SUCCESS) {
        json_decref(edits);
        rename_failed(session, plan, &failure, reply, pool);
        return;
    }
#ifdef SPX_TEST_HOOKS
    test_pause("SPX_TEST_RENAME_COMMITTED_DIR", pool);
#endif
    /* Step 6. */
    const char *why = NULL;
    if (!rebind_to(session, plan, spx_rename_planned_revision(plan), &why, pool)) {
        failure.step = SPX_RENAME_REBIND;
        failure.reason = why;
        failure.inputs_touched = 1;
        spx_rename_rollback(plan, pool, &failure);
        json_decref(edits);
        rename_failed(session, plan, &failure, reply, pool);
        return;
    }
    fprintf(stderr, "semapraxd: renamed %s to %s in %d files\n", function, new_name,
            (int)json_array_size(edits));
    reply->result =
        json_pack("{s:b,s:o,s:s,s:s}", "committed", 1, "edits", edits, "project_revision",
                  spx_project_revision(session->project), "workspace_revision",
                  spx_project_workspace_revision(session->project));
}

static const char *const rename_params[] = {"function", "new_name", "dry_run", NULL};

/* Sorted by name: protocol lists them in this order. */
static const method_t methods[] = {
    {"check", 1, 0, no_params, run_check},
    {"context", 1, 0, context_params, run_context},
    {"graph", 1, 0, no_params, run_graph},
    {"ping", 0, 0, no_params, run_ping},
    {"project/rename", 1, 1, rename_params, run_rename},
    {"protocol", 0, 0, no_params, run_protocol},
    {"shutdown", 0, 0, no_params, run_shutdown},
    {"test", 1, 0, test_params, run_test},
    {"workspace/open", 0, 0, no_params, run_open},
    {"workspace/snapshot", 1, 0, no_params, run_snapshot},
    {"workspace/status", 0, 0, no_params, run_status},
};
#define METHOD_COUNT (sizeof(methods) / sizeof(methods[0]))

static void run_protocol(session_t *session, const spx_request_t *request, reply_t *reply,
                         apr_pool_t *pool)
{
    (void)request;
    (void)pool;
    const spx_session_options_t *options = session->options;
    json_t *names = json_array();
    for (size_t i = 0; i < METHOD_COUNT; i++)
        if (!methods[i].v3 || options->allow_rename)
            json_array_append_new(names, json_string(methods[i].name));
    json_t *claims = json_array();
    const char *const *list = options->allow_rename ? nonclaims_v3 : nonclaims;
    size_t count = options->allow_rename ? sizeof(nonclaims_v3) / sizeof(nonclaims_v3[0])
                                         : sizeof(nonclaims) / sizeof(nonclaims[0]);
    for (size_t i = 0; i < count; i++)
        json_array_append_new(claims, json_string(list[i]));
    reply->result = json_pack(
        "{s:s,s:s,s:o,s:o,s:s,s:o,s:{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I}}", "schema",
        options->allow_rename ? SPX_SESSION_SCHEMA_V3 : SPX_SESSION_SCHEMA, "version", SPX_VERSION,
        "state", state_name(session), "methods", names, "manifest", options->manifest_path,
        "nonclaims", claims, "limits", "max_request_bytes", (json_int_t)options->max_request_bytes,
        "max_response_bytes", (json_int_t)options->max_response_bytes, "max_steps",
        (json_int_t)SPX_LIMIT_MAX_STEPS_MAXIMUM, "max_steps_default",
        (json_int_t)SPX_LIMIT_MAX_STEPS_DEFAULT, "max_bytes",
        (json_int_t)SPX_LIMIT_MAX_BYTES_MAXIMUM, "max_call_depth", (json_int_t)SPX_LIMIT_CALL_DEPTH,
        "max_context_depth", (json_int_t)SPX_LIMIT_CONTEXT_DEPTH_MAXIMUM, "max_context_nodes",
        (json_int_t)SPX_LIMIT_CONTEXT_NODES_MAXIMUM, "max_id_string_bytes",
        (json_int_t)SPX_LIMIT_ID_STRING_BYTES);
}

/* The revisions of a semantic request: both present, strings, and the
 * session's. Mistyped or missing: -32602; not the session's: -32012. */
static int revisions_match(const session_t *session, const spx_request_t *request, reply_t *reply)
{
    const char *project = string_param(request->params, "project_revision");
    const char *workspace = string_param(request->params, "workspace_revision");
    if (!project || !workspace) {
        reply_error(reply, SPX_RPC_INVALID_PARAMS, NULL);
        return 0;
    }
    if (strcmp(project, spx_project_revision(session->project)) != 0 ||
        strcmp(workspace, spx_project_workspace_revision(session->project)) != 0) {
        reply_error(reply, SPX_RPC_REVISION_MISMATCH, NULL);
        return 0;
    }
    return 1;
}

/* Known params of a method: its extras, plus the revisions when semantic. */
static int params_known(const method_t *method, const spx_request_t *request, apr_pool_t *pool)
{
    apr_size_t count = 0;
    while (method->extra[count])
        count++;
    const char **allowed = apr_palloc(pool, (count + 3) * sizeof(*allowed));
    apr_size_t at = 0;
    if (method->semantic) {
        allowed[at++] = "project_revision";
        allowed[at++] = "workspace_revision";
    }
    for (apr_size_t i = 0; i < count; i++)
        allowed[at++] = method->extra[i];
    allowed[at] = NULL;
    return spx_request_params_known(request, allowed, NULL);
}

static void dispatch(session_t *session, const spx_request_t *request, reply_t *reply,
                     apr_pool_t *pool)
{
    const method_t *method = NULL;
    for (size_t i = 0; i < METHOD_COUNT && !method; i++)
        if (strlen(methods[i].name) == request->method_length &&
            memcmp(methods[i].name, request->method, request->method_length) == 0 &&
            (!methods[i].v3 || session->options->allow_rename))
            method = &methods[i];
    if (!method) {
        reply_error(reply, SPX_RPC_METHOD_NOT_FOUND, NULL);
        return;
    }
    if (method->semantic && session->state == STATE_INVALIDATED) {
        invalidated(session, reply);
        return;
    }
    if (method->semantic && session->state != STATE_OPEN) {
        reply_error(reply, SPX_RPC_SESSION_NOT_OPEN, NULL);
        return;
    }
    if (!params_known(method, request, pool)) {
        reply_error(reply, SPX_RPC_INVALID_PARAMS, NULL);
        return;
    }
    if (method->semantic) {
        if (!revisions_match(session, request, reply))
            return;
        if (!reauthenticate(session, pool)) {
            invalidated(session, reply);
            return;
        }
        gate_context_t *gate = apr_palloc(pool, sizeof(*gate));
        gate->session = session;
        gate->pool = pool;
        reply->gate.pass = second_check;
        reply->gate.context = gate;
        reply->withheld = drifted;
    }
    method->run(session, request, reply, pool);
}

/* --- startup and the loop ------------------------------------------------------ */

/* One diagnostic saying why the inputs could not be authenticated. */
static json_t *authentication_diagnostic(const char *path, const char *message)
{
    return json_pack("[{s:s,s:s,s:s,s:s,s:{s:{s:i,s:i,s:i},s:{s:i,s:i,s:i}}}]", "code",
                     spx_diagnostic_code_name(SPX_E0160), "message", message, "path", path,
                     "severity", "error", "span", "start", "line", 1, "column", 1, "offset", 0,
                     "end", "line", 1, "column", 1, "offset", 0);
}

static apr_status_t release_json(void *data)
{
    session_t *session = data;
    json_decref(session->unavailable);
    json_decref(session->drift);
    return APR_SUCCESS;
}

#ifdef SPX_TEST_HOOKS
static void startup_pause(void *pool)
{
    test_pause("SPX_TEST_STARTUP_PAUSE_DIR", pool);
}
#define STARTUP_OBSERVER startup_pause
#else
#define STARTUP_OBSERVER NULL
#endif

static void start(session_t *session, apr_pool_t *pool)
{
    const char *message = NULL;
    apr_pool_t *project_pool = NULL;
    apr_pool_create(&project_pool, pool);
    session->project_pool = project_pool;
    spx_allocation_phase_start("open"); /* a phase of the tests' gate */
    apr_status_t status =
        spx_project_open_observed(&session->project, session->options->manifest_path, project_pool,
                                  &message, STARTUP_OBSERVER, pool);
    spx_allocation_phase_end("open");
    if (status != APR_SUCCESS) {
        char reason[256];
        if (!message)
            message = apr_strerror(status, reason, sizeof(reason));
        fprintf(stderr, "semapraxd: %s\n", message);
        session->project = NULL;
        session->unavailable = authentication_diagnostic(session->options->manifest_path, message);
    } else if (!spx_project_has_manifest(session->project)) {
        fprintf(stderr, "semapraxd: the manifest has diagnostics\n");
        session->unavailable = spx_diagnostics_json(spx_project_diagnostics(session->project));
    } else {
        session->project_revision = spx_project_revision(session->project);
        session->workspace_revision = spx_project_workspace_revision(session->project);
    }
}

/* The loop's dispatcher: every request that expects an answer. */
static void session_dispatch(void *context, const spx_request_t *request, spx_answer_t *answer,
                             apr_pool_t *pool)
{
    session_t *session = context;
    session->requests++;
    dispatch(session, request, answer, pool);
    answer->stop = session->state == STATE_SHUTDOWN;
}

spx_session_exit_t spx_session_run(const spx_session_options_t *options, spx_stdio_t *stdio,
                                   apr_pool_t *pool)
{
    session_t *session = apr_pcalloc(pool, sizeof(*session));
    session->options = options;
    session->pool = pool;
    session->state = STATE_CONFIGURED;
    apr_pool_cleanup_register(pool, session, release_json, apr_pool_cleanup_null);
    start(session, pool);

    spx_frame_reader_t *reader = NULL;
    spx_response_writer_t *writer = NULL;
    if (spx_frame_reader_create_stdio(&reader, stdio, options->max_request_bytes, pool) !=
            APR_SUCCESS ||
        spx_response_writer_create_stdio(&writer, stdio, options->max_response_bytes, pool) !=
            APR_SUCCESS)
        return SPX_SESSION_EXIT_STOPPED;
    spx_loop_report_t report;
    spx_loop_run(reader, writer, session_dispatch, session, pool, &report);
    spx_loop_explain(&report, "semapraxd", options->max_request_bytes, options->max_response_bytes);
    return spx_loop_exit_status(report.end) ? SPX_SESSION_EXIT_STOPPED : SPX_SESSION_EXIT_OK;
}
