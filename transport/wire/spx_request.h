/*
 * spx_request.h: the request grammar of the agent transports (transport.md,
 * "Framing"): turns one frame's bytes into a JSON-RPC request, or into the
 * error response it must get (code and id).
 *
 * A session loop is: spx_frame_next -> spx_request_parse -> dispatch ->
 * spx_response_write_*, with one pool per request. The checks that Jansson
 * does not make (or makes differently) are made on the frame's raw bytes; see
 * docs/transport.md.
 */
#ifndef SPX_REQUEST_H
#define SPX_REQUEST_H

#include <apr_pools.h>
#include <jansson.h>

typedef struct spx_request_t {
    json_t *document;         /* the decoded object; released with the pool */
    const char *method;       /* the method, NUL-terminated, with no NUL inside */
    apr_size_t method_length; /* bytes */
    json_t *params;           /* the params object, or NULL when absent */
    json_t *id;               /* the id to echo (string or integer); NULL for a notification */
    int is_notification;      /* no id, or a response: never answered, never run */
    int is_response;          /* a response the client sent (a dialect with responses):
                               * method is "", and it is never answered */
    int integers_as_reals;    /* an integer was beyond Jansson's range, so every
                               * integer of document was decoded as a real */
} spx_request_t;

typedef struct spx_request_error_t {
    int code;           /* SPX_RPC_PARSE_ERROR, SPX_RPC_INVALID_REQUEST, or
                         * SPX_RPC_INTERNAL_ERROR when memory ran out */
    json_t *id;         /* the id to answer with: the request's valid id, else JSON null */
    const char *detail; /* which rule failed ("CR byte"); the loop turns it into
                         * the sentence of data.detail when the writer explains
                         * its errors (v2, v3), and v1 never sends it */
} spx_request_error_t;

typedef enum spx_request_status_t {
    SPX_REQUEST_VALID = 0,  /* *request is filled */
    SPX_REQUEST_INVALID = 1 /* *error is filled; the frame must be answered with it */
} spx_request_status_t;

/* Parse the frame bytes[0..length) (LF excluded). Every JSON value handed
 * out is owned by pool and released when it is cleared. A malformed frame is
 * never a notification: it is always SPX_REQUEST_INVALID. */
spx_request_status_t spx_request_parse(const unsigned char *bytes, apr_size_t length,
                                       spx_request_t *request, spx_request_error_t *error,
                                       apr_pool_t *pool);

/* What a transport's grammar takes beyond transport.md's (MCP's JSON-RPC,
 * docs/agents.md): negative_ids, an integer id may be negative too (down to
 * -(2^53-1), written without a leading zero; "-0" is no id); responses, an
 * object without method and with result or error is a response the client
 * sent, valid and never answered (is_response); carriage_returns, a CR
 * byte is taken as the JSON white space it is (LSP's Content-Length framing
 * has no line to keep whole); null_params, "params": null is taken as no
 * params (LSP's requests without params, shutdown among them, are sent so
 * by clients such as Emacs' eglot). */
typedef struct spx_request_dialect_t {
    int negative_ids;
    int responses;
    int carriage_returns; /* a CR byte is JSON white space (LSP's bodies) */
    int null_params;      /* "params": null is no params (LSP) */
} spx_request_dialect_t;

/* spx_request_parse in dialect (NULL: transport.md's grammar, exactly). */
spx_request_status_t spx_request_parse_dialect(const spx_request_dialect_t *dialect,
                                               const unsigned char *bytes, apr_size_t length,
                                               spx_request_t *request, spx_request_error_t *error,
                                               apr_pool_t *pool);

/* True for the one notification that does something: `shutdown`, which ends
 * the session silently. Every other notification is dropped. */
int spx_request_ends_session_silently(const spx_request_t *request);

/* True when every key of the request's params is in allowed (a
 * NULL-terminated list; absent params have no keys). Otherwise *unknown, when
 * unknown is not NULL, is the bytewise-first key not in the list, and the
 * request must be answered SPX_RPC_INVALID_PARAMS. Keys are matched exactly. */
int spx_request_params_known(const spx_request_t *request, const char *const *allowed,
                             const char **unknown);

#endif /* SPX_REQUEST_H */
