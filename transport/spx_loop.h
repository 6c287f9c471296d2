/*
 * spx_loop.h: the request loop of the agent transports (docs/transport.md):
 * read a frame, parse it as a request, hand a valid request to the
 * transport's dispatcher, write its answer; one pool per request. Framing,
 * the request grammar, notifications, the silent `shutdown`, the oversized
 * request and the oversized response are handled here, the same way for
 * every transport; the dispatcher only sees valid requests that expect an
 * answer.
 */
#ifndef SPX_LOOP_H
#define SPX_LOOP_H

#include "spx_frame.h"
#include "spx_request.h"
#include "spx_response.h"

/* What a dispatcher answers to one request. */
typedef struct spx_answer_t {
    json_t *result;     /* the result (a reference the loop releases), or NULL for an error */
    int error_code;     /* spx_rpc_code_t, when result is NULL */
    json_t *error_data; /* the error's data (released by the loop), or NULL for none */
    /* Why, when the writer explains its errors (v2, v3): data.reason and
     * data.detail; NULL for the code's defaults (spx_rpc.h). They must live
     * until the answer is written (static, or in the request's pool). */
    const char *error_reason;
    const char *error_detail;
    int stop; /* end the session with exit 0 once the answer is written */
    /* When gate.pass is set, the answer is rendered whole and then written
     * only if the gate passes (v2's second re-authentication); otherwise
     * withheld(context, replacement) fills the answer written in its place,
     * without a gate. */
    spx_response_gate_t gate;
    void (*withheld)(void *context, struct spx_answer_t *replacement);
    /* Instead of result: the result's canonical text, already rendered (kept
     * by the dispatcher; the loop does not release it). */
    const char *result_text;
    apr_size_t result_length;
} spx_answer_t;

/* Answer request (valid, not a notification). pool is the request's pool,
 * cleared after the answer is written. */
typedef void (*spx_dispatch_fn)(void *context, const spx_request_t *request, spx_answer_t *answer,
                                apr_pool_t *pool);

typedef enum spx_loop_end_t {
    SPX_LOOP_END_OF_INPUT = 1,       /* end of input, or a last line without LF: exit 0 */
    SPX_LOOP_SHUTDOWN = 2,           /* the dispatcher asked to stop: exit 0 */
    SPX_LOOP_SILENT_SHUTDOWN = 3,    /* a `shutdown` notification: exit 0 */
    SPX_LOOP_REQUEST_TOO_LARGE = 4,  /* answered -32002: exit 1 */
    SPX_LOOP_RESPONSE_TOO_LARGE = 5, /* the fixed -32001 was written: exit 1 */
    SPX_LOOP_OUTPUT_FAILED = 6,      /* a response could not be written (the client
                                      * closed our stdout: EPIPE): exit 1 */
    SPX_LOOP_INPUT_FAILED = 7,       /* reading the input failed: exit 1 */
} spx_loop_end_t;

/* How the loop ended. */
typedef struct spx_loop_report_t {
    spx_loop_end_t end;
    apr_size_t dropped_bytes; /* END_OF_INPUT: bytes after the last LF, not run */
    apr_status_t status;      /* OUTPUT_FAILED, INPUT_FAILED: the failing write or read */
} spx_loop_report_t;

/* Run the loop until one of the ends above; requests are handled one at a
 * time, in order. Scratch memory comes from a subpool of pool, cleared before
 * every frame. */
void spx_loop_run(spx_frame_reader_t *reader, spx_response_writer_t *writer,
                  spx_dispatch_fn dispatch, void *context, apr_pool_t *pool,
                  spx_loop_report_t *report);

/* The process's exit status for an end: 0, or 1 (transport.md, Programs). */
int spx_loop_exit_status(spx_loop_end_t end);

/* Say on stderr, as program ("semapraxd"), why a loop that did not end
 * cleanly ended (and what input was dropped); nothing for a clean end. */
void spx_loop_explain(const spx_loop_report_t *report, const char *program,
                      apr_size_t max_request_bytes, apr_size_t max_response_bytes);

#endif /* SPX_LOOP_H */
