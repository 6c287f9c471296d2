/*
 * spx_loop.h: the request loop of the agent transports (docs/transport.md):
 * read a frame, parse it as a request, hand a valid request to the
 * transport, write its answer; one pool per request. Framing, the order of
 * the steps, the allocation gate's phase of each request, and how the loop
 * ends (end of input, an oversized request or response, a failing read or
 * write, and the exit status and stderr line of each) are here, once, for
 * every transport.
 *
 * Two ways in. spx_loop_run: the transport gives a dispatcher that fills an
 * spx_answer_t, and the loop words the refusals (v2 and v3 with reasons,
 * v1 without), ends the session silently on a `shutdown` notification and
 * drops every other one (semaprax serve, semapraxd --stdio).
 * spx_loop_run_with_hooks: the transport writes every answer itself, its
 * refusals in its own words and its notifications handled its own way
 * (semapraxd --mcp, transport/mcp/mcp.c).
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
    /* Instead of result: the result written by result_stream(result_context,
     * writer) straight into the response line (spx_response_write_result_streamed);
     * result_context must live until the answer is written. */
    spx_response_result_fn result_stream;
    void *result_context;
} spx_answer_t;

/* Answer request (valid, not a notification). pool is the request's pool,
 * cleared after the answer is written. */
typedef void (*spx_dispatch_fn)(void *context, const spx_request_t *request, spx_answer_t *answer,
                                apr_pool_t *pool);

/* A transport that writes its own answers (spx_loop_run_with_hooks). The
 * hooks that write return the writer's status and set *outcome, as
 * spx_response_write_* do; the loop ends on a failed write and on
 * SPX_RESPONSE_STOP. pool is the request's pool. */
typedef struct spx_loop_hooks_t {
    /* A frame over max_request_bytes, drained unread: write its refusal (id
     * null). The loop then ends (SPX_LOOP_REQUEST_TOO_LARGE). */
    apr_status_t (*refuse_oversized)(void *context, spx_response_writer_t *writer,
                                     apr_size_t max_request_bytes, spx_response_outcome_t *outcome,
                                     apr_pool_t *pool);
    /* A frame the request grammar refused: write the answer error calls for. */
    apr_status_t (*refuse_invalid)(void *context, spx_response_writer_t *writer,
                                   const spx_request_error_t *error,
                                   spx_response_outcome_t *outcome, apr_pool_t *pool);
    /* A valid notification, never answered: nonzero ends the session
     * silently (SPX_LOOP_SILENT_SHUTDOWN), 0 drops it. */
    int (*notified)(void *context, const spx_request_t *request);
    /* A valid request that expects an answer: write it. *stop (0 on entry)
     * set ends the session once it is written (SPX_LOOP_SHUTDOWN). */
    apr_status_t (*respond)(void *context, const spx_request_t *request,
                            spx_response_writer_t *writer, spx_response_outcome_t *outcome,
                            int *stop, apr_pool_t *pool);
    /* The grammar's dialect (spx_request_parse_dialect); NULL: transport.md's. */
    const spx_request_dialect_t *dialect;
} spx_loop_hooks_t;

typedef enum spx_loop_end_t {
    SPX_LOOP_END_OF_INPUT = 1,       /* end of input, or a last line without LF: exit 0 */
    SPX_LOOP_SHUTDOWN = 2,           /* the dispatcher (hooks.respond) asked to stop: exit 0 */
    SPX_LOOP_SILENT_SHUTDOWN = 3,    /* a notification that ends the session (spx_loop_run:
                                      * `shutdown`): exit 0 */
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
 * time, in order, each inside the allocation gate's phase named after its
 * method (spx_allocation.h). Scratch memory comes from a subpool of pool,
 * cleared before every frame. */
void spx_loop_run_with_hooks(spx_frame_reader_t *reader, spx_response_writer_t *writer,
                             const spx_loop_hooks_t *hooks, void *context, apr_pool_t *pool,
                             spx_loop_report_t *report);

/* spx_loop_run_with_hooks for a dispatcher that fills an answer, which the
 * loop writes. An oversized request is refused -32002, and a frame the
 * grammar refuses with its code and id; when the writer explains its
 * errors (v2, v3) their data.detail says why in a sentence. A `shutdown`
 * notification ends the session silently (spx_request_ends_session_silently);
 * every other notification is dropped. */
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
