/*
 * test_request.c: the request grammar of transport.md "Framing", one test per
 * rule, each asserting the exact error code and the id the error carries (the
 * request's id when it is valid and the frame decoded as an object, else null);
 * valid requests, ids echoed exactly, notifications, and nesting depth.
 */
#include "spx_canonical.h"
#include "spx_limits.h"
#include "spx_request.h"
#include "spx_rpc.h"
#include "spx_test.h"

#include <apr_strings.h>
#include <string.h>

static apr_pool_t *new_pool(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    return pool;
}

/* The frame must be refused with code, and the error's id rendered
 * canonically must be id_text ("null", "7", "\"a\""). */
static void expect_error_detail(const char *frame, apr_size_t length, int code, const char *id_text,
                                const char *detail)
{
    apr_pool_t *pool = new_pool();
    spx_request_t request;
    spx_request_error_t error;
    spx_request_status_t status =
        spx_request_parse((const unsigned char *)frame, length, &request, &error, pool);
    if (status != SPX_REQUEST_INVALID || error.code != code) {
        fprintf(stderr, "\n  frame %.*s: wanted %d, got %s %d (%s)\n", (int)length, frame, code,
                status == SPX_REQUEST_VALID ? "valid" : "error", error.code,
                error.detail ? error.detail : "");
    }
    CU_ASSERT_EQUAL(status, SPX_REQUEST_INVALID);
    CU_ASSERT_EQUAL(error.code, code);
    CU_ASSERT_PTR_NOT_NULL_FATAL(error.detail);
    if (detail)
        CU_ASSERT_STRING_EQUAL(error.detail, detail);
    CU_ASSERT_PTR_NOT_NULL_FATAL(error.id);
    const char *rendered = spx_canonical_text(error.id, pool);
    if (strcmp(rendered, id_text) != 0)
        fprintf(stderr, "\n  frame %.*s: wanted id %s, got %s\n", (int)length, frame, id_text,
                rendered);
    CU_ASSERT_STRING_EQUAL(rendered, id_text);
    apr_pool_destroy(pool);
}

static void expect_error_bytes(const char *frame, apr_size_t length, int code, const char *id_text)
{
    expect_error_detail(frame, length, code, id_text, NULL);
}

/* A -32700 the raw scan must find, before Jansson (which would refuse some of
 * these frames too, or not): detail says which rule. */
static void expect_raw_refusal(const char *frame, apr_size_t length, const char *detail)
{
    expect_error_detail(frame, length, SPX_RPC_PARSE_ERROR, "null", detail);
}

static void expect_error(const char *frame, int code, const char *id_text)
{
    expect_error_bytes(frame, strlen(frame), code, id_text);
}

/* The frame must be a valid request for method; id_text is the id to echo
 * rendered canonically, or NULL for a notification. */
static void expect_valid(const char *frame, const char *method, const char *id_text)
{
    apr_pool_t *pool = new_pool();
    spx_request_t request;
    spx_request_error_t error;
    spx_request_status_t status =
        spx_request_parse((const unsigned char *)frame, strlen(frame), &request, &error, pool);
    if (status != SPX_REQUEST_VALID)
        fprintf(stderr, "\n  frame %s: refused with %d (%s)\n", frame, error.code, error.detail);
    CU_ASSERT_EQUAL_FATAL(status, SPX_REQUEST_VALID);
    CU_ASSERT_STRING_EQUAL(request.method, method);
    CU_ASSERT_EQUAL(request.method_length, strlen(method));
    CU_ASSERT_PTR_NOT_NULL(request.document);
    if (id_text) {
        CU_ASSERT_FALSE(request.is_notification);
        CU_ASSERT_PTR_NOT_NULL_FATAL(request.id);
        CU_ASSERT_STRING_EQUAL(spx_canonical_text(request.id, pool), id_text);
    } else {
        CU_ASSERT_TRUE(request.is_notification);
        CU_ASSERT_PTR_NULL(request.id);
    }
    apr_pool_destroy(pool);
}

#define REQUEST(members) "{\"jsonrpc\":\"2.0\",\"method\":\"ping\"" members "}"

/* --- -32700 ----------------------------------------------------------------- */

static void test_empty_frame(void)
{
    expect_error("", SPX_RPC_PARSE_ERROR, "null");
}

static void test_cr_anywhere(void)
{
    const char *crlf = REQUEST(",\"id\":1") "\r";
    expect_raw_refusal(crlf, strlen(crlf), "CR byte");
    expect_error("\r" REQUEST(",\"id\":1"), SPX_RPC_PARSE_ERROR, "null");
    expect_error("{\"jsonrpc\":\"2.0\",\r\"method\":\"ping\",\"id\":1}", SPX_RPC_PARSE_ERROR,
                 "null");
    const char *in_string = "{\"jsonrpc\":\"2.0\",\"method\":\"pi\rng\",\"id\":1}";
    expect_raw_refusal(in_string, strlen(in_string), "CR byte");
}

static void test_raw_nul_anywhere(void)
{
    /* Jansson alone would take the first two (it drops a NUL after a value). */
    const char after_number[] = "{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":1\0}";
    expect_raw_refusal(after_number, sizeof(after_number) - 1, "NUL byte");
    const char at_end[] = "{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":1}\0";
    expect_raw_refusal(at_end, sizeof(at_end) - 1, "NUL byte");
    const char in_string[] = "{\"jsonrpc\":\"2.0\",\"method\":\"pi\0ng\",\"id\":1}";
    expect_raw_refusal(in_string, sizeof(in_string) - 1, "NUL byte");
}

static void test_nul_escape_in_any_string(void)
{
    expect_error("{\"jsonrpc\":\"2.0\",\"method\":\"pi\\u0000ng\",\"id\":1}", SPX_RPC_PARSE_ERROR,
                 "null");
    expect_error(REQUEST(",\"id\":\"a\\u0000\""), SPX_RPC_PARSE_ERROR, "null");
    expect_error(REQUEST(",\"id\":1,\"params\":{\"k\\u0000\":1}"), SPX_RPC_PARSE_ERROR, "null");
    expect_error(REQUEST(",\"id\":1,\"params\":{\"k\":[\"\\u0000\"]}"), SPX_RPC_PARSE_ERROR,
                 "null");
}

static void test_invalid_utf8(void)
{
    const char *bad[] = {
        "\xC0\xAF",         /* overlong '/' */
        "\xE0\x80\xAF",     /* overlong, three bytes */
        "\xF0\x80\x80\xAF", /* overlong, four bytes */
        "\xC1\xBF",         /* overlong, C1 lead */
        "\xED\xA0\x80",     /* surrogate U+D800 */
        "\xED\xBF\xBF",     /* surrogate U+DFFF */
        "\xF4\x90\x80\x80", /* U+110000 */
        "\xF5\x80\x80\x80", /* lead above F4 */
        "\xFF",             /* never in UTF-8 */
        "\x80",             /* lone continuation */
        "\xE2\x82",         /* truncated sequence */
        "\xF0\x9F\x98",     /* truncated sequence */
        "\xE2\x28\xA1",     /* bad continuation */
    };
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        apr_pool_t *pool = new_pool();
        const char *frame =
            apr_psprintf(pool, REQUEST(",\"id\":1,\"params\":{\"s\":\"%s\"}"), bad[i]);
        expect_raw_refusal(frame, strlen(frame), "invalid UTF-8");
        apr_pool_destroy(pool);
    }
    /* Truncated at the very end of the frame. */
    const char *truncated = REQUEST(",\"id\":1") "\xE2\x82";
    expect_raw_refusal(truncated, strlen(truncated), "invalid UTF-8");
    /* The edges of what is valid. */
    expect_valid(REQUEST(",\"id\":1,\"params\":{\"s\":\"\xC2\x80 \xED\x9F\xBF \xEE\x80\x80 "
                         "\xF0\x90\x80\x80 \xF4\x8F\xBF\xBF h\xC3\xA9llo\"}"),
                 "ping", "1");
}

static void test_invalid_json(void)
{
    expect_error("{\"jsonrpc\":\"2.0\",", SPX_RPC_PARSE_ERROR, "null");
    expect_error("{'jsonrpc':'2.0'}", SPX_RPC_PARSE_ERROR, "null");
    expect_error(REQUEST(",\"id\":1,"), SPX_RPC_PARSE_ERROR, "null");
    expect_error("{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":01}", SPX_RPC_PARSE_ERROR,
                 "null");
    expect_error("\xEF\xBB\xBF" REQUEST(",\"id\":1"), SPX_RPC_PARSE_ERROR, "null"); /* BOM */
    expect_error(REQUEST(",\"id\":1,\"params\":{\"s\":\"\\ud800\"}"), SPX_RPC_PARSE_ERROR,
                 "null"); /* lone surrogate escape */
}

static void test_trailing_bytes(void)
{
    expect_error(REQUEST(",\"id\":1") " x", SPX_RPC_PARSE_ERROR, "null");
    expect_error(REQUEST(",\"id\":1") "{}", SPX_RPC_PARSE_ERROR, "null");
    expect_error(REQUEST(",\"id\":1") REQUEST(",\"id\":2"), SPX_RPC_PARSE_ERROR, "null");
    /* Whitespace (space, tab) around the value is not trailing bytes. */
    expect_valid(" \t" REQUEST(",\"id\":1") " \t ", "ping", "1");
}

static void test_duplicate_keys_at_any_depth(void)
{
    expect_error(REQUEST(",\"id\":1,\"id\":2"), SPX_RPC_PARSE_ERROR, "null");
    expect_error(REQUEST(",\"id\":1,\"params\":{\"a\":1,\"a\":1}"), SPX_RPC_PARSE_ERROR, "null");
    expect_error(REQUEST(",\"id\":1,\"params\":{\"a\":[{\"b\":{\"c\":1,\"c\":2}}]}"),
                 SPX_RPC_PARSE_ERROR, "null");
    /* The same key written two ways is still the same key. */
    expect_error(REQUEST(",\"id\":1,\"\\u006dethod\":\"x\""), SPX_RPC_PARSE_ERROR, "null");
}

static void test_nesting_depth(void)
{
    /* 100,000 opening brackets: refused before Jansson sees them. */
    apr_pool_t *pool = new_pool();
    const apr_size_t deep = 100000;
    char *brackets = apr_palloc(pool, deep);
    memset(brackets, '[', deep);
    expect_raw_refusal(brackets, deep, "nesting too deep");
    memset(brackets, '{', deep);
    expect_raw_refusal(brackets, deep, "nesting too deep");
    /* Jansson alone refuses them too, by its own (build-time) limit, rather
     * than overflowing the stack: what docs/transport.md reports. */
    json_error_t json_error;
    memset(brackets, '[', deep);
    CU_ASSERT_PTR_NULL(json_loadb(brackets, deep, JSON_DECODE_ANY, &json_error));

    /* params nested so that the whole frame is exactly at the limit, then one
     * deeper. The top-level object is depth 1, params depth 2. */
    for (unsigned extra = 0; extra <= 1; extra++) {
        unsigned inner = SPX_LIMIT_REQUEST_JSON_DEPTH - 2 + extra; /* arrays inside params */
        char *open = apr_palloc(pool, inner + 1), *close = apr_palloc(pool, inner + 1);
        memset(open, '[', inner);
        memset(close, ']', inner);
        open[inner] = close[inner] = '\0';
        const char *frame = apr_pstrcat(
            pool, "{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":1,\"params\":{\"a\":", open,
            close, "}}", NULL);
        if (extra == 0)
            expect_valid(frame, "ping", "1");
        else
            expect_raw_refusal(frame, strlen(frame), "nesting too deep");
    }
    apr_pool_destroy(pool);
}

/* --- -32600 ----------------------------------------------------------------- */

static void test_batch(void)
{
    expect_error("[" REQUEST(",\"id\":1") "]", SPX_RPC_INVALID_REQUEST, "null");
    expect_error("[]", SPX_RPC_INVALID_REQUEST, "null");
}

static void test_non_object(void)
{
    const char *frames[] = {"1", "\"ping\"", "null", "true", "-0", "1.5"};
    for (size_t i = 0; i < sizeof(frames) / sizeof(frames[0]); i++)
        expect_error(frames[i], SPX_RPC_INVALID_REQUEST, "null");
}

static void test_jsonrpc_not_exactly_2_0(void)
{
    expect_error("{\"method\":\"ping\",\"id\":1}", SPX_RPC_INVALID_REQUEST, "1");
    expect_error("{\"jsonrpc\":\"1.0\",\"method\":\"ping\",\"id\":1}", SPX_RPC_INVALID_REQUEST,
                 "1");
    expect_error("{\"jsonrpc\":\"2.00\",\"method\":\"ping\",\"id\":1}", SPX_RPC_INVALID_REQUEST,
                 "1");
    expect_error("{\"jsonrpc\":\"2.0 \",\"method\":\"ping\",\"id\":\"a\"}", SPX_RPC_INVALID_REQUEST,
                 "\"a\"");
    expect_error("{\"jsonrpc\":2.0,\"method\":\"ping\",\"id\":1}", SPX_RPC_INVALID_REQUEST, "1");
    expect_error("{\"jsonrpc\":null,\"method\":\"ping\",\"id\":1}", SPX_RPC_INVALID_REQUEST, "1");
}

static void test_method_missing_or_not_a_string(void)
{
    expect_error("{\"jsonrpc\":\"2.0\",\"id\":1}", SPX_RPC_INVALID_REQUEST, "1");
    expect_error("{\"jsonrpc\":\"2.0\",\"method\":1,\"id\":1}", SPX_RPC_INVALID_REQUEST, "1");
    expect_error("{\"jsonrpc\":\"2.0\",\"method\":null,\"id\":7}", SPX_RPC_INVALID_REQUEST, "7");
    expect_error("{\"jsonrpc\":\"2.0\",\"method\":[\"ping\"],\"id\":7}", SPX_RPC_INVALID_REQUEST,
                 "7");
}

static void test_unknown_top_level_key(void)
{
    expect_error(REQUEST(",\"id\":1,\"extra\":1"), SPX_RPC_INVALID_REQUEST, "1");
    expect_error(REQUEST(",\"id\":1,\"result\":{}"), SPX_RPC_INVALID_REQUEST, "1");
    /* Keys are matched exactly: "ID" is unknown, and there is then no id. */
    expect_error(REQUEST(",\"ID\":1"), SPX_RPC_INVALID_REQUEST, "null");
}

static void test_params_not_an_object(void)
{
    const char *params[] = {"[]", "[1]", "null", "1", "\"x\"", "true"};
    for (size_t i = 0; i < sizeof(params) / sizeof(params[0]); i++) {
        apr_pool_t *pool = new_pool();
        expect_error(apr_psprintf(pool, REQUEST(",\"id\":3,\"params\":%s"), params[i]),
                     SPX_RPC_INVALID_REQUEST, "3");
        apr_pool_destroy(pool);
    }
    expect_valid(REQUEST(",\"id\":3,\"params\":{}"), "ping", "3");
}

static void test_bad_ids(void)
{
    const char *ids[] = {"-0",
                         "-1",
                         "1.0",
                         "1e0",
                         "1E0",
                         "0.5",
                         "null",
                         "true",
                         "false",
                         "[]",
                         "[1]",
                         "{}",
                         "{\"a\":1}",
                         "9007199254740992",
                         "10000000000000000",
                         "99999999999999999999",
                         "-9007199254740991",
                         "0e0",
                         "1e400",
                         "-1e400",
                         "0.0000000001e320"};
    for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
        apr_pool_t *pool = new_pool();
        expect_error(apr_psprintf(pool, REQUEST(",\"id\":%s"), ids[i]), SPX_RPC_INVALID_REQUEST,
                     "null");
        apr_pool_destroy(pool);
    }
    /* A string id of 257 bytes (decoded), and one of them written with
     * escapes. */
    apr_pool_t *pool = new_pool();
    char *long_id = apr_palloc(pool, 258);
    memset(long_id, 'i', 257);
    long_id[257] = '\0';
    expect_error(apr_psprintf(pool, REQUEST(",\"id\":\"%s\""), long_id), SPX_RPC_INVALID_REQUEST,
                 "null");
    /* The id written with an escaped key is still the id. */
    expect_error("{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"\\u0069d\":-0}",
                 SPX_RPC_INVALID_REQUEST, "null");
    /* Integers of 309, 310 and 4000 digits: valid JSON, bad ids, whatever
     * the decoder's range (the id is judged on its raw token). */
    const apr_size_t digit_counts[] = {309, 310, 4000};
    for (size_t i = 0; i < sizeof(digit_counts) / sizeof(digit_counts[0]); i++) {
        char *digits = apr_palloc(pool, digit_counts[i] + 1);
        memset(digits, '9', digit_counts[i]);
        digits[digit_counts[i]] = '\0';
        expect_error(apr_psprintf(pool, REQUEST(",\"id\":%s"), digits), SPX_RPC_INVALID_REQUEST,
                     "null");
        /* and with another fault, the class is still the request's */
        expect_error(
            apr_psprintf(pool, "{\"jsonrpc\":\"1.0\",\"method\":\"ping\",\"id\":%s}", digits),
            SPX_RPC_INVALID_REQUEST, "null");
    }
    /* A bad id and another fault: still null. */
    expect_error("{\"jsonrpc\":\"1.0\",\"method\":\"ping\",\"id\":1.0}", SPX_RPC_INVALID_REQUEST,
                 "null");
    apr_pool_destroy(pool);
}

static void test_good_ids_are_echoed_exactly(void)
{
    expect_valid(REQUEST(",\"id\":0"), "ping", "0");
    expect_valid(REQUEST(",\"id\":7"), "ping", "7");
    expect_valid(REQUEST(",\"id\":9007199254740991"), "ping", "9007199254740991");
    expect_valid(REQUEST(",\"id\":\"\""), "ping", "\"\"");
    expect_valid(REQUEST(",\"id\":\"req-1\""), "ping", "\"req-1\"");
    expect_valid(REQUEST(",\"id\":\"caf\\u00e9\""), "ping", "\"caf\xC3\xA9\"");
    expect_valid("{ \"id\" :\t42 , \"jsonrpc\" : \"2.0\" , \"method\" : \"ping\" }", "ping", "42");
    expect_valid("{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"\\u0069d\":5}", "ping", "5");
    /* An "id" inside params, or inside a string, is not the request's id. */
    expect_valid("{\"params\":{\"id\":-1,\"s\":\"\\\",\\\"id\\\":-2\"},\"jsonrpc\":\"2.0\","
                 "\"method\":\"ping\",\"id\":3}",
                 "ping", "3");
    apr_pool_t *pool = new_pool();
    char *long_id = apr_palloc(pool, SPX_LIMIT_ID_STRING_BYTES + 1);
    memset(long_id, 'i', SPX_LIMIT_ID_STRING_BYTES);
    long_id[SPX_LIMIT_ID_STRING_BYTES] = '\0';
    const char *quoted = apr_pstrcat(pool, "\"", long_id, "\"", NULL);
    expect_valid(apr_psprintf(pool, REQUEST(",\"id\":%s"), quoted), "ping", quoted);
    apr_pool_destroy(pool);
}

static void test_error_carries_a_valid_id(void)
{
    expect_error("{\"jsonrpc\":\"2.0\",\"id\":\"x\",\"method\":false}", SPX_RPC_INVALID_REQUEST,
                 "\"x\"");
    expect_error("{\"jsonrpc\":\"2.0\",\"id\":9007199254740991,\"method\":\"ping\",\"params\":[]}",
                 SPX_RPC_INVALID_REQUEST, "9007199254740991");
}

/* --- valid requests and notifications ---------------------------------------- */

static void test_valid_request_fields(void)
{
    apr_pool_t *pool = new_pool();
    const char *frame = "{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"context\","
                        "\"params\":{\"depth\":2,\"target\":\"app.main\"}}";
    spx_request_t request;
    spx_request_error_t error;
    CU_ASSERT_EQUAL_FATAL(
        spx_request_parse((const unsigned char *)frame, strlen(frame), &request, &error, pool),
        SPX_REQUEST_VALID);
    CU_ASSERT_STRING_EQUAL(request.method, "context");
    CU_ASSERT_TRUE(json_is_object(request.params));
    CU_ASSERT_EQUAL(json_integer_value(json_object_get(request.params, "depth")), 2);
    CU_ASSERT_STRING_EQUAL(json_string_value(json_object_get(request.params, "target")),
                           "app.main");
    CU_ASSERT_FALSE(request.integers_as_reals);
    CU_ASSERT_FALSE(spx_request_ends_session_silently(&request));
    /* Without params, params is NULL. */
    expect_valid(REQUEST(",\"id\":1"), "ping", "1");
    apr_pool_destroy(pool);
}

static void test_integer_beyond_jansson_is_valid_json(void)
{
    apr_pool_t *pool = new_pool();
    const char *frame = REQUEST(",\"id\":4,\"params\":{\"max_steps\":99999999999999999999}");
    spx_request_t request;
    spx_request_error_t error;
    CU_ASSERT_EQUAL_FATAL(
        spx_request_parse((const unsigned char *)frame, strlen(frame), &request, &error, pool),
        SPX_REQUEST_VALID);
    CU_ASSERT_TRUE(request.integers_as_reals);
    CU_ASSERT_TRUE(json_is_real(json_object_get(request.params, "max_steps")));
    CU_ASSERT_STRING_EQUAL(spx_canonical_text(request.id, pool), "4");
    apr_pool_destroy(pool);
}

/* Numbers beyond a double (a 310-digit integer, 1e400) are valid JSON: the
 * request keeps its id and is valid, the value read as a real, out of range
 * for every method (-32602 from the session). */
static void test_numbers_beyond_a_double_keep_the_request(void)
{
    apr_pool_t *pool = new_pool();
    char *digits = apr_palloc(pool, 311);
    memset(digits, '7', 310);
    digits[310] = '\0';
    const char *values[] = {digits, "1e400", "-1E+999", "123456789e299"};
    for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
        const char *frame = apr_psprintf(
            pool, REQUEST(",\"id\":4,\"params\":{\"max_steps\":%s,\"n\":12}"), values[i]);
        spx_request_t request;
        spx_request_error_t error;
        CU_ASSERT_EQUAL_FATAL(
            spx_request_parse((const unsigned char *)frame, strlen(frame), &request, &error, pool),
            SPX_REQUEST_VALID);
        CU_ASSERT_TRUE(json_is_real(json_object_get(request.params, "max_steps")));
        CU_ASSERT_TRUE(json_real_value(json_object_get(request.params, "max_steps")) > 1e299 ||
                       json_real_value(json_object_get(request.params, "max_steps")) < -1e299);
        CU_ASSERT_STRING_EQUAL(spx_canonical_text(request.id, pool), "4");
    }
    /* A number just under the limit is left as it is. */
    const char *frame = REQUEST(",\"id\":4,\"params\":{\"max_steps\":9e299}");
    spx_request_t request;
    spx_request_error_t error;
    CU_ASSERT_EQUAL_FATAL(
        spx_request_parse((const unsigned char *)frame, strlen(frame), &request, &error, pool),
        SPX_REQUEST_VALID);
    CU_ASSERT_EQUAL(json_real_value(json_object_get(request.params, "max_steps")), 9e299);
    apr_pool_destroy(pool);
}

/* At most SPX_LIMIT_REQUEST_JSON_VALUES values, counted before decoding:
 * the frame below has 11 values besides the array's objects. */
static void test_value_count_limit(void)
{
    apr_pool_t *pool = new_pool();
    for (apr_size_t extra = 0; extra < 2; extra++) {
        apr_size_t objects = SPX_LIMIT_REQUEST_JSON_VALUES - 11 + extra;
        apr_array_header_t *parts = apr_array_make(pool, (int)objects + 2, sizeof(const char *));
        APR_ARRAY_PUSH(parts, const char *) =
            "{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":1,\"params\":{\"a\":[{}";
        for (apr_size_t i = 1; i < objects; i++)
            APR_ARRAY_PUSH(parts, const char *) = ",{}";
        APR_ARRAY_PUSH(parts, const char *) = "]}}";
        const char *frame = apr_array_pstrcat(pool, parts, 0);
        if (extra == 0)
            expect_valid(frame, "ping", "1");
        else
            expect_raw_refusal(frame, strlen(frame), "too many values");
    }
    apr_pool_destroy(pool);
}

static void test_notifications(void)
{
    expect_valid(REQUEST(""), "ping", NULL);
    expect_valid("{\"jsonrpc\":\"2.0\",\"method\":\"check\",\"params\":{}}", "check", NULL);
    apr_pool_t *pool = new_pool();
    const char *frames[] = {
        "{\"jsonrpc\":\"2.0\",\"method\":\"shutdown\"}", /* the silent end */
        "{\"jsonrpc\":\"2.0\",\"method\":\"shutdown\",\"id\":1}",
        "{\"jsonrpc\":\"2.0\",\"method\":\"ping\"}",
        "{\"jsonrpc\":\"2.0\",\"method\":\"shutdown \"}",
    };
    const int silent[] = {1, 0, 0, 0};
    for (size_t i = 0; i < sizeof(frames) / sizeof(frames[0]); i++) {
        spx_request_t request;
        spx_request_error_t error;
        CU_ASSERT_EQUAL_FATAL(spx_request_parse((const unsigned char *)frames[i], strlen(frames[i]),
                                                &request, &error, pool),
                              SPX_REQUEST_VALID);
        CU_ASSERT_EQUAL(spx_request_ends_session_silently(&request), silent[i]);
    }
    apr_pool_destroy(pool);
}

static void test_malformed_frame_is_never_a_notification(void)
{
    /* No id in any of them, and each is answered (with id null). */
    expect_error("{\"jsonrpc\":\"2.0\",\"method\":\"shutdown\"", SPX_RPC_PARSE_ERROR, "null");
    expect_error("{\"jsonrpc\":\"1.0\",\"method\":\"shutdown\"}", SPX_RPC_INVALID_REQUEST, "null");
    expect_error("{\"jsonrpc\":\"2.0\",\"method\":\"shutdown\",\"params\":[]}",
                 SPX_RPC_INVALID_REQUEST, "null");
    expect_error("{\"jsonrpc\":\"2.0\",\"method\":\"shutdown\",\"x\":1}", SPX_RPC_INVALID_REQUEST,
                 "null");
    expect_error("{\"jsonrpc\":\"2.0\",\"method\":\"shutdown\"}\r", SPX_RPC_PARSE_ERROR, "null");
}

static void test_params_keys_are_checked_exactly(void)
{
    apr_pool_t *pool = new_pool();
    const char *const revisions[] = {"project_revision", "workspace_revision", NULL};
    const char *const none[] = {NULL};
    const struct {
        const char *params; /* NULL: no params member */
        const char *const *allowed;
        const char *unknown; /* NULL: all known */
    } cases[] = {
        {NULL, none, NULL},
        {"{}", none, NULL},
        {"{\"x\":1}", none, "x"},
        {"{\"project_revision\":\"a\",\"workspace_revision\":\"b\"}", revisions, NULL},
        {"{\"project_revision\":\"a\"}", revisions, NULL}, /* missing is the method's check */
        {"{\"Project_revision\":\"a\"}", revisions, "Project_revision"},
        {"{\"project_revision \":\"a\"}", revisions, "project_revision "},
        {"{\"zz\":1,\"project_revision\":\"a\",\"b\":2}", revisions, "b"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const char *frame = cases[i].params ? apr_psprintf(pool, REQUEST(",\"id\":1,\"params\":%s"),
                                                           cases[i].params)
                                            : REQUEST(",\"id\":1");
        spx_request_t request;
        spx_request_error_t error;
        CU_ASSERT_EQUAL_FATAL(
            spx_request_parse((const unsigned char *)frame, strlen(frame), &request, &error, pool),
            SPX_REQUEST_VALID);
        const char *unknown = "unset";
        int known = spx_request_params_known(&request, cases[i].allowed, &unknown);
        CU_ASSERT_EQUAL(known, cases[i].unknown == NULL);
        if (cases[i].unknown) {
            CU_ASSERT_STRING_EQUAL(unknown, cases[i].unknown);
        } else {
            CU_ASSERT_PTR_NULL(unknown);
        }
    }
    apr_pool_destroy(pool);
}

/* A small deterministic generator (xorshift64), state passed explicitly. */
static unsigned long long next_random(unsigned long long *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

/* Whatever the grammar says about frame, it says it consistently: refused
 * with -32700 or -32600 (id null, or a string or integer), or accepted with a
 * string method and an echoed id equal to the decoded member "id". True when
 * it was accepted. */
static int check_consistent(const unsigned char *frame, apr_size_t length, apr_pool_t *pool)
{
    spx_request_t request;
    spx_request_error_t error;
    if (spx_request_parse(frame, length, &request, &error, pool) == SPX_REQUEST_INVALID) {
        CU_ASSERT(error.code == SPX_RPC_PARSE_ERROR || error.code == SPX_RPC_INVALID_REQUEST);
        CU_ASSERT(json_is_null(error.id) || json_is_string(error.id) || json_is_integer(error.id));
        return 0;
    }
    CU_ASSERT_PTR_NOT_NULL_FATAL(request.method);
    json_t *member = json_object_get(request.document, "id");
    CU_ASSERT_EQUAL(request.is_notification, member == NULL);
    if (member && !request.integers_as_reals)
        CU_ASSERT_TRUE(json_equal(member, request.id));
    return 1;
}

static void test_mutated_and_random_frames_are_judged_consistently(void)
{
    apr_pool_t *pool = new_pool();
    unsigned long long state = 0x9E3779B97F4A7C15ull;
    const char *seeds[] = {
        "{\"jsonrpc\":\"2.0\",\"id\":12,\"method\":\"context\",\"params\":{\"depth\":2,"
        "\"target\":\"app.main\",\"l\":[1,\"\\u00e9\",{\"id\":-1}]}}",
        "{ \"\\u0069d\" : \"x\\\"y\" , \"jsonrpc\":\"2.0\",\"method\":\"ping\"}",
    };
    const char alphabet[] = "{}[]\":,0123456789-+.eE\\u tnrfalsxid\x80\xC3\xA9\xED\xF4";
    unsigned char frame[160];
    int accepted = 0;
    for (int round = 0; round < 20000; round++) {
        apr_size_t length;
        if (round % 2 == 0) {
            /* A seed with one to three bytes replaced, inserted or deleted. */
            const char *seed = seeds[(round / 2) % 2];
            length = strlen(seed);
            memcpy(frame, seed, length);
            int edits = 1 + (int)(next_random(&state) % 3);
            for (int e = 0; e < edits && length > 1 && length < sizeof(frame) - 1; e++) {
                apr_size_t at = (apr_size_t)(next_random(&state) % length);
                unsigned char byte =
                    (unsigned char)alphabet[next_random(&state) % (sizeof(alphabet) - 1)];
                switch (next_random(&state) % 3) {
                case 0:
                    frame[at] = byte;
                    break;
                case 1:
                    memmove(frame + at + 1, frame + at, length - at);
                    frame[at] = byte;
                    length++;
                    break;
                default:
                    memmove(frame + at, frame + at + 1, length - at - 1);
                    length--;
                }
            }
        } else {
            /* Token soup. */
            length = (apr_size_t)(next_random(&state) % sizeof(frame));
            for (apr_size_t i = 0; i < length; i++)
                frame[i] = (unsigned char)alphabet[next_random(&state) % (sizeof(alphabet) - 1)];
        }
        apr_pool_t *frame_pool = new_pool();
        accepted += check_consistent(frame, length, frame_pool);
        apr_pool_destroy(frame_pool);
    }
    /* Enough edits land in harmless places for the accepted side to count. */
    CU_ASSERT(accepted >= 500);
    apr_pool_destroy(pool);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"-32700 empty frame", test_empty_frame},
        {"-32700 CR anywhere", test_cr_anywhere},
        {"-32700 raw NUL anywhere", test_raw_nul_anywhere},
        {"-32700 \\u0000 in any string", test_nul_escape_in_any_string},
        {"-32700 invalid UTF-8", test_invalid_utf8},
        {"-32700 invalid JSON", test_invalid_json},
        {"-32700 trailing bytes", test_trailing_bytes},
        {"-32700 duplicate keys at any depth", test_duplicate_keys_at_any_depth},
        {"-32700 nesting depth", test_nesting_depth},
        {"-32600 batch", test_batch},
        {"-32600 non-object", test_non_object},
        {"-32600 jsonrpc not exactly 2.0", test_jsonrpc_not_exactly_2_0},
        {"-32600 method missing or not a string", test_method_missing_or_not_a_string},
        {"-32600 unknown top-level key", test_unknown_top_level_key},
        {"-32600 params not an object", test_params_not_an_object},
        {"-32600 bad ids", test_bad_ids},
        {"good ids are echoed exactly", test_good_ids_are_echoed_exactly},
        {"an error carries a valid id", test_error_carries_a_valid_id},
        {"a valid request's fields", test_valid_request_fields},
        {"an integer beyond Jansson's range is valid JSON",
         test_integer_beyond_jansson_is_valid_json},
        {"numbers beyond a double keep the request", test_numbers_beyond_a_double_keep_the_request},
        {"at most SPX_LIMIT_REQUEST_JSON_VALUES values", test_value_count_limit},
        {"notifications", test_notifications},
        {"a malformed frame is never a notification", test_malformed_frame_is_never_a_notification},
        {"params keys are checked exactly", test_params_keys_are_checked_exactly},
        {"mutated and random frames are judged consistently",
         test_mutated_and_random_frames_are_judged_consistently},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("request", tests);
}
