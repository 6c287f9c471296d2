/*
 * test_lsp_frame.c: LSP's Content-Length reader (spx_lsp_frame.h): messages
 * whatever the read boundaries, header names in any case, other headers
 * ignored, a bare LF taken, the body's exact bound, an oversized body
 * drained in bounded memory (64 MiB through a reader that holds one chunk
 * and no body), a header block over its bound drained, malformed headers
 * reported with the next message intact, and end of input inside a message.
 */
#include "spx_limits.h"
#include "spx_lsp_frame.h"
#include "spx_sources.h"
#include "spx_test.h"

#include <apr_strings.h>
#include <string.h>

static apr_pool_t *new_pool(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    return pool;
}

static void expect(spx_lsp_frame_reader_t *reader, spx_lsp_frame_kind_t kind, const char *body)
{
    spx_lsp_frame_t frame;
    CU_ASSERT_EQUAL_FATAL(spx_lsp_frame_next(reader, &frame), APR_SUCCESS);
    CU_ASSERT_EQUAL(frame.kind, kind);
    if (kind == SPX_LSP_FRAME_MESSAGE) {
        CU_ASSERT_EQUAL(frame.length, strlen(body));
        CU_ASSERT_PTR_NOT_NULL_FATAL(frame.bytes);
        CU_ASSERT_EQUAL(memcmp(frame.bytes, body, strlen(body)), 0);
    }
}

static const char stream[] = "Content-Length: 5\r\n\r\nhello"
                             "content-type: application/vscode-jsonrpc; charset=utf-8\r\n"
                             "CONTENT-LENGTH:3\r\n\r\nabc"
                             "Content-Length: 0\n\n"
                             "Content-Length:  4 \r\n\r\n{}{}";

static void test_messages_at_every_read_boundary(void)
{
    for (apr_size_t per_read = 1; per_read <= sizeof(stream); per_read++) {
        apr_pool_t *pool = new_pool();
        spx_memory_source_t source = {stream, sizeof(stream) - 1, 0, per_read, 0};
        spx_lsp_frame_reader_t *reader = NULL;
        CU_ASSERT_EQUAL_FATAL(
            spx_lsp_frame_reader_create(&reader, spx_read_memory, &source, 64, pool), APR_SUCCESS);
        expect(reader, SPX_LSP_FRAME_MESSAGE, "hello");
        expect(reader, SPX_LSP_FRAME_MESSAGE, "abc");
        expect(reader, SPX_LSP_FRAME_MESSAGE, "");
        expect(reader, SPX_LSP_FRAME_MESSAGE, "{}{}");
        expect(reader, SPX_LSP_FRAME_END, NULL);
        expect(reader, SPX_LSP_FRAME_END, NULL);
        apr_pool_destroy(pool);
    }
}

static void test_exact_bound_and_one_over(void)
{
    apr_pool_t *pool = new_pool();
    const char *text = "Content-Length: 8\r\n\r\n12345678Content-Length: 9\r\n\r\n123456789"
                       "Content-Length: 2\r\n\r\nok";
    spx_memory_source_t source = {text, strlen(text), 0, 7, 0};
    spx_lsp_frame_reader_t *reader = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_lsp_frame_reader_create(&reader, spx_read_memory, &source, 8, pool),
                          APR_SUCCESS);
    expect(reader, SPX_LSP_FRAME_MESSAGE, "12345678");
    spx_lsp_frame_t frame;
    CU_ASSERT_EQUAL_FATAL(spx_lsp_frame_next(reader, &frame), APR_SUCCESS);
    CU_ASSERT_EQUAL(frame.kind, SPX_LSP_FRAME_OVERSIZED);
    CU_ASSERT_EQUAL(frame.length, 9);
    CU_ASSERT_PTR_NULL(frame.bytes);
    expect(reader, SPX_LSP_FRAME_MESSAGE, "ok");
    expect(reader, SPX_LSP_FRAME_END, NULL);
    apr_pool_destroy(pool);
}

static void test_oversized_64_mib_body_is_drained_in_bounded_memory(void)
{
    apr_pool_t *pool = new_pool();
    apr_size_t size = 64u * 1024u * 1024u;
    spx_filler_source_t source = {
        apr_psprintf(pool, "Content-Length: %" APR_SIZE_T_FMT "\r\n\r\n", size), size,
        "Content-Length: 2\r\n\r\n[]", 0};
    spx_lsp_frame_reader_t *reader = NULL;
    CU_ASSERT_EQUAL_FATAL(
        spx_lsp_frame_reader_create(&reader, spx_read_filler, &source, 1024, pool), APR_SUCCESS);
    spx_lsp_frame_t frame;
    CU_ASSERT_EQUAL_FATAL(spx_lsp_frame_next(reader, &frame), APR_SUCCESS);
    CU_ASSERT_EQUAL(frame.kind, SPX_LSP_FRAME_OVERSIZED);
    CU_ASSERT_EQUAL(frame.length, size);
    /* nothing of the body was stored: one chunk and the header line */
    CU_ASSERT(spx_lsp_frame_reader_held(reader) <=
              SPX_LIMIT_READ_CHUNK_BYTES + SPX_LIMIT_LSP_HEADER_BYTES + 1);
    expect(reader, SPX_LSP_FRAME_MESSAGE, "[]");
    CU_ASSERT(spx_lsp_frame_reader_held(reader) <=
              SPX_LIMIT_READ_CHUNK_BYTES + SPX_LIMIT_LSP_HEADER_BYTES + 1 + 1024 + 1);
    expect(reader, SPX_LSP_FRAME_END, NULL);
    apr_pool_destroy(pool);
}

static void test_a_length_of_many_digits_is_oversized(void)
{
    apr_pool_t *pool = new_pool();
    const char *text = "Content-Length: 99999999999999999999999999999\r\n\r\nshort";
    spx_memory_source_t source = {text, strlen(text), 0, 1000, 0};
    spx_lsp_frame_reader_t *reader = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_lsp_frame_reader_create(&reader, spx_read_memory, &source, 64, pool),
                          APR_SUCCESS);
    expect(reader, SPX_LSP_FRAME_TRUNCATED, NULL); /* drained to end of input */
    apr_pool_destroy(pool);
}

static void test_header_block_over_its_bound_is_drained(void)
{
    apr_pool_t *pool = new_pool();
    spx_filler_source_t source = {"X-Long: ", 10u * 1024u * 1024u,
                                  "\r\n\r\nContent-Length: 2\r\n\r\n{}", 0};
    spx_lsp_frame_reader_t *reader = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_lsp_frame_reader_create(&reader, spx_read_filler, &source, 64, pool),
                          APR_SUCCESS);
    spx_lsp_frame_t frame;
    CU_ASSERT_EQUAL_FATAL(spx_lsp_frame_next(reader, &frame), APR_SUCCESS);
    CU_ASSERT_EQUAL(frame.kind, SPX_LSP_FRAME_BAD_HEADER);
    CU_ASSERT_STRING_EQUAL(frame.problem, "a header block over its bound");
    CU_ASSERT(spx_lsp_frame_reader_held(reader) <=
              SPX_LIMIT_READ_CHUNK_BYTES + SPX_LIMIT_LSP_HEADER_BYTES + 1);
    expect(reader, SPX_LSP_FRAME_MESSAGE, "{}");
    apr_pool_destroy(pool);
}

static void test_malformed_headers(void)
{
    apr_pool_t *pool = new_pool();
    const char *text = "Content-Type: x\r\n\r\n"                         /* no length */
                       "Content-Length: 1x\r\n\r\n"                      /* not a number */
                       "Content-Length: 1\r\nContent-Length: 1\r\n\r\nA" /* twice: body skipped */
                       "garbage\r\nContent-Length: 1\r\n\r\nB"           /* no ':': body skipped */
                       "Content-Length: 2\r\n\r\nok"
                       "Content-Length: 10\r\n\r\nshort";
    spx_memory_source_t source = {text, strlen(text), 0, 3, 0};
    spx_lsp_frame_reader_t *reader = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_lsp_frame_reader_create(&reader, spx_read_memory, &source, 64, pool),
                          APR_SUCCESS);
    const char *problems[] = {"no Content-Length header",
                              "a Content-Length that is not a decimal number",
                              "two Content-Length headers", "a header line without ':'"};
    for (int i = 0; i < 4; i++) {
        spx_lsp_frame_t frame;
        CU_ASSERT_EQUAL_FATAL(spx_lsp_frame_next(reader, &frame), APR_SUCCESS);
        CU_ASSERT_EQUAL(frame.kind, SPX_LSP_FRAME_BAD_HEADER);
        CU_ASSERT_STRING_EQUAL(frame.problem, problems[i]);
    }
    expect(reader, SPX_LSP_FRAME_MESSAGE, "ok");
    expect(reader, SPX_LSP_FRAME_TRUNCATED, NULL);
    apr_pool_destroy(pool);
}

static void test_end_inside_a_header(void)
{
    apr_pool_t *pool = new_pool();
    const char *text = "Content-Len";
    spx_memory_source_t source = {text, strlen(text), 0, 100, 0};
    spx_lsp_frame_reader_t *reader = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_lsp_frame_reader_create(&reader, spx_read_memory, &source, 64, pool),
                          APR_SUCCESS);
    expect(reader, SPX_LSP_FRAME_TRUNCATED, NULL);
    apr_pool_destroy(pool);
}

static void test_bad_bound_is_refused(void)
{
    apr_pool_t *pool = new_pool();
    spx_lsp_frame_reader_t *reader = NULL;
    CU_ASSERT_EQUAL(spx_lsp_frame_reader_create(&reader, spx_read_memory, NULL, 0, pool),
                    APR_EINVAL);
    CU_ASSERT_EQUAL(spx_lsp_frame_reader_create(&reader, spx_read_memory, NULL,
                                                SPX_LIMIT_REQUEST_BYTES_MAXIMUM + 1, pool),
                    APR_EINVAL);
    apr_pool_destroy(pool);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"messages at every read boundary", test_messages_at_every_read_boundary},
        {"the exact bound, and one over", test_exact_bound_and_one_over},
        {"a 64 MiB body is drained in bounded memory",
         test_oversized_64_mib_body_is_drained_in_bounded_memory},
        {"a length of many digits is oversized", test_a_length_of_many_digits_is_oversized},
        {"a header block over its bound is drained", test_header_block_over_its_bound_is_drained},
        {"malformed headers", test_malformed_headers},
        {"end of input inside a header", test_end_inside_a_header},
        {"a bad bound is refused", test_bad_bound_is_refused},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("lsp_frame", tests);
}
