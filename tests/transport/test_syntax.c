/*
 * test_syntax.c: process tests of language v3's syntax part through the
 * CLI: the project `semaprax new` makes is in canonical layout as made
 * (`semaprax fmt --check` passes on it), and a project using byte literals,
 * compound assignment and assert_eq checks, runs, formats and reports an
 * assert_eq failure with both values.
 */
#include "spx_process.h"
#include "spx_test.h"

#include <apr_strings.h>
#include <string.h>

/* Run the semaprax under test with the arguments in folder. */
#define RUN_IN(pool, folder, ...)                                                                  \
    spx_process_run(spx_program_path("SPX_SEMAPRAX"), (const char *const[]){__VA_ARGS__, NULL},    \
                    folder, pool)

static void test_new_project_is_formatted(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_process_result_t made = RUN_IN(fixture->pool, fixture->root, "new", "tidy");
    CU_ASSERT_EQUAL(made.exit_code, 0);
    const char *project = spx_fixture_path(fixture, "tidy");
    spx_process_result_t check = RUN_IN(fixture->pool, project, "fmt", "--check");
    CU_ASSERT_EQUAL(check.exit_code, 0);
    CU_ASSERT_STRING_EQUAL(check.err, "");
    spx_fixture_free(fixture);
}

static const char manifest[] = "manifest = \"semaprax.project-manifest.v1\"\n"
                               "\n"
                               "[project]\n"
                               "name = \"v3\"\n"
                               "version = \"0.1.0\"\n"
                               "entry = \"app.main\"\n"
                               "\n"
                               "[[source]]\n"
                               "module = \"app\"\n"
                               "path = \"src/app.spx\"\n"
                               "\n"
                               "[[test]]\n"
                               "name = \"words\"\n"
                               "function = \"app.test_words\"\n";

static const char source[] = "fn count(text: str, byte: int) -> int {\n"
                             "    var n = 0;\n"
                             "    for i in 0..len(text) {\n"
                             "        if text[i] == byte {\n"
                             "            n += 1;\n"
                             "        }\n"
                             "    }\n"
                             "    return n;\n"
                             "}\n"
                             "\n"
                             "export fn main() -> int {\n"
                             "    var out = \"\";\n"
                             "    out += itos(count(\"a b c\", ' '));\n"
                             "    print(out + \"\\n\");\n"
                             "    return 0;\n"
                             "}\n"
                             "\n"
                             "fn test_words() -> int {\n"
                             "    var words = [\"b\"];\n"
                             "    words += [\"a\"];\n"
                             "    assert_eq(words, [\"b\", \"c\"], \"words\");\n"
                             "    return 0;\n"
                             "}\n";

static void test_v3_project_through_the_cli(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_write(fixture, "semaprax.toml", manifest);
    spx_fixture_write(fixture, "src/app.spx", source);
    spx_process_result_t check = RUN_IN(fixture->pool, fixture->root, "check");
    CU_ASSERT_EQUAL(check.exit_code, 0);
    spx_process_result_t formatted = RUN_IN(fixture->pool, fixture->root, "fmt", "--check");
    CU_ASSERT_EQUAL(formatted.exit_code, 0);
    spx_process_result_t run = RUN_IN(fixture->pool, fixture->root, "run");
    CU_ASSERT_EQUAL(run.exit_code, 0);
    CU_ASSERT_STRING_EQUAL(run.out, "2\n");
    spx_process_result_t test = RUN_IN(fixture->pool, fixture->root, "test");
    CU_ASSERT_EQUAL(test.exit_code, 1);
    spx_assert_contains(test.out, "src/app.spx:21:5: error[R0508]: assertion failed: words: "
                                  "[\"b\", \"a\"] != [\"b\", \"c\"]");
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"semaprax new makes a project that fmt --check passes", test_new_project_is_formatted},
        {"a v3 project: check, fmt, run, test", test_v3_project_through_the_cli},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("language v3 syntax through the CLI", tests);
}
