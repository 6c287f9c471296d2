/*
 * spx_lsp.h: `semapraxd --lsp`: a Language Server Protocol 3.17 server over
 * stdio for one Semaprax project (docs/editors.md), on the engine and the
 * operations the daemon and the MCP server use. Content-Length framing
 * (spx_lsp_frame.h); the project is the manifest given with
 * --manifest-path, else the semaprax.toml at the root of the workspace
 * folder the client names. Open documents overlay their files; every other
 * input is re-authenticated before each answer, and the project is opened
 * again when one changed. It never writes a file.
 */
#ifndef SPX_LSP_H
#define SPX_LSP_H

#include "spx_session.h"

/* LSP's own error codes (its code space, not transport.md's: its -32002
 * is not "request too large"). */
typedef enum spx_lsp_code_t {
    SPX_LSP_SERVER_NOT_INITIALIZED = -32002,
    SPX_LSP_REQUEST_FAILED = -32803
} spx_lsp_code_t;

/* Serve LSP on stdio with options (manifest_path NULL: the workspace's
 * semaprax.toml; max_request_bytes bounds a message's body; verbose) until
 * exit or end of input: SPX_SESSION_EXIT_OK after shutdown, else
 * SPX_SESSION_EXIT_STOPPED. */
spx_session_exit_t spx_lsp_run(const spx_session_options_t *options, spx_stdio_t *stdio,
                               apr_pool_t *pool);

#endif /* SPX_LSP_H */
