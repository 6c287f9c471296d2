/*
 * spx_response.h: the response writer of the agent transports (transport.md,
 * "Framing"): each response is one canonical JSON object (engine's
 * spx_canonical.h), exactly one LF, written whole and flushed at once.
 *
 * The response budget (max-response-bytes) counts the LF. A response over it
 * is never written: the fixed error
 *   {"error":{"code":-32001,"message":"response too large"},"id":ID,"jsonrpc":"2.0"}
 * is written in its place and the writer reports SPX_RESPONSE_STOP, after
 * which the session must end (exit 1). Rendering stops as soon as the budget
 * is passed, so an oversized response never takes more than the budget in
 * memory.
 */
#ifndef SPX_RESPONSE_H
#define SPX_RESPONSE_H

#include "spx_platform.h"

#include "spx_json_writer.h"

#include <apr_pools.h>
#include <jansson.h>

/* Where responses go: write all of the bytes or fail, and push them out. */
typedef apr_status_t (*spx_response_write_fn)(void *context, const void *bytes, apr_size_t length);
typedef apr_status_t (*spx_response_flush_fn)(void *context);

typedef enum spx_response_outcome_t {
    SPX_RESPONSE_SENT = 1,    /* the response was written as rendered */
    SPX_RESPONSE_STOP = 2,    /* it was over budget: the fixed -32001 was written instead */
    SPX_RESPONSE_WITHHELD = 3 /* rendered whole, then refused by the gate: nothing written */
} spx_response_outcome_t;

/* A last check between rendering and writing (the daemon's second
 * re-authentication): called once the response has been rendered whole and
 * fits the budget, before any byte of it is written. It returns nonzero to
 * let the response out, 0 to withhold it. */
typedef struct spx_response_gate_t {
    int (*pass)(void *context);
    void *context;
} spx_response_gate_t;

typedef struct spx_response_writer_t spx_response_writer_t;

/* A writer of responses of at most max_bytes, LF included. */
apr_status_t spx_response_writer_create(spx_response_writer_t **writer, spx_response_write_fn write,
                                        spx_response_flush_fn flush, void *context,
                                        apr_size_t max_bytes, apr_pool_t *pool);

/* The size of the last response written (LF included), 0 before the first. */
apr_size_t spx_response_writer_last_bytes(const spx_response_writer_t *writer);

/* A writer to the process's binary standard output. */
apr_status_t spx_response_writer_create_stdio(spx_response_writer_t **writer, spx_stdio_t *stdio,
                                              apr_size_t max_bytes, apr_pool_t *pool);

/* Write {"id":id,"jsonrpc":"2.0","result":result}. id is a string, an
 * integer or JSON null (NULL means null); result is required. Neither is
 * consumed. */
apr_status_t spx_response_write_result(spx_response_writer_t *writer, json_t *id, json_t *result,
                                       spx_response_outcome_t *outcome);

/* spx_response_write_result with a gate: the rendered response is written
 * only if gate->pass allows it, else nothing is written and the outcome is
 * SPX_RESPONSE_WITHHELD. An over-budget response is replaced by the fixed
 * -32001 without consulting the gate (it carries no payload). */
apr_status_t spx_response_write_result_gated(spx_response_writer_t *writer, json_t *id,
                                             json_t *result, const spx_response_gate_t *gate,
                                             spx_response_outcome_t *outcome);

/* Writes a result value through the streaming canonical writer (it must
 * write exactly one value and not finish the writer, the same bytes each
 * time it is called, and take no memory: it is called twice). */
typedef void (*spx_response_result_fn)(void *context, spx_json_writer_t *writer);

/* spx_response_write_result_gated for a result written by write(context,
 * writer), with no tree of it and no copy of the line: the same bytes,
 * budget, gate and -32001 replacement. The line is counted first (the
 * counting stops at the first byte over the budget), then, when it fits and
 * the gate lets it, written again straight to the output in chunks. */
apr_status_t spx_response_write_result_streamed(spx_response_writer_t *writer, json_t *id,
                                                spx_response_result_fn write, void *context,
                                                const spx_response_gate_t *gate,
                                                spx_response_outcome_t *outcome);

/* spx_response_write_result_gated for a result already rendered: text[0..length)
 * must be the canonical JSON text of the result. The response is
 * {"id":ID,"jsonrpc":"2.0","result":TEXT} with the same budget, gate and
 * -32001 replacement, byte for byte what rendering the result would give. */
apr_status_t spx_response_write_result_text(spx_response_writer_t *writer, json_t *id,
                                            const char *text, apr_size_t length,
                                            const spx_response_gate_t *gate,
                                            spx_response_outcome_t *outcome);

/* The bytes a result line to id (NULL: null) has around its result text,
 * {"id":ID,"jsonrpc":"2.0","result":} and the LF: what a writer's budget
 * leaves for a result is max_bytes less this. */
apr_size_t spx_response_result_frame_bytes(const json_t *id);

/* Write {"error":{"code":code,"data":data,"message":M},"id":id,"jsonrpc":"2.0"}
 * with the code table's message M (spx_rpc.h); data is left out when NULL.
 * Neither id nor data is consumed. */
apr_status_t spx_response_write_error(spx_response_writer_t *writer, json_t *id, int code,
                                      json_t *data, spx_response_outcome_t *outcome);

/* Make writer's errors say why (transports v2 and v3): from now on every
 * error it writes but the fixed -32001 carries data with "reason" and
 * "detail" (spx_response_write_error_explained). A writer that is never
 * told so (transport v1, byte-frozen) writes data as given. */
void spx_response_writer_explain_errors(spx_response_writer_t *writer);

/* spx_response_write_error_gated; when the writer explains its errors, data
 * (copied, not changed; NULL means {}) gets "reason" and "detail": reason
 * and detail when given, else the code's defaults (spx_rpc.h), and the
 * message carries the detail after the fixed text
 * (spx_response_write_error_said). A detail is
 * cut to SPX_LIMIT_ERROR_DETAIL_BYTES at a UTF-8 boundary, so no request can
 * make an error's answer large. Code -32001 (every writer) is the fixed
 * replacement of an oversized response, whatever data, reason and detail: a
 * method that stopped building its answer once it passed the budget answers
 * it, and the outcome is SPX_RESPONSE_STOP, as for a response rendered
 * over the budget. */
apr_status_t spx_response_write_error_explained(spx_response_writer_t *writer, json_t *id, int code,
                                                json_t *data, const char *reason,
                                                const char *detail, const spx_response_gate_t *gate,
                                                spx_response_outcome_t *outcome);

/* spx_response_write_error_gated, with sentence after the code's fixed
 * message: "invalid params: no tool 'nope'; the tools are ..."
 * (spx_detail_message: cut to SPX_LIMIT_ERROR_MESSAGE_SENTENCE_BYTES). The
 * message of v2, v3 and MCP; sentence NULL or code -32001: the fixed
 * message alone. */
apr_status_t spx_response_write_error_said(spx_response_writer_t *writer, json_t *id, int code,
                                           json_t *data, const char *sentence,
                                           const spx_response_gate_t *gate,
                                           spx_response_outcome_t *outcome);

/* spx_response_write_error with a gate, as spx_response_write_result_gated. */
apr_status_t spx_response_write_error_gated(spx_response_writer_t *writer, json_t *id, int code,
                                            json_t *data, const spx_response_gate_t *gate,
                                            spx_response_outcome_t *outcome);

#endif /* SPX_RESPONSE_H */
