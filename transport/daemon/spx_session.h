/*
 * spx_session.h: the v2 agent session of `semapraxd --stdio`
 * (semaprax.agent-transport.v2, transport.md "v2"): startup authentication
 * and Phase A once, then the request loop over the frame reader, the request
 * grammar and the response writer, with the states configured, open,
 * invalidated and shutdown and the closed method set. docs/protocol-v2.md
 * describes every method; with --allow-project-rename the session is
 * semaprax.agent-transport.v3, v2 plus project/rename (docs/protocol-v3.md).
 */
#ifndef SPX_SESSION_H
#define SPX_SESSION_H

#include "spx_exit.h"
#include "spx_platform.h"

#include <apr_pools.h>

#define SPX_SESSION_SCHEMA "semaprax.agent-transport.v2"
/* With --allow-project-rename: v2 plus project/rename (docs/protocol-v3.md). */
#define SPX_SESSION_SCHEMA_V3 "semaprax.agent-transport.v3"

/* What the host chose on the command line. */
typedef struct spx_session_options_t {
    const char *manifest_path;     /* as bound; never changed by a request */
    apr_size_t max_request_bytes;  /* SPX_LIMIT_REQUEST_BYTES_* */
    apr_size_t max_response_bytes; /* SPX_LIMIT_RESPONSE_BYTES_* */
    int allow_rename;              /* --allow-project-rename: the v3 profile */
    int verbose;                   /* --verbose: a stderr line per refused request */
    apr_uint64_t max_call_seconds; /* --max-call-seconds: SPX_LIMIT_CALL_SECONDS_* */
    int allow_fmt_write;           /* --allow-fmt-write (--mcp only): fmt's write: true */
} spx_session_options_t;

/* The session's exit status (transport.md, "Programs"): OK after shutdown
 * or end of input; STOPPED after an oversized request or response, or a
 * broken stream. */
typedef enum spx_session_exit_t {
    SPX_SESSION_EXIT_OK = SPX_EXIT_OK,
    SPX_SESSION_EXIT_STOPPED = SPX_EXIT_FAILED
} spx_session_exit_t;

/* Authenticate the inputs and run Phase A once, then answer requests from
 * stdin on stdout until shutdown, end of input or a fatal frame. Everything
 * lives in pool. */
spx_session_exit_t spx_session_run(const spx_session_options_t *options, spx_stdio_t *stdio,
                                   apr_pool_t *pool);

#endif /* SPX_SESSION_H */
