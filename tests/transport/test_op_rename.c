/*
 * test_op_rename.c: the rename operation (spx_op_rename.h) in process, as
 * the three front ends call it: a dry run that writes nothing and names the
 * changed files; a refusal of the plan; the answer check, which hands the
 * front end's measure the largest failure there can be; drift found by the
 * operation's own re-check; a commit whose renamed project the caller takes
 * over; and failures at the commit and after it, every file put back and
 * the restored project opened again when the caller asks.
 */
#include "spx_canonical.h"
#include "spx_inputs.h"
#include "spx_limits.h"
#include "spx_operations.h"
#include "spx_test.h"

#include <apr_strings.h>
#include <string.h>

static const char manifest_text[] = "manifest = \"semaprax.project-manifest.v1\"\n"
                                    "\n"
                                    "[project]\n"
                                    "name = \"pair\"\n"
                                    "version = \"1.0.0\"\n"
                                    "entry = \"app.main\"\n"
                                    "\n"
                                    "[[source]]\n"
                                    "module = \"app\"\n"
                                    "path = \"src/app.spx\"\n"
                                    "\n"
                                    "[[source]]\n"
                                    "module = \"util\"\n"
                                    "path = \"a/u.spx\"\n";

/* a/u.spx comes first in path order; src/app.spx is the longer path. */
static const char util_text[] = "export fn scale(x: int) -> int {\n"
                                "  return x * 3;\n"
                                "}\n";

static const char app_text[] = "import util;\n"
                               "\n"
                               "export fn main() -> int {\n"
                               "  return util.scale(1) - 3;\n"
                               "}\n";

/* What a test's hooks see and do. */
typedef struct hooks_t {
    spx_fixture_t *fixture;
    const char *append_planned;    /* appended to this file at the PLANNED pause */
    const char *append_committed;  /* appended to this file at the COMMITTED pause */
    spx_rename_failure_t measured; /* the failure the answer check measured */
    apr_uint64_t failure_bytes;    /* what the measure answers */
} hooks_t;

static void pause_hook(void *context, spx_op_rename_pause_t point, apr_pool_t *pool)
{
    (void)pool;
    hooks_t *hooks = context;
    const char *path =
        point == SPX_OP_RENAME_PAUSE_PLANNED ? hooks->append_planned : hooks->append_committed;
    if (path)
        spx_fixture_append(hooks->fixture, path, "// changed meanwhile\n");
}

static apr_uint64_t measure(void *context, const spx_rename_failure_t *failure, apr_pool_t *pool)
{
    (void)pool;
    hooks_t *hooks = context;
    hooks->measured = *failure;
    return hooks->failure_bytes;
}

/* The replace of the last file fails. */
static apr_status_t fail_last_replace(void *context, spx_commit_point_t point, apr_size_t file,
                                      apr_size_t files, const char **message, apr_pool_t *pool)
{
    (void)context;
    (void)pool;
    if (point != SPX_COMMIT_REPLACE || file + 1 != files)
        return APR_SUCCESS;
    *message = "injected";
    return APR_EGENERAL;
}

static spx_project_t *open_pair(spx_fixture_t *fixture)
{
    spx_fixture_write(fixture, "proj/semaprax.toml", manifest_text);
    spx_fixture_write(fixture, "proj/a/u.spx", util_text);
    spx_fixture_write(fixture, "proj/src/app.spx", app_text);
    spx_project_t *project = NULL;
    const char *message = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_project_open(&project,
                                           spx_fixture_path(fixture, "proj/semaprax.toml"),
                                           fixture->pool, &message),
                          APR_SUCCESS);
    CU_ASSERT_TRUE_FATAL(spx_project_admitted(project));
    return project;
}

static spx_op_rename_request_t request_for(spx_project_t *project, hooks_t *hooks,
                                           const char *new_name)
{
    spx_op_rename_request_t request = {.project = project,
                                       .function = "util.scale",
                                       .new_name = new_name,
                                       .recheck_at = SPX_OP_RENAME_RECHECK_AFTER_PLAN,
                                       .project_parent = hooks->fixture->pool,
                                       .context = hooks,
                                       .pause = pause_hook};
    return request;
}

static void assert_unchanged(spx_fixture_t *fixture)
{
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "proj/a/u.spx"), util_text);
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "proj/src/app.spx"), app_text);
}

static void test_dry_run(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_project_t *project = open_pair(fixture);
    hooks_t hooks = {.fixture = fixture};
    spx_op_rename_request_t request = request_for(project, &hooks, "triple");
    request.dry_run = 1;
    spx_op_rename_result_t result;
    spx_op_rename(&request, &result, fixture->pool);
    CU_ASSERT_EQUAL_FATAL(result.outcome, SPX_OP_RENAME_DRY_RUN);
    CU_ASSERT_EQUAL_FATAL(result.paths->nelts, 2);
    CU_ASSERT_STRING_EQUAL(APR_ARRAY_IDX(result.paths, 0, const char *), "a/u.spx");
    CU_ASSERT_STRING_EQUAL(APR_ARRAY_IDX(result.paths, 1, const char *), "src/app.spx");
    CU_ASSERT_PTR_NULL(result.project);
    json_t *document = spx_op_rename_document(&result);
    CU_ASSERT_TRUE(json_is_false(json_object_get(document, "committed")));
    CU_ASSERT_EQUAL(json_array_size(json_object_get(document, "edits")), 2);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(document, "project_revision")),
                           spx_project_revision(project));
    json_decref(document);
    assert_unchanged(fixture);
    spx_fixture_free(fixture);
}

static void test_refused(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    hooks_t hooks = {.fixture = fixture};
    spx_op_rename_request_t request = request_for(open_pair(fixture), &hooks, "while");
    spx_op_rename_result_t result;
    spx_op_rename(&request, &result, fixture->pool);
    CU_ASSERT_EQUAL(result.outcome, SPX_OP_RENAME_REFUSED);
    CU_ASSERT_EQUAL(result.failure.step, SPX_RENAME_PLAN);
    CU_ASSERT_STRING_EQUAL(result.failure.cause, "name_is_keyword");
    assert_unchanged(fixture);
    spx_fixture_free(fixture);
}

/* The measure gets the largest failure: the replace of the longest path,
 * every file restored and not restored, a reason of the reserved length.
 * A failure's answer over the budget refuses as the document would. */
static void test_answer_check(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    hooks_t hooks = {.fixture = fixture, .failure_bytes = 100000};
    const spx_op_rename_budget_t budget = {50000, measure, NULL};
    spx_op_rename_request_t request = request_for(open_pair(fixture), &hooks, "triple");
    request.budget = &budget;
    spx_op_rename_result_t result;
    spx_op_rename(&request, &result, fixture->pool);
    CU_ASSERT_EQUAL(result.outcome, SPX_OP_RENAME_TOO_LARGE);
    CU_ASSERT_EQUAL(result.needed, 100000);
    CU_ASSERT_EQUAL(hooks.measured.step, SPX_RENAME_COMMIT);
    CU_ASSERT_STRING_EQUAL(hooks.measured.operation, "replace");
    CU_ASSERT_STRING_EQUAL(hooks.measured.path, "src/app.spx");
    CU_ASSERT_EQUAL(strlen(hooks.measured.reason), SPX_LIMIT_RENAME_REASON_BYTES);
    CU_ASSERT_EQUAL(hooks.measured.restored->nelts, 2);
    CU_ASSERT_EQUAL(hooks.measured.not_restored->nelts, 2);
    assert_unchanged(fixture);
    /* The committed document alone over a small budget. */
    const spx_op_rename_budget_t small = {100, measure, NULL};
    hooks.failure_bytes = 1;
    request.budget = &small;
    spx_op_rename(&request, &result, fixture->pool);
    CU_ASSERT_EQUAL(result.outcome, SPX_OP_RENAME_TOO_LARGE);
    json_t *committed = spx_op_rename_document(&result);
    json_object_set_new(committed, "committed", json_true());
    const char *text = spx_canonical_text(committed, fixture->pool);
    json_decref(committed);
    CU_ASSERT_EQUAL(result.needed, strlen(text));
    assert_unchanged(fixture);
    spx_fixture_free(fixture);
}

static void test_drift(void)
{
    if (spx_held_inputs_locked())
        return; /* Windows denies the change (docs/platform.md) */
    spx_fixture_t *fixture = spx_fixture_new();
    hooks_t hooks = {.fixture = fixture, .append_planned = "proj/a/u.spx"};
    spx_op_rename_request_t request = request_for(open_pair(fixture), &hooks, "triple");
    spx_op_rename_result_t result;
    spx_op_rename(&request, &result, fixture->pool);
    CU_ASSERT_EQUAL_FATAL(result.outcome, SPX_OP_RENAME_DRIFTED);
    CU_ASSERT_PTR_NOT_NULL_FATAL(result.drift);
    CU_ASSERT_EQUAL_FATAL(result.drift->nelts, 1);
    CU_ASSERT_STRING_EQUAL(APR_ARRAY_IDX(result.drift, 0, spx_drift_t).path, "a/u.spx");
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "proj/src/app.spx"), app_text);
    spx_fixture_free(fixture);
}

static void test_committed(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    hooks_t hooks = {.fixture = fixture};
    spx_project_t *project = open_pair(fixture);
    spx_op_rename_request_t request = request_for(project, &hooks, "triple");
    spx_op_rename_result_t result;
    spx_op_rename(&request, &result, fixture->pool);
    CU_ASSERT_EQUAL_FATAL(result.outcome, SPX_OP_RENAME_COMMITTED);
    CU_ASSERT_PTR_NOT_NULL_FATAL(result.project);
    CU_ASSERT_PTR_NOT_NULL(result.project_pool);
    CU_ASSERT_PTR_EQUAL(result.answered_from, result.project);
    json_t *document = spx_op_rename_document(&result);
    CU_ASSERT_TRUE(json_is_true(json_object_get(document, "committed")));
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(document, "project_revision")),
                           spx_project_revision(result.project));
    CU_ASSERT_STRING_NOT_EQUAL(spx_project_revision(result.project), spx_project_revision(project));
    json_decref(document);
    CU_ASSERT_PTR_NOT_NULL(strstr(spx_fixture_read(fixture, "proj/src/app.spx"), "util.triple(1)"));
    spx_fixture_free(fixture);
}

/* The commit fails at its last replace: the engine puts the first file
 * back, and the restored project is opened again, at the old revision. */
static void test_commit_failed(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    hooks_t hooks = {.fixture = fixture};
    spx_project_t *project = open_pair(fixture);
    spx_op_rename_request_t request = request_for(project, &hooks, "triple");
    request.commit_probe = fail_last_replace;
    request.rebind_restored = 1;
    spx_op_rename_result_t result;
    spx_op_rename(&request, &result, fixture->pool);
    CU_ASSERT_EQUAL_FATAL(result.outcome, SPX_OP_RENAME_FAILED);
    CU_ASSERT_EQUAL(result.failure.step, SPX_RENAME_COMMIT);
    CU_ASSERT_STRING_EQUAL(result.failure.operation, "replace");
    CU_ASSERT_STRING_EQUAL(result.failure.path, "src/app.spx");
    CU_ASSERT_EQUAL_FATAL(result.failure.restored->nelts, 1);
    CU_ASSERT_STRING_EQUAL(APR_ARRAY_IDX(result.failure.restored, 0, const char *), "a/u.spx");
    CU_ASSERT_PTR_NOT_NULL_FATAL(result.project);
    CU_ASSERT_STRING_EQUAL(spx_project_revision(result.project), spx_project_revision(project));
    assert_unchanged(fixture);
    spx_fixture_free(fixture);
}

/* Another program changes a renamed file before the rebinding: the rename
 * is undone but for that file, and the restored project cannot be opened
 * again at the old revision. */
static void test_rebind_failed(void)
{
    if (spx_held_inputs_locked())
        return; /* Windows denies the change (docs/platform.md) */
    spx_fixture_t *fixture = spx_fixture_new();
    hooks_t hooks = {.fixture = fixture, .append_committed = "proj/src/app.spx"};
    spx_op_rename_request_t request = request_for(open_pair(fixture), &hooks, "triple");
    request.rebind_restored = 1;
    spx_op_rename_result_t result;
    spx_op_rename(&request, &result, fixture->pool);
    CU_ASSERT_EQUAL_FATAL(result.outcome, SPX_OP_RENAME_FAILED);
    CU_ASSERT_EQUAL(result.failure.step, SPX_RENAME_REBIND);
    CU_ASSERT_PTR_NULL(result.failure.operation);
    CU_ASSERT_TRUE(result.failure.inputs_touched);
    CU_ASSERT_EQUAL_FATAL(result.failure.restored->nelts, 1);
    CU_ASSERT_STRING_EQUAL(APR_ARRAY_IDX(result.failure.restored, 0, const char *), "a/u.spx");
    CU_ASSERT_EQUAL_FATAL(result.failure.not_restored->nelts, 1);
    CU_ASSERT_STRING_EQUAL(APR_ARRAY_IDX(result.failure.not_restored, 0, const char *),
                           "src/app.spx");
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "proj/a/u.spx"), util_text);
    CU_ASSERT_PTR_NULL(result.project);
    CU_ASSERT_PTR_NOT_NULL(result.rebind_reason);
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"a dry run names the changed files and writes nothing", test_dry_run},
        {"a refused plan: step and cause", test_refused},
        {"the answer check measures the largest failure and the committed document",
         test_answer_check},
        {"drift at the re-check: nothing written, the drift listed", test_drift},
        {"a commit: the renamed project, its document", test_committed},
        {"a failed commit: restored, the old project opened again", test_commit_failed},
        {"a failed rebinding: undone but for the changed file", test_rebind_failed},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("the rename operation", tests);
}
