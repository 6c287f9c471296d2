/*
 * test_run_entry.c: `semaprax run [--entry MOD.FN] [-- ARG...]` (language
 * v3) in the real CLI: any fn() -> int of a declared module, args() from
 * the words after --, and the usage errors (exit 2) with their words.
 */
#include "spx_limits.h"
#include "spx_process.h"
#include "spx_test.h"

#include <apr_strings.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

static void write_project(spx_fixture_t *fixture, int with_entry)
{
    spx_fixture_mkdir(fixture, "src");
    spx_fixture_write(fixture, "semaprax.toml",
                      apr_pstrcat(fixture->pool,
                                  "manifest = \"semaprax.project-manifest.v2\"\n"
                                  "[project]\nname = \"tool\"\nversion = \"0.1.0\"\n",
                                  with_entry ? "entry = \"app.main\"\n" : "",
                                  "[[source]]\nmodule = \"app\"\npath = \"src/app.spx\"\n", NULL));
    spx_fixture_write(fixture, "src/app.spx",
                      "export fn main() -> int {\n"
                      "  let a = args();\n"
                      "  for w in a { print(w + \";\"); }\n"
                      "  return len(a);\n"
                      "}\n"
                      "export fn other() -> int { print(\"other\"); return 0; }\n"
                      "export fn f(x: int) -> int { return x; }\n");
}

static spx_process_result_t run(spx_fixture_t *fixture, const char *const *words)
{
    const char *arguments[16] = {"run", "--manifest-path",
                                 spx_fixture_path(fixture, "semaprax.toml")};
    int n = 3;
    for (int i = 0; words[i]; i++)
        arguments[n++] = words[i];
    arguments[n] = NULL;
    return spx_process_run(spx_program_path("SPX_SEMAPRAX"), arguments, NULL, fixture->pool);
}

static void assert_usage(spx_fixture_t *fixture, const char *const *words, const char *message)
{
    spx_process_result_t result = run(fixture, words);
    CU_ASSERT_EQUAL(result.exit_code, 2);
    /* The message's line, then the usage hint. */
    const char *line = apr_pstrcat(fixture->pool, "semaprax: ", message, "\n", NULL);
    if (strncmp(result.err, line, strlen(line)) != 0)
        fprintf(stderr, "\n  got %s  wanted %s", result.err, line);
    CU_ASSERT_NSTRING_EQUAL(result.err, line, strlen(line));
}

static void test_arguments(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    write_project(fixture, 1);
    const char *const none[] = {NULL};
    spx_process_result_t result = run(fixture, none);
    CU_ASSERT_EQUAL(result.exit_code, 0);
    CU_ASSERT_STRING_EQUAL(result.out, "");
    /* Every word after -- is an argument, --x and a second -- included;
     * main returns 4, so the run fails (exit 1). */
    const char *const words[] = {"--", "in.txt", "-v", "--x", "--", NULL};
    result = run(fixture, words);
    CU_ASSERT_EQUAL(result.exit_code, 1);
    CU_ASSERT_STRING_EQUAL(result.out, "in.txt;-v;--x;--;");
    CU_ASSERT_PTR_NOT_NULL(strstr(result.err, "returned 4"));
    spx_fixture_free(fixture);
}

static void test_entry(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    write_project(fixture, 0);
    const char *const other[] = {"--entry", "app.other", NULL};
    spx_process_result_t result = run(fixture, other);
    CU_ASSERT_EQUAL(result.exit_code, 0);
    CU_ASSERT_STRING_EQUAL(result.out, "other");
    const char *const none[] = {NULL};
    assert_usage(fixture, none, "the manifest declares no entry; give one with --entry MOD.FN");
    const char *const misspelt[] = {"--entry", "app.mian", NULL};
    assert_usage(fixture, misspelt, "no function 'app.mian' in this project; nearest: app.main");
    const char *const signature[] = {"--entry", "app.f", NULL};
    assert_usage(fixture, signature, "'app.f' is fn(x: int) -> int, not fn() -> int");
    const char *const stray[] = {"--entry", "app.main", "word", NULL};
    assert_usage(fixture, stray,
                 "unexpected argument 'word'; give the program's arguments after --");
    spx_fixture_free(fixture);
}

static void test_argument_bounds(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    write_project(fixture, 1);
    if (spx_command_line_takes_bytes()) { /* Windows: test_win32_arguments */
        const char *const bad[] = {"--", "ok", "\xff", NULL};
        assert_usage(fixture, bad, "program argument 2 is not valid UTF-8 (at byte 0)");
    }
    /* 4097 arguments: over the count; 4096 run. Where a command line is as
     * small as Windows' 32,767 units, APR under Wine refuses to start one of
     * 4097 quoted arguments: the count is shown on POSIX (win32/README.md). */
    if (spx_command_line_limit() > 65536) {
        const char **many =
            apr_palloc(fixture->pool, (SPX_LIMIT_RUN_ARGUMENTS + 8) * sizeof(*many));
        many[0] = "run";
        many[1] = "--manifest-path";
        many[2] = spx_fixture_path(fixture, "semaprax.toml");
        many[3] = "--";
        for (unsigned i = 0; i < SPX_LIMIT_RUN_ARGUMENTS + 1; i++)
            many[4 + i] = "a";
        many[4 + SPX_LIMIT_RUN_ARGUMENTS + 1] = NULL;
        spx_process_result_t result =
            spx_process_run(spx_program_path("SPX_SEMAPRAX"), many, NULL, fixture->pool);
        CU_ASSERT_EQUAL(result.exit_code, 2);
        CU_ASSERT_PTR_NOT_NULL(
            strstr(result.err, "semaprax: 4097 program arguments, over the limit of 4096\n"));
        /* 4096 arguments run. */
        many[4 + SPX_LIMIT_RUN_ARGUMENTS] = NULL;
        result = spx_process_run(spx_program_path("SPX_SEMAPRAX"), many, NULL, fixture->pool);
        CU_ASSERT_EQUAL(result.exit_code, 1); /* main returned 4096 */
        CU_ASSERT_PTR_NOT_NULL(strstr(result.err, "returned 4096"));
    }
    /* Nine arguments of 120 KiB (a host's bound on one argument is 128
     * KiB): over 1 MiB together. A Windows command line holds 32,767 units:
     * there the bound cannot be passed at all. */
    if (spx_command_line_limit() > 9 * 120 * 1024 + 4096) {
        char *big = apr_palloc(fixture->pool, 120 * 1024 + 1);
        memset(big, 'b', 120 * 1024);
        big[120 * 1024] = '\0';
        const char *const large[] = {"--", big, big, big, big, big, big, big, big, big, NULL};
        assert_usage(fixture, large,
                     "the program arguments come to more than 1048576 bytes, the limit for all "
                     "of them");
    }
    spx_fixture_free(fixture);
}

/* --envelope FILE writes the run envelope (semaprax.project-run.v1) with
 * the function, its arguments and the limits it ran under; verify re-runs
 * it with them. */
static void test_run_envelope(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    write_project(fixture, 1);
    const char *path = spx_fixture_path(fixture, "run.json");
    const char *const words[] = {"--max-steps", "500", "--envelope", path, "--", "in.txt", NULL};
    spx_process_result_t result = run(fixture, words);
    CU_ASSERT_EQUAL(result.exit_code, 1); /* main returns len(args()) = 1 */
    CU_ASSERT_STRING_EQUAL(result.out, "in.txt;");
    json_t *envelope = json_loads(spx_fixture_read(fixture, "run.json"), 0, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(envelope);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(envelope, "schema")),
                           "semaprax.project-run.v1");
    json_t *record = json_deep_copy(json_object_get(envelope, "run"));
    json_object_del(record, "steps");
    char *text = json_dumps(record, JSON_COMPACT | JSON_SORT_KEYS);
    CU_ASSERT_STRING_EQUAL(
        text, "{\"args\":[\"in.txt\"],\"function\":\"app.main\",\"limits\":{\"max_call_depth\":256,"
              "\"max_memory\":268435456,\"max_steps\":500},\"outcome\":\"failed\",\"output\":"
              "\"in.txt;\",\"output_truncated\":false,\"value\":1}");
    free(text);
    text = json_dumps(json_object_get(envelope, "limits"), JSON_COMPACT | JSON_SORT_KEYS);
    CU_ASSERT_STRING_EQUAL(text, "{\"max_bytes\":1048576,\"max_steps\":500}");
    free(text);
    CU_ASSERT_TRUE(json_is_false(json_object_get(envelope, "command_succeeded")));
    json_decref(record);
    json_decref(envelope);
    const char *const verify[] = {"verify", path, "--manifest-path",
                                  spx_fixture_path(fixture, "semaprax.toml"), NULL};
    result = spx_process_run(spx_program_path("SPX_SEMAPRAX"), verify, NULL, fixture->pool);
    CU_ASSERT_EQUAL(result.exit_code, 0);
    spx_assert_contains(result.out, "re-run: ok\n");
    /* --entry is recorded and re-run too */
    const char *const other[] = {"--entry", "app.other", "--envelope", path, NULL};
    result = run(fixture, other);
    CU_ASSERT_EQUAL(result.exit_code, 0);
    spx_assert_contains(spx_fixture_read(fixture, "run.json"), "\"function\":\"app.other\"");
    result = spx_process_run(spx_program_path("SPX_SEMAPRAX"), verify, NULL, fixture->pool);
    CU_ASSERT_EQUAL(result.exit_code, 0);
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"args() from the words after --", test_arguments},
        {"--entry and its usage errors", test_entry},
        {"argument bounds", test_argument_bounds},
        {"the run envelope, verified", test_run_envelope},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("run_entry", tests);
}
