/*
 * loop.c: the request loop shared by the agent transports (spx_loop.h):
 * frame -> request -> the transport's hooks -> response, one pool per
 * request. spx_loop_run_with_hooks is the loop itself; spx_loop_run is the
 * loop with the hooks of a dispatcher that fills an spx_answer_t (v1, v2,
 * v3), which are here too: their refusals, the silent `shutdown`, and
 * writing the answer through its gate.
 */
#include "spx_loop.h"

#include "spx_allocation.h"
#include "spx_assert.h"
#include "spx_exit.h"
#include "spx_limits.h"
#include "spx_platform.h"
#include "spx_rpc.h"
#include "spx_status.h"

#include <apr_strings.h>
#include <stdio.h>
#include <string.h>

/* Write the dispatcher's answer (through its gate, if any) and release what
 * it handed over; a withheld answer is replaced by what the dispatcher says. */
static apr_status_t write_answer(spx_response_writer_t *writer, const spx_request_t *request,
                                 spx_answer_t *answer, void *context,
                                 spx_response_outcome_t *outcome)
{
    const spx_response_gate_t *gate = answer->gate.pass ? &answer->gate : NULL;
    apr_status_t status;
    if (answer->result_stream)
        status = spx_response_write_result_streamed(writer, request->id, answer->result_stream,
                                                    answer->result_context, gate, outcome);
    else if (answer->result_text)
        status = spx_response_write_result_text(writer, request->id, answer->result_text,
                                                answer->result_length, gate, outcome);
    else if (answer->result)
        status =
            spx_response_write_result_gated(writer, request->id, answer->result, gate, outcome);
    else
        status = spx_response_write_error_explained(writer, request->id, answer->error_code,
                                                    answer->error_data, answer->error_reason,
                                                    answer->error_detail, gate, outcome);
    json_decref(answer->result);
    json_decref(answer->error_data);
    if (status == APR_SUCCESS && *outcome == SPX_RESPONSE_WITHHELD) {
        spx_answer_t replacement = {.error_code = SPX_RPC_INTERNAL_ERROR};
        if (answer->withheld)
            answer->withheld(context, &replacement);
        answer->stop = 0;
        status = write_answer(writer, request, &replacement, context, outcome);
    }
    return status;
}

/* The data.detail of a request refused by the grammar (when the writer
 * explains its errors): the rule it broke, in a sentence. */
static const char *refusal_detail(const spx_request_error_t *error, apr_pool_t *pool)
{
    static const char *const rules[][2] = {
        {"empty frame", "the request line is empty"},
        {"NUL byte", "the request line holds a NUL byte"},
        {"CR byte", "the request line holds a CR byte (CR LF line ends are refused: end each "
                    "request with LF alone)"},
        {"invalid UTF-8", "the request line is not valid UTF-8"},
        {"too many values", "the request holds more JSON values than a request may"},
        {"nesting too deep", "the request nests arrays and objects deeper than 64"},
        {"invalid JSON", "the request line is not one JSON value (invalid JSON, bytes after the "
                         "value, a duplicate key, or \\u0000 in a string)"},
        {"batch", "the request is an array: batches are not accepted"},
        {"not an object", "the request is not a JSON object"},
        {"unknown top-level key", "the request has a top-level key other than jsonrpc, id, "
                                  "method and params"},
        {"jsonrpc is not \"2.0\"", "the request's jsonrpc is not exactly \"2.0\""},
        {"method missing or not a string", "the request's method is missing or not a string"},
        {"params is not an object", "the request's params is not an object"},
        {"bad id", "the request's id is not a string of at most 256 bytes or an integer "
                   "0..9007199254740991 written without sign, fraction or exponent"},
        {"out of memory", "the daemon ran out of memory reading the request"},
    };
    for (size_t i = 0; error->detail && i < sizeof(rules) / sizeof(rules[0]); i++)
        if (strcmp(error->detail, rules[i][0]) == 0)
            return rules[i][1];
    return error->detail ? apr_psprintf(pool, "the request was refused: %s", error->detail) : NULL;
}

/* --- the hooks of a dispatcher that fills an answer ----------------------------------- */

typedef struct answering_t {
    spx_dispatch_fn dispatch;
    void *context; /* the dispatcher's */
} answering_t;

static apr_status_t refuse_oversized_explained(void *context, spx_response_writer_t *writer,
                                               apr_size_t max_request_bytes,
                                               spx_response_outcome_t *outcome, apr_pool_t *pool)
{
    (void)context;
    return spx_response_write_error_explained(
        writer, NULL, SPX_RPC_REQUEST_TOO_LARGE, NULL, NULL,
        apr_psprintf(pool,
                     "the request line is over %" APR_SIZE_T_FMT
                     " bytes (--max-request-bytes): it was drained unread, and the daemon "
                     "stops; send smaller requests to a new session",
                     max_request_bytes),
        NULL, outcome);
}

static apr_status_t refuse_invalid_explained(void *context, spx_response_writer_t *writer,
                                             const spx_request_error_t *error,
                                             spx_response_outcome_t *outcome, apr_pool_t *pool)
{
    (void)context;
    return spx_response_write_error_explained(writer, error->id, error->code, NULL, NULL,
                                              refusal_detail(error, pool), NULL, outcome);
}

static int ends_on_shutdown(void *context, const spx_request_t *request)
{
    (void)context;
    return spx_request_ends_session_silently(request);
}

static apr_status_t answer_request(void *context, const spx_request_t *request,
                                   spx_response_writer_t *writer, spx_response_outcome_t *outcome,
                                   int *stop, apr_pool_t *pool)
{
    const answering_t *answering = context;
    spx_answer_t answer = {.error_code = SPX_RPC_INTERNAL_ERROR};
    answering->dispatch(answering->context, request, &answer, pool);
    apr_status_t status = write_answer(writer, request, &answer, answering->context, outcome);
    *stop = answer.stop;
    return status;
}

static const spx_loop_hooks_t answering_hooks = {
    .refuse_oversized = refuse_oversized_explained,
    .refuse_invalid = refuse_invalid_explained,
    .notified = ends_on_shutdown,
    .respond = answer_request,
};

/* --- the loop --------------------------------------------------------------------------- */

/* Handle one frame; 1 when the loop goes on, 0 when report says how it ended. */
static int handle_frame(const spx_frame_t *frame, spx_response_writer_t *writer,
                        const spx_loop_hooks_t *hooks, void *context, apr_pool_t *request_pool,
                        apr_size_t max_request_bytes, spx_loop_report_t *report)
{
    spx_response_outcome_t outcome = SPX_RESPONSE_SENT;
    apr_status_t status = APR_SUCCESS;
    spx_request_t request;
    spx_request_error_t error;
    if (frame->kind == SPX_FRAME_END || frame->kind == SPX_FRAME_UNTERMINATED) {
        report->end = SPX_LOOP_END_OF_INPUT;
        report->dropped_bytes = frame->kind == SPX_FRAME_UNTERMINATED ? frame->length : 0;
        return 0;
    }
    if (frame->kind == SPX_FRAME_OVERSIZED) {
        report->end = SPX_LOOP_REQUEST_TOO_LARGE;
        status =
            hooks->refuse_oversized(context, writer, max_request_bytes, &outcome, request_pool);
    } else if (spx_request_parse_dialect(hooks->dialect, frame->bytes, frame->length, &request,
                                         &error, request_pool) == SPX_REQUEST_INVALID) {
        status = hooks->refuse_invalid(context, writer, &error, &outcome, request_pool);
    } else if (request.is_notification) {
        if (hooks->notified(context, &request)) {
            report->end = SPX_LOOP_SILENT_SHUTDOWN;
            return 0;
        }
    } else {
        int stop = 0;
        spx_allocation_phase_start(request.method); /* a phase of the tests' gate */
        status = hooks->respond(context, &request, writer, &outcome, &stop, request_pool);
        spx_allocation_phase_end(request.method);
        if (stop)
            report->end = SPX_LOOP_SHUTDOWN;
    }
    if (status != APR_SUCCESS) {
        report->end = SPX_LOOP_OUTPUT_FAILED;
        report->status = status;
        return 0;
    }
    if (outcome == SPX_RESPONSE_STOP) {
        report->end = SPX_LOOP_RESPONSE_TOO_LARGE;
        return 0;
    }
    return report->end == 0;
}

void spx_loop_run_with_hooks(spx_frame_reader_t *reader, spx_response_writer_t *writer,
                             const spx_loop_hooks_t *hooks, void *context, apr_pool_t *pool,
                             spx_loop_report_t *report)
{
    apr_pool_t *request_pool = NULL;
    report->end = 0;
    report->dropped_bytes = 0;
    report->status = APR_SUCCESS;
    apr_pool_create(&request_pool, pool); /* cannot fail: spx_allocation.h */
    SPX_ASSERT(request_pool != NULL);
    for (;;) {
        apr_pool_clear(request_pool);
        spx_frame_t frame;
        apr_status_t status = spx_frame_next(reader, &frame);
        if (status != APR_SUCCESS) {
            report->end = SPX_LOOP_INPUT_FAILED;
            report->status = status;
            break;
        }
        if (!handle_frame(&frame, writer, hooks, context, request_pool,
                          spx_frame_reader_max_bytes(reader), report))
            break;
        /* After a large answer, its memory goes back to the system before
         * the session waits for the next request (docs/performance.md). */
        if (spx_response_writer_last_bytes(writer) >= SPX_LIMIT_GIVE_BACK_AFTER_RESPONSE_BYTES) {
            apr_pool_clear(request_pool);
            spx_memory_give_back();
        }
    }
    apr_pool_destroy(request_pool);
}

void spx_loop_run(spx_frame_reader_t *reader, spx_response_writer_t *writer,
                  spx_dispatch_fn dispatch, void *context, apr_pool_t *pool,
                  spx_loop_report_t *report)
{
    answering_t answering = {dispatch, context};
    spx_loop_run_with_hooks(reader, writer, &answering_hooks, &answering, pool, report);
}

int spx_loop_exit_status(spx_loop_end_t end)
{
    return end == SPX_LOOP_END_OF_INPUT || end == SPX_LOOP_SHUTDOWN ||
                   end == SPX_LOOP_SILENT_SHUTDOWN
               ? SPX_EXIT_OK
               : SPX_EXIT_FAILED;
}

void spx_loop_explain(const spx_loop_report_t *report, const char *program,
                      apr_size_t max_request_bytes, apr_size_t max_response_bytes)
{
    char reason[256];
    if (report->end == SPX_LOOP_END_OF_INPUT && report->dropped_bytes)
        fprintf(stderr,
                "%s: %" APR_SIZE_T_FMT " bytes at end of input without LF: not a frame, dropped\n",
                program, report->dropped_bytes);
    else if (report->end == SPX_LOOP_REQUEST_TOO_LARGE)
        fprintf(stderr, "%s: a request was over %" APR_SIZE_T_FMT " bytes: stopping\n", program,
                max_request_bytes);
    else if (report->end == SPX_LOOP_RESPONSE_TOO_LARGE)
        fprintf(stderr,
                "%s: a response over %" APR_SIZE_T_FMT
                " bytes was replaced by the -32001 error: stopping\n",
                program, max_response_bytes);
    else if (report->end == SPX_LOOP_OUTPUT_FAILED)
        fprintf(stderr,
                "%s: cannot write a response to standard output (%s); the client has probably "
                "closed it: stopping\n",
                program, spx_strerror(report->status, reason, sizeof(reason)));
    else if (report->end == SPX_LOOP_INPUT_FAILED)
        fprintf(stderr, "%s: cannot read standard input (%s): stopping\n", program,
                spx_strerror(report->status, reason, sizeof(reason)));
}
