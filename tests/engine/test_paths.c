/*
 * test_paths.c: every source-path rule of manifest.md, one valid and one
 * invalid case each, with the rule the message names.
 */
#include "spx_paths.h"
#include "spx_test.h"

#include <string.h>

static apr_pool_t *pool_for_test(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    return pool;
}

/* The problem reported for path contains fragment. */
static void assert_problem(const char *path, const char *fragment, apr_pool_t *pool)
{
    const char *problem = spx_source_path_problem(path, pool);
    CU_ASSERT_PTR_NOT_NULL_FATAL(problem);
    if (!strstr(problem, fragment))
        fprintf(stderr, "\n  '%s': got '%s', wanted '%s'\n", path, problem, fragment);
    CU_ASSERT_PTR_NOT_NULL(strstr(problem, fragment));
}

static void test_valid_paths(void)
{
    apr_pool_t *pool = pool_for_test();
    CU_ASSERT_PTR_NULL(spx_source_path_problem("app.spx", pool));
    CU_ASSERT_PTR_NULL(spx_source_path_problem("src/app.spx", pool));
    CU_ASSERT_PTR_NULL(spx_source_path_problem("a/B-c/d_e.f/Z9.spx", pool));
    CU_ASSERT_PTR_NULL(spx_source_path_problem("..a/b..spx", pool));
    apr_pool_destroy(pool);
}

static void test_invalid_paths(void)
{
    apr_pool_t *pool = pool_for_test();
    assert_problem("", "is empty", pool);
    assert_problem("/src/app.spx", "is absolute", pool);
    assert_problem("C:/app.spx", "drive letter", pool);
    assert_problem("c:app.spx", "drive letter", pool);
    assert_problem("1:app.spx", "contains a colon", pool); /* only a letter makes a drive */
    assert_problem("_:app.spx", "contains a colon", pool);
    assert_problem("src\\app.spx", "backslash", pool);
    assert_problem("src/a:b.spx", "colon", pool);
    assert_problem("src//app.spx", "empty component", pool);
    assert_problem("src/", "empty component", pool);
    assert_problem("./app.spx", "'.' or '..'", pool);
    assert_problem("src/../app.spx", "'.' or '..'", pool);
    assert_problem("..", "'.' or '..'", pool);
    assert_problem("src/app .spx", "byte 0x20", pool);
    assert_problem("src/app$.spx", "contains '$'", pool);
    assert_problem("src/\xc3\xa9.spx", "byte 0xc3", pool);
    assert_problem("src/app.txt", "does not end in '.spx'", pool);
    assert_problem("src/app.SPX", "does not end in '.spx'", pool);
    apr_pool_destroy(pool);
}

/* How a name rule shows the byte it refuses: printable ASCII quoted, every
 * other byte (space, DEL, controls, bytes of UTF-8) in hex; the whole
 * message of a path that has one. */
static void test_refused_byte_text(void)
{
    apr_pool_t *pool = pool_for_test();
    CU_ASSERT_STRING_EQUAL(spx_refused_byte_text('$', pool), "'$'");
    CU_ASSERT_STRING_EQUAL(spx_refused_byte_text('!', pool), "'!'");
    CU_ASSERT_STRING_EQUAL(spx_refused_byte_text('~', pool), "'~'");
    CU_ASSERT_STRING_EQUAL(spx_refused_byte_text(' ', pool), "the byte 0x20");
    CU_ASSERT_STRING_EQUAL(spx_refused_byte_text(0x7f, pool), "the byte 0x7f");
    CU_ASSERT_STRING_EQUAL(spx_refused_byte_text(0x01, pool), "the byte 0x01");
    CU_ASSERT_STRING_EQUAL(spx_refused_byte_text(0xc3, pool), "the byte 0xc3");
    CU_ASSERT_STRING_EQUAL(spx_source_path_problem("src/a\x01.spx", pool),
                           "contains the byte 0x01; a component is made of A-Z a-z 0-9 . _ -");
    CU_ASSERT_STRING_EQUAL(spx_source_path_problem("src/a$.spx", pool),
                           "contains '$'; a component is made of A-Z a-z 0-9 . _ -");
    apr_pool_destroy(pool);
}

static void test_length_limit(void)
{
    apr_pool_t *pool = pool_for_test();
    char path[1100];
    memset(path, 'a', sizeof(path));
    strcpy(path + 1020, ".spx"); /* 1024 bytes: the limit itself */
    CU_ASSERT_PTR_NULL(spx_source_path_problem(path, pool));
    memset(path, 'a', sizeof(path));
    strcpy(path + 1021, ".spx"); /* 1025 bytes */
    assert_problem(path, "longer than 1024 bytes", pool);
    apr_pool_destroy(pool);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"valid paths", test_valid_paths},
        {"each rule refuses its path", test_invalid_paths},
        {"length limit", test_length_limit},
        {"a refused byte as messages show it", test_refused_byte_text},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("source paths", tests);
}
