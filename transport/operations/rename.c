/*
 * rename.c: the rename operation (spx_op_rename.h): the Project Rename
 * Transaction's workflow, from the plan to the answer, the one copy the
 * CLI, the daemon's project/rename and MCP's rename tool share. It owns the
 * order of the steps, the answer check before anything is written, the
 * rebinding after the commit, and putting every file back when the
 * rebinding fails (the engine's commit puts back its own failures).
 */
#include "spx_op_rename.h"

#include "spx_canonical.h"
#include "spx_limits.h"

#include <apr_strings.h>
#include <string.h>

static json_t *answer_document(int committed, const spx_rename_plan_t *plan,
                               const spx_project_t *project)
{
    return json_pack("{s:b,s:o,s:s,s:s}", "committed", committed, "edits",
                     spx_rename_edits_json(plan), "project_revision", spx_project_revision(project),
                     "workspace_revision", spx_project_workspace_revision(project));
}

json_t *spx_op_rename_document(const spx_op_rename_result_t *result)
{
    return answer_document(result->outcome == SPX_OP_RENAME_COMMITTED, result->plan,
                           result->answered_from);
}

json_t *spx_op_rename_file_list(const apr_array_header_t *files)
{
    json_t *array = json_array();
    for (int i = 0; files && i < files->nelts; i++)
        json_array_append_new(array, json_string(APR_ARRAY_IDX(files, i, const char *)));
    return array;
}

/* The bytes the larger of the two answers a commit can end in would take:
 * the front end's answer to the committed document (its revisions after
 * the commit are as long as today's) and to the largest failure there can be,
 * one at the replace of the file with the longest path, naming every file
 * as restored and as not restored, with a reason of
 * SPX_LIMIT_RENAME_REASON_BYTES. */
static apr_uint64_t answer_bytes(const spx_op_rename_request_t *request,
                                 const spx_op_rename_result_t *result, apr_pool_t *pool)
{
    json_t *committed = answer_document(1, result->plan, request->project);
    apr_uint64_t needed;
    if (request->budget->committed_bytes) {
        needed = request->budget->committed_bytes(request->context, committed, pool);
    } else {
        const char *committed_text = spx_canonical_text(committed, pool);
        needed = committed_text ? strlen(committed_text) : request->budget->bytes + 1;
    }
    json_decref(committed);
    spx_rename_failure_t largest = {.step = SPX_RENAME_COMMIT,
                                    .operation = spx_commit_point_name(SPX_COMMIT_REPLACE),
                                    .restored = result->paths,
                                    .not_restored = result->paths,
                                    .inputs_touched = 1};
    for (int i = 0; i < result->paths->nelts; i++) {
        const char *path = APR_ARRAY_IDX(result->paths, i, const char *);
        if (!largest.path || strlen(path) > strlen(largest.path))
            largest.path = path;
    }
    char *reason = apr_palloc(pool, SPX_LIMIT_RENAME_REASON_BYTES + 1);
    memset(reason, 'x', SPX_LIMIT_RENAME_REASON_BYTES);
    reason[SPX_LIMIT_RENAME_REASON_BYTES] = '\0';
    largest.reason = reason;
    apr_uint64_t failure_bytes = request->budget->failure_bytes(request->context, &largest, pool);
    return failure_bytes > needed ? failure_bytes : needed;
}

/* Step 4: 1 when nothing changed since the front end's step 1. */
static int inputs_unchanged(const spx_op_rename_request_t *request, spx_op_rename_result_t *result,
                            apr_pool_t *pool)
{
    if (request->recheck)
        return request->recheck(request->context, pool);
    apr_array_header_t *drift = NULL;
    apr_status_t status =
        spx_input_set_reauthenticate(spx_project_inputs(request->project), pool, &drift);
    result->drift = drift;
    return status == APR_SUCCESS && drift->nelts == 0;
}

static void pause_at(const spx_op_rename_request_t *request, spx_op_rename_pause_t point,
                     apr_pool_t *pool)
{
    if (request->pause)
        request->pause(request->context, point, pool);
}

/* Open the project afresh in a new pool under request->project_parent: 1
 * with result's project and project_pool when it is exactly what the plan
 * leaves at expected_revision; else 0 and *reason (in pool). */
static int rebind(const spx_op_rename_request_t *request, const spx_rename_plan_t *plan,
                  const char *expected_revision, spx_op_rename_result_t *result,
                  const char **reason, apr_pool_t *pool)
{
    apr_pool_t *fresh_pool = NULL;
    spx_project_t *fresh = NULL;
    const char *why = NULL;
    apr_pool_create(&fresh_pool, request->project_parent);
    if (spx_rename_rebind(request->project, plan, expected_revision, &fresh, fresh_pool, &why) ==
        APR_SUCCESS) {
        result->project = fresh;
        result->project_pool = fresh_pool;
        return 1;
    }
    *reason = apr_pstrdup(pool, why);
    apr_pool_destroy(fresh_pool);
    return 0;
}

/* A failed step 5 or 6, every file put back where it could be: what the
 * front end holds is opened again when it asks and the inputs were
 * touched (a restored file is a new file). */
static void failed(const spx_op_rename_request_t *request, const spx_rename_plan_t *plan,
                   spx_op_rename_result_t *result, apr_pool_t *pool)
{
    result->outcome = SPX_OP_RENAME_FAILED;
    if (request->rebind_restored && result->failure.inputs_touched)
        rebind(request, plan, spx_project_revision(request->project), result,
               &result->rebind_reason, pool);
}

void spx_op_rename(const spx_op_rename_request_t *request, spx_op_rename_result_t *result,
                   apr_pool_t *pool)
{
    memset(result, 0, sizeof(*result));
    /* Steps 2 and 3. */
    spx_rename_plan_t *plan = NULL;
    if (spx_rename_plan(request->project, request->function, request->new_name, &plan, pool,
                        &result->failure) != APR_SUCCESS) {
        result->outcome = SPX_OP_RENAME_REFUSED;
        return;
    }
    result->plan = plan;
    result->paths = spx_rename_changed_paths(plan, pool);
    result->answered_from = request->project;
    pause_at(request, SPX_OP_RENAME_PAUSE_PLANNED, pool);
    /* Step 4: nothing is written over a change made since step 1. */
    result->outcome = SPX_OP_RENAME_DRIFTED;
    if (request->recheck_at == SPX_OP_RENAME_RECHECK_AFTER_PLAN &&
        !inputs_unchanged(request, result, pool))
        return;
    if (request->dry_run) {
        result->outcome = SPX_OP_RENAME_DRY_RUN;
        return;
    }
    /* Nothing is written unless its answer can be: the committed answer and
     * a failure's, with every file named. */
    if (request->budget) {
        result->needed = answer_bytes(request, result, pool);
        if (result->needed > request->budget->bytes) {
            result->outcome = SPX_OP_RENAME_TOO_LARGE;
            return;
        }
    }
    if (request->recheck_at == SPX_OP_RENAME_RECHECK_BEFORE_COMMIT &&
        !inputs_unchanged(request, result, pool))
        return;
    /* Step 5: the engine puts back what it replaced when the commit fails. */
    if (spx_rename_commit(plan, request->commit_probe, NULL, pool, &result->failure) !=
        APR_SUCCESS) {
        failed(request, plan, result, pool);
        return;
    }
    pause_at(request, SPX_OP_RENAME_PAUSE_COMMITTED, pool);
    /* Step 6; when it fails, the commit is undone. */
    const char *why = NULL;
    if (!rebind(request, plan, spx_rename_planned_revision(plan), result, &why, pool)) {
        result->failure.step = SPX_RENAME_REBIND;
        result->failure.operation = NULL;
        result->failure.path = NULL;
        result->failure.reason = why;
        result->failure.inputs_touched = 1;
        spx_rename_rollback(plan, pool, &result->failure);
        failed(request, plan, result, pool);
        return;
    }
    result->outcome = SPX_OP_RENAME_COMMITTED;
    result->answered_from = result->project;
}
