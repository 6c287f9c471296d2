/*
 * spx_rename.h: the Project Rename Transaction v1 (transport.md, v3): rename
 * one exported function of an admitted project, its declaration and every
 * call site in every module, and nothing else; the one write the daemon
 * ever makes (the CLI's other is `semaprax fmt`, spx_format.h).
 *
 * The steps (docs/protocol-v3.md), shared by `semapraxd
 * --allow-project-rename` and `semaprax rename`:
 *   1. the caller checks its state and re-authenticates the inputs;
 *   2. spx_rename_plan computes every edit from the retained index;
 *   3. and runs Phase A on the edited texts in memory: it must admit, with
 *      the same graph up to the renamed id (spans aside);
 *   4. the caller re-authenticates again (a dry run stops here);
 *   5. spx_rename_commit writes each changed file's new bytes to a new
 *      sibling temp file and flushes it, all of them first, then replaces
 *      each original atomically; on any failure every file already replaced
 *      is restored from the retained old bytes and no temp file is left;
 *   6. spx_rename_rebind opens the project afresh and checks it is exactly
 *      what was written; the caller then answers from it.
 * The engine knows nothing of JSON-RPC: failures are spx_rename_failure_t.
 */
#ifndef SPX_RENAME_H
#define SPX_RENAME_H

#include "spx_project.h"

#include <apr_tables.h>
#include <jansson.h>

typedef enum spx_rename_step_t {
    SPX_RENAME_CHECK = 1, /* state, revisions, re-authentication (the caller's) */
    SPX_RENAME_PLAN,      /* the edits, from the retained index */
    SPX_RENAME_VERIFY,    /* Phase A on the edited texts, in memory */
    SPX_RENAME_RECHECK,   /* re-authentication before writing (the caller's) */
    SPX_RENAME_COMMIT,    /* temp files, flush, atomic replace; rollback */
    SPX_RENAME_REBIND     /* the written files authenticated and the project rebuilt */
} spx_rename_step_t;

/* "check", "plan", "verify", "recheck", "commit", "rebind". */
const char *spx_rename_step_name(spx_rename_step_t step);

/* The points of the commit, in order for each file: its temp file created,
 * written and flushed (every file's, before any is replaced), then each
 * original replaced and its directory flushed. */
typedef enum spx_commit_point_t {
    SPX_COMMIT_CREATE = 1, /* "create" */
    SPX_COMMIT_WRITE,      /* "write" */
    SPX_COMMIT_FLUSH,      /* "flush" */
    SPX_COMMIT_REPLACE,    /* "replace" */
    SPX_COMMIT_SYNC        /* "sync": the directory, after the file was replaced */
} spx_commit_point_t;

const char *spx_commit_point_name(spx_commit_point_t point);

/* Why a rename did not happen, or was undone. */
typedef struct spx_rename_failure_t {
    spx_rename_step_t step;
    const char *operation; /* COMMIT: a point's name; NULL otherwise */
    const char *path;      /* the file concerned, or NULL */
    const char *reason;    /* one sentence for a person */
    /* PLAN and VERIFY: why, as a stable code ("unknown_function",
     * "name_is_keyword", ...: docs/protocol-v3.md lists them); NULL for the
     * other steps, whose operation says what failed. */
    const char *cause;
    /* COMMIT and REBIND: the files put back from the retained bytes (const
     * char *, sorted), and those that could not be (the reason says why). */
    apr_array_header_t *restored;
    apr_array_header_t *not_restored;
    /* Something the session held was let go or replaced: the project must be
     * opened again before it answers (spx_rename_rebind). */
    int inputs_touched;
} spx_rename_failure_t;

typedef struct spx_rename_plan_t spx_rename_plan_t;

/* Steps 2 and 3 for an admitted project: rename function ("MODULE.NAME",
 * exported, not named by the manifest) to new_name (an identifier of at most
 * SPX_LIMIT_IDENTIFIER_BYTES, not a keyword or builtin, not a function of
 * that module already). APR_SUCCESS and *plan, or a failure status and
 * *failure (step PLAN for a refusal, VERIFY when the edited project would
 * not be admitted or its graph would differ). Everything lives in pool.
 * The edits are planned over the texts the project was built from: over a
 * project rebuilt over an editor's buffers (spx_project_rebuild), the
 * buffers; such a plan is only read (its edits), never committed. */
apr_status_t spx_rename_plan(spx_project_t *project, const char *function, const char *new_name,
                             spx_rename_plan_t **plan, apr_pool_t *pool,
                             spx_rename_failure_t *failure);

/* The plan's edits, typed: edit number e (0 <= e < spx_rename_edit_count,
 * sorted by path) replaces the old name at each of its offsets (ascending,
 * offset_count of them, into the text the project was built from) by the
 * new name; each replaced run is name_length bytes long. */
typedef struct spx_rename_edit_view_t {
    const char *path;
    const apr_size_t *offsets;
    apr_size_t offset_count;
    apr_size_t name_length; /* the old name's bytes */
} spx_rename_edit_view_t;
apr_size_t spx_rename_edit_count(const spx_rename_plan_t *plan);
void spx_rename_edit(const spx_rename_plan_t *plan, apr_size_t e, spx_rename_edit_view_t *view);

/* The plan's edits: [{"path","before","after","changes":[{"span","old","new"}]}]
 * sorted by path, each change's span in the file's old text, before and after
 * the file's digests. A new reference. */
json_t *spx_rename_edits_json(const spx_rename_plan_t *plan);

/* The paths of the files the plan changes (const char *, sorted, the
 * edits' order), copied into pool: what a caller names without reading the
 * edits document back. */
apr_array_header_t *spx_rename_changed_paths(const spx_rename_plan_t *plan, apr_pool_t *pool);

/* The project_revision the project will have once the plan is committed. */
const char *spx_rename_planned_revision(const spx_rename_plan_t *plan);

/* Called at every point of the commit, before the operation (file is its
 * number among the changed files, of files); a status other than
 * APR_SUCCESS makes that operation fail with *message. The test-only daemon
 * injects failures through it; the programs pass NULL. */
typedef apr_status_t (*spx_commit_probe_fn)(void *context, spx_commit_point_t point,
                                            apr_size_t file, apr_size_t files, const char **message,
                                            apr_pool_t *pool);

/* probe (when not NULL) at point of file among files: its status, with
 * *message "failed" when it gave none. */
apr_status_t spx_commit_probe_at(spx_commit_probe_fn probe, void *context, spx_commit_point_t point,
                                 apr_size_t file, apr_size_t files, const char **message,
                                 apr_pool_t *pool);

/* Step 5. APR_SUCCESS when every changed file was replaced and flushed;
 * otherwise every replaced file has been put back from the retained bytes
 * (where it could be), no temp file is left, and *failure says at which
 * point of which file it failed. */
apr_status_t spx_rename_commit(spx_rename_plan_t *plan, spx_commit_probe_fn probe, void *context,
                               apr_pool_t *pool, spx_rename_failure_t *failure);

/* Undo a commit that succeeded (when step 6 fails): put back every file
 * whose bytes on disk are still exactly the ones written (another program's
 * later change is never overwritten). Fills failure's restored and
 * not_restored. */
void spx_rename_rollback(spx_rename_plan_t *plan, apr_pool_t *pool, spx_rename_failure_t *failure);

/* Step 6, and the same after a rollback: open the project of old's
 * manifest afresh in pool, run Phase A, and check that its project_revision
 * is expected_revision and that every held object but the files the plan
 * replaced (or restored) is the same object as before. APR_SUCCESS and
 * *project, or a failure status and *reason. */
apr_status_t spx_rename_rebind(const spx_project_t *old, const spx_rename_plan_t *plan,
                               const char *expected_revision, spx_project_t **project,
                               apr_pool_t *pool, const char **reason);

#endif /* SPX_RENAME_H */
