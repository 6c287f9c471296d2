/*
 * spx_v1.h: transport v1, `semaprax.agent-transport.v1` (transport.md;
 * docs/transport-v1.md): the session of `semaprax serve SOURCE`, over one
 * single-source project built at startup (spx_project_open_source).
 *
 * The session is always open (the source was read and checked before any
 * request) until `shutdown`. Its methods, none of which takes params:
 * protocol, ping, check, graph, shutdown. Framing, the request grammar and
 * the error codes are those of every transport (spx_loop.h); this file only
 * answers valid requests.
 */
#ifndef SPX_V1_H
#define SPX_V1_H

#include "spx_loop.h"
#include "spx_project.h"

/* The schema the protocol method reports. */
#define SPX_TRANSPORT_V1_SCHEMA "semaprax.agent-transport.v1"

typedef struct spx_v1_limits_t {
    apr_size_t max_request_bytes;  /* a frame, LF excluded */
    apr_size_t max_response_bytes; /* a response, LF included */
} spx_v1_limits_t;

/* A v1 session over project (a single source), answering within limits. */
typedef struct spx_v1_t spx_v1_t;
spx_v1_t *spx_v1_make(const spx_project_t *project, const spx_v1_limits_t *limits,
                      apr_pool_t *pool);

/* The v1 dispatcher (an spx_dispatch_fn; context is an spx_v1_t). */
void spx_v1_dispatch(void *context, const spx_request_t *request, spx_answer_t *answer,
                     apr_pool_t *pool);

/* Serve the session on the process's binary standard input and output until
 * it ends; *report says how (spx_loop_exit_status gives the exit status). A
 * failure status only when the streams cannot be set up. */
apr_status_t spx_v1_serve_stdio(spx_v1_t *session, apr_pool_t *pool, spx_loop_report_t *report);

#endif /* SPX_V1_H */
