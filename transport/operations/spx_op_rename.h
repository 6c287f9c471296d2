/*
 * spx_op_rename.h: the rename operation (`semaprax rename`, the daemon's
 * project/rename, MCP's rename tool): the Project Rename Transaction of
 * spx_rename.h (docs/protocol-v3.md) written once, from the plan to the
 * answer. The operation plans, re-authenticates before writing, stops for a
 * dry run, checks that the answer will fit, commits, rebinds, and on any
 * failure after the commit puts every file back (spx_rename_rollback is
 * called here and nowhere else). The front end has checked its own state
 * and that the project is admitted (step 1), and words the typed result.
 */
#ifndef SPX_OP_RENAME_H
#define SPX_OP_RENAME_H

#include "spx_project.h"
#include "spx_rename.h"

#include <apr_pools.h>
#include <apr_tables.h>
#include <jansson.h>

/* Where a front end may pause the operation (the test-only daemon's hooks,
 * spx_session_hooks.h). */
typedef enum spx_op_rename_pause_t {
    SPX_OP_RENAME_PAUSE_PLANNED = 1, /* planned and verified, before the re-check (step 4) */
    SPX_OP_RENAME_PAUSE_COMMITTED    /* committed, before the rebinding (step 6) */
} spx_op_rename_pause_t;

/* When the re-authentication before writing (step 4) runs. */
typedef enum spx_op_rename_recheck_at_t {
    /* Right after the plan, so that a dry run's answer is re-checked too
     * (protocol-v3.md's order: the daemon and the CLI). */
    SPX_OP_RENAME_RECHECK_AFTER_PLAN = 1,
    /* Just before the commit, after the answer check: for a front end whose
     * own gate re-authenticates every answer it writes, a dry run's
     * included (MCP). */
    SPX_OP_RENAME_RECHECK_BEFORE_COMMIT
} spx_op_rename_recheck_at_t;

/* Nothing is written unless its answer can be: the most bytes the answer
 * may take, and how the front end's answers are measured, each as it will
 * be sent, with everything the front end adds to it. */
typedef struct spx_op_rename_budget_t {
    /* The most bytes the committed answer and the failure's answer may
     * each take: what the front end's limit leaves once its own framing is
     * counted. */
    apr_uint64_t bytes;
    /* The bytes the front end's answer to failure would take (context is
     * the request's). */
    apr_uint64_t (*failure_bytes)(void *context, const spx_rename_failure_t *failure,
                                  apr_pool_t *pool);
    /* The bytes the front end's answer to a commit would take, document
     * being the committed document (spx_op_rename_document); NULL: the
     * document's canonical text is the answer (the daemon's result). */
    apr_uint64_t (*committed_bytes)(void *context, const json_t *document, apr_pool_t *pool);
} spx_op_rename_budget_t;

typedef struct spx_op_rename_request_t {
    spx_project_t *project; /* admitted: the project the front end holds */
    const char *function;   /* "MODULE.NAME" */
    const char *new_name;
    int dry_run;
    spx_op_rename_recheck_at_t recheck_at;
    /* Handed to spx_rename_commit (context NULL): the test hooks' failures
     * on demand; NULL for the programs. */
    spx_commit_probe_fn commit_probe;
    /* The pool under which the rebound project's own pool is made, so that
     * the front end can hold that project longer than the request. */
    apr_pool_t *project_parent;
    /* After a failure that touched the held inputs, open the restored
     * project again exactly as step 6 does (its revision must be the old
     * one), for a front end that holds its project across requests. */
    int rebind_restored;
    const spx_op_rename_budget_t *budget; /* NULL: the answer has no limit */
    /* The hooks below get context. pause: NULL, no pause. recheck: step 4,
     * 1 when nothing changed since step 1 (the front end's own
     * re-authentication and what it does of a change); NULL: the operation
     * re-authenticates the project's inputs and reports their drift. */
    void *context;
    void (*pause)(void *context, spx_op_rename_pause_t point, apr_pool_t *pool);
    int (*recheck)(void *context, apr_pool_t *pool);
} spx_op_rename_request_t;

typedef enum spx_op_rename_outcome_t {
    SPX_OP_RENAME_REFUSED = 1, /* step 2 or 3 refused: failure (step PLAN or VERIFY, cause) */
    SPX_OP_RENAME_DRIFTED,     /* step 4 found a change; nothing was written */
    SPX_OP_RENAME_TOO_LARGE,   /* the answer would not fit; nothing was written */
    SPX_OP_RENAME_DRY_RUN,     /* planned: the edits, nothing written */
    SPX_OP_RENAME_COMMITTED,   /* written and rebound: project is the renamed one */
    SPX_OP_RENAME_FAILED       /* step 5 or 6 failed; every file put back where it could be */
} spx_op_rename_outcome_t;

typedef struct spx_op_rename_result_t {
    spx_op_rename_outcome_t outcome;
    /* REFUSED: step, cause and reason. FAILED: step (COMMIT or REBIND),
     * operation and path (COMMIT), reason, restored and not_restored, and
     * inputs_touched. */
    spx_rename_failure_t failure;
    /* DRIFTED with the operation's own re-authentication: spx_drift_t
     * records, NULL when the inputs could not be verified. */
    apr_array_header_t *drift;
    /* TOO_LARGE: the bytes the larger answer needs, over budget->bytes. */
    apr_uint64_t needed;
    /* From DRY_RUN on: the plan, whose edits spx_op_rename_document
     * renders (it reads the request's project: render the answer before
     * letting that project go), and the changed files (const char *,
     * sorted). */
    const spx_rename_plan_t *plan;
    apr_array_header_t *paths;
    /* The project the answer's revisions are those of: the request's for a
     * dry run, the renamed one once committed. */
    const spx_project_t *answered_from;
    /* A project the front end holds from now on, in project_pool (a new
     * pool under request->project_parent): COMMITTED, the renamed project;
     * FAILED with rebind_restored, the restored one when it could be opened
     * again (else NULL, and rebind_reason says why). */
    spx_project_t *project;
    apr_pool_t *project_pool;
    const char *rebind_reason;
} spx_op_rename_result_t;

/* Run the transaction for request; everything result holds lives in pool
 * (but project, in project_pool). */
void spx_op_rename(const spx_op_rename_request_t *request, spx_op_rename_result_t *result,
                   apr_pool_t *pool);

/* The answer of a dry run or a commit, the one document the CLI prints,
 * the daemon answers and MCP gives as structuredContent:
 * {"committed","edits","project_revision","workspace_revision"}, edits as
 * spx_rename_edits_json renders them. A new reference; call it while the
 * request's project is still held. */
json_t *spx_op_rename_document(const spx_op_rename_result_t *result);

/* A failure's restored or not_restored files (const char *, may be NULL)
 * as the JSON array of paths the daemon's error data and MCP's answer give.
 * A new reference. */
json_t *spx_op_rename_file_list(const apr_array_header_t *files);

#endif /* SPX_OP_RENAME_H */
