/*
 * test_cli_fmt.c: `semaprax fmt` as a process: --check's exit status and
 * list, writing (only the files that change, no temp file left, a second run
 * touching nothing), a file that does not parse (reported, left alone, the
 * others still formatted), one that cannot be written (left as it was), a
 * folder argument (its *.spx files, recursively, sorted), links, the
 * manifest's sources when no PATH is given, --diff (the unified diff of
 * each file that would change, nothing written), and usage errors.
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

static void test_check_lists_and_writes_nothing(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_write(fixture, "a.spx", messy);
    spx_fixture_write(fixture, "b.spx", tidy);
    const char *before = spx_fixture_inventory(fixture);
    spx_process_result_t result =
        fmt(fixture, (const char *const[]){"fmt", "--check", "a.spx", "b.spx", NULL});
    CU_ASSERT_EQUAL(result.exit_code, 1);
    CU_ASSERT_STRING_EQUAL(result.out, "a.spx\n");
    CU_ASSERT_STRING_EQUAL(result.err, "");
    CU_ASSERT_STRING_EQUAL(spx_fixture_inventory(fixture), before);
    /* Everything already formatted: exit 0, nothing listed. */
    result = fmt(fixture, (const char *const[]){"fmt", "--check", "b.spx", NULL});
    CU_ASSERT_EQUAL(result.exit_code, 0);
    CU_ASSERT_STRING_EQUAL(result.out, "");
    CU_ASSERT_STRING_EQUAL(spx_fixture_inventory(fixture), before);
    spx_fixture_free(fixture);
}

static void test_diff_prints_the_unified_diff(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_write(fixture, "a.spx", messy);
    spx_fixture_write(fixture, "b.spx", tidy);
    const char *before = spx_fixture_inventory(fixture);
    spx_process_result_t result =
        fmt(fixture, (const char *const[]){"fmt", "--diff", "a.spx", "b.spx", NULL});
    CU_ASSERT_EQUAL(result.exit_code, 1);
    CU_ASSERT_STRING_EQUAL(result.out, "--- a/a.spx\n+++ b/a.spx\n@@ -1 +1,6 @@\n"
                                       "-fn f(a:int)->int{if a>0{return a;}return -a;}\n"
                                       "+fn f(a: int) -> int {\n+    if a > 0 {\n"
                                       "+        return a;\n+    }\n+    return -a;\n+}\n");
    CU_ASSERT_STRING_EQUAL(result.err, "");
    CU_ASSERT_STRING_EQUAL(spx_fixture_inventory(fixture), before);
    /* Everything already formatted: exit 0, no diff. */
    result = fmt(fixture, (const char *const[]){"fmt", "--diff", "b.spx", NULL});
    CU_ASSERT_EQUAL(result.exit_code, 0);
    CU_ASSERT_STRING_EQUAL(result.out, "");
    /* --check and --diff together: a usage error, nothing written. */
    result = fmt(fixture, (const char *const[]){"fmt", "--check", "--diff", "a.spx", NULL});
    CU_ASSERT_EQUAL(result.exit_code, 2);
    CU_ASSERT_STRING_EQUAL(result.out, "");
    CU_ASSERT_STRING_EQUAL(spx_fixture_inventory(fixture), before);
    spx_fixture_free(fixture);
}

static void test_writes_only_what_changes(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_write(fixture, "a.spx", messy);
    spx_fixture_write(fixture, "b.spx", tidy);
    spx_fixture_set_mtime(fixture, "b.spx", apr_time_from_sec(1000000000));
    spx_process_result_t result =
        fmt(fixture, (const char *const[]){"fmt", "a.spx", "b.spx", NULL});
    CU_ASSERT_EQUAL(result.exit_code, 0);
    CU_ASSERT_STRING_EQUAL(result.out, "a.spx\n");
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "a.spx"), tidy);
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "b.spx"), tidy);
    CU_ASSERT_EQUAL(spx_fixture_mtime(fixture, "b.spx"), apr_time_from_sec(1000000000));
    /* Only the two files: no temp file left beside them. */
    const char *inventory = spx_fixture_inventory(fixture);
    CU_ASSERT_PTR_NULL(strstr(inventory, "spx-tmp"));
    CU_ASSERT_EQUAL(strstr(inventory, "b.spx") != NULL && strstr(inventory, "a.spx") != NULL, 1);
    /* A second run finds nothing to do and touches nothing. */
    result = fmt(fixture, (const char *const[]){"fmt", "a.spx", "b.spx", NULL});
    CU_ASSERT_EQUAL(result.exit_code, 0);
    CU_ASSERT_STRING_EQUAL(result.out, "");
    CU_ASSERT_STRING_EQUAL(spx_fixture_inventory(fixture), inventory);
    /* --check agrees. */
    result = fmt(fixture, (const char *const[]){"fmt", "--check", "a.spx", "b.spx", NULL});
    CU_ASSERT_EQUAL(result.exit_code, 0);
    spx_fixture_free(fixture);
}

static void test_a_file_that_cannot_be_written(void)
{
    /* ro/ refuses new names, so the temp file cannot be made: the file is
     * left as it was, no temp file is left, the next file is still
     * formatted, and the exit status says so. */
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_write(fixture, "ro/a.spx", messy);
    spx_fixture_write(fixture, "rw/b.spx", messy);
    const char *why = spx_fixture_read_only_dir(fixture, "ro");
    if (why)
        fprintf(stderr, "\n  cannot make a read-only directory: %s\n", why);
    CU_ASSERT_PTR_NULL_FATAL(why);
    spx_process_result_t result =
        fmt(fixture, (const char *const[]){"fmt", "ro/a.spx", "rw/b.spx", NULL});
    spx_fixture_writable_dir(fixture, "ro");
    CU_ASSERT_EQUAL(result.exit_code, 1);
    CU_ASSERT_STRING_EQUAL(result.out, "rw/b.spx\n");
    spx_assert_contains(result.err, "semaprax: cannot write 'ro/a.spx': ");
    spx_assert_contains(result.err, "it was left as it was");
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "ro/a.spx"), messy);
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "rw/b.spx"), tidy);
    CU_ASSERT_PTR_NULL(strstr(spx_fixture_inventory(fixture), "spx-tmp"));
    spx_fixture_free(fixture);
}

static void test_a_file_that_does_not_parse(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    const char *broken = "fn f( {\n  return 1\n}\n";
    spx_fixture_write(fixture, "bad.spx", broken);
    spx_fixture_write(fixture, "a.spx", messy);
    spx_process_result_t result =
        fmt(fixture, (const char *const[]){"fmt", "--check", "bad.spx", "a.spx", NULL});
    CU_ASSERT_EQUAL(result.exit_code, 1);
    CU_ASSERT_STRING_EQUAL(result.out, "a.spx\n");
    spx_assert_contains(result.err, "bad.spx:1:");
    spx_assert_contains(result.err, ": error[E02");
    spx_assert_contains(result.err, "semaprax: 'bad.spx' does not parse; it was not formatted");
    /* Writing: the broken file is left as it was, the other is formatted, and
     * the exit status still says something was wrong. */
    result = fmt(fixture, (const char *const[]){"fmt", "bad.spx", "a.spx", NULL});
    CU_ASSERT_EQUAL(result.exit_code, 1);
    CU_ASSERT_STRING_EQUAL(result.out, "a.spx\n");
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "bad.spx"), broken);
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "a.spx"), tidy);
    /* Only the syntax counts: a type error does not stop formatting. */
    spx_fixture_write(fixture, "typed.spx", "fn f()->int{return \"x\";}");
    result = fmt(fixture, (const char *const[]){"fmt", "typed.spx", NULL});
    CU_ASSERT_EQUAL(result.exit_code, 0);
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "typed.spx"),
                           "fn f() -> int {\n    return \"x\";\n}\n");
    spx_fixture_free(fixture);
}

static void test_a_folder(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_write(fixture, "src/x.spx", messy);
    spx_fixture_write(fixture, "src/deep/er/y.spx", messy);
    spx_fixture_write(fixture, "src/a.spx", tidy);
    spx_fixture_write(fixture, "src/.hidden/z.spx", messy);
    spx_fixture_write(fixture, "src/notes.txt", messy);
    spx_fixture_write(fixture, "src/w.spx.bak", messy);
    spx_process_result_t result =
        fmt(fixture, (const char *const[]){"fmt", "--check", "src", NULL});
    CU_ASSERT_EQUAL(result.exit_code, 1);
    CU_ASSERT_STRING_EQUAL(result.out, "src/deep/er/y.spx\nsrc/x.spx\n");
    /* A file named as well as its folder is formatted once. */
    result = fmt(fixture, (const char *const[]){"fmt", "src/x.spx", "src/", NULL});
    CU_ASSERT_EQUAL(result.exit_code, 0);
    CU_ASSERT_STRING_EQUAL(result.out, "src/x.spx\nsrc/deep/er/y.spx\n");
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "src/deep/er/y.spx"), tidy);
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "src/.hidden/z.spx"), messy);
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "src/notes.txt"), messy);
    spx_fixture_free(fixture);
}

static void test_links_are_not_followed(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    if (spx_fixture_symlinks_possible(fixture, "fmt refuses or skips links")) {
        spx_fixture_write(fixture, "real/a.spx", messy);
        spx_fixture_write(fixture, "src/b.spx", messy);
        spx_fixture_symlink(fixture, spx_fixture_path(fixture, "real/a.spx"), "src/link.spx");
        spx_fixture_symlink(fixture, spx_fixture_path(fixture, "real"), "src/folder");
        const char *before = spx_fixture_inventory(fixture);
        /* Named: refused before anything is written. */
        spx_process_result_t result =
            fmt(fixture, (const char *const[]){"fmt", "src/b.spx", "src/link.spx", NULL});
        CU_ASSERT_EQUAL(result.exit_code, 2);
        spx_assert_contains(result.err, "src/link.spx");
        CU_ASSERT_STRING_EQUAL(spx_fixture_inventory(fixture), before);
        /* In a folder: skipped, with the linked folder. */
        result = fmt(fixture, (const char *const[]){"fmt", "src", NULL});
        CU_ASSERT_EQUAL(result.exit_code, 0);
        CU_ASSERT_STRING_EQUAL(result.out, "src/b.spx\n");
        CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "real/a.spx"), messy);
    }
    spx_fixture_free(fixture);
}

static void test_the_manifest_sources(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_run_fixture_write(fixture,
                          "fn main()->int{print(\"hi\");return 0;}\n"
                          "fn test_a() -> int { return 0; }\n",
                          "app.main", (const char *const[]){"a=app.test_a", NULL});
    spx_fixture_write(fixture, "other.spx", messy); /* not a source of the manifest */
    spx_process_result_t result = fmt(fixture, (const char *const[]){"fmt", "--check", NULL});
    CU_ASSERT_EQUAL(result.exit_code, 1);
    CU_ASSERT_STRING_EQUAL(result.out, "app.spx\n");
    result = fmt(fixture, (const char *const[]){"fmt", NULL});
    CU_ASSERT_EQUAL(result.exit_code, 0);
    CU_ASSERT_STRING_EQUAL(result.out, "app.spx\n");
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "app.spx"), "fn main() -> int {\n"
                                                                 "    print(\"hi\");\n"
                                                                 "    return 0;\n"
                                                                 "}\n"
                                                                 "\n"
                                                                 "fn test_a() -> int {\n"
                                                                 "    return 0;\n"
                                                                 "}\n");
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "other.spx"), messy);
    /* The formatted project still runs its tests. */
    result = fmt(fixture, (const char *const[]){"test", NULL});
    CU_ASSERT_EQUAL(result.exit_code, 0);
    /* --manifest-path from elsewhere */
    spx_fixture_write(fixture, "app.spx", messy);
    result =
        spx_process_run(spx_program_path("SPX_SEMAPRAX"),
                        (const char *const[]){"fmt", "--check", "--manifest-path",
                                              spx_fixture_path(fixture, "semaprax.toml"), NULL},
                        NULL, fixture->pool);
    CU_ASSERT_EQUAL(result.exit_code, 1);
    CU_ASSERT_STRING_EQUAL(result.out, "app.spx\n");
    /* No manifest there: exit 2. */
    spx_fixture_remove(fixture, "semaprax.toml");
    result = fmt(fixture, (const char *const[]){"fmt", NULL});
    CU_ASSERT_EQUAL(result.exit_code, 2);
    CU_ASSERT_STRING_EQUAL(result.out, "");
    spx_fixture_free(fixture);
}

static void test_usage(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_write(fixture, "a.spx", messy);
    const char *before = spx_fixture_inventory(fixture);
    spx_process_result_t result =
        fmt(fixture, (const char *const[]){"fmt", "--dry-run", "a.spx", NULL});
    CU_ASSERT_EQUAL(result.exit_code, 2);
    spx_assert_contains(result.err, "'fmt' takes no option --dry-run");
    result = fmt(fixture, (const char *const[]){"fmt", "--check", "--check", "a.spx", NULL});
    CU_ASSERT_EQUAL(result.exit_code, 2);
    /* A missing file stops everything before anything is written. */
    result = fmt(fixture, (const char *const[]){"fmt", "a.spx", "missing.spx", NULL});
    CU_ASSERT_EQUAL(result.exit_code, 2);
    CU_ASSERT_STRING_EQUAL(result.out, "");
    spx_assert_contains(result.err, "missing.spx");
    CU_ASSERT_STRING_EQUAL(spx_fixture_inventory(fixture), before);
    result = fmt(fixture, (const char *const[]){"fmt", "--help", NULL});
    CU_ASSERT_EQUAL(result.exit_code, 0);
    spx_assert_contains(result.out, "usage: semaprax fmt [--check | --diff] [PATH...]");
    result = fmt(fixture, (const char *const[]){"--help", NULL});
    spx_assert_contains(result.out, "  fmt ");
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"--check lists what would change and writes nothing", test_check_lists_and_writes_nothing},
        {"--diff prints the unified diff and writes nothing", test_diff_prints_the_unified_diff},
        {"only the files that change are written", test_writes_only_what_changes},
        {"a file that does not parse is reported and left alone", test_a_file_that_does_not_parse},
        {"a file that cannot be written is left as it was", test_a_file_that_cannot_be_written},
        {"a folder: its *.spx files, recursively, sorted", test_a_folder},
        {"links are refused when named, skipped in folders", test_links_are_not_followed},
        {"no PATH: the manifest's sources", test_the_manifest_sources},
        {"usage errors", test_usage},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("cli_fmt", tests);
}
