/*
 * spx_lsp_navigation.h: the navigation requests of `semapraxd --lsp`
 * (docs/editors.md): hover, definition, references, documentHighlight,
 * workspace/symbol, completion, signatureHelp, semanticTokens/full,
 * prepareRename and rename, answered from the engine's position queries
 * (spx_lookup.h) and rename plan (spx_rename.h) over the project as the
 * server holds it (open buffers overlaid). Internal to transport/lsp/: the
 * server (lsp.c) gives it the project and how paths, URIs and open
 * documents map to each other; it only converts and renders.
 */
#ifndef SPX_LSP_NAVIGATION_H
#define SPX_LSP_NAVIGATION_H

#include "spx_lsp_text.h"
#include "spx_project.h"

#include <apr_pools.h>
#include <jansson.h>

/* What the client said it supports, from initialize's params. */
typedef struct spx_lsp_client_t {
    int document_changes; /* workspace.workspaceEdit.documentChanges */
} spx_lsp_client_t;

/* The server's state a navigation request reads. */
typedef struct spx_lsp_navigation_t {
    /* With the open buffers in place, possibly diagnostics only
     * (spx_project_rebuild_checked: enough for the position queries);
     * NULL: none. */
    spx_project_t *project;
    spx_lsp_encoding_t encoding;
    spx_lsp_client_t client;
    void *server;
    /* The path (relative to the root) of a URI, or NULL outside it. */
    const char *(*path_of)(void *server, const char *uri, apr_pool_t *pool);
    /* The URI a path of the project is known by. */
    const char *(*uri_of)(void *server, const char *path, apr_pool_t *pool);
    /* 1 and *version when path is open in the editor; else 0. */
    int (*open)(void *server, const char *path, apr_int64_t *version);
    /* The full project (with its index) over the same texts as project,
     * built when first asked for (rename's plan needs the index). */
    spx_project_t *(*full)(void *server);
} spx_lsp_navigation_t;

/* Read initialize's params into *client. */
void spx_lsp_navigation_client(json_t *params, spx_lsp_client_t *client);

/* Add the navigation providers (and the semantic tokens' legend) to
 * initialize's capabilities object. */
void spx_lsp_navigation_capabilities(json_t *capabilities);

/* 1 when method is one of this file's requests. */
int spx_lsp_navigation_handles(const char *method);

/* Answer method: 1 and *result (a new reference; NULL for LSP's null), or
 * 0 and *refusal (a sentence for a ResponseError of RequestFailed). */
int spx_lsp_navigation_answer(const spx_lsp_navigation_t *navigation, const char *method,
                              json_t *params, json_t **result, const char **refusal,
                              apr_pool_t *pool);

#endif /* SPX_LSP_NAVIGATION_H */
