/*
 * test_lsp_text.c: LSP positions (spx_lsp_text.h): byte offsets to line and
 * character and back, in UTF-16 code units and in UTF-8 bytes, over LF, CR
 * LF and lone CR line ends, characters of two, three and four bytes (a
 * surrogate pair in UTF-16), ill-formed bytes (one U+FFFD), a byte order
 * mark that a file from disk has and an editor does not show, and clamping
 * past a line's end or the text's.
 */
#include "spx_lsp_text.h"
#include "spx_test.h"

#include <string.h>

static apr_pool_t *new_pool(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    return pool;
}

static void expect_position(const spx_lsp_lines_t *lines, apr_size_t offset,
                            spx_lsp_encoding_t encoding, apr_size_t line, apr_size_t character)
{
    apr_size_t got_line = 99, got_character = 99;
    spx_lsp_position(lines, offset, encoding, &got_line, &got_character);
    CU_ASSERT_EQUAL(got_line, line);
    CU_ASSERT_EQUAL(got_character, character);
}

/* "aé€😀b": a (1 byte), é (2), € (3), 😀 (4), b (1). */
static const char wide[] = "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80"
                           "b\n";

static void test_utf16_and_utf8_columns(void)
{
    apr_pool_t *pool = new_pool();
    spx_lsp_lines_t lines;
    spx_lsp_lines_index(&lines, (const unsigned char *)wide, strlen(wide), 0, pool);
    /* offsets of a, é, €, 😀, b, the LF */
    const apr_size_t offsets[] = {0, 1, 3, 6, 10, 11};
    const apr_size_t utf16[] = {0, 1, 2, 3, 5, 6};
    for (int i = 0; i < 6; i++) {
        expect_position(&lines, offsets[i], SPX_LSP_UTF16, 0, utf16[i]);
        expect_position(&lines, offsets[i], SPX_LSP_UTF8, 0, offsets[i]);
        CU_ASSERT_EQUAL(spx_lsp_offset(&lines, 0, utf16[i], SPX_LSP_UTF16), offsets[i]);
        CU_ASSERT_EQUAL(spx_lsp_offset(&lines, 0, offsets[i], SPX_LSP_UTF8), offsets[i]);
    }
    /* inside the surrogate pair, inside a UTF-8 sequence: its start */
    CU_ASSERT_EQUAL(spx_lsp_offset(&lines, 0, 4, SPX_LSP_UTF16), 6);
    CU_ASSERT_EQUAL(spx_lsp_offset(&lines, 0, 7, SPX_LSP_UTF8), 6);
    expect_position(&lines, 8, SPX_LSP_UTF16, 0, 3);
    /* past the line's end, past the last line */
    CU_ASSERT_EQUAL(spx_lsp_offset(&lines, 0, 1000, SPX_LSP_UTF16), 11);
    CU_ASSERT_EQUAL(spx_lsp_offset(&lines, 1, 5, SPX_LSP_UTF16), 12);
    CU_ASSERT_EQUAL(spx_lsp_offset(&lines, 7, 0, SPX_LSP_UTF16), 12);
    expect_position(&lines, 12, SPX_LSP_UTF16, 1, 0);
    expect_position(&lines, 5000, SPX_LSP_UTF16, 1, 0);
    apr_pool_destroy(pool);
}

static void test_line_ends(void)
{
    apr_pool_t *pool = new_pool();
    const char *text = "ab\r\ncd\ref\ngh";
    spx_lsp_lines_t lines;
    spx_lsp_lines_index(&lines, (const unsigned char *)text, strlen(text), 0, pool);
    CU_ASSERT_EQUAL(lines.starts->nelts, 4);
    expect_position(&lines, 2, SPX_LSP_UTF16, 0, 2);  /* the CR */
    expect_position(&lines, 3, SPX_LSP_UTF16, 0, 2);  /* between CR and LF: the line's end */
    expect_position(&lines, 4, SPX_LSP_UTF16, 1, 0);  /* c */
    expect_position(&lines, 7, SPX_LSP_UTF16, 2, 0);  /* e, after a lone CR */
    expect_position(&lines, 10, SPX_LSP_UTF16, 3, 0); /* g */
    CU_ASSERT_EQUAL(spx_lsp_offset(&lines, 0, 9, SPX_LSP_UTF16), 2); /* CR LF not counted */
    CU_ASSERT_EQUAL(spx_lsp_offset(&lines, 1, 9, SPX_LSP_UTF16), 6);
    CU_ASSERT_EQUAL(spx_lsp_offset(&lines, 3, 1, SPX_LSP_UTF16), 11);
    apr_pool_destroy(pool);
}

static void test_byte_order_mark(void)
{
    apr_pool_t *pool = new_pool();
    const char *text = "\xEF\xBB\xBFx\xC3\xA9y\n";
    spx_lsp_lines_t disk, buffer;
    spx_lsp_lines_index(&disk, (const unsigned char *)text, strlen(text), 1, pool);
    spx_lsp_lines_index(&buffer, (const unsigned char *)text, strlen(text), 0, pool);
    expect_position(&disk, 3, SPX_LSP_UTF16, 0, 0); /* x: the mark is not shown */
    expect_position(&disk, 6, SPX_LSP_UTF16, 0, 2); /* y */
    expect_position(&disk, 6, SPX_LSP_UTF8, 0, 3);
    CU_ASSERT_EQUAL(spx_lsp_offset(&disk, 0, 0, SPX_LSP_UTF16), 3);
    CU_ASSERT_EQUAL(spx_lsp_offset(&disk, 0, 2, SPX_LSP_UTF16), 6);
    expect_position(&buffer, 3, SPX_LSP_UTF16, 0, 1); /* U+FEFF sent by the client: one unit */
    expect_position(&buffer, 3, SPX_LSP_UTF8, 0, 3);
    CU_ASSERT_EQUAL(spx_lsp_offset(&buffer, 0, 1, SPX_LSP_UTF16), 3);
    apr_pool_destroy(pool);
}

static void test_ill_formed_bytes_are_one_replacement_character(void)
{
    apr_pool_t *pool = new_pool();
    /* a lone continuation byte, a truncated three-byte sequence, then z */
    const char *text = "\x80\xE2\x82z";
    spx_lsp_lines_t lines;
    spx_lsp_lines_index(&lines, (const unsigned char *)text, strlen(text), 0, pool);
    expect_position(&lines, 1, SPX_LSP_UTF16, 0, 1);
    expect_position(&lines, 3, SPX_LSP_UTF16, 0, 2);
    expect_position(&lines, 3, SPX_LSP_UTF8, 0, 6); /* two U+FFFD of three bytes */
    CU_ASSERT_EQUAL(spx_lsp_offset(&lines, 0, 2, SPX_LSP_UTF16), 3);
    apr_pool_destroy(pool);
}

static void test_empty_text(void)
{
    apr_pool_t *pool = new_pool();
    spx_lsp_lines_t lines;
    spx_lsp_lines_index(&lines, (const unsigned char *)"", 0, 1, pool);
    expect_position(&lines, 0, SPX_LSP_UTF16, 0, 0);
    CU_ASSERT_EQUAL(spx_lsp_offset(&lines, 0, 3, SPX_LSP_UTF16), 0);
    CU_ASSERT_EQUAL(spx_lsp_offset(&lines, 3, 3, SPX_LSP_UTF8), 0);
    apr_pool_destroy(pool);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"UTF-16 and UTF-8 columns", test_utf16_and_utf8_columns},
        {"LF, CR LF and lone CR", test_line_ends},
        {"a byte order mark", test_byte_order_mark},
        {"ill-formed bytes are one U+FFFD", test_ill_formed_bytes_are_one_replacement_character},
        {"an empty text", test_empty_text},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("lsp_text", tests);
}
