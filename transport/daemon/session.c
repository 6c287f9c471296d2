/*
 * session.c: the daemon's agent session (spx_session.h): startup, the request
 * loop, the state machine, the revision checks and the dispatch of a request
 * to its method by the tables of the session's profile: v2's
 * (session_v2.c, semaprax.agent-transport.v2), or with
 * --allow-project-rename v3's, v2's methods plus project/rename
 * (session_v3.c). Every semantic method is admitted here only in an open
 * session, with the session's revisions and once every held input is
 * re-authenticated; it computes from the retained project only, the whole
 * response is rendered, every input is re-authenticated again (the response
 * writer's gate) and only then is it written; drift at either check answers
 * -32013 instead. docs/protocol-v2.md, docs/protocol-v3.md.
 *
 * Built once; each program links its hooks (spx_session_hooks.h), which
 * the session calls at its pause points: none in semapraxd, the process
 * tests' pauses in semapraxd_test (session_hooks_test.c).
 */
#include "session_internal.h"

#include "spx_allocation.h"
#include "spx_detail.h"
#include "spx_limits.h"
#include "spx_response.h"
#include "spx_rpc.h"
#include "spx_status.h"
#include "spx_suggest.h"

#include <apr_strings.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const state_names[] = {"configured", "open", "invalidated", "shutdown"};

const char *spx_session_state_name(const session_t *session)
{
    return state_names[session->state];
}

void spx_session_refuse(reply_t *reply, int code, json_t *data, const char *reason,
                        const char *detail)
{
    reply->result = NULL;
    reply->error_code = code;
    reply->error_data = data;
    reply->error_reason = reason;
    reply->error_detail = detail;
}

void spx_session_invalid_params(reply_t *reply, apr_pool_t *pool, const char *reason,
                                const char *format, ...)
{
    va_list arguments;
    va_start(arguments, format);
    const char *detail = apr_pvsprintf(pool, format, arguments);
    va_end(arguments);
    spx_session_refuse(reply, SPX_RPC_INVALID_PARAMS, NULL, reason, detail);
}

void spx_session_pause(const session_t *session, spx_session_pause_t point, apr_pool_t *pool)
{
    if (session->hooks->pause)
        session->hooks->pause(point, pool);
}

/* --- authentication ------------------------------------------------------ */

/* data.detail of -32013, made once when the drift is found (in the
 * session's pool): the same for every later answer. */
static const char *drift_detail(session_t *session, const char *path, const char *why,
                                apr_size_t count)
{
    return apr_psprintf(
        session->pool,
        "an input changed on disk (%s: %s%s): this session is invalidated for good and "
        "never recovers; start a new session (a new semapraxd, then workspace/open) to see "
        "the new files",
        path[0] ? apr_psprintf(session->pool, "'%s'", spx_detail_echo(path, session->pool))
                : "the project's folder",
        why,
        count > 1 ? apr_psprintf(session->pool, ", and %lu more", (unsigned long)(count - 1)) : "");
}

int spx_session_reauthenticate(session_t *session, apr_pool_t *pool)
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
    const char *first_path = "", *first_reason = "unverifiable";
    if (status != APR_SUCCESS) {
        json_array_append_new(drift, json_pack("{s:s,s:s}", "path", "", "reason", "unverifiable"));
    } else {
        for (int i = 0; i < found->nelts; i++) {
            const spx_drift_t *record = &APR_ARRAY_IDX(found, i, spx_drift_t);
            if (i == 0) {
                first_path = record->path;
                first_reason = spx_drift_reason_name(record->reason);
            }
            json_array_append_new(drift, json_pack("{s:s,s:s}", "path", record->path, "reason",
                                                   spx_drift_reason_name(record->reason)));
        }
    }
    if (session->drift)
        json_decref(session->drift);
    session->drift = drift;
    session->drift_detail =
        drift_detail(session, first_path, first_reason, (apr_size_t)json_array_size(drift));
    session->state = STATE_INVALIDATED;
    spx_log_event(&session->log, "drift found: the session is invalidated");
    return 0;
}

void spx_session_invalidated(session_t *session, reply_t *reply)
{
    spx_session_refuse(reply, SPX_RPC_SESSION_INVALIDATED,
                       json_pack("{s:O}", "drift", session->drift), "session_invalidated",
                       session->drift_detail);
}

typedef struct gate_context_t {
    session_t *session;
    apr_pool_t *pool;
} gate_context_t;

/* The answer written in place of one the second re-authentication
 * withheld (the loop's context is the session). */
static void drifted(void *context, spx_answer_t *replacement)
{
    spx_session_invalidated(context, replacement);
}

static int second_check(void *context)
{
    gate_context_t *gate = context;
    spx_session_pause(gate->session, SPX_SESSION_PAUSE_SECOND_CHECK, gate->pool);
    return spx_session_reauthenticate(gate->session, gate->pool);
}

/* --- what the methods share ------------------------------------------------- */

const char *spx_session_string_param(json_t *params, const char *key)
{
    json_t *member = params ? json_object_get(params, key) : NULL;
    return json_is_string(member) ? json_string_value(member) : NULL;
}

int spx_session_admitted(const session_t *session, reply_t *reply, apr_pool_t *pool)
{
    if (spx_project_admitted(session->project))
        return 1;
    const spx_diagnostics_t *diagnostics = spx_project_diagnostics(session->project);
    apr_size_t count = spx_diagnostics_count(diagnostics);
    const spx_diagnostic_t *first = count ? spx_diagnostics_get(diagnostics, 0) : NULL;
    const char *detail = first ? apr_psprintf(pool,
                                              "the project has %lu diagnostic%s (the first: "
                                              "%s:%lu:%lu: %s %s): graph, context, test and "
                                              "project/rename need an admitted project; check "
                                              "lists them",
                                              (unsigned long)count, count == 1 ? "" : "s",
                                              first->path, (unsigned long)first->span.start.line,
                                              (unsigned long)first->span.start.column, first->code,
                                              spx_detail_echo(first->message, pool))
                               : NULL;
    spx_session_refuse(reply, SPX_RPC_PROJECT_NOT_ADMITTED,
                       json_pack("{s:o}", "diagnostics", spx_diagnostics_json(diagnostics)),
                       "project_not_admitted", detail);
    return 0;
}

apr_uint64_t spx_session_largest_result(const session_t *session, const spx_request_t *request)
{
    apr_uint64_t around = spx_response_result_frame_bytes(request->id);
    apr_uint64_t limit = session->options->max_response_bytes;
    return limit > around ? limit - around : 0;
}

/* --- the method tables -------------------------------------------------------- */

json_t *spx_session_method_names(const session_t *session)
{
    /* Each round appends the least name above the last one appended. */
    json_t *array = json_array();
    const char *last = NULL;
    for (;;) {
        const char *next = NULL;
        for (size_t t = 0; t < SESSION_PROFILE_TABLES && session->profile->tables[t]; t++) {
            const session_methods_t *table = session->profile->tables[t];
            for (size_t i = 0; i < table->count; i++) {
                const char *name = table->methods[i].name;
                if ((!last || strcmp(name, last) > 0) && (!next || strcmp(name, next) < 0))
                    next = name;
            }
        }
        if (!next)
            return array;
        json_array_append_new(array, json_string(next));
        last = next;
    }
}

/* The method the session's profile routes under the request's name, or NULL. */
static const session_method_t *find_method(const session_t *session, const spx_request_t *request)
{
    for (size_t t = 0; t < SESSION_PROFILE_TABLES && session->profile->tables[t]; t++) {
        const session_methods_t *table = session->profile->tables[t];
        for (size_t i = 0; i < table->count; i++)
            if (strlen(table->methods[i].name) == request->method_length &&
                memcmp(table->methods[i].name, request->method, request->method_length) == 0)
                return &table->methods[i];
    }
    return NULL;
}

/* The revisions of a semantic request: both present, strings, and the
 * session's. Mistyped or missing: -32602; not the session's: -32012. */
static int revisions_match(const session_t *session, const spx_request_t *request, reply_t *reply,
                           apr_pool_t *pool)
{
    static const char *const keys[] = {"project_revision", "workspace_revision"};
    for (size_t i = 0; i < 2; i++) {
        json_t *member = request->params ? json_object_get(request->params, keys[i]) : NULL;
        if (!member) {
            spx_session_invalid_params(reply, pool, "missing_param",
                                       "%s needs %s (and the other revision), as workspace/open "
                                       "returned them",
                                       request->method, keys[i]);
            return 0;
        }
        if (!json_is_string(member)) {
            spx_session_invalid_params(reply, pool, "mistyped_param",
                                       "%s must be a string, as workspace/open returned it",
                                       keys[i]);
            return 0;
        }
    }
    const char *project = spx_session_string_param(request->params, "project_revision");
    const char *workspace = spx_session_string_param(request->params, "workspace_revision");
    if (strcmp(project, spx_project_revision(session->project)) != 0 ||
        strcmp(workspace, spx_project_workspace_revision(session->project)) != 0) {
        spx_session_refuse(reply, SPX_RPC_REVISION_MISMATCH, NULL, "revision_mismatch",
                           apr_psprintf(pool,
                                        "the request's revisions are not the session's, which "
                                        "holds project_revision %s and workspace_revision %s "
                                        "(workspace/status gives them; after a rename, use the "
                                        "ones it returned)",
                                        spx_project_revision(session->project),
                                        spx_project_workspace_revision(session->project)));
        return 0;
    }
    return 1;
}

/* Known params of a method: its extras, plus the revisions when semantic.
 * Otherwise the reply says which key is unknown, what the method takes, and
 * the nearest of those. */
static int params_known(const session_method_t *method, const spx_request_t *request,
                        reply_t *reply, apr_pool_t *pool)
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
    const char *unknown = NULL;
    if (spx_request_params_known(request, allowed, &unknown))
        return 1;
    const char *takes = at ? "" : "none";
    for (apr_size_t i = 0; i < at; i++)
        takes = apr_pstrcat(pool, takes, i ? ", " : "", allowed[i], NULL);
    const char *nearest[1];
    const char *hint = spx_suggest_nearest(unknown, allowed, at, 1, nearest)
                           ? apr_pstrcat(pool, "; nearest: ", nearest[0], NULL)
                           : "";
    spx_session_invalid_params(reply, pool, "unknown_param",
                               "unknown param '%s' for %s, which takes %s%s",
                               spx_detail_echo(unknown, pool), method->name, takes, hint);
    return 0;
}

/* -32601: the method is not routed here; the nearest that is, and for
 * project/rename without --allow-project-rename, how to get it. */
static void method_not_found(const session_t *session, const spx_request_t *request, reply_t *reply,
                             apr_pool_t *pool)
{
    const char *detail = NULL;
    if (strcmp(request->method, "project/rename") == 0 && request->method_length == 14) {
        detail = "project/rename is routed only by semapraxd --allow-project-rename "
                 "(semaprax.agent-transport.v3); this daemon speaks v2";
    } else {
        json_t *names = spx_session_method_names(session);
        size_t count = json_array_size(names);
        const char **candidates = apr_palloc(pool, (count + 1) * sizeof(*candidates));
        for (size_t i = 0; i < count; i++)
            candidates[i] = apr_pstrdup(pool, json_string_value(json_array_get(names, i)));
        json_decref(names);
        const char *nearest[1];
        const char *hint = spx_suggest_nearest(request->method, candidates, count, 1, nearest)
                               ? apr_pstrcat(pool, "; nearest: ", nearest[0], NULL)
                               : " (protocol lists its methods)";
        detail =
            apr_psprintf(pool, "no method '%s' in %s%s", spx_detail_echo(request->method, pool),
                         session->profile->schema, hint);
    }
    spx_session_refuse(reply, SPX_RPC_METHOD_NOT_FOUND, NULL, "method_not_found", detail);
}

static void dispatch(session_t *session, const spx_request_t *request, reply_t *reply,
                     apr_pool_t *pool)
{
    const session_method_t *method = find_method(session, request);
    if (!method) {
        method_not_found(session, request, reply, pool);
        return;
    }
    if (method->semantic && session->state == STATE_INVALIDATED) {
        spx_session_invalidated(session, reply);
        return;
    }
    if (method->semantic && session->state != STATE_OPEN) {
        spx_session_refuse(reply, SPX_RPC_SESSION_NOT_OPEN, NULL, "session_not_open",
                           apr_psprintf(pool,
                                        "%s needs an open session: send workspace/open first "
                                        "(the session is %s)",
                                        method->name, spx_session_state_name(session)));
        return;
    }
    if (!params_known(method, request, reply, pool))
        return;
    if (method->semantic) {
        if (!revisions_match(session, request, reply, pool))
            return;
        if (!spx_session_reauthenticate(session, pool)) {
            spx_session_invalidated(session, reply);
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

/* The hooks' startup pause, once the inputs are authenticated (the context
 * is the session). */
static void startup_pause(void *context)
{
    session_t *session = context;
    spx_session_pause(session, SPX_SESSION_PAUSE_STARTUP, session->pool);
}

static void start(session_t *session, apr_pool_t *pool)
{
    const char *message = NULL;
    apr_pool_t *project_pool = NULL;
    apr_pool_create(&project_pool, pool);
    session->project_pool = project_pool;
    spx_allocation_phase_start("open"); /* a phase of the tests' gate */
    apr_status_t status =
        spx_project_open_observed(&session->project, session->options->manifest_path, project_pool,
                                  &message, session->hooks->pause ? startup_pause : NULL, session);
    spx_allocation_phase_end("open");
    if (status != APR_SUCCESS) {
        char reason[256];
        if (!message)
            message = spx_strerror(status, reason, sizeof(reason));
        spx_log_event(&session->log, "%s", message);
        session->project = NULL;
        session->unavailable = authentication_diagnostic(session->options->manifest_path, message);
        session->unavailable_message = apr_pstrdup(session->pool, message);
    } else if (!spx_project_has_manifest(session->project)) {
        spx_log_event(&session->log, "the manifest has diagnostics");
        const spx_diagnostics_t *diagnostics = spx_project_diagnostics(session->project);
        session->unavailable = spx_diagnostics_json(diagnostics);
        if (spx_diagnostics_count(diagnostics) > 0)
            session->unavailable_message =
                APR_ARRAY_IDX(diagnostics->items, 0, spx_diagnostic_t).message;
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
    session->profile = options->allow_rename ? &spx_session_v3_profile : &spx_session_v2_profile;
    session->hooks = spx_session_hooks();
    session->pool = pool;
    session->state = STATE_CONFIGURED;
    spx_log_init(&session->log, "semapraxd", options->verbose);
    apr_pool_cleanup_register(pool, session, release_json, apr_pool_cleanup_null);
    start(session, pool);

    spx_frame_reader_t *reader = NULL;
    spx_response_writer_t *writer = NULL;
    if (spx_frame_reader_create_stdio(&reader, stdio, options->max_request_bytes, pool) !=
            APR_SUCCESS ||
        spx_response_writer_create_stdio(&writer, stdio, options->max_response_bytes, pool) !=
            APR_SUCCESS)
        return SPX_SESSION_EXIT_STOPPED;
    spx_response_writer_explain_errors(writer); /* v2 and v3 errors say why */
    spx_loop_report_t report;
    spx_loop_run(reader, writer, session_dispatch, session, pool, &report);
    spx_loop_explain(&report, "semapraxd", options->max_request_bytes, options->max_response_bytes);
    return spx_loop_exit_status(report.end) ? SPX_SESSION_EXIT_STOPPED : SPX_SESSION_EXIT_OK;
}
