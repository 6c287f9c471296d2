/*
 * test_cli_project.c: process tests of the CLI's work on whole project
 * folders: `semaprax new NAME` (a project that checks, runs and tests at
 * once, refusals that write nothing), the manifest found by searching upward
 * from the working directory, `verify` naming each source that changed, went
 * missing or appeared, check --format json's document for an input that
 * cannot be opened, and the nearest names for an unknown command or option.
 */
#include "spx_limits.h"
#include "spx_process.h"
#include "spx_test.h"

#include <apr_strings.h>
#include <jansson.h>
#include <string.h>

/* Run the semaprax under test with the arguments in folder. */
#define RUN_IN(pool, folder, ...)                                                                  \
    spx_process_run(spx_program_path("SPX_SEMAPRAX"), (const char *const[]){__VA_ARGS__, NULL},    \
                    folder, pool)

static void test_new_project_checks_runs_and_tests(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_process_result_t made = RUN_IN(fixture->pool, fixture->root, "new", "hello-world");
    CU_ASSERT_EQUAL(made.exit_code, 0);
    CU_ASSERT_STRING_EQUAL(made.err, "");
    spx_assert_contains(made.out, "created project 'hello-world'");
    /* Exactly the project, and no temporary folder left beside it. */
    const char *inventory = spx_fixture_inventory(fixture);
    spx_assert_contains(inventory, "hello-world/semaprax.toml");
    spx_assert_contains(inventory, "hello-world/src/app.spx");
    spx_assert_contains(inventory, "hello-world/src/greeting.spx");
    CU_ASSERT_PTR_NULL(strstr(inventory, ".new-"));
    spx_assert_contains(spx_fixture_read(fixture, "hello-world/semaprax.toml"),
                        "name = \"hello-world\"");

    const char *project = spx_fixture_path(fixture, "hello-world");
    spx_process_result_t check = RUN_IN(fixture->pool, project, "check");
    CU_ASSERT_EQUAL(check.exit_code, 0);
    CU_ASSERT_STRING_EQUAL(check.out,
                           "semaprax: project 'hello-world' admitted: 2 modules, 1 test\n");
    spx_process_result_t run = RUN_IN(fixture->pool, project, "run");
    CU_ASSERT_EQUAL(run.exit_code, 0);
    CU_ASSERT_STRING_EQUAL(run.out, "Hello, hello-world!\n");
    spx_process_result_t test = RUN_IN(fixture->pool, project, "test");
    CU_ASSERT_EQUAL(test.exit_code, 0);
    spx_assert_contains(test.out, "semaprax: 1 test: 1 passed, 0 failed");
    spx_fixture_free(fixture);
}

static void test_new_refuses_and_writes_nothing(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_write(fixture, "taken/keep.txt", "mine\n");
    const char *before = spx_fixture_inventory(fixture);
    spx_process_result_t taken = RUN_IN(fixture->pool, fixture->root, "new", "taken");
    CU_ASSERT_EQUAL(taken.exit_code, 2);
    CU_ASSERT_STRING_EQUAL(taken.out, "");
    CU_ASSERT_STRING_EQUAL(taken.err, "semaprax: 'taken' already exists; nothing was created\n");
    spx_fixture_write(fixture, "plain", "a file\n");
    before = spx_fixture_inventory(fixture);
    spx_process_result_t file = RUN_IN(fixture->pool, fixture->root, "new", "plain");
    CU_ASSERT_EQUAL(file.exit_code, 2);
    const char *bad[] = {"Upper", "9lives", "a/b", "..", "with space", ""};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        spx_process_result_t refused = RUN_IN(fixture->pool, fixture->root, "new", bad[i]);
        CU_ASSERT_EQUAL(refused.exit_code, 2);
        CU_ASSERT_STRING_EQUAL(refused.out, "");
        spx_assert_contains(refused.err, "is not a valid project name");
    }
    /* every temporary name taken: refused, and nothing else made */
    for (unsigned n = 0; n < SPX_LIMIT_NEW_TEMPORARY_NAMES; n++)
        spx_fixture_mkdir(fixture, apr_psprintf(fixture->pool, ".crowded.new-%u", n));
    before = spx_fixture_inventory(fixture);
    spx_process_result_t crowded = RUN_IN(fixture->pool, fixture->root, "new", "crowded");
    CU_ASSERT_EQUAL(crowded.exit_code, 2);
    spx_assert_contains(crowded.err, "cannot create a temporary folder beside 'crowded'");
    spx_assert_contains(crowded.err, "nothing was created");
    CU_ASSERT_STRING_EQUAL(spx_fixture_inventory(fixture), before);
    spx_process_result_t none = RUN_IN(fixture->pool, fixture->root, "new");
    CU_ASSERT_EQUAL(none.exit_code, 2);
    spx_process_result_t option =
        RUN_IN(fixture->pool, fixture->root, "new", "x", "--manifest-path", "y");
    CU_ASSERT_EQUAL(option.exit_code, 2);
    CU_ASSERT_STRING_EQUAL(spx_fixture_inventory(fixture), before);
    spx_fixture_free(fixture);
}

/* A project of three modules, each with a test; app has the entry. */
static void write_project(spx_fixture_t *fixture, const char *third_module)
{
    spx_fixture_write(fixture, "semaprax.toml",
                      apr_psprintf(fixture->pool,
                                   "manifest = \"semaprax.project-manifest.v1\"\n"
                                   "[project]\nname = \"up\"\nversion = \"0.1.0\"\n"
                                   "entry = \"app.main\"\n"
                                   "[[source]]\nmodule = \"app\"\npath = \"src/app.spx\"\n"
                                   "[[source]]\nmodule = \"one\"\npath = \"src/one.spx\"\n"
                                   "[[source]]\nmodule = \"%s\"\npath = \"src/%s.spx\"\n"
                                   "[[test]]\nname = \"one\"\nfunction = \"one.test_one\"\n",
                                   third_module, third_module));
    spx_fixture_write(fixture, "src/app.spx", "fn main() -> int { print(\"up\\n\"); return 0; }\n");
    spx_fixture_write(fixture, "src/one.spx", "fn test_one() -> int { return 0; }\n");
    spx_fixture_write(fixture, apr_psprintf(fixture->pool, "src/%s.spx", third_module),
                      "export fn f() -> int { return 1; }\n");
}

static void test_manifest_found_upward(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    write_project(fixture, "two");
    spx_fixture_write(fixture, "src/deeper/notes.txt", "not a source\n");
    const char *folders[] = {"", "src", "src/deeper"};
    for (size_t i = 0; i < sizeof(folders) / sizeof(folders[0]); i++) {
        const char *folder = spx_fixture_path(fixture, folders[i]);
        spx_process_result_t check = RUN_IN(fixture->pool, folder, "check");
        CU_ASSERT_EQUAL(check.exit_code, 0);
        CU_ASSERT_STRING_EQUAL(check.out, "semaprax: project 'up' admitted: 3 modules, 1 test\n");
        spx_process_result_t run = RUN_IN(fixture->pool, folder, "run");
        CU_ASSERT_EQUAL(run.exit_code, 0);
        CU_ASSERT_STRING_EQUAL(run.out, "up\n");
    }
    /* Paths stay relative to the manifest's folder wherever the command ran. */
    spx_fixture_write(fixture, "src/one.spx", "fn test_one() -> int { return true; }\n");
    spx_process_result_t bad = RUN_IN(fixture->pool, spx_fixture_path(fixture, "src"), "check");
    CU_ASSERT_EQUAL(bad.exit_code, 1);
    CU_ASSERT_EQUAL(strncmp(bad.out, "src/one.spx:1:", 14), 0);
    spx_fixture_free(fixture);
}

static void test_no_manifest_says_where_it_searched(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_mkdir(fixture, "empty");
    const char *folder = spx_fixture_path(fixture, "empty");
    spx_process_result_t check = RUN_IN(fixture->pool, folder, "check");
    CU_ASSERT_EQUAL(check.exit_code, 2);
    CU_ASSERT_STRING_EQUAL(check.out, "");
    spx_assert_contains(check.err, "no semaprax.toml in ");
    spx_assert_contains(check.err, "empty or any folder above it (searched upward to the root)");
    spx_process_result_t json = RUN_IN(fixture->pool, folder, "check", "--format", "json");
    CU_ASSERT_EQUAL(json.exit_code, 2);
    spx_assert_contains(json.out, "{\"admitted\":false,\"diagnostics\":[{\"code\":\"E0160\"");
    spx_fixture_free(fixture);
}

static void test_check_json_for_a_missing_source(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    write_project(fixture, "two");
    spx_fixture_remove(fixture, "src/two.spx");
    const char *manifest = spx_fixture_path(fixture, "semaprax.toml");
    spx_process_result_t json =
        RUN_IN(fixture->pool, NULL, "check", "--manifest-path", manifest, "--format", "json");
    CU_ASSERT_EQUAL(json.exit_code, 2);
    /* the document: one E0160 at the manifest, its message the reason
     * given on stderr too */
    json_t *document = json_loads(json.out, 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(document);
    CU_ASSERT_TRUE(json_is_false(json_object_get(document, "admitted")));
    json_t *diagnostics = json_object_get(document, "diagnostics");
    CU_ASSERT_EQUAL_FATAL(json_array_size(diagnostics), 1);
    json_t *diagnostic = json_array_get(diagnostics, 0);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(diagnostic, "code")), "E0160");
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(diagnostic, "path")), manifest);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(diagnostic, "severity")), "error");
    const char *message = json_string_value(json_object_get(diagnostic, "message"));
    CU_ASSERT_PTR_NOT_NULL_FATAL(message);
    CU_ASSERT_STRING_EQUAL(json.err, apr_pstrcat(fixture->pool, "semaprax: ", message, "\n", NULL));
    CU_ASSERT_EQUAL(json.out[json.out_length - 1], '\n');
    json_decref(document);
    spx_assert_contains(json.err, "cannot open 'src/two.spx'");
    spx_process_result_t text = RUN_IN(fixture->pool, NULL, "check", "--manifest-path", manifest);
    CU_ASSERT_EQUAL(text.exit_code, 2);
    CU_ASSERT_STRING_EQUAL(text.out, "");
    spx_fixture_free(fixture);
}

static void test_verify_names_each_source(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    write_project(fixture, "two");
    const char *envelope = spx_fixture_path(fixture, "envelope.json");
    spx_process_result_t test =
        RUN_IN(fixture->pool, fixture->root, "test", "--envelope", envelope);
    CU_ASSERT_EQUAL(test.exit_code, 0);
    spx_process_result_t ok = RUN_IN(fixture->pool, fixture->root, "verify", envelope);
    CU_ASSERT_EQUAL(ok.exit_code, 0);

    /* one edited, one deleted (and no longer declared), one added */
    spx_fixture_write(fixture, "src/one.spx", "fn test_one() -> int { return 0; } // edited\n");
    spx_fixture_remove(fixture, "src/two.spx");
    write_project(fixture, "three");
    spx_fixture_write(fixture, "src/one.spx", "fn test_one() -> int { return 0; } // edited\n");
    spx_process_result_t changed = RUN_IN(fixture->pool, fixture->root, "verify", envelope);
    CU_ASSERT_EQUAL(changed.exit_code, 1);
    spx_assert_contains(changed.out,
                        "subject: FAILED: the files on disk differ from the envelope: "
                        "src/one.spx changed, src/two.spx went missing (no longer declared), "
                        "src/three.spx appeared (declared now, not in the envelope), the "
                        "manifest changed\n");

    /* a declared source deleted on disk: the project cannot be opened, and
     * each of the envelope's sources is still compared alone */
    write_project(fixture, "two");
    spx_fixture_write(fixture, "src/one.spx", "fn test_one() -> int { return 0; } // edited\n");
    spx_fixture_remove(fixture, "src/two.spx");
    spx_process_result_t gone = RUN_IN(fixture->pool, fixture->root, "verify", envelope);
    CU_ASSERT_EQUAL(gone.exit_code, 1);
    spx_assert_contains(gone.out, "of the envelope's sources: src/one.spx changed, src/two.spx "
                                  "went missing (cannot open 'src/two.spx'");
    spx_fixture_free(fixture);
}

static void test_unknown_names_get_the_nearest(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    struct {
        const char *arguments[3];
        const char *said;
    } cases[] = {
        {{"chek", NULL, NULL}, "semaprax: unknown command 'chek'; did you mean 'check'?\n"},
        {{"tset", NULL, NULL}, "semaprax: unknown command 'tset'; did you mean 'test'?\n"},
        {{"help", "grph", NULL}, "semaprax: unknown command 'grph'; did you mean 'graph'?\n"},
        {{"frobnicate", NULL, NULL}, "semaprax: unknown command 'frobnicate'\n"},
        {{"check", "--manifst-path", "x"},
         "semaprax: unknown option '--manifst-path'; did you mean '--manifest-path'?\n"},
        {{"check", "--formt=json", NULL},
         "semaprax: unknown option '--formt=json'; did you mean '--format'?\n"},
        {{"test", "--max-step", "1"},
         "semaprax: unknown option '--max-step'; did you mean '--max-steps'?\n"},
        {{"check", "--zzzzzz", NULL}, "semaprax: unknown option '--zzzzzz'\n"},
        {{"--verison", NULL, NULL},
         "semaprax: unknown option '--verison'; did you mean '--version'?\n"},
        {{"--manifest-path", "x", "check"},
         "semaprax: unknown option '--manifest-path': give a command first (see --help)\n"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const char *const *a = cases[i].arguments;
        spx_process_result_t result =
            a[1] ? (a[2] ? RUN_IN(fixture->pool, fixture->root, a[0], a[1], a[2])
                         : RUN_IN(fixture->pool, fixture->root, a[0], a[1]))
                 : RUN_IN(fixture->pool, fixture->root, a[0]);
        CU_ASSERT_EQUAL(result.exit_code, 2);
        CU_ASSERT_STRING_EQUAL(result.out, "");
        CU_ASSERT_STRING_EQUAL(result.err, apr_pstrcat(fixture->pool, cases[i].said,
                                                       "Try 'semaprax --help'.\n", NULL));
    }
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"new: a project that checks, runs and tests", test_new_project_checks_runs_and_tests},
        {"new: refusals write nothing", test_new_refuses_and_writes_nothing},
        {"the manifest is found upward", test_manifest_found_upward},
        {"no manifest: the error says where it searched", test_no_manifest_says_where_it_searched},
        {"check --format json: a missing source's document", test_check_json_for_a_missing_source},
        {"verify names each changed, missing and new source", test_verify_names_each_source},
        {"unknown commands and options: the nearest names", test_unknown_names_get_the_nearest},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("semaprax new, the manifest search, verify's sources", tests);
}
