/*
 * test_daemon_rename.c: process tests of transport v3 and the Project Rename
 * Transaction in the real daemon: the two profiles (v2 without the flag, v3
 * with it); a rename across three modules that changes exactly the expected
 * bytes, whose revisions are those of a fresh session and after which every
 * method answers for the renamed project; a dry run that writes nothing;
 * every refusal; a failure injected at every point of the commit (the
 * test-only daemon), after which every file holds its original bytes and no
 * temp file is left; a read-only directory; and drift between plan and
 * commit. The CLI's `semaprax rename` is tested here too, on the same project.
 */
#include "spx_daemon.h"
#include "spx_process.h"
#include "spx_rpc.h"

#include <apr_env.h>
#include <apr_file_io.h>
#include <apr_strings.h>
#include <stdlib.h>
#include <string.h>

/* --- the project: util.scale is called from all three modules --------------- */

static const char manifest_text[] = "manifest = \"semaprax.project-manifest.v1\"\n"
                                    "\n"
                                    "[project]\n"
                                    "name = \"trio\"\n"
                                    "version = \"1.0.0\"\n"
                                    "entry = \"app.main\"\n"
                                    "\n"
                                    "[[source]]\n"
                                    "module = \"app\"\n"
                                    "path = \"src/app.spx\"\n"
                                    "\n"
                                    "[[source]]\n"
                                    "module = \"util\"\n"
                                    "path = \"lib/util.spx\"\n"
                                    "\n"
                                    "[[source]]\n"
                                    "module = \"report\"\n"
                                    "path = \"lib/report.spx\"\n"
                                    "\n"
                                    "[[test]]\n"
                                    "name = \"scale\"\n"
                                    "function = \"app.test_scale\"\n";

/* A comment, a local variable and a string with the function's name, a
 * parenthesized call, a call with blanks around its dot, an unexported
 * caller: only the declaration and the calls may change. */
static const char util_text[] = "// util: scale is called from every module; scale(x) is x * 3.\n"
                                "export fn scale(x: int) -> int {\n"
                                "  return x * 3;\n"
                                "}\n"
                                "\n"
                                "export fn twice_scale(x: int) -> int {\n"
                                "  let scale = 2;\n"
                                "  return scale * scale(x);\n"
                                "}\n"
                                "\n"
                                "fn helper() -> int {\n"
                                "  return scale(1) - 2;\n"
                                "}\n";

static const char report_text[] =
    "import util;\n"
    "\n"
    "export fn describe(n: int) -> str {\n"
    "  return \"scale(\" + itos(n) + \") = \" + itos(util.scale(n));\n"
    "}\n";

static const char app_text[] = "import util;\n"
                               "import report;\n"
                               "\n"
                               "export fn main() -> int {\n"
                               "  print(report.describe(2) + \"\\n\");\n"
                               "  let scale = util.scale(1);\n"
                               "  return scale - 3;\n"
                               "}\n"
                               "\n"
                               "export fn test_scale() -> int {\n"
                               "  if (util.scale(2)) != 6 { return 1; }\n"
                               "  if util.twice_scale(1) != 6 { return 2; }\n"
                               "  return util . scale(0);\n"
                               "}\n";

/* The golden result of renaming util.scale to multiply. */
static const char util_renamed[] =
    "// util: scale is called from every module; scale(x) is x * 3.\n"
    "export fn multiply(x: int) -> int {\n"
    "  return x * 3;\n"
    "}\n"
    "\n"
    "export fn twice_scale(x: int) -> int {\n"
    "  let scale = 2;\n"
    "  return scale * multiply(x);\n"
    "}\n"
    "\n"
    "fn helper() -> int {\n"
    "  return multiply(1) - 2;\n"
    "}\n";

static const char report_renamed[] =
    "import util;\n"
    "\n"
    "export fn describe(n: int) -> str {\n"
    "  return \"scale(\" + itos(n) + \") = \" + itos(util.multiply(n));\n"
    "}\n";

static const char app_renamed[] = "import util;\n"
                                  "import report;\n"
                                  "\n"
                                  "export fn main() -> int {\n"
                                  "  print(report.describe(2) + \"\\n\");\n"
                                  "  let scale = util.multiply(1);\n"
                                  "  return scale - 3;\n"
                                  "}\n"
                                  "\n"
                                  "export fn test_scale() -> int {\n"
                                  "  if (util.multiply(2)) != 6 { return 1; }\n"
                                  "  if util.twice_scale(1) != 6 { return 2; }\n"
                                  "  return util . multiply(0);\n"
                                  "}\n";

static void write_trio(spx_fixture_t *fixture)
{
    spx_fixture_write(fixture, "proj/semaprax.toml", manifest_text);
    spx_fixture_write(fixture, "proj/lib/util.spx", util_text);
    spx_fixture_write(fixture, "proj/lib/report.spx", report_text);
    spx_fixture_write(fixture, "proj/src/app.spx", app_text);
}

/* Every file of the project holds exactly these bytes. */
static void assert_files(spx_fixture_t *fixture, const char *util, const char *report,
                         const char *app, const char *when)
{
    const char *got[3] = {spx_fixture_read(fixture, "proj/lib/util.spx"),
                          spx_fixture_read(fixture, "proj/lib/report.spx"),
                          spx_fixture_read(fixture, "proj/src/app.spx")};
    const char *want[3] = {util, report, app};
    for (int i = 0; i < 3; i++) {
        if (strcmp(got[i], want[i]) != 0)
            fprintf(stderr, "\n  %s: file %d is\n%s\n", when, i, got[i]);
        CU_ASSERT_STRING_EQUAL(got[i], want[i]);
    }
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "proj/semaprax.toml"), manifest_text);
}

/* The names in the project's folders, sorted: no temp file is left when
 * this is the project's own list. */
static const char *names(spx_fixture_t *fixture)
{
    const char *folders[] = {"proj", "proj/lib", "proj/src"};
    const char *list = "";
    for (int f = 0; f < 3; f++) {
        apr_dir_t *dir = NULL;
        CU_ASSERT_EQUAL_FATAL(
            apr_dir_open(&dir, spx_fixture_path(fixture, folders[f]), fixture->pool), APR_SUCCESS);
        apr_array_header_t *found = apr_array_make(fixture->pool, 8, sizeof(const char *));
        apr_finfo_t entry;
        while (apr_dir_read(&entry, APR_FINFO_NAME, dir) == APR_SUCCESS)
            if (strcmp(entry.name, ".") != 0 && strcmp(entry.name, "..") != 0)
                APR_ARRAY_PUSH(found, const char *) = apr_pstrdup(fixture->pool, entry.name);
        apr_dir_close(dir);
        for (int i = 1; i < found->nelts; i++) /* a few names: insertion sort */
            for (int j = i; j > 0 && strcmp(APR_ARRAY_IDX(found, j - 1, const char *),
                                            APR_ARRAY_IDX(found, j, const char *)) > 0;
                 j--) {
                const char *swap = APR_ARRAY_IDX(found, j, const char *);
                APR_ARRAY_IDX(found, j, const char *) = APR_ARRAY_IDX(found, j - 1, const char *);
                APR_ARRAY_IDX(found, j - 1, const char *) = swap;
            }
        list = apr_pstrcat(fixture->pool, list, folders[f], ":",
                           apr_array_pstrcat(fixture->pool, found, ','), ";", NULL);
    }
    return list;
}

static const char expected_names[] = "proj:lib,semaprax.toml,src;proj/lib:report.spx,util.spx;"
                                     "proj/src:app.spx;";

static spx_daemon_t *start(spx_fixture_t *fixture, const char *variable, int allow)
{
    const char *arguments[] = {"--stdio", "--manifest-path",
                               spx_fixture_path(fixture, "proj/semaprax.toml"),
                               allow ? "--allow-project-rename" : NULL, NULL};
    return spx_daemon_start(variable, arguments, fixture->root, fixture->pool);
}

static const char *rename_line(const char *revisions, const char *function, const char *new_name,
                               const char *extra, apr_pool_t *pool)
{
    return spx_request_line("\"r\"", "project/rename",
                            apr_psprintf(pool, "%s,\"function\":\"%s\",\"new_name\":\"%s\"%s",
                                         revisions, function, new_name, extra ? extra : ""),
                            pool);
}

/* The params text of the revisions in a result or error data object. */
static const char *revisions_of(const json_t *object, apr_pool_t *pool)
{
    const char *project = json_string_value(json_object_get(object, "project_revision"));
    const char *workspace = json_string_value(json_object_get(object, "workspace_revision"));
    CU_ASSERT_PTR_NOT_NULL_FATAL(project);
    CU_ASSERT_PTR_NOT_NULL_FATAL(workspace);
    return apr_psprintf(pool, "\"project_revision\":\"%s\",\"workspace_revision\":\"%s\"", project,
                        workspace);
}

/* What a fresh session (v2, read-only) opens the project with. */
static const char *fresh_revisions(spx_fixture_t *fixture)
{
    spx_daemon_t *daemon = start(fixture, "SPX_SEMAPRAXD", 0);
    const char *revisions = apr_pstrdup(fixture->pool, spx_daemon_open(daemon));
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    return revisions;
}

/* A fresh session's graph of the project. */
static const char *fresh_graph(spx_fixture_t *fixture)
{
    spx_daemon_t *daemon = start(fixture, "SPX_SEMAPRAXD", 0);
    const char *revisions = spx_daemon_open(daemon);
    const char *line = apr_pstrdup(
        fixture->pool,
        spx_daemon_call(daemon, spx_request_line("\"g\"", "graph", revisions, fixture->pool)));
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    return line;
}

static int error_code(const json_t *response)
{
    return (int)json_integer_value(json_object_get(json_object_get(response, "error"), "code"));
}

static const json_t *error_data(const json_t *response)
{
    return json_object_get(json_object_get(response, "error"), "data");
}

/* --- the profiles ------------------------------------------------------------ */

static void test_profiles(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    write_trio(fixture);
    for (int allow = 0; allow < 2; allow++) {
        spx_daemon_t *daemon = start(fixture, "SPX_SEMAPRAXD", allow);
        json_t *protocol =
            spx_daemon_call_json(daemon, "{\"id\":1,\"jsonrpc\":\"2.0\",\"method\":\"protocol\"}");
        json_t *result = json_object_get(protocol, "result");
        CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(result, "schema")),
                               allow ? "semaprax.agent-transport.v3"
                                     : "semaprax.agent-transport.v2");
        json_t *methods = json_object_get(result, "methods");
        int listed = 0;
        for (size_t i = 0; i < json_array_size(methods); i++) {
            listed |= strcmp(json_string_value(json_array_get(methods, i)), "project/rename") == 0;
            if (i > 0) /* sorted */
                CU_ASSERT_TRUE(strcmp(json_string_value(json_array_get(methods, i - 1)),
                                      json_string_value(json_array_get(methods, i))) < 0);
        }
        CU_ASSERT_EQUAL(listed, allow);
        CU_ASSERT_EQUAL(json_array_size(methods), allow ? 11u : 10u);
        json_decref(protocol);
        const char *revisions = spx_daemon_open(daemon);
        json_t *answer = spx_daemon_call_json(
            daemon, rename_line(revisions, "util.scale", "multiply", "", pool));
        if (allow) {
            CU_ASSERT_PTR_NOT_NULL(json_object_get(answer, "result"));
        } else {
            CU_ASSERT_EQUAL(error_code(answer), SPX_RPC_METHOD_NOT_FOUND);
            CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(error_data(answer), "reason")),
                                   "method_not_found");
            spx_assert_contains(json_string_value(json_object_get(error_data(answer), "detail")),
                                "project/rename is routed only by semapraxd "
                                "--allow-project-rename");
        }
        json_decref(answer);
        CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
        if (!allow)
            assert_files(fixture, util_text, report_text, app_text, "v2 wrote nothing");
    }
    assert_files(fixture, util_renamed, report_renamed, app_renamed, "v3 renamed");
    spx_fixture_free(fixture);
}

/* --- a rename across three modules ------------------------------------------- */

static void test_rename_across_modules(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    write_trio(fixture);
    spx_daemon_t *daemon = start(fixture, "SPX_SEMAPRAXD", 1);
    const char *before = spx_daemon_open(daemon);
    json_t *answer =
        spx_daemon_call_json(daemon, rename_line(before, "util.scale", "multiply", "", pool));
    json_t *result = json_object_get(answer, "result");
    CU_ASSERT_PTR_NOT_NULL_FATAL(result);
    CU_ASSERT_TRUE(json_is_true(json_object_get(result, "committed")));

    /* Exactly the expected bytes, and nothing else in the folders. */
    assert_files(fixture, util_renamed, report_renamed, app_renamed, "after the rename");
    CU_ASSERT_STRING_EQUAL(names(fixture), expected_names);

    /* The edits: files sorted by path; each change where the old name was. */
    json_t *edits = json_object_get(result, "edits");
    CU_ASSERT_EQUAL_FATAL(json_array_size(edits), 3);
    const char *paths[] = {"lib/report.spx", "lib/util.spx", "src/app.spx"};
    const size_t changes[] = {1, 3, 3};
    const char *olds[] = {report_text, util_text, app_text};
    for (size_t e = 0; e < 3; e++) {
        json_t *edit = json_array_get(edits, e);
        CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(edit, "path")), paths[e]);
        json_t *list = json_object_get(edit, "changes");
        CU_ASSERT_EQUAL(json_array_size(list), changes[e]);
        for (size_t c = 0; c < json_array_size(list); c++) {
            json_t *change = json_array_get(list, c);
            json_int_t offset = json_integer_value(json_object_get(
                json_object_get(json_object_get(change, "span"), "start"), "offset"));
            CU_ASSERT_EQUAL(strncmp(olds[e] + offset, "scale", 5), 0);
            CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(change, "old")), "scale");
            CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(change, "new")), "multiply");
        }
        CU_ASSERT_STRING_NOT_EQUAL(json_string_value(json_object_get(edit, "before")),
                                   json_string_value(json_object_get(edit, "after")));
    }

    /* The new revisions are a fresh session's. */
    const char *after = revisions_of(result, pool);
    CU_ASSERT_STRING_EQUAL(after, fresh_revisions(fixture));
    CU_ASSERT_STRING_NOT_EQUAL(after, before);
    json_decref(answer);

    /* The session answers for the renamed project, with the new revisions. */
    const char *graph = spx_daemon_call(daemon, spx_request_line("\"g\"", "graph", after, pool));
    CU_ASSERT_STRING_EQUAL(graph, fresh_graph(fixture));
    spx_assert_contains(graph, "\"id\":\"function:util.multiply\"");
    CU_ASSERT_PTR_NULL(strstr(graph, "function:util.scale"));
    json_t *context = spx_daemon_call_json(
        daemon, spx_request_line(
                    "\"c\"", "context",
                    apr_pstrcat(pool, after,
                                ",\"target_kind\":\"function\",\"target\":\"util.multiply\"", NULL),
                    pool));
    CU_ASSERT_STRING_EQUAL(
        json_string_value(json_object_get(json_object_get(context, "result"), "target")),
        "function:util.multiply");
    json_decref(context);
    json_t *test = spx_daemon_call_json(daemon, spx_request_line("\"t\"", "test", after, pool));
    CU_ASSERT_TRUE(
        json_is_true(json_object_get(json_object_get(test, "result"), "command_succeeded")));
    json_decref(test);
    /* The old revisions are stale now; a second rename builds on the first. */
    json_t *stale = spx_daemon_call_json(daemon, spx_request_line("\"s\"", "check", before, pool));
    CU_ASSERT_EQUAL(error_code(stale), SPX_RPC_REVISION_MISMATCH);
    json_decref(stale);
    json_t *again =
        spx_daemon_call_json(daemon, rename_line(after, "util.multiply", "scale", "", pool));
    CU_ASSERT_TRUE(json_is_true(json_object_get(json_object_get(again, "result"), "committed")));
    json_decref(again);
    assert_files(fixture, util_text, report_text, app_text, "renamed back");
    json_t *status = spx_daemon_call_json(
        daemon, "{\"id\":\"s\",\"jsonrpc\":\"2.0\",\"method\":\"workspace/status\"}");
    /* Phase A: startup, then verify and rebind for each of the two renames. */
    CU_ASSERT_EQUAL(
        json_integer_value(json_object_get(
            json_object_get(json_object_get(status, "result"), "counters"), "phase_a_runs")),
        5);
    json_decref(status);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

/* --- dry run -------------------------------------------------------------------- */

static void test_dry_run_writes_nothing(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    write_trio(fixture);
    const char *inventory = spx_fixture_inventory(fixture);
    spx_daemon_t *daemon = start(fixture, "SPX_SEMAPRAXD", 1);
    const char *revisions = spx_daemon_open(daemon);
    json_t *answer = spx_daemon_call_json(
        daemon, rename_line(revisions, "util.scale", "multiply", ",\"dry_run\":true", pool));
    json_t *result = json_object_get(answer, "result");
    CU_ASSERT_PTR_NOT_NULL_FATAL(result);
    CU_ASSERT_TRUE(json_is_false(json_object_get(result, "committed")));
    CU_ASSERT_EQUAL(json_array_size(json_object_get(result, "edits")), 3);
    CU_ASSERT_STRING_EQUAL(revisions_of(result, pool), revisions);
    json_decref(answer);
    /* The revisions still hold. */
    spx_assert_contains(
        spx_daemon_call(daemon, spx_request_line("\"k\"", "check", revisions, pool)),
        "\"result\":{\"admitted\":true");
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    CU_ASSERT_STRING_EQUAL(spx_fixture_inventory(fixture), inventory);
    spx_fixture_free(fixture);
}

/* --- refusals --------------------------------------------------------------------- */

typedef struct refusal_t {
    const char *function;
    const char *new_name;
    const char *detail; /* a fragment of data.detail */
    const char *reason; /* data.reason, the cause's stable code */
} refusal_t;

static const refusal_t refusals[] = {
    {"util.helper", "aid", "'util.helper' is not exported", "function_not_exported"},
    {"util.nothing", "aid", "module 'util' has no function 'nothing'", "unknown_function"},
    {"nowhere.scale", "aid", "the project has no module 'nowhere'", "unknown_module"},
    {"scale", "aid", "'scale' is not MODULE.NAME", "function_not_qualified"},
    {"util.scale", "twice_scale", "module 'util' already has a function 'twice_scale'",
     "name_taken"},
    {"util.scale", "helper", "module 'util' already has a function 'helper'", "name_taken"},
    {"util.scale", "scale", "is already called 'scale'", "name_unchanged"},
    {"util.scale", "while", "'while' is a keyword", "name_is_keyword"},
    {"util.scale", "return", "'return' is a keyword", "name_is_keyword"},
    {"util.scale", "itos", "'itos' is a builtin function", "name_is_builtin"},
    {"util.scale", "assert", "'assert' is a builtin function", "name_is_builtin"},
    {"util.scale", "9lives", "'9lives' is not an identifier", "name_not_identifier"},
    {"util.scale", "two words", "is not an identifier", "name_not_identifier"},
    {"util.scale", "", "'' is not an identifier", "name_not_identifier"},
    {"util.scale", "a1234567890123456789012345678901234567890123456789012345678901234",
     "longer than the 64 bytes", "name_too_long"},
    {"app.main", "start", "'app.main' is the manifest's entry", "function_is_entry"},
    {"app.test_scale", "check", "the manifest's test 'scale'", "function_is_test"},
};

/* Each rename of the list is refused at the plan, for its reason. */
static void assert_refused(spx_daemon_t *daemon, const char *revisions, const refusal_t *list,
                           size_t count, apr_pool_t *pool)
{
    for (size_t i = 0; i < count; i++) {
        json_t *answer = spx_daemon_call_json(
            daemon, rename_line(revisions, list[i].function, list[i].new_name, "", pool));
        CU_ASSERT_EQUAL(error_code(answer), SPX_RPC_RENAME_REFUSED);
        const char *step = json_string_value(json_object_get(error_data(answer), "step"));
        const char *reason = json_string_value(json_object_get(error_data(answer), "reason"));
        const char *detail = json_string_value(json_object_get(error_data(answer), "detail"));
        CU_ASSERT_PTR_NOT_NULL_FATAL(step);
        CU_ASSERT_PTR_NOT_NULL_FATAL(reason);
        CU_ASSERT_PTR_NOT_NULL_FATAL(detail);
        CU_ASSERT_STRING_EQUAL(step, "plan");
        if (strcmp(reason, list[i].reason) != 0)
            fprintf(stderr, "\n  %s to '%s': reason %s\n", list[i].function, list[i].new_name,
                    reason);
        CU_ASSERT_STRING_EQUAL(reason, list[i].reason);
        spx_assert_contains(detail, list[i].detail);
        json_decref(answer);
    }
}

static void test_refusals(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    write_trio(fixture);
    const char *inventory = spx_fixture_inventory(fixture);
    spx_daemon_t *daemon = start(fixture, "SPX_SEMAPRAXD", 1);
    const char *revisions = spx_daemon_open(daemon);
    assert_refused(daemon, revisions, refusals, sizeof(refusals) / sizeof(refusals[0]), pool);
    /* Params of the wrong shape are -32602; stale revisions -32012. */
    const char *invalid[] = {
        apr_psprintf(pool, "%s,\"function\":\"util.scale\"", revisions),
        apr_psprintf(pool, "%s,\"new_name\":\"x\"", revisions),
        apr_psprintf(pool, "%s,\"function\":\"util.scale\",\"new_name\":7", revisions),
        apr_psprintf(pool, "%s,\"function\":\"util.scale\",\"new_name\":\"x\",\"dry_run\":1",
                     revisions),
        apr_psprintf(pool, "%s,\"function\":\"util.scale\",\"new_name\":\"x\",\"force\":true",
                     revisions),
        "\"function\":\"util.scale\",\"new_name\":\"x\"",
    };
    const char *why[][2] = {
        {"missing_param", "project/rename needs new_name"},
        {"missing_param", "project/rename needs function"},
        {"mistyped_param", "new_name must be a string"},
        {"mistyped_param", "dry_run must be true or false"},
        {"unknown_param", "unknown param 'force' for project/rename, which takes "
                          "project_revision, workspace_revision, function, new_name, dry_run"},
        {"missing_param", "project/rename needs project_revision"},
    };
    for (size_t i = 0; i < sizeof(invalid) / sizeof(invalid[0]); i++)
        spx_assert_error(
            spx_daemon_call(daemon, spx_request_line("\"p\"", "project/rename", invalid[i], pool)),
            SPX_RPC_INVALID_PARAMS, "\"p\"", why[i][0], why[i][1], pool);
    json_t *stale = spx_daemon_call_json(
        daemon,
        rename_line("\"project_revision\":\"sha256:00\",\"workspace_revision\":\"sha256:00\"",
                    "util.scale", "multiply", "", pool));
    CU_ASSERT_EQUAL(error_code(stale), SPX_RPC_REVISION_MISMATCH);
    json_decref(stale);
    /* The session is still open on the same revisions. */
    spx_assert_contains(
        spx_daemon_call(daemon, spx_request_line("\"k\"", "check", revisions, pool)),
        "\"result\":{\"admitted\":true");
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    CU_ASSERT_STRING_EQUAL(spx_fixture_inventory(fixture), inventory);
    spx_fixture_free(fixture);
}

/* A project with diagnostics cannot be renamed (-32014), like graph. */
static void test_not_admitted(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    write_trio(fixture);
    spx_fixture_append(fixture, "proj/lib/report.spx", "fn broken() -> int { return true; }\n");
    spx_daemon_t *daemon = start(fixture, "SPX_SEMAPRAXD", 1);
    const char *revisions = spx_daemon_open(daemon);
    json_t *answer =
        spx_daemon_call_json(daemon, rename_line(revisions, "util.scale", "multiply", "", pool));
    CU_ASSERT_EQUAL(error_code(answer), SPX_RPC_PROJECT_NOT_ADMITTED);
    json_decref(answer);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "proj/lib/util.spx"), util_text);
    spx_fixture_free(fixture);
}

/* --- failures at every point of the commit ------------------------------------ */

typedef struct injection_t {
    const char *at;        /* SPX_TEST_RENAME_FAIL */
    const char *operation; /* data.operation */
    const char *path;      /* data.path */
    const char *restored;  /* data.restored, compact */
} injection_t;

/* Files in commit order: lib/report.spx, lib/util.spx, src/app.spx. */
static const injection_t injections[] = {
    {"create:first", "create", "lib/report.spx", "[]"},
    {"write:first", "write", "lib/report.spx", "[]"},
    {"flush:first", "flush", "lib/report.spx", "[]"},
    {"flush:last", "flush", "src/app.spx", "[]"},
    {"replace:first", "replace", "lib/report.spx", "[]"},
    {"sync:first", "sync", "lib/report.spx", "[\"lib/report.spx\"]"},
    {"replace:last", "replace", "src/app.spx", "[\"lib/report.spx\",\"lib/util.spx\"]"},
    {"sync:last", "sync", "src/app.spx", "[\"lib/report.spx\",\"lib/util.spx\",\"src/app.spx\"]"},
};

static void run_injection(const injection_t *injection)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    write_trio(fixture);
    const char *opened = fresh_revisions(fixture);
    CU_ASSERT_EQUAL_FATAL(apr_env_set("SPX_TEST_RENAME_FAIL", injection->at, pool), APR_SUCCESS);
    spx_daemon_t *daemon = start(fixture, "SPX_SEMAPRAXD_TEST", 1);
    apr_env_delete("SPX_TEST_RENAME_FAIL", pool);
    const char *revisions = spx_daemon_open(daemon);
    json_t *answer =
        spx_daemon_call_json(daemon, rename_line(revisions, "util.scale", "multiply", "", pool));
    CU_ASSERT_EQUAL(error_code(answer), SPX_RPC_RENAME_FAILED);
    const json_t *data = error_data(answer);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(data, "step")), "commit");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(data, "operation")),
                           injection->operation);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(data, "path")), injection->path);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(data, "reason")),
                           apr_pstrcat(pool, injection->operation, "_failed", NULL));
    /* exactly the failure: the temp files discarded after it add nothing */
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(data, "detail")),
                           apr_psprintf(pool,
                                        "%s of '%s' failed: injected failure "
                                        "(SPX_TEST_RENAME_FAIL=%s)",
                                        injection->operation, injection->path, injection->at));
    char *restored = json_dumps(json_object_get(data, "restored"), JSON_COMPACT | JSON_SORT_KEYS);
    if (strcmp(restored, injection->restored) != 0)
        fprintf(stderr, "\n  %s: restored %s\n", injection->at, restored);
    CU_ASSERT_STRING_EQUAL(restored, injection->restored);
    free(restored);
    CU_ASSERT_EQUAL(json_array_size(json_object_get(data, "not_restored")), 0);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(data, "state")), "open");

    /* Every file's bytes are the original ones; no temp file is left. */
    assert_files(fixture, util_text, report_text, app_text, injection->at);
    CU_ASSERT_STRING_EQUAL(names(fixture), expected_names);

    /* The session answers from the project as it is on disk now: the same
     * content (project_revision), and a fresh session's identities. */
    const char *now = revisions_of(data, pool);
    CU_ASSERT_STRING_EQUAL(now, fresh_revisions(fixture));
    CU_ASSERT_EQUAL(strncmp(now, opened, strlen("\"project_revision\":\"sha256:") + 64), 0);
    if (strcmp(injection->restored, "[]") == 0)
        CU_ASSERT_STRING_EQUAL(now, revisions);
    json_decref(answer);
    spx_assert_contains(spx_daemon_call(daemon, spx_request_line("\"k\"", "graph", now, pool)),
                        "\"id\":\"function:util.scale\"");
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

static void test_failure_at_every_point(void)
{
    for (size_t i = 0; i < sizeof(injections) / sizeof(injections[0]); i++)
        run_injection(&injections[i]);
}

/* --- permissions ------------------------------------------------------------- */

/* A replaced file keeps its permission bits: one narrower than the default
 * (0600) and one wider than the umask lets a new file have (0666). */
static void test_replaced_files_keep_their_modes(void)
{
    if (!spx_fixture_modes_possible("a replaced file keeps its permission bits"))
        return;
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    write_trio(fixture);
    spx_fixture_set_mode(fixture, "proj/lib/util.spx", 0600);
    spx_fixture_set_mode(fixture, "proj/lib/report.spx", 0666);
    spx_daemon_t *daemon = start(fixture, "SPX_SEMAPRAXD", 1);
    const char *revisions = spx_daemon_open(daemon);
    json_t *answer =
        spx_daemon_call_json(daemon, rename_line(revisions, "util.scale", "multiply", "", pool));
    CU_ASSERT_TRUE(json_is_true(json_object_get(json_object_get(answer, "result"), "committed")));
    json_decref(answer);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    assert_files(fixture, util_renamed, report_renamed, app_renamed, "renamed, modes kept");
    CU_ASSERT_EQUAL(spx_fixture_mode(fixture, "proj/lib/util.spx"), 0600);
    CU_ASSERT_EQUAL(spx_fixture_mode(fixture, "proj/lib/report.spx"), 0666);
    spx_fixture_free(fixture);
}

/* --- an answer that would not fit ---------------------------------------------- */

/* With 80 more calls in app, the committed answer lists 80 more changes (over
 * 8 KiB): under --max-response-bytes 4096 the rename is refused before
 * anything is written, naming the size it needs, and the session lives on.
 * Then at the boundary: one byte under what the answer needs is refused the
 * same way, exactly what it needs commits. */
static void test_answer_too_large_is_refused_before_writing(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    write_trio(fixture);
    const char *many = "\nexport fn many() -> int {\n  return 0";
    for (int i = 0; i < 80; i++)
        many = apr_pstrcat(pool, many, " + util.scale(1)", NULL);
    const char *app_longer = apr_pstrcat(pool, app_text, many, ";\n}\n", NULL);
    spx_fixture_write(fixture, "proj/src/app.spx", app_longer);
    /* the bytes of a result line to id "r" around its result */
    const long around = (long)strlen("{\"id\":\"r\",\"jsonrpc\":\"2.0\",\"result\":}\n");
    long limit = 4096, needed = 0;
    for (int round = 0; round < 3; round++) {
        const char *arguments[] = {"--stdio",
                                   "--manifest-path",
                                   spx_fixture_path(fixture, "proj/semaprax.toml"),
                                   "--allow-project-rename",
                                   "--max-response-bytes",
                                   apr_psprintf(pool, "%ld", limit),
                                   NULL};
        spx_daemon_t *daemon =
            spx_daemon_start("SPX_SEMAPRAXD", arguments, fixture->root, fixture->pool);
        const char *revisions = spx_daemon_open(daemon);
        json_t *answer = spx_daemon_call_json(
            daemon, rename_line(revisions, "util.scale", "multiply", "", pool));
        if (round < 2) {
            CU_ASSERT_EQUAL(error_code(answer), SPX_RPC_RENAME_REFUSED);
            CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(error_data(answer), "reason")),
                                   "answer_too_large");
            const char *reason = json_string_value(json_object_get(error_data(answer), "detail"));
            CU_ASSERT_PTR_NOT_NULL_FATAL(reason);
            spx_assert_contains(reason, apr_psprintf(pool, "--max-response-bytes %ld", limit));
            spx_assert_contains(reason, "nothing was written");
            const char *need = strstr(reason, "would need ");
            CU_ASSERT_PTR_NOT_NULL_FATAL(need);
            if (round == 0)
                needed = strtol(need + strlen("would need "), NULL, 10);
            CU_ASSERT_EQUAL(strtol(need + strlen("would need "), NULL, 10), needed);
            assert_files(fixture, util_text, report_text, app_longer, "refused: too large");
            /* the session lives on, bound to the same files */
            CU_ASSERT_STRING_EQUAL(spx_daemon_open(daemon), revisions);
        } else {
            json_t *result = json_object_get(answer, "result");
            CU_ASSERT_PTR_NOT_NULL_FATAL(result);
            CU_ASSERT_TRUE(json_is_true(json_object_get(result, "committed")));
            CU_ASSERT_TRUE(strlen(spx_fixture_read(fixture, "proj/src/app.spx")) >
                           strlen(app_longer)); /* "multiply" is longer than "scale" */
        }
        json_decref(answer);
        CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
        CU_ASSERT_TRUE_FATAL(needed > 4096);
        limit = needed + around - (round == 0); /* one byte short, then exactly */
    }
    spx_fixture_free(fixture);
}

/* --- a read-only directory ----------------------------------------------------- */

static void test_read_only_directory(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    write_trio(fixture);
    const char *opened = fresh_revisions(fixture);
    spx_daemon_t *daemon = start(fixture, "SPX_SEMAPRAXD", 1);
    const char *revisions = spx_daemon_open(daemon);
    CU_ASSERT_STRING_EQUAL(revisions, opened);
    /* src/ holds the last file in commit order: the temp files of the others
     * are made first, so a commit that replaced as it went would have
     * replaced them by now. */
    const char *why = spx_fixture_read_only_dir(fixture, "proj/src");
    if (why)
        fprintf(stderr, "\n  cannot make a read-only directory: %s\n", why);
    CU_ASSERT_PTR_NULL_FATAL(why);
    json_t *answer =
        spx_daemon_call_json(daemon, rename_line(revisions, "util.scale", "multiply", "", pool));
    spx_fixture_writable_dir(fixture, "proj/src");
    CU_ASSERT_EQUAL(error_code(answer), SPX_RPC_RENAME_FAILED);
    const json_t *data = error_data(answer);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(data, "operation")), "create");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(data, "reason")), "create_failed");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(data, "path")), "src/app.spx");
    CU_ASSERT_EQUAL(json_array_size(json_object_get(data, "restored")), 0);
    /* Nothing was replaced: the session still holds the very same objects. */
    CU_ASSERT_STRING_EQUAL(revisions_of(data, pool), revisions);
    json_decref(answer);
    assert_files(fixture, util_text, report_text, app_text, "read-only directory");
    CU_ASSERT_STRING_EQUAL(names(fixture), expected_names);
    CU_ASSERT_STRING_EQUAL(fresh_revisions(fixture), opened);
    spx_assert_contains(
        spx_daemon_call(daemon, spx_request_line("\"k\"", "check", revisions, pool)),
        "\"result\":{\"admitted\":true");
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

/* --- drift between plan and commit, and after the commit ---------------------- */

/* The three-module project, the test-only daemon pausing where variable says
 * (a folder, transport/session_hooks_test.c), opened, asked to rename
 * util.scale to multiply, and now paused there. */
static spx_daemon_t *start_paused_rename(spx_fixture_t *fixture, const char *variable,
                                         const char **pause_dir, const char **revisions)
{
    apr_pool_t *pool = fixture->pool;
    write_trio(fixture);
    const char *const allow[] = {"--allow-project-rename", NULL};
    spx_daemon_t *daemon = spx_daemon_start_pausing(fixture, "proj", allow, variable, pause_dir);
    *revisions = spx_daemon_open(daemon);
    const char *request =
        apr_pstrcat(pool, rename_line(*revisions, "util.scale", "multiply", "", pool), "\n", NULL);
    CU_ASSERT_EQUAL_FATAL(spx_daemon_send(daemon, request, strlen(request)), APR_SUCCESS);
    spx_daemon_wait_for_pause(fixture, *pause_dir);
    return daemon;
}

/* Another program appends to a renamed file after the commit, before step
 * 6: the rebinding fails, the commit is undone for the two files still
 * holding what was written, the third keeps the other program's change
 * (never overwritten), and the session is invalidated. */
static void test_change_after_commit(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    const char *pause_dir = NULL;
    const char *revisions = NULL;
    spx_daemon_t *daemon =
        start_paused_rename(fixture, "SPX_TEST_RENAME_COMMITTED_DIR", &pause_dir, &revisions);
    assert_files(fixture, util_renamed, report_renamed, app_renamed, "committed");
    spx_fixture_append(fixture, "proj/lib/util.spx", "// theirs\n");
    spx_daemon_resume(fixture, pause_dir);
    const char *line = spx_daemon_read_line(daemon);
    CU_ASSERT_PTR_NOT_NULL_FATAL(line);
    json_t *answer = json_loads(line, 0, NULL);
    CU_ASSERT_EQUAL(error_code(answer), SPX_RPC_RENAME_FAILED);
    const json_t *data = error_data(answer);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(data, "step")), "rebind");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(data, "reason")), "rebind_failed");
    spx_assert_contains(json_string_value(json_object_get(data, "detail")),
                        "the files on disk are not the ones the transaction left");
    char *restored = json_dumps(json_object_get(data, "restored"), JSON_COMPACT);
    char *kept = json_dumps(json_object_get(data, "not_restored"), JSON_COMPACT);
    CU_ASSERT_STRING_EQUAL(restored, "[\"lib/report.spx\",\"src/app.spx\"]");
    CU_ASSERT_STRING_EQUAL(kept, "[\"lib/util.spx\"]");
    free(restored);
    free(kept);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(data, "state")), "invalidated");
    json_decref(answer);
    assert_files(fixture, apr_pstrcat(pool, util_renamed, "// theirs\n", NULL), report_text,
                 app_text, "undone around the other program's change");
    CU_ASSERT_STRING_EQUAL(names(fixture), expected_names);
    spx_assert_contains(
        spx_daemon_call(daemon, spx_request_line("\"k\"", "check", revisions, pool)),
        "\"code\":-32013");
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

static void test_drift_before_commit(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    const char *pause_dir = NULL;
    const char *revisions = NULL;
    spx_daemon_t *daemon =
        start_paused_rename(fixture, "SPX_TEST_RENAME_PAUSE_DIR", &pause_dir, &revisions);
    /* Another program edits a file the plan does not touch... */
    spx_fixture_expect_denials(fixture);
    spx_fixture_append(fixture, "proj/semaprax.toml", "# edited meanwhile\n");
    int denied = spx_fixture_denials(fixture) > 0;
    spx_daemon_resume(fixture, pause_dir);
    const char *line = spx_daemon_read_line(daemon);
    CU_ASSERT_PTR_NOT_NULL_FATAL(line);
    if (denied) { /* Windows: the edit was denied, and the rename goes ahead */
        spx_assert_contains(line, "\"committed\":true");
        assert_files(fixture, util_renamed, report_renamed, app_renamed, "no drift, committed");
        CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
        spx_fixture_free(fixture);
        return;
    }
    /* ...so nothing is written, and the session is invalidated. */
    json_t *answer = json_loads(line, 0, NULL);
    CU_ASSERT_EQUAL(error_code(answer), SPX_RPC_SESSION_INVALIDATED);
    char *drift =
        json_dumps(json_object_get(error_data(answer), "drift"), JSON_COMPACT | JSON_SORT_KEYS);
    CU_ASSERT_STRING_EQUAL(drift, "[{\"path\":\"semaprax.toml\",\"reason\":\"content_changed\"}]");
    free(drift);
    json_decref(answer);
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "proj/semaprax.toml"),
                           apr_pstrcat(pool, manifest_text, "# edited meanwhile\n", NULL));
    CU_ASSERT_STRING_EQUAL(names(fixture), expected_names);
    spx_fixture_write(fixture, "proj/semaprax.toml", manifest_text); /* for assert_files */
    assert_files(fixture, util_text, report_text, app_text, "drift before commit");
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

/* --- language v2: calls wherever v2 lets them stand ---------------------------- */

/* A v2 project whose exported geo.cell is called from every position language
 * v2 adds. In the templates, '@' stands for the function's current name: at
 * the declaration and at every call, and nowhere else. The name's text in
 * comments, in a string, as a local, as a struct field and after a method's
 * dot is written out ("cell", "push") and must never change. The consts and
 * structs between the functions hold no call and keep their bytes. */
static const char v2_manifest_text[] = "manifest = \"semaprax.project-manifest.v1\"\n"
                                       "\n"
                                       "[project]\n"
                                       "name = \"cells\"\n"
                                       "version = \"1.0.0\"\n"
                                       "\n"
                                       "[[source]]\n"
                                       "module = \"geo\"\n"
                                       "path = \"lib/geo.spx\"\n"
                                       "\n"
                                       "[[source]]\n"
                                       "module = \"app\"\n"
                                       "path = \"src/app.spx\"\n";

static const char v2_geo_template[] =
    "// geo: cell(n) makes a Cell; \"cell(1)\" in a comment is not a call.\n"
    "const SIZE: int = 2 << 1;\n"
    "export const BASE: int = (SIZE | 1) ^ 3;\n"
    "\n"
    "export struct Cell { v: int, xs: [int] }\n"
    "\n"
    "export fn @(n: int) -> Cell {\n"
    "  return Cell { v: n, xs: [n, n + 1] };\n"
    "}\n"
    "\n"
    "struct Holder { cell: Cell, cells: [Cell] }\n"
    "\n"
    "export fn grow(n: int) -> [int] {\n"
    "  var out = @(n).xs;\n"
    "  out.push(@(n + 1).v);\n"
    "  let cell = @(SIZE);\n"
    "  var h = Holder { cell: cell, cells: [@(1), @(2)] };\n"
    "  h.cells[@(0).v].xs.push(h.cell.v);\n"
    "  var i = 0;\n"
    "  while i < @(3).v {\n"
    "    i = i + 1;\n"
    "    if i == @(1).v { continue; }\n"
    "    if @(i).v > BASE { break; }\n"
    "  }\n"
    "  return [@(0).v, h.cells[1].xs[0]];\n"
    "}\n";

static const char v2_app_template[] =
    "import geo;\n"
    "\n"
    "// app: geo.cell(1) here is a comment, not a call.\n"
    "const LIMIT: int = 3;\n"
    "\n"
    "struct Pair { left: geo.Cell, right: int }\n"
    "\n"
    "export fn positions(s: str) -> int {\n"
    "  var xs = [geo.@(1).v, geo.@(2).v, LIMIT];\n"
    "  let b = geo.@(3).xs[geo.@(0).v];\n"
    "  let c = xs[geo.@(0).v..geo.@(1).v];\n"
    "  let d = geo.@(4).xs[0..1];\n"
    "  let e = s[geo.@(0).v] + len(s[0..geo.@(1).v]);\n"
    "  var p = Pair { left: geo.Cell { v: geo.@(5).v, xs: geo.@(6).xs }, right: (geo.@(7)).v };\n"
    "  p.left.xs[geo.@(0).v] = geo.@(8).v;\n"
    "  xs[geo.@(1).v] = p.right;\n"
    "  var grid = [[1], [2]];\n"
    "  grid[geo.@(0).v].push(geo.@(9).v);\n"
    "  xs.push(geo . @(10).v);\n"
    "  var total = 0;\n"
    "  for i in geo.@(0).v..geo.@(3).v {\n"
    "    if i == geo.@(1).v { continue; }\n"
    "    total = total + geo.@(i).v;\n"
    "    if total > LIMIT { break; }\n"
    "  }\n"
    "  for x in geo.@(2).xs { total = total + x; }\n"
    "  total = total + grid[geo.@(0).v].pop();\n"
    "  let bits = (geo.@(1).v << 2) | (geo.@(2).v & 3) ^ ~geo.@(3).v >> 1;\n"
    "  assert(bits != geo.@(4).v, \"geo.cell(4) is \" + itos(geo.@(4).v));\n"
    "  let cell = geo.@(11);\n"
    "  return b + c[0] + d[0] + e + total + bits + cell.v + grid[0][0] + p.left.v;\n"
    "}\n"
    "\n"
    "export fn cells(n: int) -> [geo.Cell] {\n"
    "  return [geo.@(n), geo.@(n + 1)];\n"
    "}\n";

/* A template with its '@'s written as name. */
static const char *v2_text(const char *template, const char *name, apr_pool_t *pool)
{
    const char *text = "";
    for (const char *at = strchr(template, '@'); at; at = strchr(template, '@')) {
        text = apr_pstrcat(pool, text, apr_pstrndup(pool, template, (apr_size_t)(at - template)),
                           name, NULL);
        template = at + 1;
    }
    return apr_pstrcat(pool, text, template, NULL);
}

static void write_v2(spx_fixture_t *fixture, const char *name)
{
    spx_fixture_write(fixture, "proj/semaprax.toml", v2_manifest_text);
    spx_fixture_write(fixture, "proj/lib/geo.spx", v2_text(v2_geo_template, name, fixture->pool));
    spx_fixture_write(fixture, "proj/src/app.spx", v2_text(v2_app_template, name, fixture->pool));
}

/* Both sources hold exactly the templates written with name. */
static void assert_v2_files(spx_fixture_t *fixture, const char *name)
{
    const char *paths[] = {"proj/lib/geo.spx", "proj/src/app.spx"};
    const char *templates[] = {v2_geo_template, v2_app_template};
    for (int i = 0; i < 2; i++) {
        const char *got = spx_fixture_read(fixture, paths[i]);
        const char *want = v2_text(templates[i], name, fixture->pool);
        if (strcmp(got, want) != 0)
            fprintf(stderr, "\n  named '%s': %s is\n%s\n", name, paths[i], got);
        CU_ASSERT_STRING_EQUAL(got, want);
    }
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "proj/semaprax.toml"), v2_manifest_text);
}

/* A span's end as outputs.md gives it: offset, line and column (bytes,
 * from 1) in text. */
static void assert_position(const json_t *position, const char *text, apr_size_t offset)
{
    apr_size_t line = 1, line_start = 0;
    for (apr_size_t i = 0; i < offset; i++)
        if (text[i] == '\n') {
            line++;
            line_start = i + 1;
        }
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(position, "offset")), (json_int_t)offset);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(position, "line")), (json_int_t)line);
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(position, "column")),
                    (json_int_t)(offset - line_start + 1));
}

/* The edits of renaming from old_name to new_name: geo's then app's, a
 * change at each '@' of the template, in order, with its exact span. */
static void assert_v2_edits(const json_t *edits, const char *old_name, const char *new_name,
                            apr_pool_t *pool)
{
    const char *paths[] = {"lib/geo.spx", "src/app.spx"};
    const char *templates[] = {v2_geo_template, v2_app_template};
    CU_ASSERT_EQUAL_FATAL(json_array_size(edits), 2);
    for (size_t e = 0; e < 2; e++) {
        const json_t *edit = json_array_get(edits, e);
        const char *old_text = v2_text(templates[e], old_name, pool);
        CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(edit, "path")), paths[e]);
        const json_t *changes = json_object_get(edit, "changes");
        size_t c = 0;
        apr_size_t grown = 0; /* what the names before this '@' add to the template */
        for (const char *at = strchr(templates[e], '@'); at; at = strchr(at + 1, '@'), c++) {
            const json_t *change = json_array_get(changes, c);
            CU_ASSERT_PTR_NOT_NULL_FATAL(change);
            apr_size_t offset = (apr_size_t)(at - templates[e]) + grown;
            const json_t *span = json_object_get(change, "span");
            assert_position(json_object_get(span, "start"), old_text, offset);
            assert_position(json_object_get(span, "end"), old_text, offset + strlen(old_name));
            CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(change, "old")), old_name);
            CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(change, "new")), new_name);
            grown += strlen(old_name) - 1;
        }
        CU_ASSERT_EQUAL(json_array_size(changes), c);
    }
}

/* geo.cell renamed in turn to names that v2 allows: a method's name (push,
 * pop: a function may be called so, as in Rust), a struct's and a const's
 * name of the other module (Pair, LIMIT), the name of a local of the
 * function's own module (out) and of the other (total), and back. Each time
 * exactly the calls change, everywhere v2 lets them stand, and the edits
 * say where; the dry run plans the same edits. The session then answers
 * like a fresh one. */
static void test_v2_calls_everywhere(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    write_v2(fixture, "cell");
    spx_daemon_t *daemon = start(fixture, "SPX_SEMAPRAXD", 1);
    const char *revisions = spx_daemon_open(daemon);
    const char *names_in_turn[] = {"cell", "push", "pop", "Pair", "LIMIT", "out", "total", "cell"};
    for (size_t n = 0; n + 1 < sizeof(names_in_turn) / sizeof(names_in_turn[0]); n++) {
        const char *old_name = names_in_turn[n], *new_name = names_in_turn[n + 1];
        const char *function = apr_pstrcat(pool, "geo.", old_name, NULL);
        json_t *dry = spx_daemon_call_json(
            daemon, rename_line(revisions, function, new_name, ",\"dry_run\":true", pool));
        json_t *planned = json_object_get(dry, "result");
        if (!planned)
            fprintf(stderr, "\n  planning to rename %s to %s: %s\n", function, new_name,
                    json_dumps(dry, JSON_COMPACT));
        CU_ASSERT_PTR_NOT_NULL_FATAL(planned);
        CU_ASSERT_TRUE(json_is_false(json_object_get(planned, "committed")));
        assert_v2_edits(json_object_get(planned, "edits"), old_name, new_name, pool);
        assert_v2_files(fixture, old_name);

        json_t *answer =
            spx_daemon_call_json(daemon, rename_line(revisions, function, new_name, "", pool));
        json_t *result = json_object_get(answer, "result");
        if (!result)
            fprintf(stderr, "\n  renaming %s to %s: %s\n", function, new_name,
                    json_dumps(answer, JSON_COMPACT));
        CU_ASSERT_PTR_NOT_NULL_FATAL(result);
        CU_ASSERT_TRUE(json_is_true(json_object_get(result, "committed")));
        CU_ASSERT_TRUE(
            json_equal(json_object_get(result, "edits"), json_object_get(planned, "edits")));
        assert_v2_files(fixture, new_name);
        revisions = revisions_of(result, pool);
        CU_ASSERT_STRING_EQUAL(revisions, fresh_revisions(fixture));
        json_decref(dry);
        json_decref(answer);
    }
    const char *graph =
        spx_daemon_call(daemon, spx_request_line("\"g\"", "graph", revisions, pool));
    CU_ASSERT_STRING_EQUAL(graph, fresh_graph(fixture));
    spx_assert_contains(graph, "\"id\":\"function:geo.cell\"");
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

/* Names language v2 takes, and the one namespace of a module's functions,
 * structs and consts: refused at the plan, nothing written. */
static const refusal_t v2_refusals[] = {
    {"geo.cell", "struct", "'struct' is a keyword since language v2", "name_is_keyword"},
    {"geo.cell", "const", "'const' is a keyword since language v2", "name_is_keyword"},
    {"geo.cell", "for", "'for' is a keyword since language v2", "name_is_keyword"},
    {"geo.cell", "in", "'in' is a keyword since language v2", "name_is_keyword"},
    {"geo.cell", "break", "'break' is a keyword since language v2", "name_is_keyword"},
    {"geo.cell", "continue", "'continue' is a keyword since language v2", "name_is_keyword"},
    {"geo.cell", "chr", "'chr' is a builtin function since language v2", "name_is_builtin"},
    {"geo.cell", "stoi", "'stoi' is a builtin function since language v2", "name_is_builtin"},
    {"geo.cell", "len", "'len' is a builtin function", "name_is_builtin"},
    {"geo.cell", "Cell",
     "module 'geo' already has a struct 'Cell' (functions, structs and consts share one "
     "namespace)",
     "name_taken"},
    {"geo.cell", "Holder", "module 'geo' already has a struct 'Holder'", "name_taken"},
    {"geo.cell", "SIZE",
     "module 'geo' already has a const 'SIZE' (functions, structs and consts share one "
     "namespace)",
     "name_taken"},
    {"geo.cell", "BASE", "module 'geo' already has a const 'BASE'", "name_taken"},
    {"geo.cell", "grow", "module 'geo' already has a function 'grow'", "name_taken"},
    {"geo.Cell", "Box", "module 'geo' has no function 'Cell'", "unknown_function"},
    {"geo.BASE", "Box", "module 'geo' has no function 'BASE'", "unknown_function"},
};

static void test_v2_refusals(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    write_v2(fixture, "cell");
    const char *inventory = spx_fixture_inventory(fixture);
    spx_daemon_t *daemon = start(fixture, "SPX_SEMAPRAXD", 1);
    const char *revisions = spx_daemon_open(daemon);
    assert_refused(daemon, revisions, v2_refusals, sizeof(v2_refusals) / sizeof(v2_refusals[0]),
                   pool);
    spx_assert_contains(
        spx_daemon_call(daemon, spx_request_line("\"k\"", "check", revisions, pool)),
        "\"result\":{\"admitted\":true");
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    CU_ASSERT_STRING_EQUAL(spx_fixture_inventory(fixture), inventory);
    assert_v2_files(fixture, "cell");
    spx_fixture_free(fixture);
}

/* --- the CLI ------------------------------------------------------------------------ */

static void test_cli_rename(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    write_trio(fixture);
    const char *semaprax = spx_program_path("SPX_SEMAPRAX");
    const char *manifest = spx_fixture_path(fixture, "proj/semaprax.toml");
    const char *inventory = spx_fixture_inventory(fixture);

    spx_process_result_t dry =
        spx_process_run(semaprax,
                        (const char *const[]){"rename", "util.scale", "multiply", "--dry-run",
                                              "--manifest-path", manifest, NULL},
                        NULL, pool);
    CU_ASSERT_EQUAL(dry.exit_code, 0);
    spx_assert_contains(dry.out, "{\"committed\":false,\"edits\":[");
    CU_ASSERT_STRING_EQUAL(spx_fixture_inventory(fixture), inventory);

    spx_process_result_t refused = spx_process_run(
        semaprax,
        (const char *const[]){"rename", "util.helper", "aid", "--manifest-path", manifest, NULL},
        NULL, pool);
    CU_ASSERT_EQUAL(refused.exit_code, 1);
    CU_ASSERT_EQUAL(refused.out_length, 0);
    spx_assert_contains(refused.err, "'util.helper' is not exported");
    CU_ASSERT_STRING_EQUAL(spx_fixture_inventory(fixture), inventory);

    spx_process_result_t usage = spx_process_run(
        semaprax, (const char *const[]){"rename", "util.scale", "--manifest-path", manifest, NULL},
        NULL, pool);
    CU_ASSERT_EQUAL(usage.exit_code, 2);

    spx_process_result_t done =
        spx_process_run(semaprax,
                        (const char *const[]){"rename", "util.scale", "multiply", "--manifest-path",
                                              manifest, NULL},
                        NULL, pool);
    CU_ASSERT_EQUAL(done.exit_code, 0);
    assert_files(fixture, util_renamed, report_renamed, app_renamed, "semaprax rename");
    CU_ASSERT_STRING_EQUAL(names(fixture), expected_names);
    json_t *printed = json_loads(done.out, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(printed);
    CU_ASSERT_TRUE(json_is_true(json_object_get(printed, "committed")));
    CU_ASSERT_STRING_EQUAL(revisions_of(printed, pool), fresh_revisions(fixture));
    /* The same edits as the dry run planned. */
    json_t *planned = json_loads(dry.out, 0, NULL);
    CU_ASSERT_TRUE(
        json_equal(json_object_get(printed, "edits"), json_object_get(planned, "edits")));
    json_decref(planned);
    json_decref(printed);
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"v2 without the flag, v3 with it", test_profiles},
        {"a rename across three modules", test_rename_across_modules},
        {"a dry run writes nothing", test_dry_run_writes_nothing},
        {"refusals", test_refusals},
        {"a project not admitted", test_not_admitted},
        {"a failure at every point of the commit", test_failure_at_every_point},
        {"replaced files keep their permission bits", test_replaced_files_keep_their_modes},
        {"an answer that would not fit is refused before writing",
         test_answer_too_large_is_refused_before_writing},
        {"a read-only directory", test_read_only_directory},
        {"drift between plan and commit", test_drift_before_commit},
        {"a change between commit and rebinding", test_change_after_commit},
        {"semaprax rename", test_cli_rename},
        {"language v2: every call is renamed, wherever it stands", test_v2_calls_everywhere},
        {"language v2: names v2 takes are refused", test_v2_refusals},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("daemon_rename", tests);
}
