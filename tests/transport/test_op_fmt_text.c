/*
 * test_op_fmt_text.c: the layout of one buffer (spx_op_fmt_text, the fmt
 * operation's entry for semapraxd --lsp's formatting): a canonical buffer
 * is unchanged, a messy one gets the layout `semaprax fmt` writes, which is
 * itself canonical, and a buffer that does not parse is refused with the
 * parser's diagnostics and no text. Nothing is read or written on disk.
 */
#include "spx_operations.h"
#include "spx_test.h"

#include <string.h>

static apr_pool_t *new_pool(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    return pool;
}

static void test_canonical_messy_and_again(void)
{
    apr_pool_t *pool = new_pool();
    const char *messy = "export fn   one( )->int{\n  return 1 ;}\n";
    const char *canonical = "export fn one() -> int {\n    return 1;\n}\n";
    spx_fmt_file_t file;
    spx_op_fmt_text((const unsigned char *)messy, strlen(messy), "src/one.spx", &file, pool);
    CU_ASSERT_EQUAL(file.refused, SPX_FMT_NOT_REFUSED);
    CU_ASSERT_STRING_EQUAL(file.path, "src/one.spx");
    CU_ASSERT_TRUE(file.changed);
    CU_ASSERT_FALSE(file.written);
    CU_ASSERT_PTR_NOT_NULL_FATAL(file.text);
    CU_ASSERT_EQUAL(file.text_length, strlen(canonical));
    CU_ASSERT_STRING_EQUAL(file.text, canonical);
    spx_op_fmt_text((const unsigned char *)canonical, strlen(canonical), "src/one.spx", &file,
                    pool);
    CU_ASSERT_EQUAL(file.refused, SPX_FMT_NOT_REFUSED);
    CU_ASSERT_FALSE(file.changed);
    CU_ASSERT_STRING_EQUAL(file.text, canonical);
    apr_pool_destroy(pool);
}

static void test_a_buffer_that_does_not_parse(void)
{
    apr_pool_t *pool = new_pool();
    const char *broken = "fn (";
    spx_fmt_file_t file;
    spx_op_fmt_text((const unsigned char *)broken, strlen(broken), "src/broken.spx", &file, pool);
    CU_ASSERT_EQUAL(file.refused, SPX_FMT_SYNTAX);
    CU_ASSERT_FALSE(file.changed);
    CU_ASSERT_PTR_NULL(file.text);
    CU_ASSERT_PTR_NOT_NULL_FATAL(file.diagnostics);
    CU_ASSERT(spx_diagnostics_count(file.diagnostics) > 0);
    CU_ASSERT_STRING_EQUAL(spx_diagnostics_get(file.diagnostics, 0)->path, "src/broken.spx");
    apr_pool_destroy(pool);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"canonical, messy and formatted again", test_canonical_messy_and_again},
        {"a buffer that does not parse", test_a_buffer_that_does_not_parse},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("op_fmt_text", tests);
}
