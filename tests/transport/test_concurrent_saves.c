/*
 * test_concurrent_saves.c: a save by another program that lands at any step
 * of a write is never lost (issue 28: rename and fmt overwrote it and exited
 * 0). The test-only programs semaprax_test and semapraxd_test save the
 * bytes of "another program" into one file at a chosen point of the
 * rename's commit or of fmt's write of a file (create, write, flush,
 * replace, sync; of the first or the last file written), by rename as
 * editors save or in place (transport/test_hooks.c). Whatever the point:
 * the file holds the save afterwards, and either the operation failed (the
 * rename rolled back every other file; fmt stopped at that file, exit 1,
 * saying so) or the save was made after the new bytes were in place and
 * simply won. Never exit 0 with the save overwritten.
 *
 * Where held inputs are locked (Windows), a save into a file the program
 * still holds is refused by the system; that is checked to be the only way
 * a save does not happen.
 */
#include "spx_process.h"
#include "spx_test.h"

#include <apr_env.h>
#include <apr_strings.h>
#include <jansson.h>
#include <stdio.h>
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
                                    "path = \"src/util.spx\"\n";

/* Not in the canonical layout, so that fmt writes both. */
static const char app_text[] = "import util;\nexport fn main()->int{return util.scale(2)-6;}\n";
static const char util_text[] = "export fn scale(x:int)->int{return x*3;}\n";

static const char app_renamed[] = "import util;\nexport fn main()->int{return util.triple(2)-6;}\n";
static const char util_renamed[] = "export fn triple(x:int)->int{return x*3;}\n";

static const char app_formatted[] = "import util;\n"
                                    "\n"
                                    "export fn main() -> int {\n"
                                    "    return util.scale(2) - 6;\n"
                                    "}\n";
static const char util_formatted[] = "export fn scale(x: int) -> int {\n"
                                     "    return x * 3;\n"
                                     "}\n";

/* What the other program saves. */
static const char saved_text[] = "// saved by another program meanwhile\n";

static const char *const points[] = {"create", "write", "flush", "replace", "sync"};
static const char *const hows[] = {"rename", "in-place"};

/* One operation on the two files first and last (relative to the
 * fixture), in the order it writes them. */
typedef struct operation_t {
    const char *name;
    const char *files[2];
    const char *before[2]; /* their bytes at the start */
    const char *after[2];  /* their bytes when it runs without a save */
    /* Run it in fixture, return its exit status and what it said. */
    int (*run)(spx_fixture_t *fixture, const char **said);
    /* A save after the file's new bytes are in place fails it too (the
     * rename's step 6 finds the project changed and rolls back). */
    int fails_after_replace;
} operation_t;

/* The environment of the test program's probe, for one save. */
static void arm_save(spx_fixture_t *fixture, const char *at, const char *file, const char *how)
{
    apr_pool_t *pool = fixture->pool;
    CU_ASSERT_EQUAL_FATAL(apr_env_set("SPX_TEST_SAVE_AT", at, pool), APR_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(apr_env_set("SPX_TEST_SAVE_PATH", spx_fixture_path(fixture, file), pool),
                          APR_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(apr_env_set("SPX_TEST_SAVE_TEXT", saved_text, pool), APR_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(apr_env_set("SPX_TEST_SAVE_HOW", how, pool), APR_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(
        apr_env_set("SPX_TEST_SAVE_DONE", spx_fixture_path(fixture, "save-done"), pool),
        APR_SUCCESS);
}

static void disarm_save(apr_pool_t *pool)
{
    const char *variables[] = {"SPX_TEST_SAVE_AT", "SPX_TEST_SAVE_PATH", "SPX_TEST_SAVE_TEXT",
                               "SPX_TEST_SAVE_HOW", "SPX_TEST_SAVE_DONE"};
    for (size_t i = 0; i < sizeof(variables) / sizeof(variables[0]); i++)
        apr_env_delete(variables[i], pool);
}

static void write_project(spx_fixture_t *fixture)
{
    spx_fixture_write(fixture, "proj/semaprax.toml", manifest_text);
    spx_fixture_write(fixture, "proj/src/app.spx", app_text);
    spx_fixture_write(fixture, "proj/src/util.spx", util_text);
}

/* The names in proj/src: no temp file, no half-saved file is left. */
static void assert_no_temp_left(spx_fixture_t *fixture, const char *folder)
{
    apr_dir_t *dir = NULL;
    CU_ASSERT_EQUAL_FATAL(apr_dir_open(&dir, spx_fixture_path(fixture, folder), fixture->pool),
                          APR_SUCCESS);
    apr_finfo_t entry;
    while (apr_dir_read(&entry, APR_FINFO_NAME, dir) == APR_SUCCESS) {
        int known = strcmp(entry.name, ".") == 0 || strcmp(entry.name, "..") == 0 ||
                    strcmp(entry.name, "app.spx") == 0 || strcmp(entry.name, "util.spx") == 0;
        if (!known)
            fprintf(stderr, "\n  left in %s: %s\n", folder, entry.name);
        CU_ASSERT_TRUE(known);
    }
    apr_dir_close(dir);
}

/* One save at (point, which) of operation, made how. */
static void run_case(const operation_t *operation, int point, int which, const char *how)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    write_project(fixture);
    spx_fixture_write(fixture, "a.spx", app_text);
    spx_fixture_write(fixture, "b.spx", util_text);
    const char *at = apr_psprintf(pool, "%s:%s", points[point], which ? "last" : "first");
    const char *when = apr_psprintf(pool, "%s, a save %s at %s", operation->name, how, at);
    arm_save(fixture, at, operation->files[which], how);
    const char *said = "";
    int exit_code = operation->run(fixture, &said);
    disarm_save(pool);
    const char *done = spx_fixture_read(fixture, "save-done");
    const char *saved = spx_fixture_read(fixture, operation->files[which]);
    const char *other = spx_fixture_read(fixture, operation->files[1 - which]);
    if (strcmp(done, "saved") != 0) {
        /* Only a held file may refuse the save (Windows); the operation
         * then ran as without it. */
        if (!spx_held_inputs_locked())
            fprintf(stderr, "\n  %s: %s\n", when, done);
        CU_ASSERT_TRUE(spx_held_inputs_locked());
        CU_ASSERT_EQUAL(strncmp(done, "refused: ", strlen("refused: ")), 0);
        CU_ASSERT_EQUAL(exit_code, 0);
        CU_ASSERT_STRING_EQUAL(saved, operation->after[which]);
        spx_fixture_free(fixture);
        return;
    }
    /* The save is never lost. */
    if (strcmp(saved, saved_text) != 0)
        fprintf(stderr, "\n  %s: the save was lost (exit %d): the file holds\n%s\n%s\n", when,
                exit_code, saved, said);
    CU_ASSERT_STRING_EQUAL(saved, saved_text);
    int after_replace = point == 4; /* sync: the file's new bytes were in place */
    if (after_replace && !operation->fails_after_replace) {
        /* The save came after the write and won; the run went on. */
        CU_ASSERT_EQUAL(exit_code, 0);
        CU_ASSERT_STRING_EQUAL(other, operation->after[1 - which]);
    } else {
        if (exit_code != 1)
            fprintf(stderr, "\n  %s: exit %d\n%s\n", when, exit_code, said);
        CU_ASSERT_EQUAL(exit_code, 1);
        /* The rename rolled back; fmt stopped at the saved file, after
         * writing the files before it. */
        int written = operation->fails_after_replace ? 0 : which == 1;
        CU_ASSERT_STRING_EQUAL(other, written ? operation->after[0] : operation->before[1 - which]);
        if (!after_replace)
            spx_assert_contains(said, "changed since it was read");
    }
    assert_no_temp_left(fixture, "proj/src");
    spx_fixture_free(fixture);
}

static void run_every_case(const operation_t *operation)
{
    for (int point = 0; point < 5; point++)
        for (int which = 0; which < 2; which++)
            for (int how = 0; how < 2; how++)
                run_case(operation, point, which, hows[how]);
}

/* --- the programs ------------------------------------------------------------- */

static spx_process_result_t run_cli(spx_fixture_t *fixture, const char *const *arguments,
                                    const char *working_dir)
{
    return spx_process_run(spx_program_path("SPX_SEMAPRAX_TEST"), arguments,
                           working_dir ? spx_fixture_path(fixture, working_dir) : fixture->root,
                           fixture->pool);
}

static int cli_rename(spx_fixture_t *fixture, const char **said)
{
    spx_process_result_t result =
        run_cli(fixture,
                (const char *const[]){"rename", "util.scale", "triple", "--manifest-path",
                                      spx_fixture_path(fixture, "proj/semaprax.toml"), NULL},
                NULL);
    *said = result.err;
    return result.exit_code;
}

static int cli_fmt_paths(spx_fixture_t *fixture, const char **said)
{
    spx_process_result_t result =
        run_cli(fixture, (const char *const[]){"fmt", "app.spx", "util.spx", NULL}, "proj/src");
    *said = result.err;
    return result.exit_code;
}

static int cli_fmt_manifest(spx_fixture_t *fixture, const char **said)
{
    spx_process_result_t result = run_cli(fixture, (const char *const[]){"fmt", NULL}, "proj");
    *said = result.err;
    return result.exit_code;
}

/* semapraxd_test --mcp --allow-project-rename: initialize, then the
 * rename tool; 0 for a result that is not a tool error, 1 for one. */
static int mcp_rename(spx_fixture_t *fixture, const char **said)
{
    const char *input =
        "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
        "\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}\n"
        "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n"
        "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"rename\","
        "\"arguments\":{\"function\":\"util.scale\",\"new_name\":\"triple\"}}}\n";
    const char *arguments[] = {"--mcp", "--allow-project-rename", "--manifest-path",
                               spx_fixture_path(fixture, "proj/semaprax.toml"), NULL};
    spx_process_result_t result =
        spx_process_run_input(spx_program_path("SPX_SEMAPRAXD_TEST"), arguments, fixture->root,
                              input, strlen(input), fixture->pool);
    CU_ASSERT_EQUAL(result.exit_code, 0);
    const char *line = strstr(result.out, "{\"jsonrpc\":\"2.0\",\"id\":7");
    if (!line)
        line = strstr(result.out, "\"id\":7");
    CU_ASSERT_PTR_NOT_NULL_FATAL(line);
    /* The answer line to the call. */
    const char *start = line;
    while (start > result.out && start[-1] != '\n')
        start--;
    json_t *answer = json_loads(start, JSON_DISABLE_EOF_CHECK, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(answer);
    json_t *call = json_object_get(answer, "result");
    int failed = json_is_true(json_object_get(call, "isError"));
    *said = apr_pstrdup(fixture->pool,
                        json_string_value(json_object_get(
                            json_array_get(json_object_get(call, "content"), 0), "text")));
    json_decref(answer);
    return failed;
}

/* In commit order (sorted by path): src/app.spx, then src/util.spx. */
static const operation_t rename_cli = {"semaprax rename",
                                       {"proj/src/app.spx", "proj/src/util.spx"},
                                       {app_text, util_text},
                                       {app_renamed, util_renamed},
                                       cli_rename,
                                       1};
static const operation_t rename_mcp = {"MCP rename",
                                       {"proj/src/app.spx", "proj/src/util.spx"},
                                       {app_text, util_text},
                                       {app_renamed, util_renamed},
                                       mcp_rename,
                                       1};
static const operation_t fmt_paths = {"semaprax fmt app.spx util.spx",
                                      {"proj/src/app.spx", "proj/src/util.spx"},
                                      {app_text, util_text},
                                      {app_formatted, util_formatted},
                                      cli_fmt_paths,
                                      0};
static const operation_t fmt_manifest = {"semaprax fmt (the manifest's sources)",
                                         {"proj/src/app.spx", "proj/src/util.spx"},
                                         {app_text, util_text},
                                         {app_formatted, util_formatted},
                                         cli_fmt_manifest,
                                         0};

static void test_cli_rename(void)
{
    run_every_case(&rename_cli);
}

static void test_mcp_rename(void)
{
    run_every_case(&rename_mcp);
}

static void test_fmt_paths(void)
{
    run_every_case(&fmt_paths);
}

static void test_fmt_manifest(void)
{
    run_every_case(&fmt_manifest);
}

/* A save into the first file after it was replaced, while the last is
 * being replaced: the rename's step 6 finds it and rolls back every other
 * file; the save stays. */
static void test_rename_save_into_an_earlier_file(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    write_project(fixture);
    arm_save(fixture, "replace:last", "proj/src/app.spx", "rename");
    const char *said = "";
    int exit_code = cli_rename(fixture, &said);
    disarm_save(fixture->pool);
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "save-done"), "saved");
    CU_ASSERT_EQUAL(exit_code, 1);
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "proj/src/app.spx"), saved_text);
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "proj/src/util.spx"), util_text);
    spx_assert_contains(said, "NOT restored 'src/app.spx'");
    assert_no_temp_left(fixture, "proj/src");
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"semaprax rename: a save at every step is kept", test_cli_rename},
        {"MCP rename: a save at every step is kept", test_mcp_rename},
        {"semaprax fmt PATH: a save at every step is kept", test_fmt_paths},
        {"semaprax fmt (manifest): a save at every step is kept", test_fmt_manifest},
        {"rename: a save into a file already replaced is kept",
         test_rename_save_into_an_earlier_file},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("concurrent saves", tests);
}
