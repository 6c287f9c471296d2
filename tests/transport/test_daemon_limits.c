/*
 * test_daemon_limits.c: process tests of the real daemon at its bounds: a
 * 64 MiB request line against the 1 MiB bound (one -32002, exit 1, peak RSS
 * under 16 MiB and less than 1 MiB above the RSS before it), a response over a small
 * --max-response-bytes (the fixed -32001, exit 1), and the JSONTestSuite sent frame by frame (every
 * n_ file refused with -32700 or -32600, never a result, and the session lives on).
 */
#include "spx_corpus.h"
#include "spx_daemon.h"
#include "spx_limits.h"
#include "spx_process.h"
#include "spx_rpc.h"

#include <apr_strings.h>
#include <apr_thread_proc.h>
#include <stdlib.h>
#include <string.h>

#define PING "{\"id\":99,\"jsonrpc\":\"2.0\",\"method\":\"ping\"}"
#define PONG "{\"id\":99,\"jsonrpc\":\"2.0\",\"result\":{\"state\":\"configured\"}}"
#define MIB (1024u * 1024u)
/* The bound on the daemon's peak RSS while it drains 64 MiB, and on how much
 * that may add to what it held before: the frame it stores up to the 1 MiB
 * bound, its read chunk, and the system's own buffers for reading a pipe
 * (measured: 1.1 MiB in all on Linux, 2.7 MiB under Wine). */
#define PEAK_RSS_BOUND_KIB (16u * 1024u)
#define DRAIN_GROWTH_BOUND_KIB (4u * 1024u)

static void test_oversized_request(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_daemon_copy_hello(fixture, "proj");
    spx_daemon_t *daemon = spx_daemon_start_on(
        fixture, "proj", (const char *const[]){"--max-request-bytes", "1048576", NULL});
    /* A request before it is answered as usual. */
    CU_ASSERT_STRING_EQUAL(spx_daemon_call(daemon, PING), PONG);
    long before = spx_process_memory_kib(spx_daemon_pid(daemon), SPX_MEMORY_NOW);
    char *chunk = malloc(MIB);
    CU_ASSERT_PTR_NOT_NULL_FATAL(chunk);
    memset(chunk, 'x', MIB);
    for (int i = 0; i < 64; i++)
        CU_ASSERT_EQUAL_FATAL(spx_daemon_send(daemon, chunk, MIB), APR_SUCCESS);
    free(chunk);
    /* Sampled while the daemon still runs, after it has drained the line (it
     * waits for the LF): the peak of the whole session so far. */
    long peak = spx_process_memory_kib(spx_daemon_pid(daemon), SPX_MEMORY_PEAK);
    const char *end = "\n" PING "\n";
    CU_ASSERT_EQUAL(spx_daemon_send(daemon, end, strlen(end)), APR_SUCCESS);
    spx_assert_error(spx_daemon_read_line(daemon), SPX_RPC_REQUEST_TOO_LARGE, "null",
                     "request_too_large",
                     "the request line is over 1048576 bytes (--max-request-bytes)", fixture->pool);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 1);
    CU_ASSERT_STRING_EQUAL(spx_daemon_rest(daemon), ""); /* the ping after it is not answered */
    fprintf(stderr, "\n  daemon resident before 64 MiB: %ld KiB, peak after draining it: %ld KiB\n",
            before, peak);
    CU_ASSERT_TRUE(before > 0 && peak >= before);
#ifndef SPX_TEST_SANITIZED
    /* Storing the frame up to its bound, then draining, adds little. */
    CU_ASSERT_TRUE(peak - before < (long)DRAIN_GROWTH_BOUND_KIB);
    /* The absolute bound, except under Wine, whose own libraries are most of
     * a Windows process's working set there (tests/support/win32/memory.c). */
    if (!spx_running_under_wine())
        CU_ASSERT_TRUE(peak < (long)PEAK_RSS_BOUND_KIB);
#endif
    spx_fixture_free(fixture);
}

/* A frame of length bytes whose params hold an array of empty objects. */
static char *empty_objects_frame(apr_size_t length)
{
    const char *head = "{\"id\":8,\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"params\":{\"a\":[{}";
    const char *tail = "]}}\n";
    apr_size_t head_length = strlen(head), tail_length = strlen(tail);
    char *frame = malloc(length + 1);
    CU_ASSERT_PTR_NOT_NULL_FATAL(frame);
    memcpy(frame, head, head_length);
    apr_size_t at = head_length;
    while (at + 3 + tail_length <= length) {
        memcpy(frame + at, ",{}", 3);
        at += 3;
    }
    while (at + tail_length < length)
        frame[at++] = ' ';
    memcpy(frame + at, tail, tail_length);
    return frame;
}

/* Empty objects cost the decoder ~250 bytes for 3 bytes of frame: a frame of
 * them is refused on its raw bytes (too many values, -32700), so the peak
 * stays under 8x the frame plus the baseline, at 1 MiB and at 64 MiB. */
static void test_empty_objects_stay_bounded(void)
{
    const apr_size_t sizes[] = {MIB, 64u * MIB};
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
        spx_fixture_t *fixture = spx_fixture_new();
        spx_daemon_copy_hello(fixture, "proj");
        spx_daemon_t *daemon = spx_daemon_start_on(
            fixture, "proj", (const char *const[]){"--max-request-bytes", "67108864", NULL});
        CU_ASSERT_STRING_EQUAL(spx_daemon_call(daemon, PING), PONG);
        long before = spx_process_memory_kib(spx_daemon_pid(daemon), SPX_MEMORY_NOW);
        char *frame = empty_objects_frame(sizes[i]); /* LF included, sent on its own: a
                                                      * transcript keeps only the length of
                                                      * what is over 1 MiB */
        CU_ASSERT_EQUAL_FATAL(spx_daemon_send(daemon, frame, sizes[i] - 1), APR_SUCCESS);
        CU_ASSERT_EQUAL_FATAL(spx_daemon_send(daemon, "\n", 1), APR_SUCCESS);
        free(frame);
        spx_assert_error(spx_daemon_read_line(daemon), SPX_RPC_PARSE_ERROR, "null", "parse_error",
                         NULL, fixture->pool);
        long peak = spx_process_memory_kib(spx_daemon_pid(daemon), SPX_MEMORY_PEAK);
        CU_ASSERT_STRING_EQUAL(spx_daemon_call(daemon, PING), PONG);
        CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
        long frame_kib = (long)(sizes[i] / 1024u);
        fprintf(stderr,
                "\n  %ld KiB of empty objects: resident before %ld KiB, peak %ld KiB "
                "(%.2fx the frame above the baseline)\n",
                frame_kib, before, peak, (double)(peak - before) / (double)frame_kib);
        CU_ASSERT_TRUE(before > 0 && peak >= before);
#ifndef SPX_TEST_SANITIZED
        CU_ASSERT_TRUE(peak - before < 8 * frame_kib);
#endif
        spx_fixture_free(fixture);
    }
}

/* The bytes a result line to id (as JSON text) has around its result. */
static long result_frame_bytes(const char *id)
{
    return (long)(strlen("{\"id\":,\"jsonrpc\":\"2.0\",\"result\":}\n") + strlen(id));
}

/* The daemon on a copy of examples/hello, with --max-response-bytes 4096. */
static spx_daemon_t *start_hello_within_4096(spx_fixture_t *fixture)
{
    spx_daemon_copy_hello(fixture, "proj");
    return spx_daemon_start_on(fixture, "proj",
                               (const char *const[]){"--max-response-bytes", "4096", NULL});
}

/* A context's max_bytes must fit the response it is sent in: under
 * --max-response-bytes 4096, the default is cut to what the line can hold
 * around it, a larger max_bytes is refused up front (-32602, the session
 * lives on), and the largest accepted one is answered within the limit. */
static void test_context_budget_fits_the_response(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_t *daemon = start_hello_within_4096(fixture);
    const char *revisions = spx_daemon_open(daemon);
    /* module app at depth 3 renders 14.4 KiB unbounded */
    const char *query = ",\"target_kind\":\"module\",\"target\":\"app\",\"depth\":3";
    const char *ids[] = {"1", "\"a-much-longer-request-id-than-the-first\""};
    for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
        long largest = 4096 - result_frame_bytes(ids[i]);
        /* no max_bytes: the default is cut to the largest */
        const char *line = spx_daemon_call(
            daemon,
            spx_request_line(ids[i], "context", apr_pstrcat(pool, revisions, query, NULL), pool));
        json_t *answer = json_loads(line, 0, NULL);
        json_t *limits = json_object_get(json_object_get(answer, "result"), "limits");
        CU_ASSERT_EQUAL(json_integer_value(json_object_get(limits, "max_bytes")), largest);
        CU_ASSERT_TRUE(strlen(line) + 1 <= 4096);
        json_decref(answer);
        /* the largest is answered; one more is refused, naming the largest */
        for (long extra = 0; extra < 2; extra++) {
            line = spx_daemon_call(daemon,
                                   spx_request_line(ids[i], "context",
                                                    apr_psprintf(pool, "%s%s,\"max_bytes\":%ld",
                                                                 revisions, query, largest + extra),
                                                    pool));
            if (extra == 0) {
                spx_assert_contains(line, "\"result\":");
                CU_ASSERT_TRUE(strlen(line) + 1 <= 4096);
            } else {
                /* data.detail names the range: "max_bytes 4062 is outside 1..4061" */
                spx_assert_error(
                    line, SPX_RPC_INVALID_PARAMS, ids[i], "out_of_range",
                    apr_psprintf(pool, "max_bytes %ld is outside 1..%ld", largest + 1, largest),
                    pool);
            }
        }
    }
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

/* At the smallest --max-response-bytes, every fixed answer of v2 and v3 is
 * written, with the longest id there is (a 256-byte string). */
static void test_fixed_answers_at_the_minimum(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_copy_hello(fixture, "proj");
    char *long_id = apr_palloc(pool, 259);
    long_id[0] = '"';
    memset(long_id + 1, 'i', 256);
    long_id[257] = '"';
    long_id[258] = '\0';
    const char *minimum = apr_psprintf(pool, "%u", SPX_LIMIT_SESSION_RESPONSE_BYTES_MINIMUM);
    for (int v3 = 0; v3 < 2; v3++) {
        spx_daemon_t *daemon =
            spx_daemon_start_on(fixture, "proj",
                                (const char *const[]){"--max-response-bytes", minimum,
                                                      v3 ? "--allow-project-rename" : NULL, NULL});
        const char *methods[] = {"protocol", "ping", "workspace/open", "workspace/status"};
        for (size_t m = 0; m < sizeof(methods) / sizeof(methods[0]); m++) {
            const char *line =
                spx_daemon_call(daemon, spx_request_line(long_id, methods[m], "", pool));
            spx_assert_contains(line, "\"result\":");
            CU_ASSERT_TRUE(strlen(line) + 1 <= SPX_LIMIT_SESSION_RESPONSE_BYTES_MINIMUM);
        }
        /* Errors echo what the client sent only in part, so they fit too:
         * a 10,000-byte method name, a 100,000-byte target. */
        char *long_name = apr_palloc(pool, 10001);
        memset(long_name, 'm', 10000);
        long_name[10000] = '\0';
        const char *line = spx_daemon_call(daemon, spx_request_line(long_id, long_name, "", pool));
        CU_ASSERT_TRUE(spx_error_matches(line, SPX_RPC_METHOD_NOT_FOUND, long_id,
                                         "method_not_found", "...' in semaprax.agent-transport",
                                         pool));
        CU_ASSERT_TRUE(strlen(line) + 1 <= SPX_LIMIT_SESSION_RESPONSE_BYTES_MINIMUM);
        char *long_target = apr_palloc(pool, 100001);
        memset(long_target, 't', 100000);
        long_target[100000] = '\0';
        const char *revisions = spx_daemon_open(daemon);
        line =
            spx_daemon_call(daemon, spx_request_line(long_id, "context",
                                                     apr_psprintf(pool,
                                                                  "%s,\"target_kind\":\"function\","
                                                                  "\"target\":\"%s\"",
                                                                  revisions, long_target),
                                                     pool));
        CU_ASSERT_TRUE(spx_error_matches(line, SPX_RPC_INVALID_PARAMS, long_id, "unknown_target",
                                         "no function 'ttt", pool));
        CU_ASSERT_TRUE(strlen(line) + 1 <= SPX_LIMIT_SESSION_RESPONSE_BYTES_MINIMUM);
        spx_assert_contains(line, "...\",\"reason\"");
        line = spx_daemon_call(daemon, spx_request_line(long_id, "shutdown", "", pool));
        spx_assert_contains(line, "\"result\":");
        CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    }
    spx_fixture_free(fixture);
}

static void test_response_over_budget(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_t *daemon = start_hello_within_4096(fixture);
    const char *revisions = spx_daemon_open(daemon);
    /* check fits in 4 KiB; the graph (9.6 KiB) does not. */
    spx_assert_contains(spx_daemon_call(daemon, spx_request_line("1", "check", revisions, pool)),
                        "\"admitted\":true");
    const char *graph = apr_pstrcat(pool, spx_request_line("\"g\"", "graph", revisions, pool), "\n",
                                    PING, "\n", NULL);
    CU_ASSERT_EQUAL(spx_daemon_send(daemon, graph, strlen(graph)), APR_SUCCESS);
    CU_ASSERT_STRING_EQUAL(spx_daemon_read_line(daemon),
                           "{\"error\":{\"code\":-32001,\"message\":\"response too large\"},"
                           "\"id\":\"g\",\"jsonrpc\":\"2.0\"}");
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 1);
    CU_ASSERT_STRING_EQUAL(spx_daemon_rest(daemon), "");
    spx_assert_contains(spx_daemon_stderr(daemon), "response over 4096 bytes");
    spx_fixture_free(fixture);
}

/* Writes rounds copies of one batch of request lines to the daemon, from a
 * thread of its own, while the test reads the answers: pipelined, so the
 * session's length costs the daemon's time, not a round trip per request
 * (a round trip between two Windows processes under Wine is about 100 ms). */
typedef struct sender_t {
    spx_daemon_t *daemon;
    const char *batch;
    int rounds;
    apr_status_t status;
} sender_t;

/* Fifty rounds to a write: under Wine each write to a pipe costs about as
 * much as a round trip, whatever its size. */
#define ROUNDS_PER_WRITE 50

static void *APR_THREAD_FUNC send_rounds(apr_thread_t *thread, void *data)
{
    (void)thread;
    sender_t *sender = data;
    size_t batch_length = strlen(sender->batch);
    char *block = malloc(ROUNDS_PER_WRITE * batch_length);
    if (!block) {
        sender->status = APR_ENOMEM;
        return NULL;
    }
    for (int i = 0; i < ROUNDS_PER_WRITE; i++)
        memcpy(block + (size_t)i * batch_length, sender->batch, batch_length);
    for (int sent = 0; sent < sender->rounds && sender->status == APR_SUCCESS;) {
        int now =
            sender->rounds - sent < ROUNDS_PER_WRITE ? sender->rounds - sent : ROUNDS_PER_WRITE;
        sender->status = spx_daemon_send(sender->daemon, block, (size_t)now * batch_length);
        sent += now;
    }
    free(block);
    return NULL;
}

/* Resident memory now, after rounds more rounds of graph, context and test. */
static long resident_after(spx_daemon_t *daemon, const char *revisions, int rounds,
                           apr_pool_t *pool)
{
    const char *context = apr_pstrcat(
        pool, revisions, ",\"target_kind\":\"module\",\"target\":\"app\",\"depth\":3", NULL);
    sender_t sender = {daemon,
                       apr_pstrcat(pool, spx_request_line("1", "graph", revisions, pool), "\n",
                                   spx_request_line("1", "test", revisions, pool), "\n",
                                   spx_request_line("1", "context", context, pool), "\n", NULL),
                       rounds, APR_SUCCESS};
    apr_thread_t *thread = NULL;
    CU_ASSERT_EQUAL_FATAL(apr_thread_create(&thread, NULL, send_rounds, &sender, pool),
                          APR_SUCCESS);
    int answered = 0;
    for (int i = 0; i < 3 * rounds; i++) {
        const char *answer = spx_daemon_read_line(daemon);
        if (!answer)
            break;
        answered += strstr(answer, "\"result\":") != NULL;
    }
    apr_status_t ignored;
    apr_thread_join(&ignored, thread);
    CU_ASSERT_EQUAL(sender.status, APR_SUCCESS);
    CU_ASSERT_EQUAL(answered, 3 * rounds);
    return spx_process_memory_kib(spx_daemon_pid(daemon), SPX_MEMORY_NOW);
}

static void test_memory_flat_over_a_long_session(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_copy_hello(fixture, "proj");
    spx_daemon_t *daemon = spx_daemon_start_on(fixture, "proj", (const char *const[]){NULL});
    const char *revisions = spx_daemon_open(daemon);
    long warm = resident_after(daemon, revisions, 50, pool);
    long later = resident_after(daemon, revisions, 1000, pool);
    fprintf(stderr, "\n  daemon RSS after 150 requests %ld KiB, after 3150: %ld KiB\n", warm,
            later);
    CU_ASSERT_TRUE(warm > 0 && later > 0);
#ifndef SPX_TEST_SANITIZED
    CU_ASSERT_TRUE(later - warm < 1024); /* a leak of even 300 bytes a request would show */
#endif
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    spx_fixture_free(fixture);
}

static void test_json_test_suite(void)
{
    const char *dir = getenv("SPX_CONFORMANCE");
    CU_ASSERT_PTR_NOT_NULL_FATAL(dir);
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    spx_daemon_copy_hello(fixture, "proj");
    spx_daemon_t *daemon = spx_daemon_start_on(fixture, "proj", (const char *const[]){NULL});
    apr_array_header_t *names = spx_corpus_list(dir, ".json", pool);
    int sent = 0, refused_n = 0;
    for (int i = 0; i < names->nelts; i++) {
        const char *name = APR_ARRAY_IDX(names, i, const char *);
        apr_size_t length = 0;
        const char *text = spx_corpus_read(apr_pstrcat(pool, dir, "/", name, NULL), &length, pool);
        if (memchr(text, '\n', length) || memchr(text, '\r', length))
            continue;
        CU_ASSERT_EQUAL_FATAL(spx_daemon_send(daemon, text, length), APR_SUCCESS);
        CU_ASSERT_EQUAL_FATAL(spx_daemon_send(daemon, "\n", 1), APR_SUCCESS);
        const char *line = spx_daemon_read_line(daemon);
        CU_ASSERT_PTR_NOT_NULL_FATAL(line);
        json_t *answer = json_loads(line, 0, NULL);
        CU_ASSERT_PTR_NOT_NULL_FATAL(answer);
        json_int_t code =
            json_integer_value(json_object_get(json_object_get(answer, "error"), "code"));
        int refused = code == SPX_RPC_PARSE_ERROR || code == SPX_RPC_INVALID_REQUEST;
        if (!refused || json_object_get(answer, "result"))
            fprintf(stderr, "\n  %s answered %s\n", name, line);
        CU_ASSERT_PTR_NULL(json_object_get(answer, "result")); /* no file is a request */
        if (strncmp(name, "n_", 2) == 0) {
            CU_ASSERT_TRUE(refused);
            refused_n += refused;
        }
        json_decref(answer);
        sent++;
        if (sent % 25 == 0)
            CU_ASSERT_STRING_EQUAL(spx_daemon_call(daemon, PING), PONG);
    }
    CU_ASSERT_TRUE(refused_n >= 150); /* the suite's n_ files without LF or CR */
    CU_ASSERT_STRING_EQUAL(spx_daemon_call(daemon, PING), PONG);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    fprintf(stderr, "\n  %d files sent, %d n_ files refused\n", sent, refused_n);
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"empty objects: peak under 8x the frame, 1 MiB and 64 MiB",
         test_empty_objects_stay_bounded},
        {"a 64 MiB request against 1 MiB", test_oversized_request},
        {"a response over budget", test_response_over_budget},
        {"a context budget fits the response", test_context_budget_fits_the_response},
        {"every fixed answer at the smallest response limit", test_fixed_answers_at_the_minimum},
        {"memory stays flat over a long session", test_memory_flat_over_a_long_session},
        {"the JSONTestSuite against the daemon", test_json_test_suite},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("daemon limits", tests);
}
