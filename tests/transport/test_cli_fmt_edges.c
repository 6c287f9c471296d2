/*
 * test_cli_fmt_edges.c: `semaprax fmt` as a process, at its edges (issue
 * 28): its peak memory against check's on the same source (item 10), a
 * named folder that is a link (item 9), one file named by several
 * spellings (item 14), and a comma dropped between two comments (item 11).
 */
#include "spx_process.h"
#include "spx_run_fixture.h"
#include "spx_test.h"

#include <apr_strings.h>
#include <stdio.h>
#include <string.h>

static const char messy[] = "fn f(a:int)->int{if a>0{return a;}return -a;}\n";
static const char tidy[] = "fn f(a: int) -> int {\n"
                           "    if a > 0 {\n"
                           "        return a;\n"
                           "    }\n"
                           "    return -a;\n"
                           "}\n";

static spx_process_result_t fmt(spx_fixture_t *fixture, const char *const *arguments)
{
    return spx_process_run(spx_program_path("SPX_SEMAPRAX"), arguments, fixture->root,
                           fixture->pool);
}

/* Run first in the suite, so the children's peak is check's own: fmt then
 * runs on the same source, by its path and as the manifest's, and the
 * children's peak must not grow (fmt took at most what check took). */
static void test_memory_at_most_checks(void)
{
#ifdef SPX_TEST_SANITIZED
    printf("not run here: fmt's peak memory against check's (sanitized build) ");
    return;
#else
    if (spx_children_peak_kib() < 0) {
        printf("not run here: fmt's peak memory against check's (no children's peak here) ");
        return;
    }
    spx_fixture_t *fixture = spx_fixture_new();
    /* About 2 MB: one function of 200,000 statements. */
    apr_size_t count = 200000;
    char *source = apr_palloc(fixture->pool, count * 9 + 64);
    char *at = source + sprintf(source, "fn main()->int{");
    for (apr_size_t i = 0; i < count; i++)
        at += sprintf(at, "let a=1;\n");
    sprintf(at, "return 0;}\n");
    spx_run_fixture_write(fixture, source, "app.main", (const char *const[]){NULL});
    spx_process_result_t result = fmt(fixture, (const char *const[]){"check", NULL});
    long check_peak = spx_children_peak_kib();
    result = fmt(fixture, (const char *const[]){"fmt", "--check", "app.spx", NULL});
    CU_ASSERT_EQUAL(result.exit_code, 1);
    CU_ASSERT_STRING_EQUAL(result.out, "app.spx\n");
    long path_peak = spx_children_peak_kib();
    result = fmt(fixture, (const char *const[]){"fmt", "--check", NULL});
    CU_ASSERT_EQUAL(result.exit_code, 1);
    long manifest_peak = spx_children_peak_kib();
    if (path_peak != check_peak || manifest_peak != check_peak)
        fprintf(stderr, "\n  peaks (KiB): check %ld, then after fmt PATH %ld, fmt %ld\n",
                check_peak, path_peak, manifest_peak);
    CU_ASSERT_EQUAL(path_peak, check_peak);
    CU_ASSERT_EQUAL(manifest_peak, check_peak);
    spx_fixture_free(fixture);
#endif
}

static void test_a_named_folder_link_is_refused(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    if (spx_fixture_symlinks_possible(fixture, "fmt refuses a named folder link")) {
        spx_fixture_write(fixture, "outside/o.spx", messy);
        spx_fixture_write(fixture, "tree/b.spx", messy);
        spx_fixture_symlink(fixture, spx_fixture_path(fixture, "outside"), "tree/dirlink");
        const char *before = spx_fixture_inventory(fixture);
        const char *const spellings[] = {"tree/dirlink", "tree/dirlink/"};
        for (size_t i = 0; i < sizeof(spellings) / sizeof(spellings[0]); i++) {
            spx_process_result_t result =
                fmt(fixture, (const char *const[]){"fmt", "tree/b.spx", spellings[i], NULL});
            CU_ASSERT_EQUAL(result.exit_code, 2);
            CU_ASSERT_STRING_EQUAL(result.out, "");
            spx_assert_contains(
                result.err,
                apr_psprintf(fixture->pool, "semaprax: cannot read folder '%s': ", spellings[i]));
            spx_assert_contains(result.err, "symbolic link");
            CU_ASSERT_STRING_EQUAL(spx_fixture_inventory(fixture), before);
            CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "outside/o.spx"), messy);
        }
    }
    spx_fixture_free(fixture);
}

static void test_one_file_by_several_spellings(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_write(fixture, "d/a.spx", messy);
    spx_process_result_t result =
        fmt(fixture, (const char *const[]){"fmt", "--check", "./d", "d/a.spx", "d/../d/a.spx",
                                           "d//a.spx", NULL});
    CU_ASSERT_EQUAL(result.exit_code, 1);
    CU_ASSERT_STRING_EQUAL(result.out, "./d/a.spx\n");
    result = fmt(fixture, (const char *const[]){"fmt", "./d", "d/a.spx", "d/../d/a.spx", NULL});
    CU_ASSERT_EQUAL(result.exit_code, 0);
    CU_ASSERT_STRING_EQUAL(result.out, "./d/a.spx\n");
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "d/a.spx"), tidy);
    spx_fixture_free(fixture);
}

static void test_a_comma_between_two_comments(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_write(fixture, "a.spx", "fn f() -> [int] {\n    return [1 // a\n, // b\n];\n}\n");
    spx_process_result_t result = fmt(fixture, (const char *const[]){"fmt", "a.spx", NULL});
    CU_ASSERT_EQUAL(result.exit_code, 0);
    CU_ASSERT_STRING_EQUAL(result.err, "");
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "a.spx"), "fn f() -> [int] {\n"
                                                               "    return [1 // a\n"
                                                               "        // b\n"
                                                               "        ];\n"
                                                               "}\n");
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"fmt's peak memory is at most check's", test_memory_at_most_checks},
        {"a named folder that is a link is refused", test_a_named_folder_link_is_refused},
        {"one file named by several spellings is formatted once",
         test_one_file_by_several_spellings},
        {"a comma dropped between two comments keeps them apart",
         test_a_comma_between_two_comments},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("cli_fmt edges", tests);
}
