/*
 * test_pipeline.c: the three transport pieces wired by the shared request
 * loop (spx_loop.h: read frame -> parse request -> dispatch -> write
 * response, one pool per request), with a stand-in dispatcher that answers
 * every request with its method. A whole input of broken frames, each followed by a ping,
 * must give exactly the expected response bytes: every broken frame answered
 * once with its code and id, every ping answered afterwards, notifications
 * silent, and the oversized frame and the silent shutdown ending the loop.
 */
#include "spx_loop.h"
#include "spx_rpc.h"
#include "spx_test.h"

#include <apr_strings.h>
#include <string.h>

typedef struct memory_t {
    const char *in;
    apr_size_t in_length;
    apr_size_t in_at;
    char *out;
    apr_size_t out_length;
    apr_pool_t *pool;
} memory_t;

static apr_status_t read_in(void *context, void *buffer, apr_size_t capacity, apr_size_t *got)
{
    memory_t *memory = context;
    apr_size_t count = memory->in_length - memory->in_at;
    if (count > capacity)
        count = capacity;
    if (count > 3) /* small reads, so frames straddle them */
        count = 3;
    memcpy(buffer, memory->in + memory->in_at, count);
    memory->in_at += count;
    *got = count;
    return APR_SUCCESS;
}

static apr_status_t write_out(void *context, const void *bytes, apr_size_t length)
{
    memory_t *memory = context;
    memory->out =
        apr_pstrcat(memory->pool, memory->out, apr_pstrndup(memory->pool, bytes, length), NULL);
    memory->out_length += length;
    return APR_SUCCESS;
}

static apr_status_t flush_out(void *context)
{
    (void)context;
    return APR_SUCCESS;
}

typedef enum ending_t { ENDED_AT_EOF, ENDED_SILENTLY, ENDED_EXIT_1, ENDED_BY_DISPATCHER } ending_t;

/* The stand-in dispatcher: {"method":M}; "stop" answers and ends the loop,
 * "fail" answers -32603 with data. */
static void dispatch(void *context, const spx_request_t *request, spx_answer_t *answer,
                     apr_pool_t *pool)
{
    (void)context;
    (void)pool;
    if (strcmp(request->method, "fail") == 0) {
        answer->error_code = SPX_RPC_INTERNAL_ERROR;
        answer->error_data = json_pack("{s:s}", "why", "asked");
        return;
    }
    answer->result = json_pack("{s:s}", "method", request->method);
    answer->stop = strcmp(request->method, "stop") == 0;
}

/* The shared request loop (spx_loop.h) over memory. */
static ending_t run(memory_t *memory, apr_size_t max_request, apr_size_t max_response)
{
    spx_frame_reader_t *reader = NULL;
    spx_response_writer_t *writer = NULL;
    CU_ASSERT_EQUAL_FATAL(
        spx_frame_reader_create(&reader, read_in, memory, max_request, memory->pool), APR_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(spx_response_writer_create(&writer, write_out, flush_out, memory,
                                                     max_response, memory->pool),
                          APR_SUCCESS);
    spx_loop_report_t report;
    spx_loop_run(reader, writer, dispatch, NULL, memory->pool, &report);
    switch (report.end) {
    case SPX_LOOP_END_OF_INPUT:
        CU_ASSERT_EQUAL(spx_loop_exit_status(report.end), 0);
        return ENDED_AT_EOF;
    case SPX_LOOP_SILENT_SHUTDOWN:
        CU_ASSERT_EQUAL(spx_loop_exit_status(report.end), 0);
        return ENDED_SILENTLY;
    case SPX_LOOP_SHUTDOWN:
        CU_ASSERT_EQUAL(spx_loop_exit_status(report.end), 0);
        return ENDED_BY_DISPATCHER;
    default:
        CU_ASSERT_EQUAL(spx_loop_exit_status(report.end), 1);
        return ENDED_EXIT_1;
    }
}

static memory_t *memory_new(const char *in, apr_size_t in_length, apr_pool_t *pool)
{
    memory_t *memory = apr_pcalloc(pool, sizeof(*memory));
    memory->in = in;
    memory->in_length = in_length;
    memory->out = "";
    memory->pool = pool;
    return memory;
}

#define PING(id) "{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":" id "}\n"
#define PONG(id) "{\"id\":" id ",\"jsonrpc\":\"2.0\",\"result\":{\"method\":\"ping\"}}\n"
#define ERROR_LINE(code, message, id)                                                              \
    "{\"error\":{\"code\":" code ",\"message\":\"" message "\"},\"id\":" id                        \
    ",\"jsonrpc\":\"2.0\"}\n"
#define PARSE_ERROR ERROR_LINE("-32700", "parse error", "null")
#define INVALID(id) ERROR_LINE("-32600", "invalid request", id)

/* A frame (its bytes, without LF) and the response it must get ("" none). */
typedef struct exchange_t {
    const char *frame;
    apr_size_t length;
    const char *answer;
} exchange_t;

#define EXCHANGE(frame, answer)                                                                    \
    {                                                                                              \
        frame, sizeof(frame) - 1, answer                                                           \
    }

static void append(apr_array_header_t *bytes, const char *more, apr_size_t length)
{
    for (apr_size_t i = 0; i < length; i++)
        APR_ARRAY_PUSH(bytes, char) = more[i];
}

static void test_every_broken_frame_is_answered_and_the_loop_goes_on(void)
{
    const exchange_t exchanges[] = {
        EXCHANGE("", PARSE_ERROR),
        EXCHANGE("{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":2}\r", PARSE_ERROR),
        EXCHANGE("{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":4\0}", PARSE_ERROR),
        EXCHANGE("{\"jsonrpc\":\"2.0\",\"method\":\"p\xC0\xAF\",\"id\":6}", PARSE_ERROR),
        EXCHANGE("{\"jsonrpc\":\"2.0\",\"id\":8,\"id\":8,\"method\":\"ping\"}", PARSE_ERROR),
        EXCHANGE("[{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":10}]", INVALID("null")),
        EXCHANGE("{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":12,\"x\":0}", INVALID("12")),
        EXCHANGE("{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":-0}", INVALID("null")),
        EXCHANGE("{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":15,\"params\":[]}",
                 INVALID("15")),
        EXCHANGE("{\"jsonrpc\":\"2.0\",\"method\":\"check\"}", ""), /* a notification */
    };
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    /* Each exchange, then a ping that must still be answered; the frames may
     * hold NUL bytes, so the input is built with explicit lengths. */
    apr_array_header_t *in = apr_array_make(pool, 1024, 1);
    const char *expected = "";
    for (size_t i = 0; i < sizeof(exchanges) / sizeof(exchanges[0]); i++) {
        const char *id = apr_psprintf(pool, "%" APR_SIZE_T_FMT, (apr_size_t)(100 + i));
        const char *ping = apr_pstrcat(
            pool, "\n{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":", id, "}\n", NULL);
        append(in, exchanges[i].frame, exchanges[i].length);
        append(in, ping, strlen(ping));
        expected = apr_pstrcat(pool, expected, exchanges[i].answer, "{\"id\":", id,
                               ",\"jsonrpc\":\"2.0\",\"result\":{\"method\":\"ping\"}}\n", NULL);
    }
    /* The silent shutdown: nothing after it is read as a request. */
    const char *end = "{\"jsonrpc\":\"2.0\",\"method\":\"shutdown\"}\n" PING("999");
    append(in, end, strlen(end));
    memory_t *memory = memory_new(in->elts, (apr_size_t)in->nelts, pool);
    CU_ASSERT_EQUAL(run(memory, 256, 1024), ENDED_SILENTLY);
    if (strcmp(memory->out, expected) != 0)
        fprintf(stderr, "\n  got:\n%s  wanted:\n%s", memory->out, expected);
    CU_ASSERT_STRING_EQUAL(memory->out, expected);
    apr_pool_destroy(pool);
}

static void test_oversized_frame_gets_one_error_and_ends(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    apr_size_t huge = 100000;
    char *line = apr_palloc(pool, huge + 1);
    memset(line, 'x', huge);
    line[huge] = '\0';
    const char *in = apr_pstrcat(pool, PING("1"), line, "\n", PING("2"), NULL);
    memory_t *memory = memory_new(in, strlen(in), pool);
    CU_ASSERT_EQUAL(run(memory, 256, 1024), ENDED_EXIT_1);
    CU_ASSERT_STRING_EQUAL(memory->out,
                           PONG("1") ERROR_LINE("-32002", "request too large", "null"));
    apr_pool_destroy(pool);
}

static void test_end_of_input_ends_quietly(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    /* The last request has no LF: it is not a frame and is not run. */
    const char in[] = PING("1") "{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":2}";
    memory_t *memory = memory_new(in, sizeof(in) - 1, pool);
    CU_ASSERT_EQUAL(run(memory, 256, 1024), ENDED_AT_EOF);
    CU_ASSERT_STRING_EQUAL(memory->out, PONG("1"));
    apr_pool_destroy(pool);
}

static void test_dispatcher_errors_and_stop(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    const char in[] = "{\"jsonrpc\":\"2.0\",\"method\":\"fail\",\"id\":\"f\"}\n"
                      "{\"jsonrpc\":\"2.0\",\"method\":\"stop\"}\n" /* a notification: not run */
                      "{\"jsonrpc\":\"2.0\",\"method\":\"stop\",\"id\":3}\n" PING("4");
    memory_t *memory = memory_new(in, sizeof(in) - 1, pool);
    CU_ASSERT_EQUAL(run(memory, 256, 1024), ENDED_BY_DISPATCHER);
    CU_ASSERT_STRING_EQUAL(memory->out,
                           "{\"error\":{\"code\":-32603,\"data\":{\"why\":\"asked\"},"
                           "\"message\":\"internal error\"},\"id\":\"f\",\"jsonrpc\":\"2.0\"}\n"
                           "{\"id\":3,\"jsonrpc\":\"2.0\",\"result\":{\"method\":\"stop\"}}\n");
    apr_pool_destroy(pool);
}

static void test_oversized_response_is_replaced_and_ends(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    char method[1100];
    memset(method, 'm', sizeof(method) - 1);
    method[sizeof(method) - 1] = '\0';
    const char *in = apr_pstrcat(pool, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"", method,
                                 "\"}\n", PING("8"), NULL);
    memory_t *memory = memory_new(in, strlen(in), pool);
    CU_ASSERT_EQUAL(run(memory, 2048, 1024), ENDED_EXIT_1);
    CU_ASSERT_STRING_EQUAL(memory->out, ERROR_LINE("-32001", "response too large", "7"));
    apr_pool_destroy(pool);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"every broken frame is answered and the loop goes on",
         test_every_broken_frame_is_answered_and_the_loop_goes_on},
        {"an oversized frame gets one error and ends",
         test_oversized_frame_gets_one_error_and_ends},
        {"end of input ends quietly", test_end_of_input_ends_quietly},
        {"dispatcher errors carry data; a stop ends the loop", test_dispatcher_errors_and_stop},
        {"an oversized response is replaced and ends",
         test_oversized_response_is_replaced_and_ends},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("pipeline", tests);
}
