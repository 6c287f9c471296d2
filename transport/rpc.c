/*
 * rpc.c: the fixed messages of the JSON-RPC error codes (spx_rpc.h).
 */
#include "spx_rpc.h"

#include <stddef.h>

const char *spx_rpc_message(int code)
{
    switch (code) {
    case SPX_RPC_PARSE_ERROR:
        return "parse error";
    case SPX_RPC_INVALID_REQUEST:
        return "invalid request";
    case SPX_RPC_METHOD_NOT_FOUND:
        return "method not found";
    case SPX_RPC_INVALID_PARAMS:
        return "invalid params";
    case SPX_RPC_INTERNAL_ERROR:
        return "internal error";
    case SPX_RPC_RESPONSE_TOO_LARGE:
        return "response too large";
    case SPX_RPC_REQUEST_TOO_LARGE:
        return "request too large";
    case SPX_RPC_SESSION_NOT_OPEN:
        return "session not open";
    case SPX_RPC_WORKSPACE_UNAVAILABLE:
        return "workspace unavailable";
    case SPX_RPC_REVISION_MISMATCH:
        return "revision mismatch";
    case SPX_RPC_SESSION_INVALIDATED:
        return "session invalidated";
    case SPX_RPC_PROJECT_NOT_ADMITTED:
        return "project not admitted";
    case SPX_RPC_RENAME_REFUSED:
        return "rename refused";
    case SPX_RPC_RENAME_FAILED:
        return "rename failed";
    default:
        return NULL;
    }
}
