/*
 * test_serve.c: process tests of `semaprax serve SOURCE` (transport v1,
 * docs/transport-v1.md). The byte-frozen corpus of tests/golden/v1/: every
 * case's requests go to the real program's standard input, and its standard
 * output must be the case's `out`, byte for byte, with the case's exit
 * status; the corpus itself must match its FROZEN digests, so no case can
 * change unnoticed. Then what happens before any frame: usage errors and
 * unusable sources (exit 2, nothing on stdout), and a large oversized
 * request. (The help text is checked with the other commands' in test_cli.)
 */
#include "spx_corpus.h"
#include "spx_digest.h"
#include "spx_process.h"
#include "spx_test.h"

#include <apr_hash.h>
#include <apr_strings.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The cases the corpus must always hold (tests/golden/v1/README.md). */
static const char *const required_cases[] = {
    "check-admitted",
    "check-diagnostics",
    "check-syntax",
    "empty-input",
    "eof-without-shutdown",
    "graph",
    "graph-tiny",
    "malformed",
    "notifications",
    "oversized-request",
    "oversized-request-at-eof",
    "params",
    "ping",
    "protocol",
    "protocol-limits",
    "request-at-bound",
    "response-at-bound",
    "response-overflow",
    "shutdown",
    "shutdown-notification",
    "unknown-method",
};

static const char *golden(const char *relative, apr_pool_t *pool)
{
    return spx_corpus_dir(apr_pstrcat(pool, "golden/v1/", relative, NULL), pool);
}

/* The lines of text (each ended by LF), as a NULL-terminated array. */
static const char **split_lines(const char *text, apr_pool_t *pool)
{
    apr_array_header_t *lines = apr_array_make(pool, 8, sizeof(const char *));
    for (const char *end; (end = strchr(text, '\n')) != NULL; text = end + 1)
        APR_ARRAY_PUSH(lines, const char *) = apr_pstrndup(pool, text, (apr_size_t)(end - text));
    APR_ARRAY_PUSH(lines, const char *) = NULL;
    return (const char **)lines->elts;
}

/* Where two byte strings first differ, for the failure message. */
static apr_size_t first_difference(const char *a, apr_size_t a_length, const char *b,
                                   apr_size_t b_length)
{
    apr_size_t at = 0;
    while (at < a_length && at < b_length && a[at] == b[at])
        at++;
    return at;
}

static void run_case(const char *name, int piped, apr_pool_t *pool)
{
    const char *dir = golden(apr_pstrcat(pool, "cases/", name, NULL), pool);
    const char **args =
        split_lines(spx_corpus_read(apr_pstrcat(pool, dir, "/args", NULL), NULL, pool), pool);
    CU_ASSERT_PTR_NOT_NULL_FATAL(args[0]);
    apr_size_t count = 0;
    while (args[count])
        count++;
    const char **arguments = apr_pcalloc(pool, (count + 2) * sizeof(*arguments));
    arguments[0] = "serve";
    arguments[1] = golden(apr_pstrcat(pool, "sources/", args[0], NULL), pool);
    for (apr_size_t i = 1; i < count; i++)
        arguments[i + 1] = args[i];
    apr_size_t in_length = 0, out_length = 0;
    const char *in = spx_corpus_read(apr_pstrcat(pool, dir, "/in", NULL), &in_length, pool);
    const char *out = spx_corpus_read(apr_pstrcat(pool, dir, "/out", NULL), &out_length, pool);
    int exit_code = atoi(spx_corpus_read(apr_pstrcat(pool, dir, "/exit", NULL), NULL, pool));

    const char *semaprax = spx_program_path("SPX_SEMAPRAX");
    spx_process_result_t result =
        piped ? spx_process_run_piped(semaprax, arguments, in, in_length, pool)
              : spx_process_run_input(semaprax, arguments, NULL, in, in_length, pool);
    int same = result.out_length == out_length && memcmp(result.out, out, out_length) == 0;
    if (!same || result.exit_code != exit_code)
        fprintf(stderr,
                "\n  case %s%s: exit %d (wanted %d), %" APR_SIZE_T_FMT
                " bytes (wanted %" APR_SIZE_T_FMT "), first difference at byte %" APR_SIZE_T_FMT
                "\n  stderr: %s",
                name, piped ? " (pipes)" : "", result.exit_code, exit_code, result.out_length,
                out_length, first_difference(result.out, result.out_length, out, out_length),
                result.err);
    CU_ASSERT(same);
    CU_ASSERT_EQUAL(result.exit_code, exit_code);
}

/* Every case, its input from a file (seekable, read in whole chunks) or
 * through pipes (as a client talks: reads return what has arrived). */
static void run_every_case(int piped)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    apr_array_header_t *cases = spx_corpus_list_dirs(golden("cases", pool), pool);
    CU_ASSERT(cases->nelts >= (int)(sizeof(required_cases) / sizeof(required_cases[0])));
    for (int i = 0; i < cases->nelts; i++) {
        apr_pool_t *scratch = NULL;
        apr_pool_create(&scratch, pool);
        run_case(APR_ARRAY_IDX(cases, i, const char *), piped, scratch);
        apr_pool_destroy(scratch);
    }
    apr_pool_destroy(pool);
}

static void test_golden_transcripts_byte_for_byte(void)
{
    run_every_case(0);
}

static void test_golden_transcripts_over_pipes(void)
{
    run_every_case(1);
}

/* Add "cases/NAME/FILE" (or "sources/FILE") for every file of the corpus. */
static void list_corpus_files(apr_hash_t *files, apr_pool_t *pool)
{
    apr_array_header_t *sources = spx_corpus_list(golden("sources", pool), "", pool);
    for (int i = 0; i < sources->nelts; i++)
        apr_hash_set(files, apr_pstrcat(pool, "sources/", APR_ARRAY_IDX(sources, i, char *), NULL),
                     APR_HASH_KEY_STRING, "");
    apr_array_header_t *cases = spx_corpus_list_dirs(golden("cases", pool), pool);
    for (int i = 0; i < cases->nelts; i++) {
        const char *name = APR_ARRAY_IDX(cases, i, const char *);
        apr_array_header_t *inside =
            spx_corpus_list(golden(apr_pstrcat(pool, "cases/", name, NULL), pool), "", pool);
        for (int j = 0; j < inside->nelts; j++)
            apr_hash_set(files,
                         apr_pstrcat(pool, "cases/", name, "/",
                                     APR_ARRAY_IDX(inside, j, const char *), NULL),
                         APR_HASH_KEY_STRING, "");
    }
}

static void test_golden_corpus_matches_its_frozen_digests(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    apr_hash_t *unlisted = apr_hash_make(pool);
    list_corpus_files(unlisted, pool);
    const char **lines = split_lines(spx_corpus_read(golden("FROZEN", pool), NULL, pool), pool);
    int listed = 0;
    for (; lines[listed]; listed++) {
        const char *line = lines[listed];
        const char *gap = strstr(line, "  ");
        CU_ASSERT_PTR_NOT_NULL_FATAL(gap);
        const char *path = gap + 2;
        apr_size_t length = 0;
        const char *bytes = spx_corpus_read(golden(path, pool), &length, pool);
        spx_sha256_t digest;
        spx_sha256(bytes, length, &digest);
        const char *wanted =
            apr_pstrcat(pool, "sha256:", apr_pstrndup(pool, line, (apr_size_t)(gap - line)), NULL);
        const char *actual = spx_digest_text(&digest, pool);
        if (strcmp(actual, wanted) != 0)
            fprintf(stderr, "\n  %s changed: a frozen case never changes (README.md)\n", path);
        CU_ASSERT_STRING_EQUAL(actual, wanted);
        if (!apr_hash_get(unlisted, path, APR_HASH_KEY_STRING))
            fprintf(stderr, "\n  FROZEN lists %s twice or outside the corpus\n", path);
        CU_ASSERT_PTR_NOT_NULL(apr_hash_get(unlisted, path, APR_HASH_KEY_STRING));
        apr_hash_set(unlisted, path, APR_HASH_KEY_STRING, NULL);
    }
    for (apr_hash_index_t *at = apr_hash_first(pool, unlisted); at; at = apr_hash_next(at))
        fprintf(stderr, "\n  %s is not in FROZEN: add it with the capture script\n",
                (const char *)apr_hash_this_key(at));
    CU_ASSERT_EQUAL(apr_hash_count(unlisted), 0);
    for (size_t i = 0; i < sizeof(required_cases) / sizeof(required_cases[0]); i++) {
        const char *out = apr_pstrcat(pool, "cases/", required_cases[i], "/out", NULL);
        apr_size_t length = 0;
        spx_corpus_read(golden(out, pool), &length, pool); /* fails when the case is gone */
        (void)length;
    }
    CU_ASSERT(listed > 0);
    apr_pool_destroy(pool);
}

/* Exit 2, nothing on stdout, and fragment on stderr. */
static void expect_usage_error(spx_process_result_t result, const char *fragment)
{
    CU_ASSERT_EQUAL(result.exit_code, 2);
    CU_ASSERT_EQUAL(result.out_length, 0);
    spx_assert_contains(result.err, fragment);
}

static void test_usage_errors_write_nothing_on_stdout(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    const char *good = spx_fixture_path(fixture, "good.spx");
    spx_fixture_write(fixture, "good.spx", "fn one() -> int { return 1; }\n");
    const char *ping = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n";
    const char *semaprax = spx_program_path("SPX_SEMAPRAX");
#define SERVE(...)                                                                                 \
    spx_process_run_input(semaprax, (const char *const[]){"serve", __VA_ARGS__, NULL}, NULL, ping, \
                          strlen(ping), pool)
    expect_usage_error(spx_process_run_input(semaprax, (const char *const[]){"serve", NULL}, NULL,
                                             ping, strlen(ping), pool),
                       "'serve' needs an argument");
    expect_usage_error(SERVE(good, good), "unexpected argument");
    expect_usage_error(SERVE(good, "--manifest-path", "semaprax.toml"),
                       "'serve' takes no option --manifest-path");
    expect_usage_error(SERVE(good, "--bogus"), "unknown option '--bogus'");
    expect_usage_error(SERVE(good, "--max-request-bytes", "255"),
                       "--max-request-bytes 255 is under the minimum of 256");
    expect_usage_error(SERVE(good, "--max-request-bytes", "67108865"),
                       "--max-request-bytes 67108865 is over the maximum of 67108864");
    expect_usage_error(SERVE(good, "--max-response-bytes", "1023"),
                       "--max-response-bytes 1023 is under the minimum of 1024");
    expect_usage_error(SERVE(good, "--max-response-bytes", "1073741825"),
                       "--max-response-bytes 1073741825 is over the maximum of 1073741824");
    expect_usage_error(SERVE(good, "--max-response-bytes", "-1"), "takes a whole number");
    expect_usage_error(SERVE(good, "--max-request-bytes", "256", "--max-request-bytes", "300"),
                       "given twice");
    /* Sources that cannot be served. */
    expect_usage_error(SERVE(spx_fixture_path(fixture, "missing.spx")), "missing.spx");
    spx_fixture_write(fixture, "notes.txt", "fn one() -> int { return 1; }\n");
    expect_usage_error(SERVE(spx_fixture_path(fixture, "notes.txt")), "is not named MODULE.spx");
    expect_usage_error(SERVE(spx_fixture_path(fixture, ".spx")), "is not named MODULE.spx");
    spx_fixture_write(fixture, "Upper.spx", "fn one() -> int { return 1; }\n");
    expect_usage_error(SERVE(spx_fixture_path(fixture, "Upper.spx")),
                       "the module name 'Upper' (the file's name) must start with a lowercase");
    spx_fixture_write(fixture, "my-app.spx", "fn one() -> int { return 1; }\n");
    expect_usage_error(SERVE(spx_fixture_path(fixture, "my-app.spx")), "contains '-'");
    char long_name[80];
    memset(long_name, 'a', 65);
    strcpy(long_name + 65, ".spx");
    spx_fixture_write(fixture, long_name, "fn one() -> int { return 1; }\n");
    expect_usage_error(SERVE(spx_fixture_path(fixture, long_name)), "is longer than 64 bytes");
    spx_fixture_mkdir(fixture, "dir.spx");
    expect_usage_error(SERVE(spx_fixture_path(fixture, "dir.spx")), "dir.spx");
    if (spx_fixture_symlinks_possible(fixture, "serve refuses a link")) {
        spx_fixture_symlink(fixture, "good.spx", "link.spx");
        expect_usage_error(SERVE(spx_fixture_path(fixture, "link.spx")), "link.spx");
    }
    if (spx_fixture_fifos_possible("serve refuses a fifo without blocking on it")) {
        spx_fixture_mkfifo(fixture, "fifo.spx");
        expect_usage_error(SERVE(spx_fixture_path(fixture, "fifo.spx")), "fifo.spx");
    }
    spx_fixture_write_size(fixture, "huge.spx", 16u * 1024u * 1024u + 1u);
    expect_usage_error(SERVE(spx_fixture_path(fixture, "huge.spx")), "huge.spx");
    /* The good source, for contrast: served, and a relative path works too. */
    spx_process_result_t served = SERVE(good);
    CU_ASSERT_EQUAL(served.exit_code, 0);
    CU_ASSERT_STRING_EQUAL(served.out,
                           "{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{\"state\":\"open\"}}\n");
    spx_process_result_t relative =
        spx_process_run_input(semaprax, (const char *const[]){"serve", "good.spx", NULL},
                              fixture->root, ping, strlen(ping), pool);
    CU_ASSERT_EQUAL(relative.exit_code, 0);
    CU_ASSERT_STRING_EQUAL(relative.out, served.out);
#undef SERVE
    spx_fixture_free(fixture);
}

static void test_a_large_oversized_request_is_drained(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    /* 8 MiB without LF against the 1 MiB default, drained from a pipe, then a
     * ping that is never run (the program may exit before it is written). */
    apr_size_t size = 8u * 1024u * 1024u;
    const char *ping = "\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n";
    char *in = apr_palloc(pool, size + strlen(ping));
    memset(in, '{', size);
    memcpy(in + size, ping, strlen(ping));
    spx_process_result_t result = spx_process_run_piped(
        spx_program_path("SPX_SEMAPRAX"),
        (const char *const[]){"serve", golden("sources/tiny.spx", pool), NULL}, in,
        size + strlen(ping), pool);
    CU_ASSERT_EQUAL(result.exit_code, 1);
    CU_ASSERT_STRING_EQUAL(result.out, "{\"error\":{\"code\":-32002,\"message\":\"request too "
                                       "large\"},\"id\":null,\"jsonrpc\":\"2.0\"}\n");
    spx_assert_contains(result.err, "a request was over 1048576 bytes");
    apr_pool_destroy(pool);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"golden transcripts byte for byte", test_golden_transcripts_byte_for_byte},
        {"golden transcripts over pipes", test_golden_transcripts_over_pipes},
        {"the golden corpus matches its frozen digests",
         test_golden_corpus_matches_its_frozen_digests},
        {"usage errors write nothing on stdout", test_usage_errors_write_nothing_on_stdout},
        {"a large oversized request is drained", test_a_large_oversized_request_is_drained},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("serve", tests);
}
