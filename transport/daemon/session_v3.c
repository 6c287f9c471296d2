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
#include "spx_operations.h"
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
}

/* -32016's data for failure, with the session's state and, when it is
 * open, the revisions it is bound to (reason and detail are the writer's). */
static json_t *rename_failure_data(const spx_rename_failure_t *failure, const char *state,
                                   const char *project_revision, const char *workspace_revision)
{
    json_t *data = json_pack("{s:s,s:o,s:o,s:s}", "step", spx_rename_step_name(failure->step),
                             "restored", spx_op_rename_file_list(failure->restored), "not_restored",
                             spx_op_rename_file_list(failure->not_restored), "state", state);
    if (failure->operation)
        json_object_set_new(data, "operation", json_string(failure->operation));
    if (failure->path)
        json_object_set_new(data, "path", json_string(failure->path));
    if (project_revision) {
        json_object_set_new(data, "project_revision", json_string(project_revision));
        json_object_set_new(data, "workspace_revision", json_string(workspace_revision));
    }
    return data;
}

/* The stable reason of a -32016: which operation of the commit failed, or
 * that the project could not be held again. */
static const char *rename_failure_reason(const spx_rename_failure_t *failure, apr_pool_t *pool)
{
    return failure->step == SPX_RENAME_COMMIT && failure->operation
               ? apr_pstrcat(pool, failure->operation, "_failed", NULL)
               : "rebind_failed";
}

/* The failure's answer below is sized with a detail of the reserved length:
 * no detail the writer sends may be longer. */
_Static_assert(SPX_LIMIT_ERROR_DETAIL_BYTES <= SPX_LIMIT_RENAME_REASON_BYTES,
               "a -32016 detail may be longer than the rename reserves for it");

/* The answer check's measure (spx_op_rename_budget_t): the bytes of
 * failure's -32016 error object with both the longest state and the
 * revisions, which its line frames as a result's ({"error":E,...} for
 * {"result":R,...}). */
static apr_uint64_t rename_failure_bytes(void *context, const spx_rename_failure_t *failure,
                                         apr_pool_t *pool)
{
    const session_t *session = context;
    json_t *data =
        rename_failure_data(failure, "invalidated", spx_project_revision(session->project),
                            spx_project_workspace_revision(session->project));
    json_object_set_new(data, "reason", json_string(rename_failure_reason(failure, pool)));
    json_object_set_new(data, "detail", json_string(failure->reason));
    json_t *error = json_pack("{s:i,s:o,s:s}", "code", SPX_RPC_RENAME_FAILED, "data", data,
                              "message", spx_rpc_message(SPX_RPC_RENAME_FAILED));
    const char *text = spx_canonical_text(error, pool);
    json_decref(error);
    return text ? strlen(text) : (apr_uint64_t)-1;
}

/* -32016: what failed and where, what was restored, and what the session is
 * bound to now (or its drift when it could not be bound again). */
static void rename_failed(session_t *session, spx_op_rename_result_t *renamed, reply_t *reply,
                          apr_pool_t *pool)
{
    spx_rename_failure_t *failure = &renamed->failure;
    if (renamed->project) {
        rebind_session(session, renamed->project, renamed->project_pool);
    } else if (failure->inputs_touched) {
        failure->reason = apr_psprintf(pool,
                                       "%s; then the session could not hold the "
                                       "restored project again: %s",
                                       failure->reason, renamed->rebind_reason);
        /* Still open only if what the session holds is still what it
         * authenticated; otherwise invalidated with that drift. */
        spx_session_reauthenticate(session, pool);
    }
    int open = session->state == STATE_OPEN;
    json_t *data = rename_failure_data(failure, spx_session_state_name(session),
                                       open ? session->project_revision : NULL,
                                       open ? session->workspace_revision : NULL);
    spx_log_event(&session->log, "rename failed at %s: %s", spx_rename_step_name(failure->step),
                  failure->reason);
    spx_session_refuse(reply, SPX_RPC_RENAME_FAILED, data, rename_failure_reason(failure, pool),
                       failure->reason);
}

static void rename_pause(void *context, spx_op_rename_pause_t point, apr_pool_t *pool)
{
    spx_session_pause(context,
                      point == SPX_OP_RENAME_PAUSE_PLANNED ? SPX_SESSION_PAUSE_RENAME_PLANNED
                                                           : SPX_SESSION_PAUSE_RENAME_COMMITTED,
                      pool);
}

static int rename_recheck(void *context, apr_pool_t *pool)
{
    return spx_session_reauthenticate(context, pool);
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
    const spx_op_rename_budget_t budget = {spx_session_largest_result(session, request),
                                           rename_failure_bytes, NULL};
    const spx_op_rename_request_t rename = {.project = session->project,
                                            .function = function,
                                            .new_name = new_name,
                                            .dry_run = json_is_true(dry_run),
                                            .recheck_at = SPX_OP_RENAME_RECHECK_AFTER_PLAN,
                                            .commit_probe = session->hooks->commit_probe,
                                            .project_parent = session->pool,
                                            .rebind_restored = 1,
                                            .budget = &budget,
                                            .context = session,
                                            .pause = rename_pause,
                                            .recheck = rename_recheck};
    spx_op_rename_result_t renamed;
    spx_op_rename(&rename, &renamed, pool);
    switch (renamed.outcome) {
    case SPX_OP_RENAME_REFUSED:
        spx_log_request(&session->log, "rename refused: %s", renamed.failure.reason);
        spx_session_refuse(reply, SPX_RPC_RENAME_REFUSED,
                           json_pack("{s:s}", "step", spx_rename_step_name(renamed.failure.step)),
                           renamed.failure.cause ? renamed.failure.cause : "rename_refused",
                           renamed.failure.reason);
        return;
    case SPX_OP_RENAME_DRIFTED:
        spx_session_invalidated(session, reply);
        reply->gate.pass = NULL;
        return;
    case SPX_OP_RENAME_DRY_RUN:
        reply->result = spx_op_rename_document(&renamed);
        return; /* gated like any semantic answer */
    case SPX_OP_RENAME_TOO_LARGE: {
        const char *too_large =
            apr_psprintf(pool,
                         "its answer would need %" APR_UINT64_T_FMT
                         " bytes of result, over the %" APR_UINT64_T_FMT
                         " that --max-response-bytes %" APR_SIZE_T_FMT
                         " leaves with this id; nothing was written",
                         renamed.needed, budget.bytes, session->options->max_response_bytes);
        spx_log_request(&session->log, "rename refused: %s", too_large);
        spx_session_refuse(reply, SPX_RPC_RENAME_REFUSED,
                           json_pack("{s:s}", "step", spx_rename_step_name(SPX_RENAME_PLAN)),
                           "answer_too_large", too_large);
        return;
    }
    case SPX_OP_RENAME_FAILED:
        /* Answered ungated, as a commit is: the files were written. */
        reply->gate.pass = NULL;
        rename_failed(session, &renamed, reply, pool);
        return;
    case SPX_OP_RENAME_COMMITTED:
        /* A committed rename is answered ungated: step 6 is its check, and
         * the answer reports what is now on disk. */
        reply->gate.pass = NULL;
        reply->result = spx_op_rename_document(&renamed); /* before the old project goes */
        rebind_session(session, renamed.project, renamed.project_pool);
        spx_log_event(&session->log, "renamed %s to %s in %u file%s", function, new_name,
                      (unsigned)renamed.paths->nelts, spx_plural((apr_size_t)renamed.paths->nelts));
        return;
    }
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
