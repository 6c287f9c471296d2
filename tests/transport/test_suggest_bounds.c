/*
 * test_suggest_bounds.c: the checker's suggestions for unknown names, bounded
 * per name (SPX_LIMIT_SUGGEST_CANDIDATES), through the real programs. A
 * function of 10,000 lines `let aK = q;` (10,000 unknown names, each with up
 * to 10,000 locals in sight) is opened by the daemon within a bound on its
 * peak resident memory (each unknown name copied every visible local into
 * the function's pool, kept until the function was done: 1.3 GB); a local
 * further than the limit from an unknown name is not suggested, one within
 * it is, and locals of closed sibling blocks take none of the limit.
 */
#include "spx_daemon.h"
#include "spx_limits.h"
#include "spx_process.h"

#include <apr_strings.h>
#include <stdio.h>
#include <string.h>

static const char *const no_extra[] = {NULL};

/* The bound on the daemon's peak resident memory with the 10,000 unknown
 * names open (measured: about 14 MiB on Linux; each name's copy of every
 * local took 1.3 GB). */
#define PEAK_RSS_BOUND_KIB (128u * 1024u)

/* proj/ with app.spx = body, app.main its entry. */
static const char *write_project(spx_fixture_t *fixture, const char *body)
{
    spx_fixture_write(fixture, "proj/semaprax.toml",
                      "manifest = \"semaprax.project-manifest.v1\"\n\n[project]\nname = \"p\"\n"
                      "version = \"1.0.0\"\nentry = \"app.main\"\n\n[[source]]\nmodule = \"app\"\n"
                      "path = \"app.spx\"\n");
    spx_fixture_write(fixture, "proj/app.spx", body);
    return spx_fixture_path(fixture, "proj/semaprax.toml");
}

/* fn main() -> int { before, count lines of line (its %u the line's number),
 * then `return cuont;` }. */
static const char *function_of(const char *before, unsigned count, const char *line,
                               apr_pool_t *pool)
{
    apr_size_t room = strlen(before) + (apr_size_t)count * (strlen(line) + 16) + 64;
    char *text = apr_palloc(pool, room);
    apr_size_t at = (apr_size_t)snprintf(text, room, "fn main() -> int {\n%s", before);
    for (unsigned k = 0; k < count; k++)
        at += (apr_size_t)snprintf(text + at, room - at, line, k);
    snprintf(text + at, room - at, "  return cuont;\n}\n");
    return text;
}

static void test_ten_thousand_unknown_names(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    write_project(fixture, function_of("", 10000, "  let a%u = q;\n", fixture->pool));
    spx_daemon_t *daemon = spx_daemon_start_on(fixture, "proj", no_extra);
    CU_ASSERT_PTR_NOT_NULL(spx_daemon_open(daemon));
    long peak = spx_process_memory_kib(spx_daemon_pid(daemon), SPX_MEMORY_PEAK);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    fprintf(stderr, "\n  daemon peak with 10,000 unknown names open: %ld KiB\n", peak);
    CU_ASSERT_TRUE(peak > 0);
#ifndef SPX_TEST_SANITIZED
    if (!spx_running_under_wine())
        CU_ASSERT_TRUE(peak < (long)PEAK_RSS_BOUND_KIB);
#endif
    spx_fixture_free(fixture);
}

/* `semaprax check` on the function: its first line of output. */
static const char *first_line_of_check(spx_fixture_t *fixture, const char *body)
{
    const char *manifest = write_project(fixture, body);
    spx_process_result_t result =
        SPX_RUN_SEMAPRAX(fixture->pool, "check", "--manifest-path", manifest);
    CU_ASSERT_EQUAL(result.exit_code, 1);
    const char *end = strchr(result.out, '\n');
    return end ? apr_pstrndup(fixture->pool, result.out, (apr_size_t)(end - result.out))
               : result.out;
}

static void test_limit_on_candidates(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    const char *count = "  let count = 1;\n";
    /* count and then as many other locals as the limit leaves room for:
     * count is examined, and suggested */
    const char *within =
        function_of(count, SPX_LIMIT_SUGGEST_CANDIDATES - 1, "  let z%u = 0;\n", pool);
    const char *line = first_line_of_check(fixture, within);
    spx_assert_contains(line, "unknown name 'cuont'; did you mean 'count'?");
    /* one more in between: the innermost locals fill the limit, count is
     * not examined */
    const char *beyond = function_of(count, SPX_LIMIT_SUGGEST_CANDIDATES, "  let z%u = 0;\n", pool);
    line = first_line_of_check(fixture, beyond);
    spx_assert_contains(line, "unknown name 'cuont'");
    CU_ASSERT_PTR_NULL(strstr(line, "did you mean"));
    /* the locals of closed blocks are out of sight and not examined, however
     * many: count is */
    const char *siblings =
        function_of(count, 4 * SPX_LIMIT_SUGGEST_CANDIDATES, "  if true { let z%u = 0; }\n", pool);
    line = first_line_of_check(fixture, siblings);
    spx_assert_contains(line, "unknown name 'cuont'; did you mean 'count'?");
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"10,000 unknown names among 10,000 locals: the daemon's peak stays bounded",
         test_ten_thousand_unknown_names},
        {"a local beyond the candidates' limit is not suggested; closed blocks' locals take none "
         "of it",
         test_limit_on_candidates},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("suggestions bounded per unknown name", tests);
}
