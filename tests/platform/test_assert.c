/*
 * test_assert.c: SPX_ASSERT (platform/spx_assert.h) as this build has it.
 * Where SPX_ASSERTIONS is defined (the sanitizer, valgrind and fuzz builds)
 * the condition is evaluated once, and a false one makes the program print
 * "FILE:LINE: assertion failed: CONDITION" on stderr and abort: this
 * program runs itself with --fail to see that. Elsewhere the condition is
 * not evaluated at all and a false one changes nothing.
 */
#include "spx_assert.h"
#include "spx_process.h"
#include "spx_test.h"

#include <apr_strings.h>
#include <string.h>

#ifdef SPX_ASSERTIONS
#define ASSERTIONS_ON 1
#else
#define ASSERTIONS_ON 0
#endif

/* This program's path, as main was given it (set once, before any test). */
static const char *self_path;

/* What the program does with --fail: a false assertion (on line
 * false_line), then, only where assertions are off, exit 0. */
static const int false_line = __LINE__ + 4;
static int fail_an_assertion(void)
{
    int three = 3;
    SPX_ASSERT(1 + 1 == three);
    return 0;
}

static int count(int *evaluated)
{
    return ++*evaluated;
}

static void test_condition_evaluated_only_when_on(void)
{
    int evaluated = 0;
    SPX_ASSERT(count(&evaluated) == 1);
    CU_ASSERT_EQUAL(evaluated, ASSERTIONS_ON);
    CU_ASSERT_EQUAL(count(&evaluated), ASSERTIONS_ON + 1);
    const char *text = "spx";
    SPX_ASSERT(strlen(text) == 3 && text[0] == 's'); /* any expression, type-checked */
}

static void test_false_assertion(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    spx_process_result_t result =
        spx_process_run(self_path, (const char *const[]){"--fail", NULL}, NULL, pool);
    if (ASSERTIONS_ON) {
        CU_ASSERT_NOT_EQUAL(result.exit_code, 0); /* aborted: a signal, or exit status 3 */
        const char *where =
            apr_psprintf(pool, "test_assert.c:%d: assertion failed: 1 + 1 == three\n", false_line);
        spx_assert_contains(result.err, where);
    } else {
        CU_ASSERT_EQUAL(result.exit_code, 0);
        CU_ASSERT_STRING_EQUAL(result.err, "");
    }
    apr_pool_destroy(pool);
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--fail") == 0)
        return fail_an_assertion();
    self_path = argv[0];
    CU_TestInfo tests[] = {
        {"the condition is evaluated only when assertions are on",
         test_condition_evaluated_only_when_on},
        {"a false assertion aborts with file, line and condition, only when on",
         test_false_assertion},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("assert", tests);
}
