/*
 * test_cli_project_edges.c: process tests of the edges of the CLI's project
 * work (issue 28): the upward manifest search naming the folder where it
 * stopped and why, and the full path of a manifest it found but cannot use
 * (item 13); `semaprax new` refusing the names Windows reserves for devices,
 * on every platform (item 16).
 */
#include "spx_process.h"
#include "spx_test.h"

#include <apr_file_info.h>
#include <apr_strings.h>
#include <stdio.h>
#include <string.h>

/* Run the semaprax under test with the arguments in folder. */
#define RUN_IN(pool, folder, ...)                                                                  \
    spx_process_run(spx_program_path("SPX_SEMAPRAX"), (const char *const[]){__VA_ARGS__, NULL},    \
                    folder, pool)

static const char manifest[] = "manifest = \"semaprax.project-manifest.v1\"\n"
                               "[project]\nname = \"up\"\nversion = \"0.1.0\"\n"
                               "entry = \"app.main\"\n"
                               "[[source]]\nmodule = \"app\"\npath = \"app.spx\"\n";

/* A fixture path as the CLI prints it: with '/' between names on every
 * platform (the fixture's root may hold a Windows '\\'). */
static const char *as_printed(spx_fixture_t *fixture, const char *relative)
{
    char *path = apr_pstrdup(fixture->pool, spx_fixture_path(fixture, relative));
    for (char *at = path; *at; at++)
        if (*at == '\\')
            *at = '/';
    return path;
}

static void test_a_found_manifest_that_cannot_be_used_is_named_in_full(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    /* A folder named semaprax.toml, two folders above the working one. */
    spx_fixture_mkdir(fixture, "top/semaprax.toml");
    spx_fixture_mkdir(fixture, "top/a/b");
    spx_process_result_t check =
        RUN_IN(fixture->pool, spx_fixture_path(fixture, "top/a/b"), "check");
    CU_ASSERT_EQUAL(check.exit_code, 2);
    CU_ASSERT_STRING_EQUAL(check.out, "");
    spx_assert_contains(check.err,
                        apr_pstrcat(fixture->pool, as_printed(fixture, "top/semaprax.toml"),
                                    ", cannot be used: it is a folder, not a file", NULL));
    spx_assert_contains(check.err, apr_pstrcat(fixture->pool, "searching upward from ",
                                               as_printed(fixture, "top/a/b"), NULL));
    /* A link named semaprax.toml, in the working folder itself. */
    if (spx_fixture_symlinks_possible(fixture, "a manifest found as a link")) {
        spx_fixture_write(fixture, "real.toml", manifest);
        spx_fixture_mkdir(fixture, "linked");
        spx_fixture_symlink(fixture, spx_fixture_path(fixture, "real.toml"),
                            "linked/semaprax.toml");
        check = RUN_IN(fixture->pool, spx_fixture_path(fixture, "linked"), "check");
        CU_ASSERT_EQUAL(check.exit_code, 2);
        spx_assert_contains(check.err,
                            apr_pstrcat(fixture->pool, as_printed(fixture, "linked/semaprax.toml"),
                                        ", cannot be used: it is a symbolic link", NULL));
    }
    spx_fixture_free(fixture);
}

static void test_a_folder_that_cannot_be_searched_stops_the_search(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_write(fixture, "top/semaprax.toml", manifest);
    spx_fixture_write(fixture, "top/app.spx", "fn main() -> int { return 0; }\n");
    spx_fixture_mkdir(fixture, "top/locked/inner/work");
    if (!spx_fixture_modes_possible("a folder that cannot be searched stops the manifest search")) {
        spx_fixture_free(fixture);
        return;
    }
    /* The working folder is entered first, then the folder two above it
     * loses every permission: the search can look in work and inner, but
     * not in locked, nor reach top's manifest through it. The child starts
     * in this process's working folder. */
    char *before = NULL;
    CU_ASSERT_EQUAL_FATAL(apr_filepath_get(&before, 0, fixture->pool), APR_SUCCESS);
    const char *work = spx_fixture_path(fixture, "top/locked/inner/work");
    CU_ASSERT_EQUAL_FATAL(apr_filepath_set(work, fixture->pool), APR_SUCCESS);
    spx_fixture_set_mode(fixture, "top/locked", 0);
    apr_finfo_t info;
    int searchable = apr_stat(&info, "../../semaprax.toml", APR_FINFO_TYPE, fixture->pool) !=
                     APR_EACCES; /* root searches every folder */
    spx_process_result_t check = {0};
    if (!searchable)
        check = spx_process_run(spx_program_path("SPX_SEMAPRAX"),
                                (const char *const[]){"check", NULL}, NULL, fixture->pool);
    spx_fixture_set_mode(fixture, "top/locked", 0755);
    CU_ASSERT_EQUAL_FATAL(apr_filepath_set(before, fixture->pool), APR_SUCCESS);
    if (searchable) {
        printf("not run here: a folder that cannot be searched stops the manifest search (this "
               "user searches every folder) ");
    } else {
        CU_ASSERT_EQUAL(check.exit_code, 2);
        CU_ASSERT_STRING_EQUAL(check.out, "");
        spx_assert_contains(check.err, apr_pstrcat(fixture->pool, "searching upward from ",
                                                   as_printed(fixture, "top/locked/inner/work"),
                                                   ": the search stopped at ",
                                                   as_printed(fixture, "top/locked"),
                                                   ", which cannot be searched", NULL));
        CU_ASSERT_PTR_NULL(strstr(check.err, "searched upward to the root"));
    }
    spx_fixture_free(fixture);
}

static void test_new_refuses_windows_device_names(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    const char *before = spx_fixture_inventory(fixture);
    const char *const names[] = {"con", "nul", "aux", "prn", "com1", "com9", "lpt1", "lpt9"};
    for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
        spx_process_result_t made = RUN_IN(fixture->pool, fixture->root, "new", names[i]);
        CU_ASSERT_EQUAL(made.exit_code, 2);
        CU_ASSERT_STRING_EQUAL(made.out, "");
        spx_assert_contains(made.err,
                            apr_psprintf(fixture->pool,
                                         "semaprax: '%s' cannot be a project folder: Windows "
                                         "reserves the name for a device",
                                         names[i]));
        spx_assert_contains(made.err, "nothing was created");
    }
    /* Nothing was made, not even a temporary folder. */
    CU_ASSERT_STRING_EQUAL(spx_fixture_inventory(fixture), before);
    /* Names that only look like them are projects like any other. */
    const char *const fine[] = {"com0", "cons", "nul-1", "lpt10"};
    for (size_t i = 0; i < sizeof(fine) / sizeof(fine[0]); i++) {
        spx_process_result_t made = RUN_IN(fixture->pool, fixture->root, "new", fine[i]);
        CU_ASSERT_EQUAL(made.exit_code, 0);
    }
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"a found manifest that cannot be used is named in full",
         test_a_found_manifest_that_cannot_be_used_is_named_in_full},
        {"a folder that cannot be searched stops the search, and says so",
         test_a_folder_that_cannot_be_searched_stops_the_search},
        {"new refuses Windows device names on every platform",
         test_new_refuses_windows_device_names},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("semaprax new and the manifest search: edges", tests);
}
