/*
 * test_frame.c: the bounded frame reader: frames split at LF whatever the read
 * boundaries, the exact bound, oversized frames drained without being stored
 * (memory stays at max_bytes plus one chunk for a 64 MiB line), pipelined
 * frames, and end of input before, after and in the middle of a frame.
 */
#include "spx_frame.h"
#include "spx_limits.h"
#include "spx_sources.h"
#include "spx_test.h"

#include <apr_strings.h>
#include <string.h>

static apr_status_t read_failing(void *context, void *buffer, apr_size_t capacity, apr_size_t *got)
{
    (void)context;
    (void)buffer;
    (void)capacity;
    *got = 0;
    return APR_EGENERAL;
}

static apr_pool_t *new_pool(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    return pool;
}

static spx_frame_reader_t *memory_reader(spx_memory_source_t *source, const char *text,
                                         apr_size_t length, apr_size_t per_read,
                                         apr_size_t max_bytes, apr_pool_t *pool)
{
    *source = (spx_memory_source_t){text, length, 0, per_read, 0};
    spx_frame_reader_t *reader = NULL;
    CU_ASSERT_EQUAL_FATAL(
        spx_frame_reader_create(&reader, spx_read_memory, source, max_bytes, pool), APR_SUCCESS);
    return reader;
}

static void expect_frame(spx_frame_reader_t *reader, spx_frame_kind_t kind, const char *bytes,
                         apr_size_t length)
{
    spx_frame_t frame;
    CU_ASSERT_EQUAL_FATAL(spx_frame_next(reader, &frame), APR_SUCCESS);
    CU_ASSERT_EQUAL(frame.kind, kind);
    CU_ASSERT_EQUAL(frame.length, length);
    if (bytes) {
        CU_ASSERT_PTR_NOT_NULL_FATAL(frame.bytes);
        CU_ASSERT_EQUAL(memcmp(frame.bytes, bytes, length), 0);
    } else {
        CU_ASSERT_PTR_NULL(frame.bytes);
    }
}

static void expect_text(spx_frame_reader_t *reader, const char *text)
{
    expect_frame(reader, SPX_FRAME_COMPLETE, text, strlen(text));
}

static void expect_end(spx_frame_reader_t *reader)
{
    expect_frame(reader, SPX_FRAME_END, NULL, 0);
}

static void test_frames_split_at_lf(void)
{
    apr_pool_t *pool = new_pool();
    spx_memory_source_t source;
    const char *input = "a\nbc\n\n{\"k\":1}\n";
    spx_frame_reader_t *reader = memory_reader(&source, input, strlen(input), 1000, 256, pool);
    expect_text(reader, "a");
    expect_text(reader, "bc");
    expect_text(reader, ""); /* an empty frame is a frame (the grammar rejects it) */
    expect_text(reader, "{\"k\":1}");
    expect_end(reader);
    expect_end(reader); /* and stays at the end */
    apr_pool_destroy(pool);
}

static void test_empty_input_is_end(void)
{
    apr_pool_t *pool = new_pool();
    spx_memory_source_t source;
    spx_frame_reader_t *reader = memory_reader(&source, "", 0, 1000, 256, pool);
    expect_end(reader);
    apr_pool_destroy(pool);
}

static void test_same_frames_at_every_read_boundary(void)
{
    const char *input = "first\nsecond frame\n\nx\n{\"jsonrpc\":\"2.0\"}\nlast";
    for (apr_size_t per_read = 1; per_read <= strlen(input); per_read++) {
        apr_pool_t *pool = new_pool();
        spx_memory_source_t source;
        spx_frame_reader_t *reader =
            memory_reader(&source, input, strlen(input), per_read, 256, pool);
        expect_text(reader, "first");
        expect_text(reader, "second frame");
        expect_text(reader, "");
        expect_text(reader, "x");
        expect_text(reader, "{\"jsonrpc\":\"2.0\"}");
        expect_frame(reader, SPX_FRAME_UNTERMINATED, "last", 4);
        expect_end(reader);
        apr_pool_destroy(pool);
    }
}

/* A frame of `length` 'y' bytes then LF, then "next\n". */
static char *long_frame_input(apr_size_t length, apr_pool_t *pool)
{
    char *input = apr_palloc(pool, length + 7);
    memset(input, 'y', length);
    memcpy(input + length, "\nnext\n", 7);
    return input;
}

/* A frame of frame_length bytes, then "next", read per_reads[i] bytes at a
 * time under the bound limit: the frame must come out as kind, then "next",
 * then the end, with reads of one chunk and the buffer within its bound. */
static void expect_long_frame(apr_size_t frame_length, apr_size_t limit,
                              const apr_size_t *per_reads, size_t count, spx_frame_kind_t kind)
{
    for (size_t i = 0; i < count; i++) {
        apr_pool_t *pool = new_pool();
        char *input = long_frame_input(frame_length, pool);
        spx_memory_source_t source;
        spx_frame_reader_t *reader =
            memory_reader(&source, input, frame_length + 6, per_reads[i], limit, pool);
        expect_frame(reader, kind, kind == SPX_FRAME_COMPLETE ? input : NULL, frame_length);
        expect_text(reader, "next");
        expect_end(reader);
        CU_ASSERT(spx_frame_reader_capacity(reader) <= limit + SPX_LIMIT_READ_CHUNK_BYTES);
        CU_ASSERT_EQUAL(source.largest_request, SPX_LIMIT_READ_CHUNK_BYTES);
        apr_pool_destroy(pool);
    }
}

#define COUNT(array) (sizeof(array) / sizeof((array)[0]))

static void test_frame_across_chunks(void)
{
    /* Longer than two read chunks, read whole and a few bytes at a time. */
    const apr_size_t length = 2 * SPX_LIMIT_READ_CHUNK_BYTES + 17;
    const apr_size_t per_reads[] = {SPX_LIMIT_READ_CHUNK_BYTES, 1000, 4093};
    expect_long_frame(length, length, per_reads, COUNT(per_reads), SPX_FRAME_COMPLETE);
}

static void test_exact_limit_is_a_frame(void)
{
    const apr_size_t limit = SPX_LIMIT_REQUEST_BYTES_MINIMUM;
    const apr_size_t per_reads[] = {1, 7, limit, limit + 1, SPX_LIMIT_READ_CHUNK_BYTES};
    expect_long_frame(limit, limit, per_reads, COUNT(per_reads), SPX_FRAME_COMPLETE);
}

static void test_limit_plus_one_is_oversized_and_the_next_frame_survives(void)
{
    const apr_size_t limit = SPX_LIMIT_REQUEST_BYTES_MINIMUM;
    /* Read one byte at a time (the reader drains), and all at once (the LF is
     * already buffered when the bound is passed). */
    const apr_size_t per_reads[] = {1, 7, limit, limit + 1, limit + 2, SPX_LIMIT_READ_CHUNK_BYTES};
    expect_long_frame(limit + 1, limit, per_reads, COUNT(per_reads), SPX_FRAME_OVERSIZED);
}

static void test_oversized_64_mib_line_is_drained_in_bounded_memory(void)
{
    apr_pool_t *pool = new_pool();
    const apr_size_t huge = SPX_LIMIT_REQUEST_BYTES_MAXIMUM;
    spx_filler_source_t source = {NULL, huge, "\n{\"after\":true}\n", 0};
    spx_frame_reader_t *reader = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_frame_reader_create(&reader, spx_read_filler, &source,
                                                  SPX_LIMIT_REQUEST_BYTES_MINIMUM, pool),
                          APR_SUCCESS);
    expect_frame(reader, SPX_FRAME_OVERSIZED, NULL, huge);
    /* All 64 MiB went through a buffer never bigger than the bound plus a chunk. */
    CU_ASSERT(spx_frame_reader_capacity(reader) <=
              SPX_LIMIT_REQUEST_BYTES_MINIMUM + SPX_LIMIT_READ_CHUNK_BYTES);
    expect_text(reader, "{\"after\":true}");
    expect_end(reader);
    CU_ASSERT_EQUAL(source.produced, huge + strlen(source.tail));
    apr_pool_destroy(pool);
}

static void test_oversized_default_limit_stays_within_limit_and_chunk(void)
{
    apr_pool_t *pool = new_pool();
    const apr_size_t limit = SPX_LIMIT_REQUEST_BYTES_DEFAULT;
    spx_filler_source_t source = {NULL, 8 * limit, "\nok\n", 0};
    spx_frame_reader_t *reader = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_frame_reader_create(&reader, spx_read_filler, &source, limit, pool),
                          APR_SUCCESS);
    expect_frame(reader, SPX_FRAME_OVERSIZED, NULL, 8 * limit);
    CU_ASSERT(spx_frame_reader_capacity(reader) <= limit + SPX_LIMIT_READ_CHUNK_BYTES);
    expect_text(reader, "ok");
    expect_end(reader);
    apr_pool_destroy(pool);
}

static void test_oversized_until_end_of_input(void)
{
    apr_pool_t *pool = new_pool();
    spx_filler_source_t source = {NULL, 3 * SPX_LIMIT_READ_CHUNK_BYTES + 5, "", 0};
    spx_frame_reader_t *reader = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_frame_reader_create(&reader, spx_read_filler, &source, 300, pool),
                          APR_SUCCESS);
    expect_frame(reader, SPX_FRAME_OVERSIZED, NULL, 3 * SPX_LIMIT_READ_CHUNK_BYTES + 5);
    expect_end(reader);
    apr_pool_destroy(pool);
}

static void test_end_of_input_in_the_middle_of_a_frame(void)
{
    apr_pool_t *pool = new_pool();
    spx_memory_source_t source;
    const char *input = "{\"a\":1}\n{\"jsonrpc\":\"2.0\",\"method\":\"shutdown\"}";
    spx_frame_reader_t *reader = memory_reader(&source, input, strlen(input), 5, 256, pool);
    expect_text(reader, "{\"a\":1}");
    const char *rest = strchr(input, '\n') + 1;
    expect_frame(reader, SPX_FRAME_UNTERMINATED, rest, strlen(rest));
    expect_end(reader);
    apr_pool_destroy(pool);
}

static void test_many_pipelined_frames(void)
{
    apr_pool_t *pool = new_pool();
    const int count = 20000;
    apr_array_header_t *pieces = apr_array_make(pool, count, sizeof(const char *));
    for (int i = 0; i < count; i++)
        APR_ARRAY_PUSH(pieces, const char *) = apr_psprintf(pool, "{\"id\":%d}\n", i);
    const char *input = apr_array_pstrcat(pool, pieces, 0);
    apr_size_t length = strlen(input);
    spx_memory_source_t source;
    spx_frame_reader_t *reader = memory_reader(&source, input, length, SPX_LIMIT_READ_CHUNK_BYTES,
                                               SPX_LIMIT_REQUEST_BYTES_DEFAULT, pool);
    for (int i = 0; i < count; i++) {
        char expected[32];
        snprintf(expected, sizeof(expected), "{\"id\":%d}", i);
        expect_text(reader, expected);
    }
    expect_end(reader);
    /* Pipelined small frames never make the buffer grow past its first two
     * chunks, however far the bound would let it. */
    CU_ASSERT_EQUAL(spx_frame_reader_capacity(reader), 2 * SPX_LIMIT_READ_CHUNK_BYTES);
    apr_pool_destroy(pool);
}

static void test_read_error_is_returned(void)
{
    apr_pool_t *pool = new_pool();
    spx_frame_reader_t *reader = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_frame_reader_create(&reader, read_failing, NULL, 256, pool),
                          APR_SUCCESS);
    spx_frame_t frame;
    CU_ASSERT_EQUAL(spx_frame_next(reader, &frame), APR_EGENERAL);
    apr_pool_destroy(pool);
}

static void test_bad_bound_is_refused(void)
{
    apr_pool_t *pool = new_pool();
    spx_frame_reader_t *reader = NULL;
    CU_ASSERT_EQUAL(spx_frame_reader_create(&reader, read_failing, NULL, 0, pool), APR_EINVAL);
    CU_ASSERT_EQUAL(spx_frame_reader_create(&reader, read_failing, NULL,
                                            SPX_LIMIT_REQUEST_BYTES_MAXIMUM + 1, pool),
                    APR_EINVAL);
    CU_ASSERT_PTR_NULL(reader);
    apr_pool_destroy(pool);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"frames split at LF", test_frames_split_at_lf},
        {"empty input is the end", test_empty_input_is_end},
        {"same frames at every read boundary", test_same_frames_at_every_read_boundary},
        {"a frame across read chunks", test_frame_across_chunks},
        {"a frame of exactly the limit", test_exact_limit_is_a_frame},
        {"limit + 1 is oversized, the next frame survives",
         test_limit_plus_one_is_oversized_and_the_next_frame_survives},
        {"a 64 MiB line is drained in bounded memory",
         test_oversized_64_mib_line_is_drained_in_bounded_memory},
        {"oversized at the default limit",
         test_oversized_default_limit_stays_within_limit_and_chunk},
        {"oversized until end of input", test_oversized_until_end_of_input},
        {"end of input in the middle of a frame", test_end_of_input_in_the_middle_of_a_frame},
        {"many pipelined frames", test_many_pipelined_frames},
        {"a read error is returned", test_read_error_is_returned},
        {"a bad bound is refused", test_bad_bound_is_refused},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("frame", tests);
}
