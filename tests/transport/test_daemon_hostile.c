/*
 * test_daemon_hostile.c: process tests of the real daemon against hostile
 * clients (issue 7), each asserting the exact error the specification asks
 * for and a session that lives on (a ping answered afterwards) or ends
 * cleanly with the documented exit status: JSON nested 100,000 deep, a
 * 60 MiB string under a 64 MiB bound, a million keys in params (refused
 * before decoding) and 8000 (decoded), every
 * single byte that cannot stand alone in UTF-8, overlongs and surrogates,
 * frames of only blanks, bytes at end of input without LF, input closed in
 * the middle of a frame, output closed by the client, and SIGPIPE.
 */
#include "spx_daemon.h"
#include "spx_process.h"
#include "spx_rpc.h"

#include <apr_strings.h>
#include <stdlib.h>
#include <string.h>

#define PING "{\"id\":99,\"jsonrpc\":\"2.0\",\"method\":\"ping\"}"
#define PONG "{\"id\":99,\"jsonrpc\":\"2.0\",\"result\":{\"state\":\"configured\"}}"
#define MIB (1024u * 1024u)
#define DEEP 100000

static spx_daemon_t *start(spx_fixture_t *fixture, const char *const *extra)
{
    spx_daemon_copy_hello(fixture, "proj");
    return spx_daemon_start_on(fixture, "proj", extra);
}

/* Send bytes[0..length) and an LF; the response line must be expected. */
static void expect_answer(spx_daemon_t *daemon, const char *bytes, apr_size_t length,
                          const char *expected)
{
    CU_ASSERT_EQUAL_FATAL(spx_daemon_send(daemon, bytes, length), APR_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(spx_daemon_send(daemon, "\n", 1), APR_SUCCESS);
    spx_daemon_assert_line(spx_daemon_read_line(daemon), expected);
}

/* Send bytes[0..length) and an LF; the response must be the error code to
 * id with reason, its detail saying detail_part (spx_assert_error). */
static void expect_error(spx_daemon_t *daemon, const char *bytes, apr_size_t length, int code,
                         const char *id, const char *reason, const char *detail_part,
                         apr_pool_t *pool)
{
    CU_ASSERT_EQUAL_FATAL(spx_daemon_send(daemon, bytes, length), APR_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(spx_daemon_send(daemon, "\n", 1), APR_SUCCESS);
    spx_assert_error(spx_daemon_read_line(daemon), code, id, reason, detail_part, pool);
}

/* A -32700 whose detail names the rule (detail_part). */
static void expect_parse_error(spx_daemon_t *daemon, const char *bytes, apr_size_t length,
                               const char *detail_part, apr_pool_t *pool)
{
    expect_error(daemon, bytes, length, SPX_RPC_PARSE_ERROR, "null", "parse_error", detail_part,
                 pool);
}

static void expect_alive(spx_daemon_t *daemon)
{
    CU_ASSERT_STRING_EQUAL(spx_daemon_call(daemon, PING), PONG);
}

static char *repeat(const char *unit, apr_size_t times, const char *before, const char *after,
                    apr_size_t *length)
{
    apr_size_t unit_length = strlen(unit), before_length = strlen(before);
    apr_size_t after_length = strlen(after);
    *length = before_length + unit_length * times + after_length;
    char *text = malloc(*length + 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(text);
    memcpy(text, before, before_length);
    for (apr_size_t i = 0; i < times; i++)
        memcpy(text + before_length + i * unit_length, unit, unit_length);
    memcpy(text + before_length + unit_length * times, after, after_length + 1);
    return text;
}

static void test_nesting_100000_deep(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_daemon_t *daemon = start(fixture, (const char *const[]){NULL});
    const char *deeper = "nests arrays and objects deeper than 64";
    apr_pool_t *pool = fixture->pool;
    apr_size_t length = 0;
    /* Opened only; opened and closed; objects; inside a valid request. */
    char *open_only = repeat("[", DEEP, "", "", &length);
    expect_parse_error(daemon, open_only, length, deeper, pool);
    free(open_only);
    char *arrays = repeat("[", DEEP, "", "", &length);
    char *closed = repeat("]", DEEP, arrays, "", &length);
    expect_parse_error(daemon, closed, length, deeper, pool);
    free(arrays);
    free(closed);
    char *objects = repeat("{\"a\":", DEEP, "", "1", &length);
    char *objects_closed = repeat("}", DEEP, objects, "", &length);
    expect_parse_error(daemon, objects_closed, length, deeper, pool);
    free(objects);
    free(objects_closed);
    char *inner =
        repeat("[", DEEP,
               "{\"id\":1,\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"params\":{\"a\":", "", &length);
    char *request = repeat("]", DEEP, inner, "}}", &length);
    expect_parse_error(daemon, request, length, deeper, pool);
    free(inner);
    free(request);
    /* 64 deep is the limit (docs/limits.md): 63 arrays inside params (depth
     * 2) decode, and the request is judged on its params. */
    char *at_limit =
        repeat("[", 62, "{\"id\":1,\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"params\":{\"a\":", "",
               &length);
    char *at_limit_closed = repeat("]", 62, at_limit, "}}", &length);
    expect_error(daemon, at_limit_closed, length, SPX_RPC_INVALID_PARAMS, "1", "unknown_param",
                 "unknown param 'a' for ping, which takes none", pool);
    free(at_limit);
    free(at_limit_closed);
    expect_alive(daemon);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

static void test_60_mib_string_under_64_mib(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_daemon_t *daemon =
        start(fixture, (const char *const[]){"--max-request-bytes", "67108864", NULL});
    apr_size_t length = 0;
    char *request = repeat("x", 60 * MIB,
                           "{\"id\":5,\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"params\":{\"s\":\"",
                           "\"}}", &length);
    CU_ASSERT_TRUE(length > 60 * MIB && length < 64 * MIB);
    /* A frame within the bound, valid JSON: ping takes no params. */
    expect_error(daemon, request, length, SPX_RPC_INVALID_PARAMS, "5", "unknown_param",
                 "unknown param 's' for ping", fixture->pool);
    free(request);
    /* The same string as the id: over 256 bytes, a bad id. */
    char *as_id =
        repeat("x", 60 * MIB, "{\"id\":\"", "\",\"jsonrpc\":\"2.0\",\"method\":\"ping\"}", &length);
    expect_error(daemon, as_id, length, SPX_RPC_INVALID_REQUEST, "null", "invalid_request",
                 "id is not a string of at most 256 bytes", fixture->pool);
    free(as_id);
    expect_alive(daemon);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

/* params with count keys "k0":0, "k1":0, ... and then tail. */
static char *keys_request(int count, const char *tail, apr_size_t *length)
{
    const char *head = "{\"id\":6,\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"params\":{";
    apr_size_t head_length = strlen(head), capacity = head_length + 20u * (apr_size_t)count + 16;
    char *request = malloc(capacity);
    CU_ASSERT_PTR_NOT_NULL_FATAL(request);
    memcpy(request, head, head_length);
    *length = head_length;
    for (int i = 0; i < count; i++)
        *length += (apr_size_t)snprintf(request + *length, capacity - *length, "%s\"k%d\":0",
                                        i ? "," : "", i);
    *length += (apr_size_t)snprintf(request + *length, capacity - *length, "%s", tail);
    return request;
}

/* A million keys are refused before decoding (too many values); 8000 keys
 * decode and are unknown params; 8000 with one repeated are a duplicate. */
static void test_a_million_keys_in_params(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_daemon_t *daemon =
        start(fixture, (const char *const[]){"--max-request-bytes", "33554432", NULL});
    apr_size_t length = 0;
    char *request = keys_request(1000000, "}}", &length);
    expect_parse_error(daemon, request, length, "more JSON values than a request may",
                       fixture->pool);
    free(request);
    request = keys_request(8000, "}}", &length);
    /* the bytewise-first unknown key is named */
    expect_error(daemon, request, length, SPX_RPC_INVALID_PARAMS, "6", "unknown_param",
                 "unknown param 'k0' for ping", fixture->pool);
    free(request);
    request = keys_request(8000, ",\"k0\":1}}", &length);
    expect_parse_error(daemon, request, length, "a duplicate key", fixture->pool);
    free(request);
    expect_alive(daemon);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

/* A request with bytes[0..length) inside a params string. */
static const char *with_string(const char *bytes, apr_size_t length, apr_pool_t *pool,
                               apr_size_t *frame_length)
{
    const char *head = "{\"id\":7,\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"params\":{\"k\":\"";
    const char *tail = "\"}}";
    apr_size_t head_length = strlen(head), tail_length = strlen(tail);
    char *frame = apr_palloc(pool, head_length + length + tail_length);
    memcpy(frame, head, head_length);
    memcpy(frame + head_length, bytes, length);
    memcpy(frame + head_length + length, tail, tail_length);
    *frame_length = head_length + length + tail_length;
    return frame;
}

static void test_every_lone_byte_of_invalid_utf8(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_t *daemon = start(fixture, (const char *const[]){NULL});
    const char *invalid = "not valid UTF-8";
    for (int byte = 0x80; byte <= 0xFF; byte++) {
        /* Alone, as a whole frame and inside a string: continuation bytes
         * without a lead, C0, C1, F5..FF, and every lead without its
         * continuation. */
        char lone = (char)byte;
        expect_parse_error(daemon, &lone, 1, invalid, pool);
        apr_size_t length = 0;
        const char *frame = with_string(&lone, 1, pool, &length);
        expect_parse_error(daemon, frame, length, invalid, pool);
        /* A lead followed by an ASCII byte where a continuation must be. */
        if (byte >= 0xC2 && byte <= 0xF4) {
            char pair[2] = {(char)byte, 'A'};
            frame = with_string(pair, 2, pool, &length);
            expect_parse_error(daemon, frame, length, invalid, pool);
        }
    }
    expect_alive(daemon);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

static void test_overlongs_and_surrogates(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_t *daemon = start(fixture, (const char *const[]){NULL});
    static const char *const refused[] = {
        "\xC0\x80",
        "\xC0\xAF",
        "\xC1\xBF", /* 2-byte overlongs */
        "\xE0\x80\x80",
        "\xE0\x80\xAF",
        "\xE0\x9F\xBF", /* 3-byte overlongs */
        "\xF0\x80\x80\x80",
        "\xF0\x80\x80\xAF",
        "\xF0\x8F\xBF\xBF", /* 4-byte overlongs */
        "\xED\xA0\x80",
        "\xED\xAF\xBF",
        "\xED\xB0\x80", /* surrogates */
        "\xED\xBF\xBF",
        "\xED\xA0\xBD\xED\xB8\x80", /* a CESU-8 pair */
        "\xF4\x90\x80\x80",
        "\xF7\xBF\xBF\xBF",
        "\xF8\x88\x80\x80\x80", /* above U+10FFFF */
        "\xFC\x84\x80\x80\x80\x80",
        "\xE2\x82",
        "\xF0\x9F\x98", /* 5, 6 bytes; cut */
    };
    /* Their valid neighbours pass the UTF-8 check: the frame is then judged
     * as a request (ping takes no params: -32602 with its id). */
    static const char *const accepted[] = {"\xC2\x80",         "\xDF\xBF",        "\xE0\xA0\x80",
                                           "\xED\x9F\xBF",     "\xEE\x80\x80",    "\xEF\xBF\xBF",
                                           "\xF0\x90\x80\x80", "\xF4\x8F\xBF\xBF"};
    for (apr_size_t i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
        apr_size_t length = 0;
        const char *frame = with_string(refused[i], strlen(refused[i]), pool, &length);
        expect_parse_error(daemon, frame, length, "not valid UTF-8", pool);
        expect_parse_error(daemon, refused[i], strlen(refused[i]), "not valid UTF-8", pool);
    }
    for (apr_size_t i = 0; i < sizeof(accepted) / sizeof(accepted[0]); i++) {
        apr_size_t length = 0;
        const char *frame = with_string(accepted[i], strlen(accepted[i]), pool, &length);
        expect_error(daemon, frame, length, SPX_RPC_INVALID_PARAMS, "7", "unknown_param",
                     "unknown param 'k' for ping", pool);
    }
    expect_alive(daemon);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

static void test_frames_of_only_blanks(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_daemon_t *daemon = start(fixture, (const char *const[]){NULL});
    apr_pool_t *pool = fixture->pool;
    const char *not_json = "not one JSON value";
    expect_parse_error(daemon, " ", 1, not_json, pool);
    expect_parse_error(daemon, "\t \t", 3, not_json, pool);
    apr_size_t length = 0;
    char *spaces = repeat(" ", 1000000, "", "", &length); /* just under the 1 MiB bound */
    expect_parse_error(daemon, spaces, length, not_json, pool);
    free(spaces);
    expect_parse_error(daemon, "", 0, "the request line is empty", pool); /* the empty frame */
    /* Blanks around a valid request are JSON whitespace: it is answered. */
    expect_answer(daemon, "  " PING "\t ", strlen("  " PING "\t "), PONG);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

static void test_last_frame_without_lf(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_daemon_t *daemon = start(fixture, (const char *const[]){NULL});
    const char *input = PING "\n" PING; /* the second has no LF: not a frame */
    CU_ASSERT_EQUAL(spx_daemon_send(daemon, input, strlen(input)), APR_SUCCESS);
    CU_ASSERT_STRING_EQUAL(spx_daemon_read_line(daemon), PONG);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    CU_ASSERT_STRING_EQUAL(spx_daemon_rest(daemon), "");
    spx_assert_contains(spx_daemon_stderr(daemon), "bytes at end of input without LF");
    spx_fixture_free(fixture);
}

static void test_input_closed_mid_frame(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_daemon_t *daemon = start(fixture, (const char *const[]){NULL});
    expect_alive(daemon);
    const char *half = "{\"id\":1,\"jsonrpc\":\"2.0\",\"meth";
    CU_ASSERT_EQUAL(spx_daemon_send(daemon, half, strlen(half)), APR_SUCCESS);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0); /* nothing run, nothing answered */
    CU_ASSERT_STRING_EQUAL(spx_daemon_rest(daemon), "");
    spx_assert_contains(spx_daemon_stderr(daemon), "29 bytes at end of input without LF");

    /* Closed in the middle of an oversized frame: the frame is oversized
     * all the same (-32002, exit 1). */
    spx_daemon_t *oversized = spx_daemon_start_on(
        fixture, "proj", (const char *const[]){"--max-request-bytes", "256", NULL});
    apr_size_t length = 0;
    char *bytes = repeat("x", 300000, "", "", &length);
    CU_ASSERT_EQUAL(spx_daemon_send(oversized, bytes, length), APR_SUCCESS);
    free(bytes);
    CU_ASSERT_EQUAL(spx_daemon_finish(oversized), 1);
    const char *rest = spx_daemon_rest(oversized);
    CU_ASSERT_TRUE(strlen(rest) > 0 && rest[strlen(rest) - 1] == '\n' &&
                   strchr(rest, '\n') == rest + strlen(rest) - 1); /* one line */
    spx_assert_error(apr_pstrndup(fixture->pool, rest, strlen(rest) ? strlen(rest) - 1 : 0),
                     SPX_RPC_REQUEST_TOO_LARGE, "null", "request_too_large",
                     "the request line is over 256 bytes (--max-request-bytes)", fixture->pool);
    spx_fixture_free(fixture);
}

/* Generous for valgrind; a spinning daemon never exits at all. */
#define EXIT_SECONDS 60

static void test_output_closed_by_the_client(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_daemon_t *daemon = start(fixture, (const char *const[]){NULL});
    expect_alive(daemon);
    const char *revisions = spx_daemon_open(daemon);
    spx_daemon_close_output(daemon);
    /* The next response cannot be written: the daemon says so and exits 1
     * by itself (its input is still open), not by SIGPIPE, and not spinning. */
    const char *graph = apr_pstrcat(
        fixture->pool, spx_request_line("1", "graph", revisions, fixture->pool), "\n", NULL);
    CU_ASSERT_EQUAL(spx_daemon_send(daemon, graph, strlen(graph)), APR_SUCCESS);
    CU_ASSERT_TRUE(spx_daemon_exited_within(daemon, EXIT_SECONDS));
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 1);
    /* The reason in parentheses is the system's own text ("Broken pipe" on
     * POSIX). */
    spx_assert_contains(spx_daemon_stderr(daemon),
                        "semapraxd: cannot write a response to standard output (");

    /* Closed before the daemon has written anything at all. */
    spx_daemon_t *early = spx_daemon_start_on(fixture, "proj", (const char *const[]){NULL});
    spx_daemon_close_output(early);
    CU_ASSERT_EQUAL(spx_daemon_send(early, PING "\n", strlen(PING "\n")), APR_SUCCESS);
    CU_ASSERT_TRUE(spx_daemon_exited_within(early, EXIT_SECONDS));
    CU_ASSERT_EQUAL(spx_daemon_finish(early), 1);
    spx_assert_contains(spx_daemon_stderr(early), "cannot write a response to standard output");
    spx_fixture_free(fixture);
}

static void test_sigpipe_is_ignored(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_daemon_t *daemon = start(fixture, (const char *const[]){NULL});
    expect_alive(daemon); /* started and reading: its signal actions are set */
    if (spx_process_send_broken_pipe(spx_daemon_pid(daemon))) {
        expect_alive(daemon);
        CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    } else { /* a system without SIGPIPE */
        CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    }
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"JSON nested 100,000 deep", test_nesting_100000_deep},
        {"a 60 MiB string under a 64 MiB bound", test_60_mib_string_under_64_mib},
        {"a million keys in params", test_a_million_keys_in_params},
        {"every lone byte of invalid UTF-8", test_every_lone_byte_of_invalid_utf8},
        {"overlongs and surrogates", test_overlongs_and_surrogates},
        {"frames of only blanks", test_frames_of_only_blanks},
        {"the last frame without LF", test_last_frame_without_lf},
        {"input closed in the middle of a frame", test_input_closed_mid_frame},
        {"output closed by the client", test_output_closed_by_the_client},
        {"SIGPIPE is ignored", test_sigpipe_is_ignored},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("daemon hostile input", tests);
}
