/*
 * lsp.c: `semapraxd --lsp` (spx_lsp.h, docs/editors.md): the lifecycle
 * (initialize, initialized, shutdown, exit), the open documents and their
 * overlay on the project, publishDiagnostics, formatting and the quick
 * fixes of suggestions. Messages are read with the wire's Content-Length
 * reader and parsed with its request grammar (CR taken as white space);
 * the held project is the held-project operation's (spx_op_held.h), the layout is
 * the fmt operation's (spx_op_fmt_text), so this file only parses and
 * renders.
 *
 * Never stale: before every answer, and after every document notification,
 * the project's held inputs are re-authenticated. Drift on a file that is
 * open in the editor is not a change (the buffer is that document's truth
 * until it is closed); any other drift (a closed source, the manifest, a
 * directory) opens the manifest afresh. The answer is then built from the
 * project rebuilt in memory with the open buffers in place of their files:
 * for the diagnostics (and the position queries and code actions) without
 * its index and code (spx_project_rebuild_checked, about two thirds of the
 * work; and over the previous view, the function bodies of only the modules
 * the change can reach), and in full (spx_project_rebuild) only when a
 * request needs the index (rename), kept until the next
 * change: whatever discards the view (a change, an open, a close, drift)
 * discards it too.
 */
#include "spx_lsp.h"

#include "spx_lsp_frame.h"
#include "spx_lsp_navigation.h"
#include "spx_lsp_text.h"

#include "spx_detail.h"
#include "spx_diff.h"
#include "spx_digest.h"
#include "spx_hex.h"
#include "spx_inputs.h"
#include "spx_limits.h"
#include "spx_log.h"
#include "spx_operations.h"
#include "spx_project.h"
#include "spx_request.h"
#include "spx_rpc.h"
#include "spx_status.h"

#include <apr_file_info.h>
#include <apr_hash.h>
#include <apr_strings.h>
#include <string.h>

/* One open document: its text is the editor's, in its own pool (replaced
 * whole on each change, so memory follows the text, not the edits). */
typedef struct lsp_document_t {
    const char *uri;
    const char *path; /* relative to the root, '/'-separated; NULL outside it */
    unsigned char *text;
    apr_size_t length;
    apr_int64_t version;
    apr_pool_t *pool;
} lsp_document_t;

typedef struct lsp_server_t {
    const spx_session_options_t *options;
    spx_stdio_t *stdio;
    spx_log_t log;
    apr_pool_t *pool;
    int initialized; /* initialize answered */
    int shut_down;   /* shutdown answered */
    spx_lsp_encoding_t encoding;
    const char *root;     /* absolute, '/'-separated, no final '/' */
    const char *root_uri; /* the client's spelling when it named the root */
    /* The project opened from the files (held.project NULL: unavailable),
     * re-authenticated and opened again on drift (spx_op_held.h); NULL
     * manifest_path until initialize names the project. */
    spx_op_held_t held;
    /* The reason last said in a window/showMessage (in unavailable_pool),
     * so that the same failure again is said once and takes no memory;
     * NULL while the project is available. */
    const char *unavailable;
    apr_pool_t *unavailable_pool;
    /* the held project with the open buffers in place, diagnostics only (or it
     * when no buffer is of the project); NULL: to be rebuilt */
    spx_project_t *view;
    apr_pool_t *view_pool;
    const unsigned char **view_texts; /* the view's texts (view_pool), for full */
    apr_size_t *view_lengths;
    /* The view's texts built in full (with index and code), in view_pool
     * (so discarded with the view); NULL: not built since the view was. */
    spx_project_t *full;
    /* The last diagnostics-only view, kept from the change that discarded it
     * until the next view is built, which reuses its findings for the
     * modules the change cannot reach (spx_project_rebuild_checked); NULL:
     * none. In previous_pool (a pool of held.project_pool). */
    spx_project_t *previous;
    apr_pool_t *previous_pool;
    apr_hash_t *documents; /* uri -> lsp_document_t */
    apr_hash_t *published; /* uri -> the digest of the list last published for it */
    apr_pool_t *published_pool;
    int publish_due;
    const char *touched;     /* the URI just opened or closed (request pool): published whatever */
    int announce;            /* unavailable is new: say it in a window/showMessage */
    spx_lsp_client_t client; /* what the client supports (lsp_navigation.c reads it) */
} lsp_server_t;

/* --- writing ------------------------------------------------------------- */

static apr_status_t send_message(lsp_server_t *server, json_t *message)
{
    if (!message) {
        /* json_pack refused a value (never expected: every string is the
         * client's UTF-8 or the engine's): say so, answer nothing. */
        spx_log_event(&server->log, "a message could not be built: not sent");
        return APR_SUCCESS;
    }
    json_object_set_new(message, "jsonrpc", json_string("2.0"));
    char *text = json_dumps(message, JSON_COMPACT | JSON_SORT_KEYS);
    json_decref(message);
    if (!text)
        return APR_ENOMEM;
    apr_status_t status = spx_lsp_frame_write(server->stdio, text, strlen(text));
    free(text);
    return status;
}

static apr_status_t respond(lsp_server_t *server, json_t *id, json_t *result)
{
    return send_message(server, json_pack("{s:O,s:o}", "id", id ? id : json_null(), "result",
                                          result ? result : json_null()));
}

static apr_status_t refuse(lsp_server_t *server, json_t *id, int code, const char *message)
{
    return send_message(server, json_pack("{s:O,s:{s:i,s:s}}", "id", id ? id : json_null(), "error",
                                          "code", code, "message", message));
}

/* window/logMessage: 1 error, 2 warning, 3 info, 4 log. */
static apr_status_t tell(lsp_server_t *server, int type, const char *message)
{
    spx_log_request(&server->log, "%s", message);
    return send_message(server, json_pack("{s:s,s:{s:i,s:s}}", "method", "window/logMessage",
                                          "params", "type", type, "message", message));
}

/* --- URIs ------------------------------------------------------------------ */

static int is_letter(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

/* The absolute path of a file: URI ('/'-separated; "/C:/x" becomes "C:/x"),
 * or NULL when it is not one or decodes to a NUL. */
static const char *uri_path(const char *uri, apr_pool_t *pool)
{
    if (strncmp(uri, "file://", 7) != 0)
        return NULL;
    const char *from = uri + 7;
    if (*from != '/') { /* file://host/path: only localhost */
        if (strncmp(from, "localhost/", 10) != 0)
            return NULL;
        from += 9;
    }
    char *path = apr_palloc(pool, strlen(from) + 1), *to = path;
    for (; *from && *from != '?' && *from != '#'; from++) {
        int high = *from == '%' ? spx_hex_digit_value((unsigned char)from[1]) : -1;
        int low = high >= 0 ? spx_hex_digit_value((unsigned char)from[2]) : -1;
        if (low >= 0) {
            char c = (char)(high * 16 + low);
            if (c == 0)
                return NULL;
            *to++ = c;
            from += 2;
        } else {
            *to++ = *from;
        }
    }
    *to = 0;
    if (path[0] == '/' && is_letter(path[1]) && path[2] == ':')
        return path + 1; /* a drive letter */
    return path;
}

/* A path as a file: URI, each byte outside [A-Za-z0-9-._~/:] escaped. */
static const char *path_uri(const char *path, apr_pool_t *pool)
{
    static const char digits[] = "0123456789ABCDEF";
    apr_size_t length = strlen(path);
    char *uri = apr_palloc(pool, 8 + 3 * length + 1), *to = uri;
    memcpy(to, "file://", 7);
    to += 7;
    if (path[0] != '/')
        *to++ = '/';
    for (const unsigned char *from = (const unsigned char *)path; *from; from++) {
        unsigned char c = *from;
        if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
            c == '-' || c == '.' || c == '_' || c == '~' || c == '/' || c == ':') {
            *to++ = (char)c;
        } else {
            *to++ = '%';
            *to++ = digits[c >> 4];
            *to++ = digits[c & 15];
        }
    }
    *to = 0;
    return uri;
}

/* The path relative to the root of a document's URI, or NULL outside it. A
 * drive letter ("c:/", which some clients write in lower case) is compared
 * without regard to case; everything else byte for byte. */
static const char *relative_path(const lsp_server_t *server, const char *uri, apr_pool_t *pool)
{
    const char *path = server->root ? uri_path(uri, pool) : NULL;
    const char *root = server->root;
    if (!path)
        return NULL;
    if (is_letter(path[0]) && path[1] == ':' && is_letter(root[0]) && root[1] == ':') {
        if ((path[0] | 0x20) != (root[0] | 0x20))
            return NULL;
        path += 1;
        root += 1;
    }
    apr_size_t root_length = strlen(root);
    if (strncmp(path, root, root_length) != 0 || path[root_length] != '/')
        return NULL;
    return path + root_length + 1;
}

/* The URI a path of the project is published under: an open document's own
 * URI, else the root's URI and the path. */
static const char *uri_of(const lsp_server_t *server, const char *path, apr_pool_t *pool)
{
    for (apr_hash_index_t *at = apr_hash_first(pool, server->documents); at;
         at = apr_hash_next(at)) {
        const lsp_document_t *document = apr_hash_this_val(at);
        if (document->path && strcmp(document->path, path) == 0)
            return document->uri;
    }
    const char *encoded = path_uri(path, pool) + 7; /* "/..." */
    if (server->root_uri)
        return apr_pstrcat(pool, server->root_uri, encoded, NULL);
    return apr_pstrcat(pool, path_uri(server->root, pool), encoded, NULL);
}

static lsp_document_t *document_at_path(const lsp_server_t *server, const char *path,
                                        apr_pool_t *pool)
{
    for (apr_hash_index_t *at = apr_hash_first(pool, server->documents); at;
         at = apr_hash_next(at)) {
        lsp_document_t *document = apr_hash_this_val(at);
        if (document->path && strcmp(document->path, path) == 0)
            return document;
    }
    return NULL;
}

/* --- the project ----------------------------------------------------------- */

/* 1 when path is one of the project's sources and open in the editor: its
 * buffer overlays it, so a change to its file is not a change (a manifest
 * or data file open in the editor overlays nothing: its file counts). */
static int overlaid_source(const lsp_server_t *server, const spx_input_set_t *inputs,
                           const char *path, apr_pool_t *pool)
{
    if (!document_at_path(server, path, pool))
        return 0;
    for (apr_size_t i = 0; i < spx_input_set_source_count(inputs); i++)
        if (strcmp(spx_input_set_source(inputs, i)->path, path) == 0)
            return 1;
    return 0;
}

/* Let the previous view go. */
static void forget_previous(lsp_server_t *server)
{
    if (server->previous_pool)
        apr_pool_destroy(server->previous_pool);
    server->previous_pool = NULL;
    server->previous = NULL;
}

static void reopen(lsp_server_t *server)
{
    server->view = server->full = NULL;
    if (server->view_pool)
        apr_pool_destroy(server->view_pool);
    server->view_pool = NULL;
    forget_previous(server);
    spx_op_held_open(&server->held);
    const char *why = server->held.unavailable;
    if (!why) {
        server->unavailable = NULL;
    } else if (!server->unavailable || strcmp(server->unavailable, why) != 0) {
        /* Said once per reason: an unavailable project is tried again at
         * every request. */
        server->announce = 1;
        spx_log_event(&server->log, "%s", why);
        if (server->unavailable_pool)
            apr_pool_destroy(server->unavailable_pool);
        apr_pool_create(&server->unavailable_pool, server->pool);
        server->unavailable = apr_pstrdup(server->unavailable_pool, why);
    }
    server->publish_due = 1;
}

/* spx_op_held_excuse_t: the drift of a source open in the editor is not a
 * change (overlaid_source). */
typedef struct excuse_context_t {
    const lsp_server_t *server;
    const spx_input_set_t *inputs;
    apr_pool_t *pool;
} excuse_context_t;

static int excuse_overlaid(void *context, const char *path)
{
    const excuse_context_t *excuse = context;
    return overlaid_source(excuse->server, excuse->inputs, path, excuse->pool);
}

/* Re-authenticate the held inputs; open the project again when something
 * other than an open document changed, and rebuild the view when due. */
static void refresh(lsp_server_t *server, apr_pool_t *pool)
{
    if (!server->held.manifest_path)
        return;
    if (!server->held.project) {
        reopen(server);
    } else {
        apr_array_header_t *drift = NULL;
        excuse_context_t excuse = {server, spx_project_inputs(server->held.project), pool};
        if (spx_op_held_check(&server->held, excuse_overlaid, &excuse, &drift, pool) !=
            SPX_OP_HELD_CURRENT) {
            spx_log_event(&server->log, "drift found: the project is opened again");
            reopen(server);
        }
    }
    if (!server->held.project || server->view)
        return;
    const spx_input_set_t *inputs = spx_project_inputs(server->held.project);
    apr_size_t count = spx_project_has_manifest(server->held.project) && inputs
                           ? spx_input_set_source_count(inputs)
                           : 0;
    if (count != spx_project_module_count(server->held.project))
        count = 0; /* not built: nothing to put a buffer in */
    const unsigned char **texts = apr_pcalloc(pool, (count + 1) * sizeof(*texts));
    apr_size_t *lengths = apr_pcalloc(pool, (count + 1) * sizeof(*lengths));
    int overlaid = 0;
    for (apr_size_t i = 0; i < count; i++) {
        const lsp_document_t *document =
            document_at_path(server, spx_input_set_source(inputs, i)->path, pool);
        if (document) {
            texts[i] = document->text;
            lengths[i] = document->length;
            overlaid = 1;
        }
    }
    if (!overlaid) {
        server->view = server->held.project;
        forget_previous(server);
        return;
    }
    /* The texts are copied into the view's pool: a document may change or
     * close while the view is kept. */
    apr_pool_create(&server->view_pool, server->held.project_pool);
    server->view_texts = apr_pcalloc(server->view_pool, (count + 1) * sizeof(*texts));
    server->view_lengths = apr_pmemdup(server->view_pool, lengths, (count + 1) * sizeof(*lengths));
    for (apr_size_t i = 0; i < count; i++)
        if (texts[i])
            server->view_texts[i] = apr_pmemdup(server->view_pool, texts[i], lengths[i] + 1);
    server->view =
        spx_project_rebuild_checked(server->held.project, server->view_texts, server->view_lengths,
                                    server->previous, server->view_pool);
    forget_previous(server);
}

/* The project as held, in full (with its index and code): the held project when no
 * buffer is of the project, else the view's texts built again in full once
 * per view (refresh has run: never older than the view). NULL: none. */
static spx_project_t *full_project(lsp_server_t *server)
{
    if (!server->view || !spx_project_diagnostics_only(server->view))
        return server->view ? server->view : server->held.project;
    if (!server->full)
        server->full = spx_project_rebuild(server->held.project, server->view_texts,
                                           server->view_lengths, server->view_pool);
    return server->full;
}

/* The view is out of date (a buffer changed, opened or closed): a
 * diagnostics-only view becomes the previous one (replacing an older one,
 * which no view was built from), any other is let go. */
static void invalidate(lsp_server_t *server)
{
    if (server->view && spx_project_diagnostics_only(server->view)) {
        forget_previous(server);
        server->previous = server->view;
        server->previous_pool = server->view_pool;
        server->view_pool = NULL;
    }
    server->view = server->full = NULL;
    if (server->view_pool)
        apr_pool_destroy(server->view_pool);
    server->view_pool = NULL;
    server->publish_due = 1;
}

/* The text a path's diagnostics are placed in: its open buffer, else the
 * bytes held from its file (a BOM there counts for nothing). */
static int text_of(lsp_server_t *server, const char *path, spx_lsp_lines_t *lines, apr_pool_t *pool)
{
    const lsp_document_t *document = document_at_path(server, path, pool);
    if (document) {
        spx_lsp_lines_index(lines, document->text, document->length, 0, pool);
        return 1;
    }
    const spx_input_t *input =
        server->held.project ? spx_input_set_find(spx_project_inputs(server->held.project), path)
                             : NULL;
    if (!input || input->kind != SPX_OBJECT_FILE)
        return 0;
    spx_lsp_lines_index(lines, input->bytes, input->size, 1, pool);
    return 1;
}

static json_t *range_json(const lsp_server_t *server, const spx_lsp_lines_t *lines,
                          apr_size_t start, apr_size_t end)
{
    apr_size_t line = 0, character = 0, end_line = 0, end_character = 0;
    spx_lsp_position(lines, start, server->encoding, &line, &character);
    spx_lsp_position(lines, end, server->encoding, &end_line, &end_character);
    return json_pack("{s:{s:I,s:I},s:{s:I,s:I}}", "start", "line", (json_int_t)line, "character",
                     (json_int_t)character, "end", "line", (json_int_t)end_line, "character",
                     (json_int_t)end_character);
}

static json_t *diagnostic_json(lsp_server_t *server, const spx_diagnostic_t *item,
                               const spx_lsp_lines_t *lines, apr_pool_t *pool)
{
    json_t *diagnostic =
        json_pack("{s:o,s:i,s:s,s:s,s:s}", "range",
                  range_json(server, lines, item->span.start.offset, item->span.end.offset),
                  "severity", spx_diagnostic_is_warning(item) ? 2 : 1, "code", item->code, "source",
                  "semaprax", "message", item->message);
    if (item->notes && item->notes->nelts > 0) {
        json_t *related = json_array();
        for (int i = 0; i < item->notes->nelts; i++) {
            const spx_diagnostic_note_t *note =
                &APR_ARRAY_IDX(item->notes, i, spx_diagnostic_note_t);
            spx_lsp_lines_t note_lines;
            if (!text_of(server, note->path, &note_lines, pool))
                continue;
            json_array_append_new(related,
                                  json_pack("{s:{s:s,s:o},s:s}", "location", "uri",
                                            uri_of(server, note->path, pool), "range",
                                            range_json(server, &note_lines, note->span.start.offset,
                                                       note->span.end.offset),
                                            "message", note->message));
        }
        json_object_set_new(diagnostic, "relatedInformation", related);
    }
    return diagnostic;
}

/* Publish the diagnostics of each source of the project and the manifest
 * whose list differs from the one last published for its URI (each list's
 * digest is kept; the first time, every one), the document just opened or
 * closed whatever its list, and an empty list for each URI published
 * before that is no longer a path of the project. */
static apr_status_t publish(lsp_server_t *server, apr_pool_t *pool)
{
    if (!server->publish_due || !server->initialized)
        return APR_SUCCESS;
    server->publish_due = 0;
    if (server->announce && server->unavailable) {
        server->announce = 0;
        apr_status_t said = send_message(
            server, json_pack("{s:s,s:{s:i,s:s}}", "method", "window/showMessage", "params", "type",
                              1, "message",
                              apr_psprintf(pool, "Semaprax: the project cannot be opened: %s",
                                           server->unavailable)));
        if (said != APR_SUCCESS)
            return said;
    }
    apr_hash_t *lists = apr_hash_make(pool); /* path -> json array */
    apr_array_header_t *order = apr_array_make(pool, 16, sizeof(const char *));
    const spx_project_t *project = server->view ? server->view : server->held.project;
    if (project) {
        const spx_input_set_t *inputs = spx_project_inputs(project);
        if (inputs) {
            const char *manifest = spx_input_set_manifest(inputs)->path;
            apr_hash_set(lists, manifest, APR_HASH_KEY_STRING, json_array());
            APR_ARRAY_PUSH(order, const char *) = manifest;
            for (apr_size_t i = 0; i < spx_input_set_source_count(inputs); i++) {
                const char *path = spx_input_set_source(inputs, i)->path;
                apr_hash_set(lists, path, APR_HASH_KEY_STRING, json_array());
                APR_ARRAY_PUSH(order, const char *) = path;
            }
        }
        const spx_diagnostics_t *diagnostics = spx_project_diagnostics(project);
        for (apr_size_t i = 0; i < spx_diagnostics_count(diagnostics); i++) {
            const spx_diagnostic_t *item = spx_diagnostics_get(diagnostics, i);
            json_t *list = apr_hash_get(lists, item->path, APR_HASH_KEY_STRING);
            spx_lsp_lines_t lines;
            if (!list || !text_of(server, item->path, &lines, pool))
                continue;
            json_array_append_new(list, diagnostic_json(server, item, &lines, pool));
        }
    }
    apr_pool_t *published_pool = NULL;
    apr_pool_create(&published_pool, server->pool);
    apr_hash_t *published = apr_hash_make(published_pool); /* uri -> digest of its list */
    apr_status_t status = APR_SUCCESS;
    for (int i = 0; i < order->nelts; i++) {
        const char *path = APR_ARRAY_IDX(order, i, const char *);
        json_t *list = apr_hash_get(lists, path, APR_HASH_KEY_STRING);
        if (status != APR_SUCCESS) {
            json_decref(list); /* a write failed: the rest is not sent */
            continue;
        }
        const char *uri = uri_of(server, path, pool);
        char *text = json_dumps(list, JSON_COMPACT | JSON_SORT_KEYS);
        spx_sha256_t digest;
        spx_sha256(text ? text : "", text ? strlen(text) : 0, &digest);
        free(text);
        const char *kept_digest = spx_digest_text(&digest, published_pool);
        const char *before =
            server->published ? apr_hash_get(server->published, uri, APR_HASH_KEY_STRING) : NULL;
        if (server->published)
            apr_hash_set(server->published, uri, APR_HASH_KEY_STRING, NULL);
        apr_hash_set(published, apr_pstrdup(published_pool, uri), APR_HASH_KEY_STRING, kept_digest);
        if (before && strcmp(before, kept_digest) == 0 &&
            !(server->touched && strcmp(server->touched, uri) == 0)) {
            json_decref(list); /* the client has it */
            continue;
        }
        status = send_message(server, json_pack("{s:s,s:{s:s,s:o}}", "method",
                                                "textDocument/publishDiagnostics", "params", "uri",
                                                uri, "diagnostics", list)); /* list taken */
    }
    server->touched = NULL;
    /* What was published and is no longer a path of the project. */
    for (apr_hash_index_t *at = server->published ? apr_hash_first(pool, server->published) : NULL;
         at && status == APR_SUCCESS; at = apr_hash_next(at))
        status = send_message(
            server, json_pack("{s:s,s:{s:s,s:[]}}", "method", "textDocument/publishDiagnostics",
                              "params", "uri", (const char *)apr_hash_this_key(at), "diagnostics"));
    if (server->published_pool)
        apr_pool_destroy(server->published_pool);
    server->published_pool = published_pool;
    server->published = published;
    return status;
}

/* --- params -------------------------------------------------------------- */

static const char *string_at(json_t *object, const char *key)
{
    json_t *value = json_is_object(object) ? json_object_get(object, key) : NULL;
    return json_is_string(value) ? json_string_value(value) : NULL;
}

/* The textDocument.uri of params, or NULL. */
static const char *document_uri(json_t *params)
{
    return string_at(json_is_object(params) ? json_object_get(params, "textDocument") : NULL,
                     "uri");
}

/* A position's line and character, 0 when either is missing or not a
 * non-negative integer. */
static int position_of(json_t *position, apr_uint64_t *line, apr_uint64_t *character)
{
    json_t *l = json_is_object(position) ? json_object_get(position, "line") : NULL;
    json_t *c = json_is_object(position) ? json_object_get(position, "character") : NULL;
    if (!json_is_integer(l) || !json_is_integer(c) || json_integer_value(l) < 0 ||
        json_integer_value(c) < 0)
        return 0;
    *line = (apr_uint64_t)json_integer_value(l);
    *character = (apr_uint64_t)json_integer_value(c);
    return 1;
}

/* --- lifecycle ----------------------------------------------------------- */

static json_t *initialize(lsp_server_t *server, json_t *params, apr_pool_t *pool)
{
    /* utf-8 when the client offers it, else LSP's utf-16 */
    json_t *general = json_is_object(params) ? json_object_get(params, "capabilities") : NULL;
    general = json_is_object(general) ? json_object_get(general, "general") : NULL;
    json_t *encodings =
        json_is_object(general) ? json_object_get(general, "positionEncodings") : NULL;
    server->encoding = SPX_LSP_UTF16;
    for (size_t i = 0; i < json_array_size(encodings); i++) {
        json_t *offered = json_array_get(encodings, i);
        if (json_is_string(offered) && strcmp(json_string_value(offered), "utf-8") == 0)
            server->encoding = SPX_LSP_UTF8;
    }
    /* The root: the first workspace folder, else rootUri, else rootPath. */
    const char *root_uri = NULL, *root_path = NULL;
    json_t *folders = json_is_object(params) ? json_object_get(params, "workspaceFolders") : NULL;
    if (json_array_size(folders) > 0)
        root_uri = string_at(json_array_get(folders, 0), "uri");
    if (!root_uri)
        root_uri = string_at(params, "rootUri");
    if (root_uri)
        root_path = uri_path(root_uri, pool);
    else
        root_path = string_at(params, "rootPath");
    const char *manifest = server->options->manifest_path;
    if (!manifest)
        manifest =
            root_path ? apr_pstrcat(pool, root_path, "/semaprax.toml", NULL) : "semaprax.toml";
    char *absolute = NULL;
    if (apr_filepath_merge(&absolute, NULL, manifest, 0, server->pool) != APR_SUCCESS)
        absolute = apr_pstrdup(server->pool, manifest);
    spx_op_held_init(&server->held, absolute, server->pool);
    char *slash = strrchr(absolute, '/');
    server->root = slash ? apr_pstrndup(server->pool, absolute, (apr_size_t)(slash - absolute))
                         : apr_pstrdup(server->pool, ".");
    /* The client's spelling of the root when it is the project's root. */
    server->root_uri = NULL;
    if (root_uri && root_path) {
        char *merged = NULL;
        if (apr_filepath_merge(&merged, NULL, root_path, 0, pool) == APR_SUCCESS &&
            strcmp(merged, server->root) == 0) {
            apr_size_t length = strlen(root_uri);
            while (length > 0 && root_uri[length - 1] == '/')
                length--;
            server->root_uri = apr_pstrndup(server->pool, root_uri, length);
        }
    }
    reopen(server);
    spx_lsp_navigation_client(params, &server->client);
    json_t *sync = json_pack("{s:b,s:i}", "openClose", 1, "change", 2); /* incremental */
    json_t *result =
        json_pack("{s:{s:s,s:o,s:b,s:{s:[s]}},s:{s:s,s:s}}", "capabilities", "positionEncoding",
                  server->encoding == SPX_LSP_UTF8 ? "utf-8" : "utf-16", "textDocumentSync", sync,
                  "documentFormattingProvider", 1, "codeActionProvider", "codeActionKinds",
                  "quickfix", "serverInfo", "name", "semapraxd", "version", SPX_VERSION);
    if (result)
        spx_lsp_navigation_capabilities(json_object_get(result, "capabilities"));
    return result;
}

/* --- documents ----------------------------------------------------------- */

/* Replace a document's text by length bytes at text (copied). */
static void set_text(lsp_server_t *server, lsp_document_t *document, const char *text,
                     apr_size_t length)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, server->pool);
    lsp_document_t *fresh = apr_pcalloc(pool, sizeof(*fresh));
    fresh->uri = apr_pstrdup(pool, document->uri);
    fresh->path = document->path ? apr_pstrdup(pool, document->path) : NULL;
    fresh->text = apr_pmemdup(pool, text, length + 1);
    fresh->text[length] = 0;
    fresh->length = length;
    fresh->version = document->version;
    fresh->pool = pool;
    /* The entry goes first: a replaced entry would keep its old key. */
    apr_hash_set(server->documents, fresh->uri, APR_HASH_KEY_STRING, NULL);
    apr_hash_set(server->documents, fresh->uri, APR_HASH_KEY_STRING, fresh);
    if (document->pool)
        apr_pool_destroy(document->pool);
}

static apr_int64_t version_of(json_t *params)
{
    json_t *document = json_is_object(params) ? json_object_get(params, "textDocument") : NULL;
    json_t *version = json_is_object(document) ? json_object_get(document, "version") : NULL;
    return json_is_integer(version) ? (apr_int64_t)json_integer_value(version) : -1;
}

static apr_status_t did_open(lsp_server_t *server, json_t *params, apr_pool_t *pool)
{
    const char *uri = document_uri(params);
    const char *text = string_at(json_object_get(params, "textDocument"), "text");
    if (!uri || !text)
        return tell(server, 2, "textDocument/didOpen without textDocument.uri and text: ignored");
    json_t *value = json_object_get(json_object_get(params, "textDocument"), "text");
    apr_size_t length = json_string_length(value);
    if (length > SPX_LIMIT_SOURCE_BYTES)
        return tell(server, 1,
                    apr_psprintf(pool, "%s is over the source limit (%u bytes): not opened",
                                 spx_detail_echo(uri, pool), SPX_LIMIT_SOURCE_BYTES));
    lsp_document_t *old = apr_hash_get(server->documents, uri, APR_HASH_KEY_STRING);
    if (!old && apr_hash_count(server->documents) >= SPX_LIMIT_LSP_DOCUMENTS)
        return tell(server, 1, "too many open documents: not opened");
    lsp_document_t placeholder = {0};
    placeholder.uri = uri;
    placeholder.path = relative_path(server, uri, pool);
    placeholder.version = version_of(params);
    if (old) {
        placeholder.pool = old->pool;
        placeholder.uri = apr_pstrdup(pool, uri);
    }
    set_text(server, &placeholder, text, length);
    invalidate(server);
    server->touched = apr_pstrdup(pool, uri);
    return APR_SUCCESS;
}

/* Apply one contentChange to document's text: the new text in pool (whole,
 * or range replaced), or NULL and *problem. */
static const char *apply_change(lsp_server_t *server, const lsp_document_t *document,
                                json_t *change, apr_size_t *length, const char **problem,
                                apr_pool_t *pool)
{
    json_t *text = json_is_object(change) ? json_object_get(change, "text") : NULL;
    if (!json_is_string(text)) {
        *problem = "a change without text";
        return NULL;
    }
    json_t *range = json_object_get(change, "range");
    apr_size_t added = json_string_length(text);
    if (!range) {
        if (added > SPX_LIMIT_SOURCE_BYTES) {
            *problem = "a text larger than the source limit";
            return NULL;
        }
        *length = added;
        return json_string_value(text);
    }
    apr_uint64_t start_line = 0, start_character = 0, end_line = 0, end_character = 0;
    if (!position_of(json_object_get(range, "start"), &start_line, &start_character) ||
        !position_of(json_object_get(range, "end"), &end_line, &end_character)) {
        *problem = "a change with a malformed range";
        return NULL;
    }
    spx_lsp_lines_t lines;
    spx_lsp_lines_index(&lines, document->text, document->length, 0, pool);
    apr_size_t start = spx_lsp_offset(&lines, start_line, start_character, server->encoding);
    apr_size_t end = spx_lsp_offset(&lines, end_line, end_character, server->encoding);
    if (end < start) {
        *problem = "a change whose range ends before it starts";
        return NULL;
    }
    apr_size_t kept = document->length - (end - start);
    if (added > SPX_LIMIT_SOURCE_BYTES || kept + added > SPX_LIMIT_SOURCE_BYTES) {
        *problem = "a change that makes the document larger than the source limit";
        return NULL;
    }
    *length = kept + added;
    char *result = apr_palloc(pool, *length + 1);
    memcpy(result, document->text, start);
    memcpy(result + start, json_string_value(text), added);
    memcpy(result + start + added, document->text + end, document->length - end);
    result[*length] = 0;
    return result;
}

/* The open document a notification's params name (and its uri in *uri),
 * or NULL after telling the client that method's notification of a
 * document that is not open is ignored (*status the telling's). */
static lsp_document_t *open_document(lsp_server_t *server, json_t *params, const char *method,
                                     const char **uri, apr_status_t *status, apr_pool_t *pool)
{
    *uri = document_uri(params);
    lsp_document_t *document =
        *uri ? apr_hash_get(server->documents, *uri, APR_HASH_KEY_STRING) : NULL;
    if (!document)
        *status =
            tell(server, 2,
                 apr_psprintf(pool, "%s of %s, which is not open: ignored", method,
                              *uri ? spx_detail_echo(*uri, pool) : "a document without a uri"));
    return document;
}

static apr_status_t did_change(lsp_server_t *server, json_t *params, apr_pool_t *pool)
{
    const char *uri;
    apr_status_t status;
    lsp_document_t *document =
        open_document(server, params, "textDocument/didChange", &uri, &status, pool);
    if (!document)
        return status;
    json_t *changes = json_object_get(params, "contentChanges");
    if (!json_is_array(changes) || json_array_size(changes) > SPX_LIMIT_LSP_CHANGES)
        return tell(server, 1,
                    apr_psprintf(pool,
                                 "textDocument/didChange of %s without a contentChanges "
                                 "array of at most %u: ignored",
                                 spx_detail_echo(uri, pool), SPX_LIMIT_LSP_CHANGES));
    apr_int64_t version = version_of(params);
    if (version >= 0 && document->version >= 0 && version != document->version + 1)
        tell(server, 2,
             apr_psprintf(pool,
                          "textDocument/didChange of %s: version %" APR_INT64_T_FMT
                          " after %" APR_INT64_T_FMT "; the changes are applied as sent",
                          spx_detail_echo(uri, pool), version, document->version));
    /* Every change is applied in order to a copy; the document takes the
     * result only when all of them applied. */
    lsp_document_t current = *document;
    apr_pool_t *scratch = NULL;
    apr_pool_create(&scratch, pool);
    apr_uint64_t work = 0; /* bytes scanned and copied so far */
    for (size_t i = 0; i < json_array_size(changes); i++) {
        const char *problem = NULL;
        work += current.length;
        if (work > SPX_LIMIT_LSP_CHANGE_WORK_BYTES) {
            apr_pool_destroy(scratch);
            return tell(server, 1,
                        apr_psprintf(pool,
                                     "textDocument/didChange of %s: its changes take more than "
                                     "%u MiB of work over this document; the document is kept "
                                     "as it was before this notification (close and reopen "
                                     "it to re-synchronise)",
                                     spx_detail_echo(uri, pool),
                                     (unsigned)(SPX_LIMIT_LSP_CHANGE_WORK_BYTES >> 20)));
        }
        apr_size_t length = 0;
        apr_pool_t *next = NULL;
        apr_pool_create(&next, pool);
        const char *text =
            apply_change(server, &current, json_array_get(changes, i), &length, &problem, next);
        if (!text) {
            apr_pool_destroy(next);
            apr_pool_destroy(scratch);
            return tell(server, 1,
                        apr_psprintf(pool,
                                     "textDocument/didChange of %s: %s; the document is kept "
                                     "as it was before this notification (close and reopen "
                                     "it to re-synchronise)",
                                     spx_detail_echo(uri, pool), problem));
        }
        current.text = (unsigned char *)text; /* the request's, or next's */
        current.length = length;
        apr_pool_destroy(scratch);
        scratch = next;
    }
    document->version = version;
    set_text(server, document, (const char *)current.text, current.length);
    apr_pool_destroy(scratch);
    invalidate(server);
    return APR_SUCCESS;
}

static apr_status_t did_close(lsp_server_t *server, json_t *params, apr_pool_t *pool)
{
    const char *uri;
    apr_status_t status;
    lsp_document_t *document =
        open_document(server, params, "textDocument/didClose", &uri, &status, pool);
    if (!document)
        return status;
    server->touched = apr_pstrdup(pool, uri);
    apr_hash_set(server->documents, uri, APR_HASH_KEY_STRING, NULL);
    apr_pool_destroy(document->pool);
    invalidate(server);
    return APR_SUCCESS;
}

/* --- requests ------------------------------------------------------------ */

/* The text a request about a document reads: its buffer, else its file's
 * bytes as held; NULL (and why) when neither. */
static const lsp_document_t *request_document(lsp_server_t *server, json_t *params,
                                              const char **why, apr_pool_t *pool)
{
    const char *uri = document_uri(params);
    if (!uri) {
        *why = "params.textDocument.uri is missing";
        return NULL;
    }
    lsp_document_t *document = apr_hash_get(server->documents, uri, APR_HASH_KEY_STRING);
    if (document)
        return document;
    const char *path = relative_path(server, uri, pool);
    const spx_input_t *input =
        path && server->held.project
            ? spx_input_set_find(spx_project_inputs(server->held.project), path)
            : NULL;
    if (!input || input->kind != SPX_OBJECT_FILE) {
        *why = apr_psprintf(pool, "%s is neither open nor a file of the project",
                            spx_detail_echo(uri, pool));
        return NULL;
    }
    lsp_document_t *held = apr_pcalloc(pool, sizeof(*held));
    held->uri = uri;
    held->path = input->path;
    held->text = (unsigned char *)input->bytes;
    held->length = input->size;
    return held;
}

/* textDocument/formatting: the fmt operation's layout of the buffer, as
 * the edits of the lines that differ (none when it is already canonical). */
static apr_status_t formatting(lsp_server_t *server, json_t *id, json_t *params, apr_pool_t *pool)
{
    const char *why = NULL;
    const lsp_document_t *document = request_document(server, params, &why, pool);
    if (!document)
        return refuse(server, id, SPX_RPC_INVALID_PARAMS, why);
    spx_fmt_file_t file;
    spx_op_fmt_text(document->text, document->length, document->path ? document->path : "buffer",
                    &file, pool);
    if (file.refused == SPX_FMT_SYNTAX) {
        const spx_diagnostic_t *first = spx_diagnostics_get(file.diagnostics, 0);
        return refuse(server, id, SPX_LSP_REQUEST_FAILED,
                      apr_psprintf(pool,
                                   "the document does not parse, so it was not formatted: "
                                   "%s:%u:%u: %s",
                                   first->path, (unsigned)first->span.start.line,
                                   (unsigned)first->span.start.column, first->message));
    }
    if (file.refused == SPX_FMT_TOO_LARGE)
        return refuse(server, id, SPX_LSP_REQUEST_FAILED,
                      "the layout would be over the source limit: not formatted");
    if (file.refused)
        return refuse(server, id, SPX_LSP_REQUEST_FAILED,
                      "the formatter's self-check failed: not formatted");
    if (!file.changed)
        return respond(server, id, json_array());
    /* One edit per change of the line diff from the buffer to its layout
     * (spx_diff.h: the lines that stay are not touched, so the editor keeps
     * its marks and cursor on them). */
    apr_array_header_t *changes = NULL;
    spx_diff_changes((const char *)document->text, document->length, file.text, file.text_length,
                     &changes, pool);
    spx_lsp_lines_t lines;
    int open = apr_hash_get(server->documents, document->uri, APR_HASH_KEY_STRING) != NULL;
    spx_lsp_lines_index(&lines, document->text, document->length, !open, pool);
    json_t *edits = json_array();
    for (int i = 0; i < changes->nelts; i++) {
        const spx_diff_change_t *change = &APR_ARRAY_IDX(changes, i, spx_diff_change_t);
        json_array_append_new(
            edits,
            json_pack("{s:o,s:s%}", "range",
                      range_json(server, &lines, change->old_start, change->old_end), "newText",
                      file.text + change->new_start, change->new_end - change->new_start));
    }
    return respond(server, id, edits);
}

/* 1 when bytes are one name (ASCII letters, digits, underscores). */
static int is_name(const unsigned char *bytes, apr_size_t length)
{
    if (length == 0)
        return 0;
    for (apr_size_t i = 0; i < length; i++) {
        unsigned char c = bytes[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_'))
            return 0;
    }
    return 1;
}

/* textDocument/codeAction: for each diagnostic of the document in the
 * range that suggests names and whose span is the unknown name, a quick fix
 * per suggestion replacing the name. */
static apr_status_t code_action(lsp_server_t *server, json_t *id, json_t *params, apr_pool_t *pool)
{
    const char *why = NULL;
    const lsp_document_t *document = request_document(server, params, &why, pool);
    if (!document)
        return refuse(server, id, SPX_RPC_INVALID_PARAMS, why);
    json_t *actions = json_array();
    const spx_project_t *project = server->view ? server->view : server->held.project;
    if (!project || !document->path)
        return respond(server, id, actions);
    spx_lsp_lines_t lines;
    int open = apr_hash_get(server->documents, document->uri, APR_HASH_KEY_STRING) != NULL;
    spx_lsp_lines_index(&lines, document->text, document->length, !open, pool);
    json_t *range = json_object_get(params, "range");
    apr_uint64_t line = 0, character = 0, end_line = 0, end_character = 0;
    apr_size_t from = 0, to = document->length;
    if (position_of(json_object_get(range, "start"), &line, &character) &&
        position_of(json_object_get(range, "end"), &end_line, &end_character)) {
        from = spx_lsp_offset(&lines, line, character, server->encoding);
        to = spx_lsp_offset(&lines, end_line, end_character, server->encoding);
    }
    const spx_diagnostics_t *diagnostics = spx_project_diagnostics(project);
    for (apr_size_t i = 0; i < spx_diagnostics_count(diagnostics); i++) {
        const spx_diagnostic_t *item = spx_diagnostics_get(diagnostics, i);
        apr_size_t start = item->span.start.offset, end = item->span.end.offset;
        if (strcmp(item->path, document->path) != 0 || !item->suggestions ||
            end > document->length || end < start || end < from || start > to ||
            !is_name(document->text + start, end - start))
            continue;
        for (int s = 0; s < item->suggestions->nelts; s++) {
            const char *name = APR_ARRAY_IDX(item->suggestions, s, const char *);
            /* A qualified suggestion ("math.fib") replaces only the name
             * after its qualifier, which must be written before the span. */
            const char *dot = strrchr(name, '.');
            if (dot) {
                apr_size_t qualifier = (apr_size_t)(dot + 1 - name);
                if (start < qualifier ||
                    memcmp(document->text + start - qualifier, name, qualifier) != 0)
                    continue;
                name = dot + 1;
            }
            json_t *edits = json_pack("[{s:o,s:s}]", "range",
                                      range_json(server, &lines, start, end), "newText", name);
            json_t *changes = json_object();
            json_object_set_new(changes, document->uri, edits);
            json_array_append_new(
                actions,
                json_pack("{s:s,s:s,s:[o],s:b,s:{s:o}}", "title",
                          apr_psprintf(pool, "Replace '%.*s' with '%s'", (int)(end - start),
                                       (const char *)document->text + start, name),
                          "kind", "quickfix", "diagnostics",
                          diagnostic_json(server, item, &lines, pool), "isPreferred", s == 0,
                          "edit", "changes", changes));
        }
    }
    return respond(server, id, actions);
}

/* --- navigation (lsp_navigation.c) ---------------------------------------- */

static const char *navigation_path_of(void *server, const char *uri, apr_pool_t *pool)
{
    return relative_path(server, uri, pool);
}

static const char *navigation_uri_of(void *server, const char *path, apr_pool_t *pool)
{
    return uri_of(server, path, pool);
}

static int navigation_open(void *server, const char *path, apr_int64_t *version)
{
    apr_pool_t *scratch = NULL;
    apr_pool_create(&scratch, ((lsp_server_t *)server)->pool);
    const lsp_document_t *document = path ? document_at_path(server, path, scratch) : NULL;
    if (document)
        *version = document->version;
    apr_pool_destroy(scratch);
    return document != NULL;
}

static spx_project_t *navigation_full(void *server)
{
    return full_project(server);
}

static apr_status_t navigate(lsp_server_t *server, json_t *id, const char *method, json_t *params,
                             apr_pool_t *pool)
{
    spx_lsp_navigation_t navigation = {.project =
                                           server->view ? server->view : server->held.project,
                                       .encoding = server->encoding,
                                       .client = server->client,
                                       .server = server,
                                       .path_of = navigation_path_of,
                                       .uri_of = navigation_uri_of,
                                       .open = navigation_open,
                                       .full = navigation_full};
    json_t *result = NULL;
    const char *refusal = NULL;
    if (!spx_lsp_navigation_answer(&navigation, method, params, &result, &refusal, pool))
        return refuse(server, id, SPX_LSP_REQUEST_FAILED, refusal);
    return respond(server, id, result);
}

/* --- dispatch ------------------------------------------------------------ */

static int is_method(const spx_request_t *request, const char *name)
{
    return strcmp(request->method, name) == 0;
}

/* A notification. *exit_code set (>= 0) ends the server. */
static apr_status_t notified(lsp_server_t *server, const spx_request_t *request, int *exit_code,
                             apr_pool_t *pool)
{
    if (is_method(request, "exit")) {
        *exit_code = server->shut_down ? SPX_SESSION_EXIT_OK : SPX_SESSION_EXIT_STOPPED;
        return APR_SUCCESS;
    }
    if (!server->initialized || server->shut_down)
        return APR_SUCCESS; /* dropped (LSP: notifications before initialize are) */
    apr_status_t status = APR_SUCCESS;
    if (is_method(request, "initialized"))
        server->publish_due = 1;
    else if (is_method(request, "textDocument/didOpen"))
        status = did_open(server, request->params, pool);
    else if (is_method(request, "textDocument/didChange"))
        status = did_change(server, request->params, pool);
    else if (is_method(request, "textDocument/didClose"))
        status = did_close(server, request->params, pool);
    else if (is_method(request, "workspace/didChangeWatchedFiles"))
        status = APR_SUCCESS; /* the refresh below looks */
    else
        return APR_SUCCESS; /* $/cancelRequest (every request is answered before the next
                             * is read), $/ and every other notification: ignored */
    if (status == APR_SUCCESS) {
        refresh(server, pool);
        status = publish(server, pool);
    }
    return status;
}

static apr_status_t requested(lsp_server_t *server, const spx_request_t *request, apr_pool_t *pool)
{
    json_t *id = request->id;
    if (!server->initialized) {
        if (!is_method(request, "initialize"))
            return refuse(server, id, SPX_LSP_SERVER_NOT_INITIALIZED,
                          "the server is not initialized: send initialize first");
        json_t *result = initialize(server, request->params, pool);
        server->initialized = 1;
        return respond(server, id, result);
    }
    if (server->shut_down)
        return refuse(server, id, SPX_RPC_INVALID_REQUEST,
                      "the server is shut down: only the exit notification is accepted");
    if (is_method(request, "initialize"))
        return refuse(server, id, SPX_RPC_INVALID_REQUEST, "initialize was already answered");
    if (is_method(request, "shutdown")) {
        server->shut_down = 1;
        return respond(server, id, NULL);
    }
    static const struct {
        const char *method;
        apr_status_t (*answer)(lsp_server_t *, json_t *, json_t *, apr_pool_t *);
    } methods[] = {
        {"textDocument/formatting", formatting},
        {"textDocument/codeAction", code_action},
    };
    for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]); i++) {
        if (!is_method(request, methods[i].method))
            continue;
        refresh(server, pool);
        apr_status_t status = publish(server, pool);
        if (status != APR_SUCCESS)
            return status;
        return methods[i].answer(server, id, request->params, pool);
    }
    if (spx_lsp_navigation_handles(request->method)) {
        refresh(server, pool);
        apr_status_t status = publish(server, pool);
        if (status != APR_SUCCESS)
            return status;
        return navigate(server, id, request->method, request->params, pool);
    }
    return refuse(server, id, SPX_RPC_METHOD_NOT_FOUND,
                  apr_psprintf(pool, "unknown method %s", spx_detail_echo(request->method, pool)));
}

static apr_status_t read_stdio(void *context, void *buffer, apr_size_t capacity, apr_size_t *got)
{
    return spx_stdio_read(context, buffer, capacity, got);
}

spx_session_exit_t spx_lsp_run(const spx_session_options_t *options, spx_stdio_t *stdio,
                               apr_pool_t *pool)
{
    lsp_server_t server = {0};
    server.options = options;
    server.stdio = stdio;
    server.pool = pool;
    server.encoding = SPX_LSP_UTF16;
    server.documents = apr_hash_make(pool);
    spx_log_init(&server.log, "semapraxd", options->verbose);
    spx_lsp_frame_reader_t *reader = NULL;
    if (spx_lsp_frame_reader_create(&reader, read_stdio, stdio, options->max_request_bytes, pool) !=
        APR_SUCCESS)
        return SPX_SESSION_EXIT_STOPPED;
    static const spx_request_dialect_t dialect = {
        .negative_ids = 1, .responses = 1, .carriage_returns = 1, .null_params = 1};
    apr_pool_t *request_pool = NULL;
    apr_pool_create(&request_pool, pool);
    int exit_code = -1;
    while (exit_code < 0) {
        apr_pool_clear(request_pool);
        server.touched = NULL;
        spx_lsp_frame_t frame;
        apr_status_t status = spx_lsp_frame_next(reader, &frame);
        if (status != APR_SUCCESS) {
            spx_log_event(&server.log, "reading standard input failed");
            return SPX_SESSION_EXIT_STOPPED;
        }
        if (frame.kind == SPX_LSP_FRAME_END || frame.kind == SPX_LSP_FRAME_TRUNCATED) {
            if (frame.kind == SPX_LSP_FRAME_TRUNCATED)
                spx_log_event(&server.log, "end of input inside a message");
            return server.shut_down ? SPX_SESSION_EXIT_OK : SPX_SESSION_EXIT_STOPPED;
        }
        if (frame.kind == SPX_LSP_FRAME_BAD_HEADER) {
            status = tell(&server, 1,
                          apr_psprintf(request_pool, "a message was dropped: %s", frame.problem));
        } else if (frame.kind == SPX_LSP_FRAME_OVERSIZED) {
            status = tell(
                &server, 1,
                apr_psprintf(request_pool,
                             "a message of %" APR_SIZE_T_FMT
                             " bytes was dropped: over --max-request-bytes (%" APR_SIZE_T_FMT ")",
                             frame.length, options->max_request_bytes));
        } else {
            spx_request_t request;
            spx_request_error_t error;
            if (spx_request_parse_dialect(&dialect, frame.bytes, frame.length, &request, &error,
                                          request_pool) != SPX_REQUEST_VALID)
                status = refuse(&server, error.id, error.code,
                                apr_psprintf(request_pool, "%s: %s",
                                             error.code == SPX_RPC_PARSE_ERROR ? "parse error"
                                                                               : "invalid request",
                                             error.detail ? error.detail : "refused"));
            else if (request.is_response)
                status = APR_SUCCESS;
            else if (request.is_notification)
                status = notified(&server, &request, &exit_code, request_pool);
            else
                status = requested(&server, &request, request_pool);
        }
        if (status != APR_SUCCESS) {
            spx_log_event(&server.log, "writing standard output failed");
            return SPX_SESSION_EXIT_STOPPED;
        }
    }
    return (spx_session_exit_t)exit_code;
}
