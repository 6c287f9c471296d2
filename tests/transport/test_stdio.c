/*
 * test_stdio.c: the frame reader and the response writer over the process's
 * real standard streams (the platform layer's binary stdio), as the daemon
 * uses them: for the length of the test, stdin is a file of request bytes and
 * stdout a temporary file (both swapped in and back with APR's apr_file_dup2),
 * and the bytes that come out are compared exactly.
 */
#include "spx_frame.h"
#include "spx_request.h"
#include "spx_response.h"
#include "spx_rpc.h"
#include "spx_test.h"

#include <apr_file_io.h>
#include <apr_strings.h>
#include <stdio.h>
#include <string.h>

/* Standard input and output swapped for files, and what to put back. */
typedef struct swapped_t {
    apr_file_t *std_in, *std_out;
    apr_file_t *saved_in, *saved_out;
    apr_file_t *output; /* the file stdout now writes to */
} swapped_t;

static void swap_in(swapped_t *swap, spx_fixture_t *fixture, const char *input, apr_size_t length)
{
    apr_pool_t *pool = fixture->pool;
    apr_file_t *in = NULL;
    const char *in_path = spx_fixture_path(fixture, "in");
    CU_ASSERT_EQUAL_FATAL(
        apr_file_open(&in, in_path,
                      APR_FOPEN_CREATE | APR_FOPEN_WRITE | APR_FOPEN_READ | APR_FOPEN_BINARY,
                      APR_FPROT_OS_DEFAULT, pool),
        APR_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(apr_file_write_full(in, input, length, NULL), APR_SUCCESS);
    apr_off_t start = 0;
    CU_ASSERT_EQUAL_FATAL(apr_file_seek(in, APR_SET, &start), APR_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(
        apr_file_open(&swap->output, spx_fixture_path(fixture, "out"),
                      APR_FOPEN_CREATE | APR_FOPEN_WRITE | APR_FOPEN_READ | APR_FOPEN_BINARY,
                      APR_FPROT_OS_DEFAULT, pool),
        APR_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(apr_file_open_stdin(&swap->std_in, pool), APR_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(apr_file_open_stdout(&swap->std_out, pool), APR_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(apr_file_dup(&swap->saved_in, swap->std_in, pool), APR_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(apr_file_dup(&swap->saved_out, swap->std_out, pool), APR_SUCCESS);
    fflush(stdout); /* CUnit's own output stays on the real stdout */
    CU_ASSERT_EQUAL_FATAL(apr_file_dup2(swap->std_in, in, pool), APR_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(apr_file_dup2(swap->std_out, swap->output, pool), APR_SUCCESS);
}

/* Put the real streams back and return what was written to stdout. */
static const char *swap_back(swapped_t *swap, apr_pool_t *pool)
{
    CU_ASSERT_EQUAL(apr_file_dup2(swap->std_in, swap->saved_in, pool), APR_SUCCESS);
    CU_ASSERT_EQUAL(apr_file_dup2(swap->std_out, swap->saved_out, pool), APR_SUCCESS);
    apr_off_t end = 0, start = 0;
    apr_file_seek(swap->output, APR_END, &end);
    apr_file_seek(swap->output, APR_SET, &start);
    char *bytes = apr_pcalloc(pool, (apr_size_t)end + 1);
    apr_size_t got = 0;
    if (end > 0)
        apr_file_read_full(swap->output, bytes, (apr_size_t)end, &got);
    return bytes;
}

static void test_requests_from_stdin_responses_to_stdout(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    apr_pool_t *pool = fixture->pool;
    /* Frames across the platform's reads, a CRLF frame, a binary byte. */
    const char input[] = "{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":1}\n"
                         "{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":2}\r\n"
                         "{\"jsonrpc\":\"2.0\",\"method\":\"ping\",\"id\":\"\xC3\xA9\"}\n"
                         "{\"jsonrpc\":\"2.0\",\"method\":\"ping\"}";
    swapped_t swap;
    swap_in(&swap, fixture, input, sizeof(input) - 1);

    spx_stdio_t *stdio = NULL;
    spx_frame_reader_t *reader = NULL;
    spx_response_writer_t *writer = NULL;
    apr_status_t status = spx_stdio_open(&stdio, pool);
    if (status == APR_SUCCESS)
        status = spx_frame_reader_create_stdio(&reader, stdio, 256, pool);
    if (status == APR_SUCCESS)
        status = spx_response_writer_create_stdio(&writer, stdio, 1024, pool);
    int frames = 0;
    spx_frame_t frame = {SPX_FRAME_END, NULL, 0};
    while (status == APR_SUCCESS) {
        status = spx_frame_next(reader, &frame);
        if (status != APR_SUCCESS || frame.kind != SPX_FRAME_COMPLETE)
            break;
        frames++;
        spx_request_t request;
        spx_request_error_t error;
        spx_response_outcome_t outcome;
        if (spx_request_parse(frame.bytes, frame.length, &request, &error, pool) ==
            SPX_REQUEST_VALID) {
            json_t *result = json_pack("{s:s}", "state", "configured");
            status = spx_response_write_result(writer, request.id, result, &outcome);
            json_decref(result);
        } else {
            status = spx_response_write_error(writer, error.id, error.code, NULL, &outcome);
        }
    }
    const char *output = swap_back(&swap, pool);

    CU_ASSERT_EQUAL(status, APR_SUCCESS);
    CU_ASSERT_EQUAL(frames, 3);
    CU_ASSERT_EQUAL(frame.kind, SPX_FRAME_UNTERMINATED);
    CU_ASSERT_STRING_EQUAL(
        output,
        "{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{\"state\":\"configured\"}}\n"
        "{\"error\":{\"code\":-32700,\"message\":\"parse error\"},\"id\":null,"
        "\"jsonrpc\":\"2.0\"}\n"
        "{\"id\":\"\xC3\xA9\",\"jsonrpc\":\"2.0\",\"result\":{\"state\":\"configured\"}}\n");
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"requests from stdin, responses to stdout", test_requests_from_stdin_responses_to_stdout},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("stdio", tests);
}
