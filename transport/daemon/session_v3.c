/*
 * session_v3.c: project/rename, the one method semaprax.agent-transport.v3
 * adds to v2 (docs/protocol-v3.md), and v3's profile: its schema, what it
 * does not claim, and v2's method table with this one's. The session speaks
 * v3 only with --allow-project-rename; without it, project/rename is
 * neither listed nor routed. The method runs the Project Rename Transaction
 * of spx_rename.h, after which the session answers from the renamed
 * project. The program's hooks (spx_session_hooks.h) may pause it after the
 * plan and after the commit, and make the commit fail.
 */
#include "session_internal.h"

#include "spx_canonical.h"
#include "spx_limits.h"
#include "spx_rename.h"
#include "spx_response.h"
#include "spx_rpc.h"
#include "spx_text.h"

#include <apr_strings.h>
#include <stdio.h>
#include <string.h>

/* What v3 does not claim: v2's list, with the write authority narrowed to
 * the one rename it admits. Sorted bytewise. */
static const char *const nonclaims[] = {
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
            spx_session_reauthenticate(session, pool);
        }
    }
    json_t *data =
        json_pack("{s:s,s:o,s:o,s:s}", "step", spx_rename_step_name(failure->step), "restored",
                  string_list(failure->restored), "not_restored",
                  string_list(failure->not_restored), "state", spx_session_state_name(session));
    if (failure->operation)
        json_object_set_new(data, "operation", json_string(failure->operation));
    if (failure->path)
        json_object_set_new(data, "path", json_string(failure->path));
    if (session->state == STATE_OPEN) {
        json_object_set_new(data, "project_revision", json_string(session->project_revision));
        json_object_set_new(data, "workspace_revision", json_string(session->workspace_revision));
    }
    spx_log_event(&session->log, "rename failed at %s: %s", spx_rename_step_name(failure->step),
                  failure->reason);
    /* The stable reason: which operation of the commit failed, or that the
     * project could not be held again. */
    const char *reason = failure->step == SPX_RENAME_COMMIT && failure->operation
                             ? apr_pstrcat(pool, failure->operation, "_failed", NULL)
                             : "rebind_failed";
    spx_session_refuse(reply, SPX_RPC_RENAME_FAILED, data, reason, failure->reason);
}

/* The failure's answer below is sized with a detail of the reserved length:
 * no detail the writer sends may be longer. */
_Static_assert(SPX_LIMIT_ERROR_DETAIL_BYTES <= SPX_LIMIT_RENAME_REASON_BYTES,
               "a -32016 detail may be longer than the rename reserves for it");

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
    json_t *failed = json_pack(
        "{s:{s:i,s:{s:s,s:s,s:s,s:O,s:O,s:s,s:s,s:s,s:s,s:s},s:s}}", "error", "code",
        SPX_RPC_RENAME_FAILED, "data", "step", spx_rename_step_name(SPX_RENAME_REBIND), "reason",
        "replace_failed", "detail", reason, "restored", paths, "not_restored", paths, "state",
        "invalidated", "operation", "replace", "path", first_path ? first_path : "",
        "project_revision", spx_project_revision(session->project), "workspace_revision",
        spx_project_workspace_revision(session->project), "message",
        spx_rpc_message(SPX_RPC_RENAME_FAILED));
    json_decref(paths);
    const char *committed_text = spx_canonical_text(committed, pool);
    const char *failed_text = spx_canonical_text(failed, pool);
    json_decref(committed);
    json_decref(failed);
    apr_uint64_t largest = spx_session_largest_result(session, request);
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
    static const char *const needed[] = {"function", "new_name"};
    for (size_t i = 0; i < 2; i++) {
        json_t *member = json_object_get(params, needed[i]);
        if (!member || !json_is_string(member)) {
            spx_session_invalid_params(reply, pool, member ? "mistyped_param" : "missing_param",
                                       member ? "%s must be a string" : "project/rename needs %s",
                                       needed[i]);
            return;
        }
    }
    const char *function = spx_session_string_param(params, "function");
    const char *new_name = spx_session_string_param(params, "new_name");
    json_t *dry_run = json_object_get(params, "dry_run");
    if (dry_run && !json_is_boolean(dry_run)) {
        spx_session_invalid_params(reply, pool, "mistyped_param", "dry_run must be true or false");
        return;
    }
    if (!spx_session_admitted(session, reply, pool))
        return;
    /* Steps 2 and 3. */
    spx_rename_plan_t *plan = NULL;
    spx_rename_failure_t failure;
    if (spx_rename_plan(session->project, function, new_name, &plan, pool, &failure) !=
        APR_SUCCESS) {
        spx_log_request(&session->log, "rename refused: %s", failure.reason);
        spx_session_refuse(reply, SPX_RPC_RENAME_REFUSED,
                           json_pack("{s:s}", "step", spx_rename_step_name(failure.step)),
                           failure.cause ? failure.cause : "rename_refused", failure.reason);
        return;
    }
    spx_session_pause(session, SPX_SESSION_PAUSE_RENAME_PLANNED, pool);
    /* Step 4: nothing is written over a change made since step 1. */
    if (!spx_session_reauthenticate(session, pool)) {
        spx_session_invalidated(session, reply);
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
        spx_log_request(&session->log, "rename refused: %s", too_large);
        spx_session_refuse(reply, SPX_RPC_RENAME_REFUSED,
                           json_pack("{s:s}", "step", spx_rename_step_name(SPX_RENAME_PLAN)),
                           "answer_too_large", too_large);
        return;
    }
    /* A committed rename is answered ungated: step 6 is its check, and the
     * answer reports what is now on disk. */
    reply->gate.pass = NULL;
    /* Step 5. */
    if (spx_rename_commit(plan, session->hooks->commit_probe, NULL, pool, &failure) !=
        APR_SUCCESS) {
        json_decref(edits);
        rename_failed(session, plan, &failure, reply, pool);
        return;
    }
    spx_session_pause(session, SPX_SESSION_PAUSE_RENAME_COMMITTED, pool);
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
    spx_log_event(&session->log, "renamed %s to %s in %u file%s", function, new_name,
                  (unsigned)json_array_size(edits), spx_plural(json_array_size(edits)));
    reply->result =
        json_pack("{s:b,s:o,s:s,s:s}", "committed", 1, "edits", edits, "project_revision",
                  spx_project_revision(session->project), "workspace_revision",
                  spx_project_workspace_revision(session->project));
}

static const char *const rename_params[] = {"function", "new_name", "dry_run", NULL};

static const session_method_t methods[] = {
    {"project/rename", 1, rename_params, run_rename},
};

static const session_methods_t v3_methods = {methods, sizeof(methods) / sizeof(methods[0])};

const session_profile_t spx_session_v3_profile = {
    SPX_SESSION_SCHEMA_V3,
    nonclaims,
    sizeof(nonclaims) / sizeof(nonclaims[0]),
    {&spx_session_v2_methods, &v3_methods},
};
