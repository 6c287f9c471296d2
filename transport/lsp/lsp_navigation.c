/*
 * lsp_navigation.c: the navigation requests of `semapraxd --lsp`
 * (spx_lsp_navigation.h, docs/editors.md): hover, definition, references,
 * documentHighlight, documentSymbol, workspace/symbol, completion, signatureHelp,
 * semanticTokens/full, prepareRename and rename. The answers are the
 * engine's (spx_lookup.h, spx_rename.h) over the project the server holds
 * with the open buffers in place; this file converts byte offsets to LSP
 * positions (spx_lsp_text.h) and renders. A document that is not a source
 * of the project, or a position with nothing at it, is answered with null
 * or an empty list. Nothing is ever written: a rename is a WorkspaceEdit
 * the client applies.
 */
#include "spx_lsp_navigation.h"

#include "spx_limits.h"
#include "spx_lookup.h"
#include "spx_rename.h"

#include <apr_strings.h>
#include <string.h>

/* --- positions ------------------------------------------------------------- */

/* A request's sources: the project's texts indexed into lines when first
 * needed. */
typedef struct request_t {
    const spx_lsp_navigation_t *navigation;
    const spx_project_t *project;
    spx_lsp_lines_t **lines; /* by source number; NULL: not indexed yet */
    apr_size_t count;
    apr_pool_t *pool;
} request_t;

static void request_init(request_t *request, const spx_lsp_navigation_t *navigation,
                         apr_pool_t *pool)
{
    request->navigation = navigation;
    request->project = navigation->project;
    request->count = navigation->project ? spx_project_module_count(navigation->project) : 0;
    request->lines = apr_pcalloc(pool, (request->count + 1) * sizeof(*request->lines));
    request->pool = pool;
}

/* The lines of a source: its text as the project was built from it (an
 * open buffer as sent; a file's leading BOM counts for nothing). */
static const spx_lsp_lines_t *lines_of(request_t *request, apr_size_t source)
{
    if (source >= request->count)
        return NULL;
    if (!request->lines[source]) {
        apr_size_t length = 0;
        const unsigned char *text = spx_lookup_source_text(request->project, source, &length);
        if (!text)
            return NULL;
        apr_int64_t version = 0;
        int open =
            request->navigation->open(request->navigation->server,
                                      spx_lookup_source_path(request->project, source), &version);
        spx_lsp_lines_t *lines = apr_pcalloc(request->pool, sizeof(*lines));
        spx_lsp_lines_index(lines, text, length, !open, request->pool);
        request->lines[source] = lines;
    }
    return request->lines[source];
}

static json_t *position_json(const request_t *request, const spx_lsp_lines_t *lines,
                             apr_size_t offset)
{
    apr_size_t line = 0, character = 0;
    spx_lsp_position(lines, offset, request->navigation->encoding, &line, &character);
    return json_pack("{s:I,s:I}", "line", (json_int_t)line, "character", (json_int_t)character);
}

static json_t *range_json(const request_t *request, const spx_lsp_lines_t *lines, apr_size_t start,
                          apr_size_t end)
{
    return json_pack("{s:o,s:o}", "start", position_json(request, lines, start), "end",
                     position_json(request, lines, end));
}

/* A span of a source as an LSP Location, or NULL. */
static json_t *location_json(request_t *request, apr_size_t source, const spx_span_t *span)
{
    const spx_lsp_lines_t *lines = lines_of(request, source);
    if (!lines)
        return NULL;
    const char *uri = request->navigation->uri_of(request->navigation->server,
                                                  spx_lookup_source_path(request->project, source),
                                                  request->pool);
    return json_pack("{s:s,s:o}", "uri", uri, "range",
                     range_json(request, lines, span->start.offset, span->end.offset));
}

static const char *string_at(json_t *object, const char *key)
{
    json_t *value = json_is_object(object) ? json_object_get(object, key) : NULL;
    return json_is_string(value) ? json_string_value(value) : NULL;
}

/* The source of params.textDocument, or SPX_LOOKUP_NO_SOURCE. */
static apr_size_t source_of(request_t *request, json_t *params)
{
    const char *uri = string_at(json_object_get(params, "textDocument"), "uri");
    if (!uri || !request->project)
        return SPX_LOOKUP_NO_SOURCE;
    const char *path =
        request->navigation->path_of(request->navigation->server, uri, request->pool);
    apr_size_t source =
        path ? spx_lookup_source_named(request->project, path) : SPX_LOOKUP_NO_SOURCE;
    /* Named by its path, not by a module of the same spelling. */
    if (source != SPX_LOOKUP_NO_SOURCE &&
        strcmp(spx_lookup_source_path(request->project, source), path) != 0)
        return SPX_LOOKUP_NO_SOURCE;
    return source;
}

/* The source and byte offset of params' textDocument and position: 1, or
 * 0 when the document is not a source of the project or the position is
 * malformed. */
static int offset_of(request_t *request, json_t *params, apr_size_t *source, apr_size_t *offset)
{
    *source = source_of(request, params);
    const spx_lsp_lines_t *lines = lines_of(request, *source);
    json_t *position = json_object_get(params, "position");
    json_t *line = json_is_object(position) ? json_object_get(position, "line") : NULL;
    json_t *character = json_is_object(position) ? json_object_get(position, "character") : NULL;
    if (!lines || !json_is_integer(line) || !json_is_integer(character) ||
        json_integer_value(line) < 0 || json_integer_value(character) < 0)
        return 0;
    *offset =
        spx_lsp_offset(lines, (apr_uint64_t)json_integer_value(line),
                       (apr_uint64_t)json_integer_value(character), request->navigation->encoding);
    return 1;
}

/* What is at a position: the engine asked at the offset, and, when nothing
 * is there, at the byte before it (a caret just after a name). */
static spx_lookup_status_t hover_at(request_t *request, apr_size_t source, apr_size_t offset,
                                    spx_lookup_hover_t *hover)
{
    spx_lookup_status_t status =
        spx_lookup_hover(request->project, source, offset, hover, request->pool);
    if (status != SPX_LOOKUP_FOUND && offset > 0)
        status = spx_lookup_hover(request->project, source, offset - 1, hover, request->pool);
    return status;
}

/* The offset where the name touching offset is, for the queries that take
 * a name's byte (definition, references, rename): offset, or the byte
 * before it when offset is just after a name. */
static apr_size_t name_offset(request_t *request, apr_size_t source, apr_size_t offset)
{
    spx_lookup_at_t at;
    if (spx_lookup_at(request->project, source, offset, &at, request->pool) != SPX_LOOKUP_FOUND &&
        offset > 0 &&
        spx_lookup_at(request->project, source, offset - 1, &at, request->pool) == SPX_LOOKUP_FOUND)
        return offset - 1;
    return offset;
}

/* --- the requests ------------------------------------------------------------ */

typedef int (*answer_fn)(request_t *request, json_t *params, json_t **result, const char **refusal);

/* textDocument/hover: the declaration in a ```semaprax block, then the
 * comment above it. */
static int hover(request_t *request, json_t *params, json_t **result, const char **refusal)
{
    (void)refusal;
    apr_size_t source = 0, offset = 0;
    spx_lookup_hover_t answer;
    if (!offset_of(request, params, &source, &offset) ||
        hover_at(request, source, offset, &answer) != SPX_LOOKUP_FOUND || !answer.declaration)
        return 1;
    const char *text =
        apr_pstrcat(request->pool, "```semaprax\n", answer.declaration, "\n```",
                    answer.comment ? "\n\n" : "", answer.comment ? answer.comment : "", NULL);
    *result = json_pack("{s:{s:s,s:s},s:o}", "contents", "kind", "markdown", "value", text, "range",
                        range_json(request, lines_of(request, source),
                                   answer.site.span.start.offset, answer.site.span.end.offset));
    return 1;
}

/* textDocument/definition: the Location of the declaration, null for a
 * builtin or nothing. */
static int definition(request_t *request, json_t *params, json_t **result, const char **refusal)
{
    (void)refusal;
    apr_size_t source = 0, offset = 0;
    spx_lookup_site_t site;
    if (!offset_of(request, params, &source, &offset) ||
        spx_lookup_definition(request->project, source, name_offset(request, source, offset), &site,
                              request->pool) != SPX_LOOKUP_FOUND)
        return 1;
    *result = location_json(request, site.source, &site.span);
    return 1;
}

/* textDocument/references: every Location, the declaration's when
 * context.includeDeclaration. */
static int references(request_t *request, json_t *params, json_t **result, const char **refusal)
{
    (void)refusal;
    apr_size_t source = 0, offset = 0;
    spx_lookup_references_t found;
    int declaration =
        json_is_true(json_object_get(json_object_get(params, "context"), "includeDeclaration"));
    *result = json_array();
    if (!offset_of(request, params, &source, &offset) ||
        spx_lookup_references(request->project, source, name_offset(request, source, offset),
                              declaration, &found, request->pool) != SPX_LOOKUP_FOUND)
        return 1;
    for (apr_size_t i = 0; i < found.count; i++) {
        json_t *location = location_json(request, found.sites[i].source, &found.sites[i].span);
        if (location)
            json_array_append_new(*result, location);
    }
    return 1;
}

/* textDocument/documentHighlight: the sites in the document itself, each
 * of kind Text (the engine does not tell a read from a write). */
static int highlight(request_t *request, json_t *params, json_t **result, const char **refusal)
{
    (void)refusal;
    apr_size_t source = 0, offset = 0;
    spx_lookup_references_t found;
    *result = json_array();
    if (!offset_of(request, params, &source, &offset) ||
        spx_lookup_references(request->project, source, name_offset(request, source, offset), 1,
                              &found, request->pool) != SPX_LOOKUP_FOUND)
        return 1;
    const spx_lsp_lines_t *lines = lines_of(request, source);
    for (apr_size_t i = 0; i < found.count; i++)
        if (found.sites[i].source == source)
            json_array_append_new(
                *result, json_pack("{s:o,s:i}", "range",
                                   range_json(request, lines, found.sites[i].span.start.offset,
                                              found.sites[i].span.end.offset),
                                   "kind", 1));
    return 1;
}

/* LSP's SymbolKind of a lookup kind. */
static int symbol_kind(spx_lookup_kind_t kind)
{
    switch (kind) {
    case SPX_LOOKUP_MODULE:
        return 2;
    case SPX_LOOKUP_STRUCT:
        return 23;
    case SPX_LOOKUP_ENUM:
        return 10;
    case SPX_LOOKUP_VARIANT:
        return 22;
    case SPX_LOOKUP_CONST:
        return 14;
    case SPX_LOOKUP_FIELD:
        return 8;
    case SPX_LOOKUP_LOCAL:
    case SPX_LOOKUP_PARAMETER:
        return 13;
    default:
        return 12; /* functions, builtins, tests */
    }
}

/* textDocument/documentSymbol: the source's items as DocumentSymbol, in
 * source order, each struct's fields and each enum's variants as its
 * children, then the manifest's tests of the source; read from the
 * declarations (spx_lookup_document_symbols), so they are listed while the
 * project has errors too, as far as the source parsed. */
static int document_symbol(request_t *request, json_t *params, json_t **result,
                           const char **refusal)
{
    (void)refusal;
    apr_size_t source = source_of(request, params);
    const spx_lsp_lines_t *lines = lines_of(request, source);
    *result = json_array();
    spx_lookup_items_t items;
    if (!lines || spx_lookup_document_symbols(request->project, source, &items, request->pool) !=
                      SPX_LOOKUP_FOUND)
        return 1;
    json_t **made = apr_pcalloc(request->pool, (items.count + 1) * sizeof(*made));
    for (apr_size_t i = 0; i < items.count; i++) {
        const spx_lookup_item_t *item = &items.items[i];
        json_t *symbol = json_pack(
            "{s:s,s:i,s:o,s:o}", "name", item->name, "kind", symbol_kind(item->kind), "range",
            range_json(request, lines, item->span.start.offset, item->span.end.offset),
            "selectionRange",
            range_json(request, lines, item->name_span.start.offset, item->name_span.end.offset));
        if (!symbol)
            continue;
        if (item->declaration)
            json_object_set_new(symbol, "detail", json_string(item->declaration));
        made[i] = symbol;
        json_t *parent =
            item->parent >= 0 && (apr_size_t)item->parent < i ? made[item->parent] : NULL;
        if (!parent) {
            json_array_append_new(*result, symbol);
            continue;
        }
        json_t *children = json_object_get(parent, "children");
        if (!children) {
            children = json_array();
            json_object_set_new(parent, "children", children);
        }
        json_array_append_new(children, symbol);
    }
    return 1;
}

/* workspace/symbol: SymbolInformation of every item whose name contains
 * the query, its module as container. */
static int workspace_symbol(request_t *request, json_t *params, json_t **result,
                            const char **refusal)
{
    (void)refusal;
    const char *query = string_at(params, "query");
    *result = json_array();
    if (!request->project)
        return 1;
    spx_lookup_items_t items;
    spx_lookup_workspace_symbols(request->project, query ? query : "", SPX_LIMIT_LOOKUP_SYMBOLS,
                                 &items, request->pool);
    for (apr_size_t i = 0; i < items.count; i++) {
        const spx_lookup_item_t *item = &items.items[i];
        json_t *location = location_json(request, item->source, &item->name_span);
        if (!location)
            continue;
        json_array_append_new(*result, json_pack("{s:s,s:i,s:o,s:s?}", "name", item->name, "kind",
                                                 symbol_kind(item->kind), "location", location,
                                                 "containerName", item->module));
    }
    return 1;
}

/* LSP's CompletionItemKind of a lookup kind. */
static int completion_kind(spx_lookup_kind_t kind)
{
    static const int kinds[] = {
        [SPX_LOOKUP_MODULE] = 9,  [SPX_LOOKUP_FUNCTION] = 3, [SPX_LOOKUP_STRUCT] = 22,
        [SPX_LOOKUP_ENUM] = 13,   [SPX_LOOKUP_VARIANT] = 20, [SPX_LOOKUP_CONST] = 21,
        [SPX_LOOKUP_FIELD] = 5,   [SPX_LOOKUP_LOCAL] = 6,    [SPX_LOOKUP_PARAMETER] = 6,
        [SPX_LOOKUP_BUILTIN] = 3, [SPX_LOOKUP_TEST] = 3,     [SPX_LOOKUP_KEYWORD] = 14};
    return (size_t)kind < sizeof(kinds) / sizeof(kinds[0]) ? kinds[kind] : 1;
}

/* textDocument/completion: a CompletionList, incomplete when the engine's
 * list was cut. */
static int completion(request_t *request, json_t *params, json_t **result, const char **refusal)
{
    (void)refusal;
    apr_size_t source = 0, offset = 0;
    spx_lookup_completions_t found;
    json_t *items = json_array();
    int truncated = 0;
    if (offset_of(request, params, &source, &offset) &&
        spx_lookup_complete(request->project, source, offset, &found, request->pool) ==
            SPX_LOOKUP_FOUND) {
        truncated = found.truncated;
        for (apr_size_t i = 0; i < found.count; i++) {
            json_t *item = json_pack("{s:s,s:i}", "label", found.list[i].label, "kind",
                                     completion_kind(found.list[i].kind));
            if (found.list[i].detail)
                json_object_set_new(item, "detail", json_string(found.list[i].detail));
            json_array_append_new(items, item);
        }
    }
    *result = json_pack("{s:b,s:o}", "isIncomplete", truncated, "items", items);
    return 1;
}

/* textDocument/signatureHelp: the call's one signature, each parameter by
 * its offsets in the label (in the negotiated encoding), the active one. */
static int signature_help(request_t *request, json_t *params, json_t **result, const char **refusal)
{
    (void)refusal;
    apr_size_t source = 0, offset = 0;
    spx_lookup_signature_t found;
    if (!offset_of(request, params, &source, &offset) ||
        spx_lookup_signature(request->project, source, offset, &found, request->pool) !=
            SPX_LOOKUP_FOUND ||
        !found.label)
        return 1;
    spx_lsp_lines_t label;
    spx_lsp_lines_index(&label, (const unsigned char *)found.label, strlen(found.label), 0,
                        request->pool);
    json_t *parameters = json_array();
    for (apr_size_t i = 0; i < found.parameter_count; i++) {
        apr_size_t line = 0, start = 0, end = 0;
        spx_lsp_position(&label, found.parameter_starts[i], request->navigation->encoding, &line,
                         &start);
        spx_lsp_position(&label, found.parameter_ends[i], request->navigation->encoding, &line,
                         &end);
        json_array_append_new(parameters,
                              json_pack("{s:[I,I]}", "label", (json_int_t)start, (json_int_t)end));
    }
    apr_size_t active = found.active;
    *result = json_pack("{s:[{s:s,s:o,s:I}],s:i,s:I}", "signatures", "label", found.label,
                        "parameters", parameters, "activeParameter", (json_int_t)active,
                        "activeSignature", 0, "activeParameter", (json_int_t)active);
    return 1;
}

/* The semantic tokens' legend: the token types in the order of
 * spx_lookup_token_kind_t's mapping below, and the modifiers. */
static const char *const token_types[] = {
    "keyword",  "function",  "type",   "enum",   "enumMember", "variable", "parameter",
    "property", "namespace", "string", "number", "comment",    "operator"};
static const char *const token_modifiers[] = {"declaration", "readonly"};

/* The legend's type of a token kind, and its modifiers' bits. */
static void token_type(spx_lookup_token_kind_t kind, int declaration, int *type, int *modifiers)
{
    static const int types[] = {
        [SPX_TOKEN_KIND_KEYWORD] = 0,   [SPX_TOKEN_KIND_FUNCTION] = 1, [SPX_TOKEN_KIND_TYPE] = 2,
        [SPX_TOKEN_KIND_ENUM] = 3,      [SPX_TOKEN_KIND_VARIANT] = 4,  [SPX_TOKEN_KIND_CONST] = 5,
        [SPX_TOKEN_KIND_PARAMETER] = 6, [SPX_TOKEN_KIND_LOCAL] = 5,    [SPX_TOKEN_KIND_FIELD] = 7,
        [SPX_TOKEN_KIND_MODULE] = 8,    [SPX_TOKEN_KIND_STRING] = 9,   [SPX_TOKEN_KIND_NUMBER] = 10,
        [SPX_TOKEN_KIND_COMMENT] = 11,  [SPX_TOKEN_KIND_OPERATOR] = 12};
    *type = (size_t)kind < sizeof(types) / sizeof(types[0]) ? types[kind] : 12;
    *modifiers = (declaration ? 1 : 0) | (kind == SPX_TOKEN_KIND_CONST ? 2 : 0);
}

/* The offset where line ends, its line break excluded. */
static apr_size_t line_end(const spx_lsp_lines_t *lines, apr_size_t line)
{
    apr_size_t end = line + 1 < (apr_size_t)lines->starts->nelts
                         ? APR_ARRAY_IDX(lines->starts, line + 1, apr_size_t)
                         : lines->length;
    if (line + 1 < (apr_size_t)lines->starts->nelts) {
        if (end > 0 && lines->text[end - 1] == '\n')
            end--;
        if (end > 0 && lines->text[end - 1] == '\r')
            end--;
    }
    return end;
}

/* textDocument/semanticTokens/full: the tokens delta-encoded (line,
 * character from the previous token's start, length, type, modifiers),
 * positions and lengths in the negotiated encoding; a token over several
 * lines is given as one token per line. */
static int semantic_tokens(request_t *request, json_t *params, json_t **result,
                           const char **refusal)
{
    (void)refusal;
    apr_size_t source = source_of(request, params);
    const spx_lsp_lines_t *lines = lines_of(request, source);
    json_t *data = json_array();
    *result = json_pack("{s:o}", "data", data);
    spx_lookup_tokens_t tokens;
    if (!lines ||
        spx_lookup_tokens(request->project, source, &tokens, request->pool) != SPX_LOOKUP_FOUND)
        return 1;
    spx_lsp_encoding_t encoding = request->navigation->encoding;
    apr_size_t previous_line = 0, previous_character = 0;
    for (apr_size_t i = 0; i < tokens.count; i++) {
        const spx_lookup_token_t *token = &tokens.tokens[i];
        int type = 0, modifiers = 0;
        token_type(token->kind, token->declaration, &type, &modifiers);
        apr_size_t line = 0, character = 0, last_line = 0, last_character = 0;
        spx_lsp_position(lines, token->span.start.offset, encoding, &line, &character);
        spx_lsp_position(lines, token->span.end.offset, encoding, &last_line, &last_character);
        for (; line <= last_line; line++) {
            apr_size_t end = last_character;
            if (line < last_line) {
                apr_size_t ignored = 0;
                spx_lsp_position(lines, line_end(lines, line), encoding, &ignored, &end);
            }
            if (end > character) {
                json_array_append_new(data, json_integer((json_int_t)(line - previous_line)));
                json_array_append_new(
                    data,
                    json_integer((json_int_t)(line == previous_line ? character - previous_character
                                                                    : character)));
                json_array_append_new(data, json_integer((json_int_t)(end - character)));
                json_array_append_new(data, json_integer(type));
                json_array_append_new(data, json_integer(modifiers));
                previous_line = line;
                previous_character = character;
            }
            character = 0;
        }
    }
    return 1;
}

/* The function a rename at params' position would rename: 1 and *hover
 * (its site the name under the position), or 0 (and *why when something
 * is there that cannot be renamed). */
static int renamable(request_t *request, json_t *params, apr_size_t *source,
                     spx_lookup_hover_t *hover, const char **why)
{
    apr_size_t offset = 0;
    *why = NULL;
    if (!offset_of(request, params, source, &offset) ||
        hover_at(request, *source, offset, hover) != SPX_LOOKUP_FOUND)
        return 0;
    if (hover->symbol.kind != SPX_LOOKUP_FUNCTION || !hover->symbol.module || !hover->declaration ||
        strncmp(hover->declaration, "export ", 7) != 0) {
        *why = apr_psprintf(request->pool, "'%s' is a %s; only an exported function can be renamed",
                            hover->symbol.name,
                            hover->symbol.kind == SPX_LOOKUP_FUNCTION
                                ? "function that is not exported"
                                : spx_lookup_kind_name(hover->symbol.kind));
        return 0;
    }
    return 1;
}

/* textDocument/prepareRename: the name's range and its text, or null for
 * anything but an exported function. */
static int prepare_rename(request_t *request, json_t *params, json_t **result, const char **refusal)
{
    (void)refusal;
    apr_size_t source = 0;
    spx_lookup_hover_t found;
    const char *why = NULL;
    if (!renamable(request, params, &source, &found, &why))
        return 1;
    *result = json_pack("{s:o,s:s}", "range",
                        range_json(request, lines_of(request, source), found.site.span.start.offset,
                                   found.site.span.end.offset),
                        "placeholder", found.symbol.name);
    return 1;
}

/* textDocument/rename: the engine's rename plan over the project as held
 * (buffers in place), as one WorkspaceEdit over every file it changes
 * (documentChanges with each open document's version when the client
 * takes them); its refusal as a ResponseError with its sentence. */
static int rename_request(request_t *request, json_t *params, json_t **result, const char **refusal)
{
    apr_size_t source = 0;
    spx_lookup_hover_t found;
    const char *why = NULL;
    const char *new_name = string_at(params, "newName");
    if (!new_name) {
        *refusal = "params.newName is missing";
        return 0;
    }
    if (!renamable(request, params, &source, &found, &why)) {
        if (why) {
            *refusal = why;
            return 0;
        }
        return 1; /* nothing at the position, or not a document of the project */
    }
    /* The engine's plan itself, not the rename operation (spx_op_rename):
     * every refusal and its reason is spx_rename_plan's, which the
     * operation's dry run returns unchanged too. What the operation adds
     * is the writing transaction's (re-authenticating the files before
     * writing, the answer's budget, commit, rebind, rollback), none of which
     * applies to a plan over the editor's buffers, which is only read
     * (spx_rename.h); and this server, calling nothing that writes, never
     * writes a file. */
    spx_rename_plan_t *plan = NULL;
    spx_rename_failure_t failure;
    if (spx_rename_plan(
            request->navigation->full(request->navigation->server),
            apr_pstrcat(request->pool, found.symbol.module, ".", found.symbol.name, NULL), new_name,
            &plan, request->pool, &failure) != APR_SUCCESS) {
        *refusal = failure.reason ? failure.reason : "the rename was refused";
        return 0;
    }
    int versioned = request->navigation->client.document_changes;
    json_t *changes = versioned ? json_array() : json_object();
    for (apr_size_t e = 0; e < spx_rename_edit_count(plan); e++) {
        spx_rename_edit_view_t edit;
        spx_rename_edit(plan, e, &edit);
        const char *path = edit.path;
        apr_size_t changed = spx_lookup_source_named(request->project, path);
        const spx_lsp_lines_t *lines = lines_of(request, changed);
        if (!lines)
            continue;
        json_t *text_edits = json_array();
        for (apr_size_t c = 0; c < edit.offset_count; c++)
            json_array_append_new(text_edits,
                                  json_pack("{s:o,s:s}", "range",
                                            range_json(request, lines, edit.offsets[c],
                                                       edit.offsets[c] + edit.name_length),
                                            "newText", new_name));
        const char *uri =
            request->navigation->uri_of(request->navigation->server, path, request->pool);
        if (versioned) {
            apr_int64_t version = 0;
            json_t *document = json_pack("{s:s}", "uri", uri);
            json_object_set_new(
                document, "version",
                request->navigation->open(request->navigation->server, path, &version) &&
                        version >= 0
                    ? json_integer((json_int_t)version)
                    : json_null());
            json_array_append_new(
                changes, json_pack("{s:o,s:o}", "textDocument", document, "edits", text_edits));
        } else {
            json_object_set_new(changes, uri, text_edits);
        }
    }
    *result = json_pack("{s:o}", versioned ? "documentChanges" : "changes", changes);
    return 1;
}

/* --- dispatch ---------------------------------------------------------------- */

static const struct {
    const char *method;
    answer_fn answer;
} methods[] = {{"textDocument/hover", hover},
               {"textDocument/definition", definition},
               {"textDocument/references", references},
               {"textDocument/documentHighlight", highlight},
               {"textDocument/documentSymbol", document_symbol},
               {"workspace/symbol", workspace_symbol},
               {"textDocument/completion", completion},
               {"textDocument/signatureHelp", signature_help},
               {"textDocument/semanticTokens/full", semantic_tokens},
               {"textDocument/prepareRename", prepare_rename},
               {"textDocument/rename", rename_request}};

void spx_lsp_navigation_client(json_t *params, spx_lsp_client_t *client)
{
    json_t *capabilities = json_is_object(params) ? json_object_get(params, "capabilities") : NULL;
    json_t *workspace =
        json_is_object(capabilities) ? json_object_get(capabilities, "workspace") : NULL;
    json_t *edit = json_is_object(workspace) ? json_object_get(workspace, "workspaceEdit") : NULL;
    client->document_changes =
        json_is_object(edit) && json_is_true(json_object_get(edit, "documentChanges"));
}

void spx_lsp_navigation_capabilities(json_t *capabilities)
{
    json_t *types = json_array(), *modifiers = json_array();
    for (size_t i = 0; i < sizeof(token_types) / sizeof(token_types[0]); i++)
        json_array_append_new(types, json_string(token_types[i]));
    for (size_t i = 0; i < sizeof(token_modifiers) / sizeof(token_modifiers[0]); i++)
        json_array_append_new(modifiers, json_string(token_modifiers[i]));
    json_object_update_new(
        capabilities,
        json_pack("{s:b,s:b,s:b,s:b,s:b,s:b,s:{s:[s]},s:{s:[s,s]},"
                  "s:{s:{s:o,s:o},s:b,s:b},s:{s:b}}",
                  "hoverProvider", 1, "definitionProvider", 1, "referencesProvider", 1,
                  "documentHighlightProvider", 1, "documentSymbolProvider", 1,
                  "workspaceSymbolProvider", 1, "completionProvider", "triggerCharacters", ".",
                  "signatureHelpProvider", "triggerCharacters", "(", ",", "semanticTokensProvider",
                  "legend", "tokenTypes", types, "tokenModifiers", modifiers, "full", 1, "range", 0,
                  "renameProvider", "prepareProvider", 1));
}

int spx_lsp_navigation_handles(const char *method)
{
    for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]); i++)
        if (strcmp(methods[i].method, method) == 0)
            return 1;
    return 0;
}

int spx_lsp_navigation_answer(const spx_lsp_navigation_t *navigation, const char *method,
                              json_t *params, json_t **result, const char **refusal,
                              apr_pool_t *pool)
{
    *result = NULL;
    *refusal = NULL;
    request_t request;
    request_init(&request, navigation, pool);
    for (size_t i = 0; i < sizeof(methods) / sizeof(methods[0]); i++)
        if (strcmp(methods[i].method, method) == 0)
            return methods[i].answer(&request, params, result, refusal);
    *refusal = "not a navigation request";
    return 0;
}
