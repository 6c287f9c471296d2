/*
 * spx_rpc.h: the JSON-RPC error codes of the agent transports and their fixed
 * messages (transport.md, "Error codes"), shared by the request grammar, the
 * response writer and the session.
 */
#ifndef SPX_RPC_H
#define SPX_RPC_H

typedef enum spx_rpc_code_t {
    SPX_RPC_PARSE_ERROR = -32700,           /* not a valid JSON text under the framing rules */
    SPX_RPC_INVALID_REQUEST = -32600,       /* valid JSON, not a valid request */
    SPX_RPC_METHOD_NOT_FOUND = -32601,      /* method outside the closed set */
    SPX_RPC_INVALID_PARAMS = -32602,        /* missing, unknown, mistyped or out-of-range */
    SPX_RPC_INTERNAL_ERROR = -32603,        /* a bug; never expected */
    SPX_RPC_RESPONSE_TOO_LARGE = -32001,    /* the fixed replacement response */
    SPX_RPC_REQUEST_TOO_LARGE = -32002,     /* oversized frame, then exit */
    SPX_RPC_SESSION_NOT_OPEN = -32010,      /* a semantic method before workspace/open */
    SPX_RPC_WORKSPACE_UNAVAILABLE = -32011, /* startup authentication failed */
    SPX_RPC_REVISION_MISMATCH = -32012,     /* not the session's revisions */
    SPX_RPC_SESSION_INVALIDATED = -32013,   /* drift found now or earlier */
    SPX_RPC_PROJECT_NOT_ADMITTED = -32014,  /* Phase A failed */
    SPX_RPC_RENAME_REFUSED = -32015,        /* v3: the rename cannot be planned; nothing written */
    SPX_RPC_RENAME_FAILED = -32016          /* v3: the commit failed; the files were restored */
} spx_rpc_code_t;

/* The table's message for code ("parse error", ...); NULL for a code outside
 * the table. */
const char *spx_rpc_message(int code);

#endif /* SPX_RPC_H */
