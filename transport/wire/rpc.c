/*
 * rpc.c: the fixed messages of the JSON-RPC error codes, and the default
 * reason and detail of each (spx_rpc.h).
 */
#include "spx_rpc.h"

#include <stddef.h>

/* A switch: two rows with one code do not compile. */
#define SPX_RPC_MESSAGE_(name, code, message)                                                      \
    case SPX_RPC_##name:                                                                           \
        return message;

const char *spx_rpc_message(int code)
{
    switch (code) {
        SPX_RPC_CODES(SPX_RPC_MESSAGE_)
    default:
        return NULL;
    }
}

const char *spx_rpc_default_reason(int code)
{
    switch (code) {
    case SPX_RPC_PARSE_ERROR:
        return "parse_error";
    case SPX_RPC_INVALID_REQUEST:
        return "invalid_request";
    case SPX_RPC_METHOD_NOT_FOUND:
        return "method_not_found";
    case SPX_RPC_INVALID_PARAMS:
        return "invalid_value";
    case SPX_RPC_INTERNAL_ERROR:
        return "internal_error";
    case SPX_RPC_REQUEST_TOO_LARGE:
        return "request_too_large";
    case SPX_RPC_SESSION_NOT_OPEN:
        return "session_not_open";
    case SPX_RPC_WORKSPACE_UNAVAILABLE:
        return "workspace_unavailable";
    case SPX_RPC_REVISION_MISMATCH:
        return "revision_mismatch";
    case SPX_RPC_SESSION_INVALIDATED:
        return "session_invalidated";
    case SPX_RPC_PROJECT_NOT_ADMITTED:
        return "project_not_admitted";
    case SPX_RPC_RENAME_REFUSED:
        return "rename_refused";
    case SPX_RPC_RENAME_FAILED:
        return "rename_failed";
    case SPX_RPC_CALL_TOO_LONG:
        return "call_too_long";
    default:
        return NULL;
    }
}

const char *spx_rpc_default_detail(int code)
{
    switch (code) {
    case SPX_RPC_PARSE_ERROR:
        return "the request line is not one valid JSON text under the framing rules";
    case SPX_RPC_INVALID_REQUEST:
        return "the request is valid JSON but not a valid JSON-RPC 2.0 request of this transport";
    case SPX_RPC_METHOD_NOT_FOUND:
        return "the method is not one of this transport's";
    case SPX_RPC_INVALID_PARAMS:
        return "the params are not what the method takes";
    case SPX_RPC_INTERNAL_ERROR:
        return "the daemon could not answer (out of memory or a bug); nothing changed";
    case SPX_RPC_REQUEST_TOO_LARGE:
        return "the request line is over --max-request-bytes; the daemon stops";
    case SPX_RPC_SESSION_NOT_OPEN:
        return "the session is not open: send workspace/open first";
    case SPX_RPC_WORKSPACE_UNAVAILABLE:
        return "the daemon could not authenticate the project's inputs at startup";
    case SPX_RPC_REVISION_MISMATCH:
        return "the request's revisions are not the session's";
    case SPX_RPC_SESSION_INVALIDATED:
        return "an input changed on disk and the session never recovers: start a new session (a "
               "new semapraxd, then workspace/open)";
    case SPX_RPC_PROJECT_NOT_ADMITTED:
        return "the project has diagnostics; check lists them";
    case SPX_RPC_RENAME_REFUSED:
        return "the rename cannot be made; nothing was written";
    case SPX_RPC_RENAME_FAILED:
        return "the rename failed while writing; the files were restored";
    case SPX_RPC_CALL_TOO_LONG:
        return "the call ran past --max-call-seconds and was stopped";
    default:
        return NULL;
    }
}
