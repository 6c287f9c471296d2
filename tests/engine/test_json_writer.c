/*
 * test_json_writer.c: the streaming canonical JSON writer
 * (spx_json_writer.h) against Jansson's canonical text of the same values:
 * every control character's escape, non-ASCII UTF-8 and ill-formed UTF-8,
 * key order (and a key out of order refused), nested arrays and objects,
 * integer extremes, every sink, and the limit hit exactly at, and one byte
 * past, the boundary, in the middle of a string too.
 */
#include "spx_canonical.h"
#include "spx_json_writer.h"
#include "spx_limits.h"
#include "spx_test.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Jansson's canonical text of value (which this takes). */
static char *canonical(json_t *value)
{
    char *text = json_dumps(value, SPX_CANONICAL_FLAGS);
    json_decref(value);
    return text;
}

/* A string of length bytes as the writer and Jansson write it. */
static void assert_string_same(const char *bytes, apr_size_t length, apr_pool_t *pool)
{
    spx_json_writer_t *writer = spx_json_writer_buffer(1u << 20, pool);
    spx_json_stringn(writer, bytes, length);
    CU_ASSERT_EQUAL_FATAL(spx_json_writer_finish(writer), SPX_JSON_OK);
    char *expected = canonical(json_stringn(bytes, length));
    CU_ASSERT_PTR_NOT_NULL_FATAL(expected);
    CU_ASSERT_EQUAL(spx_json_writer_length(writer), strlen(expected));
    CU_ASSERT_TRUE(memcmp(spx_json_writer_bytes(writer), expected, strlen(expected)) == 0);
    free(expected);
    spx_json_writer_release(writer);
}

static void test_every_byte_escaped_as_jansson(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    for (int c = 0; c < 0x80; c++) {
        char one[3] = {'a', (char)c, 'z'};
        assert_string_same(one, 3, fixture->pool);
        assert_string_same(one + 1, 1, fixture->pool);
    }
    char all[0x80];
    for (int c = 0; c < 0x80; c++)
        all[c] = (char)c;
    assert_string_same(all, sizeof(all), fixture->pool);
    /* the exact bytes docs/canonical-json.md writes down */
    spx_json_writer_t *writer = spx_json_writer_buffer(100, fixture->pool);
    spx_json_stringn(writer, "\x1b\x01\x7f/\"\\\b\f\n\r\t", 11);
    CU_ASSERT_EQUAL(spx_json_writer_finish(writer), SPX_JSON_OK);
    spx_json_writer_bytes(writer)[spx_json_writer_length(writer)] = '\0';
    CU_ASSERT_STRING_EQUAL(spx_json_writer_bytes(writer),
                           "\"\\u001B\\u0001\x7f/\\\"\\\\\\b\\f\\n\\r\\t\"");
    spx_fixture_free(fixture);
}

static void test_utf8(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    static const char *const texts[] = {"caf\xc3\xa9", "\xe2\x82\xac 1", "\xf0\x9f\x98\x80",
                                        "\xef\xbb\xbf bom",
                                        "\xc2\x80\xdf\xbf\xee\x80\x80\xf4\x8f\xbf\xbf"};
    for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
        assert_string_same(texts[i], strlen(texts[i]), fixture->pool);
    /* ill-formed: Jansson refuses each, and so does the writer */
    static const char *const bad[] = {"\xc3",  "\xc0\xaf", "\xed\xa0\x80", "\xf5\x80\x80\x80",
                                      "a\x80", "\xe2\x82"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        CU_ASSERT_PTR_NULL(json_stringn(bad[i], strlen(bad[i])));
        spx_json_writer_t *writer = spx_json_writer_counting(100, fixture->pool);
        spx_json_string(writer, bad[i]);
        CU_ASSERT_EQUAL(spx_json_writer_finish(writer), SPX_JSON_BAD_UTF8);
    }
    spx_fixture_free(fixture);
}

/* {"a":[1,{"b":[],"c":{}},"x",true,false,null],"ab":{"z":-1},"b":"\n"} */
static void write_nested(spx_json_writer_t *writer)
{
    spx_json_object_begin(writer);
    spx_json_key(writer, "a");
    spx_json_array_begin(writer);
    spx_json_integer(writer, 1);
    spx_json_object_begin(writer);
    spx_json_key(writer, "b");
    spx_json_array_begin(writer);
    spx_json_array_end(writer);
    spx_json_key(writer, "c");
    spx_json_object_begin(writer);
    spx_json_object_end(writer);
    spx_json_object_end(writer);
    spx_json_string(writer, "x");
    spx_json_boolean(writer, 1);
    spx_json_boolean(writer, 0);
    spx_json_null(writer);
    spx_json_array_end(writer);
    spx_json_key(writer, "ab");
    spx_json_object_begin(writer);
    spx_json_key(writer, "z");
    spx_json_integer(writer, -1);
    spx_json_object_end(writer);
    spx_json_key(writer, "b");
    spx_json_string(writer, "\n");
    spx_json_object_end(writer);
}

static json_t *nested_tree(void)
{
    return json_pack("{s:b, s:[i,{s:[],s:{}},s,b,b,n], s:{s:i}}", "b", 0, "a", 1, "b", "c", "x", 1,
                     0, "ab", "z", -1);
}

static void test_nesting_and_key_order(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_json_writer_t *writer = spx_json_writer_buffer(1000, fixture->pool);
    write_nested(writer);
    CU_ASSERT_EQUAL(spx_json_writer_finish(writer), SPX_JSON_OK);
    json_t *tree = nested_tree();
    json_object_set_new(tree, "b", json_string("\n"));
    char *expected = canonical(tree);
    spx_json_writer_bytes(writer)[spx_json_writer_length(writer)] = '\0';
    CU_ASSERT_STRING_EQUAL(spx_json_writer_bytes(writer), expected);
    free(expected);

    /* a key below or equal to the one before, a value without a key, a
     * key in an array, an unbalanced end, two documents: refused */
    const char *orders[][2] = {{"b", "a"}, {"a", "a"}, {"ab", "a"}, {"b", "B"}};
    for (size_t i = 0; i < sizeof(orders) / sizeof(orders[0]); i++) {
        writer = spx_json_writer_counting(100, fixture->pool);
        spx_json_object_begin(writer);
        spx_json_key(writer, orders[i][0]);
        spx_json_integer(writer, 1);
        spx_json_key(writer, orders[i][1]);
        spx_json_integer(writer, 2);
        spx_json_object_end(writer);
        CU_ASSERT_EQUAL(spx_json_writer_finish(writer), SPX_JSON_MISUSE);
    }
    writer = spx_json_writer_counting(100, fixture->pool);
    spx_json_object_begin(writer);
    spx_json_integer(writer, 1);
    CU_ASSERT_EQUAL(spx_json_writer_status(writer), SPX_JSON_MISUSE);
    writer = spx_json_writer_counting(100, fixture->pool);
    spx_json_array_begin(writer);
    spx_json_key(writer, "a");
    CU_ASSERT_EQUAL(spx_json_writer_status(writer), SPX_JSON_MISUSE);
    writer = spx_json_writer_counting(100, fixture->pool);
    spx_json_array_begin(writer);
    spx_json_object_end(writer);
    CU_ASSERT_EQUAL(spx_json_writer_status(writer), SPX_JSON_MISUSE);
    writer = spx_json_writer_counting(100, fixture->pool);
    spx_json_object_begin(writer);
    spx_json_key(writer, "a");
    spx_json_object_end(writer);
    CU_ASSERT_EQUAL(spx_json_writer_status(writer), SPX_JSON_MISUSE);
    writer = spx_json_writer_counting(100, fixture->pool);
    spx_json_array_begin(writer);
    CU_ASSERT_EQUAL(spx_json_writer_finish(writer), SPX_JSON_MISUSE);
    writer = spx_json_writer_counting(100, fixture->pool);
    spx_json_null(writer);
    spx_json_null(writer);
    CU_ASSERT_EQUAL(spx_json_writer_finish(writer), SPX_JSON_MISUSE);
    /* too deep */
    writer = spx_json_writer_counting(1000, fixture->pool);
    for (unsigned i = 0; i <= SPX_LIMIT_JSON_WRITER_DEPTH; i++)
        spx_json_array_begin(writer);
    CU_ASSERT_EQUAL(spx_json_writer_status(writer), SPX_JSON_MISUSE);
    spx_fixture_free(fixture);
}

static void test_integers_and_values(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    const int64_t values[] = {0, 1, -1, 9, 10, 4294967296LL, INT64_MAX, INT64_MIN, INT64_MIN + 1};
    for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
        spx_json_writer_t *writer = spx_json_writer_buffer(100, fixture->pool);
        spx_json_integer(writer, values[i]);
        CU_ASSERT_EQUAL(spx_json_writer_finish(writer), SPX_JSON_OK);
        char *expected = canonical(json_integer((json_int_t)values[i]));
        spx_json_writer_bytes(writer)[spx_json_writer_length(writer)] = '\0';
        CU_ASSERT_STRING_EQUAL(spx_json_writer_bytes(writer), expected);
        free(expected);
    }
    /* a Jansson value inside, in its canonical text */
    spx_json_writer_t *writer = spx_json_writer_buffer(1000, fixture->pool);
    spx_json_array_begin(writer);
    json_t *tree = nested_tree();
    spx_json_value(writer, tree);
    spx_json_array_end(writer);
    CU_ASSERT_EQUAL(spx_json_writer_finish(writer), SPX_JSON_OK);
    char *expected = canonical(json_pack("[O]", tree));
    json_decref(tree);
    spx_json_writer_bytes(writer)[spx_json_writer_length(writer)] = '\0';
    CU_ASSERT_STRING_EQUAL(spx_json_writer_bytes(writer), expected);
    free(expected);
    spx_fixture_free(fixture);
}

/* What a stream writer's write function saw. */
typedef struct collected_t {
    char bytes[4 * SPX_LIMIT_JSON_CHUNK_BYTES];
    apr_size_t length;
    int writes;
    int fail_after; /* writes that succeed, then each fails; -1: never */
} collected_t;

static apr_status_t collect(void *context, const char *bytes, apr_size_t length)
{
    collected_t *collected = context;
    if (collected->fail_after >= 0 && collected->writes >= collected->fail_after)
        return APR_EGENERAL;
    CU_ASSERT_TRUE_FATAL(collected->length + length <= sizeof(collected->bytes));
    CU_ASSERT_TRUE(length <= SPX_LIMIT_JSON_CHUNK_BYTES);
    memcpy(collected->bytes + collected->length, bytes, length);
    collected->length += length;
    collected->writes++;
    return APR_SUCCESS;
}

/* A document of about 3 chunks: an array of strings. */
static void write_long(spx_json_writer_t *writer)
{
    spx_json_array_begin(writer);
    for (int i = 0; i < 3000; i++)
        spx_json_string(writer, "some text of sixty-four bytes, give or take: \t\"quoted\"");
    spx_json_array_end(writer);
}

static void test_sinks_agree(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_json_writer_t *buffer = spx_json_writer_buffer(1u << 20, fixture->pool);
    write_long(buffer);
    CU_ASSERT_EQUAL_FATAL(spx_json_writer_finish(buffer), SPX_JSON_OK);
    apr_size_t length = spx_json_writer_length(buffer);
    CU_ASSERT_TRUE(length > 2 * SPX_LIMIT_JSON_CHUNK_BYTES);

    spx_json_writer_t *counter = spx_json_writer_counting(1u << 20, fixture->pool);
    write_long(counter);
    CU_ASSERT_EQUAL(spx_json_writer_finish(counter), SPX_JSON_OK);
    CU_ASSERT_EQUAL(spx_json_writer_length(counter), length);
    CU_ASSERT_PTR_NULL(spx_json_writer_bytes(counter));

    char *fixed_bytes = apr_palloc(fixture->pool, length + 1);
    spx_json_writer_t *fixed = spx_json_writer_fixed(fixed_bytes, length + 1, fixture->pool);
    write_long(fixed);
    CU_ASSERT_EQUAL(spx_json_writer_finish(fixed), SPX_JSON_OK);
    CU_ASSERT_TRUE(memcmp(fixed_bytes, spx_json_writer_bytes(buffer), length) == 0);

    collected_t *collected = apr_pcalloc(fixture->pool, sizeof(*collected));
    collected->fail_after = -1;
    spx_json_writer_t *stream = spx_json_writer_stream(collect, collected, 1u << 20, fixture->pool);
    write_long(stream);
    CU_ASSERT_EQUAL(spx_json_writer_finish(stream), SPX_JSON_OK);
    CU_ASSERT_EQUAL(collected->length, length);
    CU_ASSERT_EQUAL(collected->writes,
                    (int)((length + SPX_LIMIT_JSON_CHUNK_BYTES - 1) / SPX_LIMIT_JSON_CHUNK_BYTES));
    CU_ASSERT_TRUE(memcmp(collected->bytes, spx_json_writer_bytes(buffer), length) == 0);

    /* a stream whose second write fails */
    memset(collected, 0, sizeof(*collected));
    collected->fail_after = 1;
    stream = spx_json_writer_stream(collect, collected, 1u << 20, fixture->pool);
    write_long(stream);
    CU_ASSERT_EQUAL(spx_json_writer_finish(stream), SPX_JSON_WRITE_FAILED);
    CU_ASSERT_EQUAL(collected->length, SPX_LIMIT_JSON_CHUNK_BYTES);
    spx_json_writer_release(buffer);
    spx_json_writer_release(buffer);
    spx_fixture_free(fixture);
}

/* The document {"k":"<text>"} written with limit; its status, and the
 * bytes written stay within the limit. */
static spx_json_status_t write_limited(const char *text, apr_size_t limit, apr_size_t *length,
                                       apr_pool_t *pool)
{
    spx_json_writer_t *writer = spx_json_writer_buffer(limit, pool);
    spx_json_object_begin(writer);
    spx_json_key(writer, "k");
    spx_json_string(writer, text);
    spx_json_object_end(writer);
    spx_json_status_t status = spx_json_writer_finish(writer);
    *length = spx_json_writer_length(writer);
    CU_ASSERT_TRUE(*length <= limit);
    spx_json_writer_release(writer);
    return status;
}

static void test_limit_at_the_boundary(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    /* 6 bytes of frame ({"k":""}) and a string whose escapes are 2 and 6 bytes */
    const char *text = "ab\ncd\x01"
                       "ef";
    char *expected = canonical(json_pack("{s:s}", "k", text));
    apr_size_t whole = strlen(expected);
    free(expected);
    apr_size_t length = 0;
    CU_ASSERT_EQUAL(write_limited(text, whole, &length, fixture->pool), SPX_JSON_OK);
    CU_ASSERT_EQUAL(length, whole);
    CU_ASSERT_EQUAL(write_limited(text, whole - 1, &length, fixture->pool), SPX_JSON_OVER_LIMIT);
    /* every limit below: over, in the middle of the string too */
    for (apr_size_t limit = 0; limit < whole; limit++)
        CU_ASSERT_EQUAL(write_limited(text, limit, &length, fixture->pool), SPX_JSON_OVER_LIMIT);

    /* a fixed buffer of whole + 1 holds it; of whole bytes it does not */
    char bytes[64];
    for (apr_size_t capacity = whole; capacity <= whole + 1; capacity++) {
        spx_json_writer_t *writer = spx_json_writer_fixed(bytes, capacity, fixture->pool);
        spx_json_object_begin(writer);
        spx_json_key(writer, "k");
        spx_json_string(writer, text);
        spx_json_object_end(writer);
        CU_ASSERT_EQUAL(spx_json_writer_finish(writer),
                        capacity == whole ? SPX_JSON_OVER_LIMIT : SPX_JSON_OK);
    }
    /* a stream over its limit writes no chunk of the document */
    collected_t *collected = apr_pcalloc(fixture->pool, sizeof(*collected));
    collected->fail_after = -1;
    spx_json_writer_t *stream = spx_json_writer_stream(collect, collected, 1000, fixture->pool);
    write_long(stream);
    CU_ASSERT_EQUAL(spx_json_writer_finish(stream), SPX_JSON_OVER_LIMIT);
    CU_ASSERT_EQUAL(collected->writes, 0);
    CU_ASSERT_TRUE(spx_json_writer_length(stream) <= 1000);
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"every byte escaped as Jansson escapes it", test_every_byte_escaped_as_jansson},
        {"UTF-8 as it is, ill-formed refused", test_utf8},
        {"nesting and key order", test_nesting_and_key_order},
        {"integer extremes and Jansson values", test_integers_and_values},
        {"counter, buffer, fixed and stream agree", test_sinks_agree},
        {"the limit at and one byte past the boundary", test_limit_at_the_boundary},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("json_writer", tests);
}
