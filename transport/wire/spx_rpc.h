/*
 * spx_rpc.h: the JSON-RPC error codes of the agent transports and their fixed
 * messages (transport.md, "Error codes"), shared by the request grammar, the
 * response writer and the session.
 *
 * One X-macro table: X(NAME, code, "message") gives SPX_RPC_NAME = code, and
 * message is what spx_rpc_message answers for it.
 */
#ifndef SPX_RPC_H
#define SPX_RPC_H

#define SPX_RPC_CODES(X)                                                                           \
    X(PARSE_ERROR, -32700, "parse error") /* not a valid JSON text under the framing rules */      \
    X(INVALID_REQUEST, -32600, "invalid request")   /* valid JSON, not a valid request */          \
    X(METHOD_NOT_FOUND, -32601, "method not found") /* method outside the closed set */            \
    X(INVALID_PARAMS, -32602, "invalid params") /* missing, unknown, mistyped or out-of-range */   \
    X(INTERNAL_ERROR, -32603, "internal error") /* a bug; never expected */                        \
    X(RESPONSE_TOO_LARGE, -32001, "response too large") /* the fixed replacement response */       \
    X(REQUEST_TOO_LARGE, -32002, "request too large")   /* oversized frame, then exit */           \
    X(SESSION_NOT_OPEN, -32010, "session not open") /* a semantic method before workspace/open */  \
    X(WORKSPACE_UNAVAILABLE, -32011, "workspace unavailable") /* startup authentication failed */  \
    X(REVISION_MISMATCH, -32012, "revision mismatch")         /* not the session's revisions */    \
    X(SESSION_INVALIDATED, -32013, "session invalidated")     /* drift found now or earlier */     \
    X(PROJECT_NOT_ADMITTED, -32014, "project not admitted")   /* Phase A failed */                 \
    X(RENAME_REFUSED, -32015, "rename refused") /* v3: cannot be planned; nothing written */       \
    X(RENAME_FAILED, -32016, "rename failed")   /* v3: commit failed; files restored */            \
    X(CALL_TOO_LONG, -32017, "call too long")   /* past --max-call-seconds: stopped */

#define SPX_RPC_CODE_(name, code, message) SPX_RPC_##name = code,
typedef enum spx_rpc_code_t { SPX_RPC_CODES(SPX_RPC_CODE_) } spx_rpc_code_t;
#undef SPX_RPC_CODE_

/* The table's message for code ("parse error", ...); NULL for a code outside
 * the table. */
const char *spx_rpc_message(int code);

/* Errors that say why (transports v2 and v3, docs/protocol.md "Reasons"):
 * the data.reason an error of code carries when its answer names no more
 * precise one ("parse_error", "session_not_open", ...), and a data.detail
 * sentence for it. NULL for a code outside the table and for -32001, which
 * never carries data. */
const char *spx_rpc_default_reason(int code);
const char *spx_rpc_default_detail(int code);

#endif /* SPX_RPC_H */
