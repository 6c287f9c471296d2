/*
 * lookup_edit.c: the position queries of an editor's typing (spx_lookup.h):
 * completion at an offset, signature help for the call around it, and the
 * semantic tokens of a whole source (docs/lookup.md).
 */
#include "lookup_internal.h"

#include "spx_lexer.h"
#include "spx_limits.h"

#include <apr_lib.h>
#include <apr_strings.h>
#include <string.h>

static int identifier_byte(unsigned char c)
{
    return apr_isalnum(c) || c == '_';
}

/* The identifier that ends at end (exclusive): its first byte. */
static apr_size_t identifier_start(const unsigned char *text, apr_size_t end)
{
    while (end > 0 && identifier_byte(text[end - 1]))
        end--;
    return end;
}

static const char *copy_word(const unsigned char *text, apr_size_t from, apr_size_t to,
                             apr_pool_t *pool)
{
    return apr_pstrndup(pool, (const char *)text + from, to - from);
}

/* ---- completion --------------------------------------------------------- */

typedef struct completing_t {
    const char *prefix;
    apr_array_header_t *list; /* spx_lookup_completion_t */
    apr_hash_t *seen;         /* labels given */
    int truncated;
    apr_pool_t *pool; /* the answer's: labels and details are copied there */
} completing_t;

static void offer(completing_t *completing, const char *label, spx_lookup_kind_t kind,
                  const char *detail)
{
    if (completing->truncated || !label ||
        strncmp(label, completing->prefix, strlen(completing->prefix)) != 0 ||
        apr_hash_get(completing->seen, label, APR_HASH_KEY_STRING))
        return;
    if ((apr_size_t)completing->list->nelts >= SPX_LIMIT_LOOKUP_COMPLETIONS) {
        completing->truncated = 1;
        return;
    }
    spx_lookup_completion_t *item = &APR_ARRAY_PUSH(completing->list, spx_lookup_completion_t);
    item->label = apr_pstrdup(completing->pool, label);
    item->kind = kind;
    item->detail = detail ? apr_pstrdup(completing->pool, detail) : NULL;
    apr_hash_set(completing->seen, item->label, APR_HASH_KEY_STRING, "");
}

static spx_lookup_symbol_t symbol_of(spx_lookup_kind_t kind, const spx_name_t *name,
                                     const spx_module_t *module, apr_size_t source,
                                     const char *container)
{
    spx_lookup_symbol_t symbol = {kind, name->text, module->name, container, source, name->span};
    return symbol;
}

/* The items of module (only the exported ones when exported_only). */
static void offer_items(completing_t *completing, const spx_project_t *project, apr_size_t source,
                        int exported_only, apr_pool_t *pool)
{
    const spx_module_t *module = project->modules[source];
    for (apr_size_t i = 0; i < module->function_count; i++) {
        const spx_function_t *function = module->functions[i];
        if (exported_only && !function->exported)
            continue;
        spx_lookup_symbol_t symbol =
            symbol_of(SPX_LOOKUP_FUNCTION, &function->name, module, source, NULL);
        offer(completing, function->name.text, SPX_LOOKUP_FUNCTION,
              spx_lookup_declaration(project, &symbol, NULL, SPX_TYPE_ERROR, pool));
    }
    for (apr_size_t i = 0; i < module->struct_count; i++) {
        const spx_struct_t *structure = module->structs[i];
        if (exported_only && !structure->exported)
            continue;
        spx_lookup_symbol_t symbol =
            symbol_of(SPX_LOOKUP_STRUCT, &structure->name, module, source, NULL);
        offer(completing, structure->name.text, SPX_LOOKUP_STRUCT,
              spx_lookup_declaration(project, &symbol, NULL, SPX_TYPE_ERROR, pool));
    }
    for (apr_size_t i = 0; i < module->enum_count; i++) {
        const spx_enum_t *enumeration = module->enums[i];
        if (exported_only && !enumeration->exported)
            continue;
        spx_lookup_symbol_t symbol =
            symbol_of(SPX_LOOKUP_ENUM, &enumeration->name, module, source, NULL);
        offer(completing, enumeration->name.text, SPX_LOOKUP_ENUM,
              spx_lookup_declaration(project, &symbol, NULL, SPX_TYPE_ERROR, pool));
    }
    for (apr_size_t i = 0; i < module->const_count; i++) {
        const spx_const_t *constant = module->consts[i];
        if (exported_only && !constant->exported)
            continue;
        spx_lookup_symbol_t symbol =
            symbol_of(SPX_LOOKUP_CONST, &constant->name, module, source, NULL);
        offer(completing, constant->name.text, SPX_LOOKUP_CONST,
              spx_lookup_declaration(project, &symbol, NULL, SPX_TYPE_ERROR, pool));
    }
}

/* 1 when a method's receiver (the first parameter of its signature, with
 * its alternatives "str | [T]") takes a value of kind type. */
static int method_takes(const char *signature, spx_type_t type)
{
    const char *at = strchr(signature, ':');
    if (!at)
        return 0;
    at += 2;
    while (*at && *at != ',' && *at != ')') {
        if ((type == SPX_TYPE_STR && strncmp(at, "str", 3) == 0) ||
            (type == SPX_TYPE_INT && strncmp(at, "int", 3) == 0) ||
            (type == SPX_TYPE_ARRAY && *at == '[') || (type == SPX_TYPE_MAP && *at == '{'))
            return 1;
        const char *bar = strstr(at, " | ");
        const char *comma = strpbrk(at, ",)");
        if (!bar || (comma && bar > comma))
            return 0;
        at = bar + 3;
    }
    return 0;
}

/* The type of the value named name at offset: a name written there (the
 * table's), else the innermost local of that name in sight, else a const. */
static void value_type(const spx_project_t *project, const lookup_table_t *table,
                       apr_size_t name_start, const char *name, apr_size_t offset,
                       const spx_vtype_t **vtype, spx_type_t *type)
{
    *vtype = NULL;
    *type = SPX_TYPE_ERROR;
    const lookup_name_t *written = spx_lookup_table_at(table, name_start);
    if (written && (written->vtype || written->type != SPX_TYPE_ERROR)) {
        *vtype = written->vtype;
        *type = written->vtype ? written->vtype->kind : written->type;
        return;
    }
    for (apr_size_t i = table->local_count; i-- > 0;) {
        const lookup_local_t *local = &table->locals[i];
        if (strcmp(local->name, name) == 0 && local->span.end.offset <= name_start &&
            offset <= local->scope_end) {
            *vtype = local->vtype;
            *type = local->vtype ? local->vtype->kind : local->type;
            return;
        }
    }
    const spx_module_t *module = project->modules[table->source];
    for (apr_size_t i = 0; i < module->const_count; i++)
        if (strcmp(module->consts[i]->name.text, name) == 0)
            *type = module->consts[i]->value_type;
}

static void offer_members(completing_t *completing, const spx_project_t *project,
                          const spx_vtype_t *vtype, spx_type_t type, apr_pool_t *pool)
{
    if (type == SPX_TYPE_STRUCT && vtype && vtype->structure) {
        const spx_struct_t *structure = vtype->structure;
        apr_size_t source = spx_lookup_module_number(project, structure->module->name);
        for (apr_size_t f = 0; f < structure->field_count; f++)
            offer(completing, structure->fields[f].name.text, SPX_LOOKUP_FIELD,
                  spx_written_type_name(structure->fields[f].type_syntax, structure->fields[f].type,
                                        source == SPX_LOOKUP_NO_SOURCE ? structure->module
                                                                       : project->modules[source],
                                        pool));
        return;
    }
    for (int b = SPX_BUILTIN_NONE + 1; b <= SPX_BUILTIN_COUNT; b++) {
        const spx_builtin_info_t *info = spx_builtin_info((spx_builtin_t)b);
        if (info->form == SPX_BUILTIN_FORM_METHOD && method_takes(info->signature, type))
            offer(completing, info->name, SPX_LOOKUP_BUILTIN,
                  apr_pstrcat(pool, "fn ", info->name, info->signature + 2, NULL));
    }
}

static const spx_enum_t *enum_of(const spx_module_t *module, const char *name)
{
    for (apr_size_t i = 0; i < module->enum_count; i++)
        if (strcmp(module->enums[i]->name.text, name) == 0)
            return module->enums[i];
    return NULL;
}

static apr_size_t import_number(const spx_project_t *project, const spx_module_t *module,
                                const char *name)
{
    for (apr_size_t i = 0; i < module->import_count; i++)
        if (module->imports[i].module.text && strcmp(module->imports[i].module.text, name) == 0)
            return spx_lookup_module_number(project, name);
    return SPX_LOOKUP_NO_SOURCE;
}

static void offer_variants(completing_t *completing, const spx_project_t *project,
                           apr_size_t source, const spx_enum_t *enumeration, apr_pool_t *pool)
{
    const spx_module_t *module = project->modules[source];
    for (apr_size_t v = 0; v < enumeration->variant_count; v++) {
        spx_lookup_symbol_t symbol = symbol_of(SPX_LOOKUP_VARIANT, &enumeration->variants[v].name,
                                               module, source, enumeration->name.text);
        offer(completing, enumeration->variants[v].name.text, SPX_LOOKUP_VARIANT,
              spx_lookup_declaration(project, &symbol, NULL, SPX_TYPE_ERROR, pool));
    }
}

static const char *const keywords[] = {
    "fn",    "export", "import", "let", "var", "if",    "else",     "while", "return", "true",
    "false", "struct", "const",  "for", "in",  "break", "continue", "enum",  "match"};

/* The names in scope at offset. */
static void offer_scope(completing_t *completing, const spx_project_t *project,
                        const lookup_table_t *table, apr_size_t offset, apr_pool_t *pool)
{
    const spx_module_t *module = project->modules[table->source];
    apr_size_t function = SPX_LOOKUP_NO_SOURCE;
    for (apr_size_t i = 0; i < module->function_count; i++)
        if (module->functions[i]->span.start.offset < offset &&
            offset < module->functions[i]->span.end.offset)
            function = i;
    /* the innermost first: a later declaration shadows an earlier one */
    for (apr_size_t i = table->local_count; function != SPX_LOOKUP_NO_SOURCE && i-- > 0;) {
        const lookup_local_t *local = &table->locals[i];
        if (local->function != function || local->span.end.offset > offset ||
            offset > local->scope_end)
            continue;
        spx_name_t name = {local->name, local->span};
        spx_lookup_symbol_t symbol =
            symbol_of(local->parameter ? SPX_LOOKUP_PARAMETER : SPX_LOOKUP_LOCAL, &name, module,
                      table->source, module->functions[function]->name.text);
        offer(completing, local->name, symbol.kind,
              spx_lookup_declaration(project, &symbol, local->vtype, local->type, pool));
    }
    offer_items(completing, project, table->source, 0, pool);
    for (apr_size_t i = 0; i < module->import_count; i++) {
        apr_size_t number = spx_lookup_module_number(project, module->imports[i].module.text);
        if (number != SPX_LOOKUP_NO_SOURCE)
            offer(completing, module->imports[i].module.text, SPX_LOOKUP_MODULE,
                  apr_pstrcat(pool, "module ", project->modules[number]->name, " (",
                              project->modules[number]->path, ")", NULL));
    }
    for (int b = SPX_BUILTIN_NONE + 1; b <= SPX_BUILTIN_COUNT; b++) {
        const spx_builtin_info_t *info = spx_builtin_info((spx_builtin_t)b);
        if (info->form == SPX_BUILTIN_FORM_CALL)
            offer(completing, info->name, SPX_LOOKUP_BUILTIN,
                  apr_pstrcat(pool, "builtin fn ", info->name, info->signature + 2, NULL));
    }
    for (apr_size_t k = 0; k < sizeof(keywords) / sizeof(keywords[0]); k++)
        offer(completing, keywords[k], SPX_LOOKUP_KEYWORD, NULL);
}

spx_lookup_status_t spx_lookup_complete(const spx_project_t *project, apr_size_t source,
                                        apr_size_t offset, spx_lookup_completions_t *completions,
                                        apr_pool_t *pool)
{
    memset(completions, 0, sizeof(*completions));
    if (source >= project->module_count)
        return SPX_LOOKUP_BAD_SOURCE;
    const spx_module_t *module = project->modules[source];
    if (offset > module->length)
        return SPX_LOOKUP_BAD_OFFSET;
    const unsigned char *text = module->text;
    apr_size_t prefix_start = identifier_start(text, offset);
    completing_t completing = {copy_word(text, prefix_start, offset, pool),
                               apr_array_make(pool, 32, sizeof(spx_lookup_completion_t)),
                               apr_hash_make(pool), 0, pool};
    lookup_table_t *table = spx_lookup_table(project, source, pool);
    if (prefix_start > 0 && text[prefix_start - 1] == '.') {
        apr_size_t qualifier_end = prefix_start - 1;
        apr_size_t qualifier_start = identifier_start(text, qualifier_end);
        const char *qualifier = copy_word(text, qualifier_start, qualifier_end, pool);
        apr_size_t imported = import_number(project, module, qualifier);
        apr_size_t home = source; /* the module of the enum E of "E." or "m.E." */
        if (qualifier_start > 0 && text[qualifier_start - 1] == '.') {
            apr_size_t outer_start = identifier_start(text, qualifier_start - 1);
            home = import_number(project, module,
                                 copy_word(text, outer_start, qualifier_start - 1, pool));
            imported = SPX_LOOKUP_NO_SOURCE;
        }
        const spx_enum_t *enumeration =
            home == SPX_LOOKUP_NO_SOURCE ? NULL : enum_of(project->modules[home], qualifier);
        if (qualifier_start == qualifier_end) {
            /* "). ", "]." ...: a value this table cannot name */
        } else if (imported != SPX_LOOKUP_NO_SOURCE) {
            offer_items(&completing, project, imported, 1, pool);
        } else if (enumeration) {
            offer_variants(&completing, project, home, enumeration, pool);
        } else {
            const spx_vtype_t *vtype = NULL;
            spx_type_t type = SPX_TYPE_ERROR;
            value_type(project, table, qualifier_start, qualifier, offset, &vtype, &type);
            offer_members(&completing, project, vtype, type, pool);
        }
    } else {
        offer_scope(&completing, project, table, offset, pool);
    }
    spx_lookup_table_release(table);
    completions->prefix = completing.prefix;
    completions->list = (spx_lookup_completion_t *)completing.list->elts;
    completions->count = (apr_size_t)completing.list->nelts;
    completions->truncated = completing.truncated;
    return SPX_LOOKUP_FOUND;
}

/* ---- signature help ------------------------------------------------------ */

/* An open bracket met scanning a body: where, which, and the commas seen at
 * its level so far. */
typedef struct open_t {
    apr_size_t at;
    unsigned char bracket;
    apr_size_t commas;
} open_t;

/* Where the item around offset starts (a function or a const), or
 * SPX_LOOKUP_NO_SOURCE. */
static apr_size_t item_start(const spx_module_t *module, apr_size_t offset)
{
    for (apr_size_t i = 0; i < module->function_count; i++)
        if (module->functions[i]->span.start.offset < offset &&
            offset < module->functions[i]->span.end.offset)
            return module->functions[i]->span.start.offset;
    for (apr_size_t i = 0; i < module->const_count; i++)
        if (module->consts[i]->span.start.offset < offset &&
            offset < module->consts[i]->span.end.offset)
            return module->consts[i]->span.start.offset;
    return SPX_LOOKUP_NO_SOURCE;
}

/* Scan from start to offset: the brackets still open at offset (skipping
 * strings, byte literals and comments); at most SPX_LIMIT_PARSE_DEPTH kept. */
static apr_array_header_t *open_brackets(const unsigned char *text, apr_size_t start,
                                         apr_size_t offset, apr_pool_t *pool)
{
    apr_array_header_t *open = apr_array_make(pool, 8, sizeof(open_t));
    for (apr_size_t i = start; i < offset; i++) {
        unsigned char c = text[i];
        if (c == '"' || c == '\'') {
            for (i++; i < offset && text[i] != c && text[i] != '\n'; i++)
                if (text[i] == '\\')
                    i++;
        } else if (c == '/' && i + 1 < offset && text[i + 1] == '/') {
            while (i < offset && text[i] != '\n')
                i++;
        } else if (c == '(' || c == '[' || c == '{') {
            if ((apr_size_t)open->nelts < SPX_LIMIT_PARSE_DEPTH) {
                open_t *entry = &APR_ARRAY_PUSH(open, open_t);
                entry->at = i;
                entry->bracket = c;
                entry->commas = 0;
            }
        } else if ((c == ')' || c == ']' || c == '}') && open->nelts > 0) {
            apr_array_pop(open);
        } else if (c == ',' && open->nelts > 0) {
            APR_ARRAY_IDX(open, open->nelts - 1, open_t).commas++;
        }
    }
    return open;
}

/* The parameters of label: the bytes of each between its first "(" and
 * the matching ")", split at top-level ", ". */
static void split_parameters(spx_lookup_signature_t *signature, apr_pool_t *pool)
{
    const char *label = signature->label;
    const char *open = strchr(label, '(');
    apr_size_t length = strlen(label);
    signature->parameter_starts = apr_palloc(pool, (length + 1) * sizeof(apr_size_t));
    signature->parameter_ends = apr_palloc(pool, (length + 1) * sizeof(apr_size_t));
    signature->parameter_count = 0;
    if (!open || open[1] == ')')
        return;
    apr_size_t depth = 0, from = (apr_size_t)(open - label) + 1;
    for (apr_size_t i = from; i < length; i++) {
        char c = label[i];
        if (c == '(' || c == '[' || c == '{') {
            depth++;
        } else if ((c == ')' || c == ']' || c == '}') && depth > 0) {
            depth--;
        } else if (c == ',' || c == ')') {
            signature->parameter_starts[signature->parameter_count] = from;
            signature->parameter_ends[signature->parameter_count++] = i;
            from = i + 2;
            if (c == ')')
                return;
        }
    }
}

static const char *without(const char *text, const char *prefix)
{
    apr_size_t size = strlen(prefix);
    return strncmp(text, prefix, size) == 0 ? text + size : text;
}

/* The callee written before the "(" at paren: its symbol, or 0. */
static int callee(const spx_project_t *project, apr_size_t source, apr_size_t paren,
                  spx_lookup_symbol_t *symbol, int *method, apr_pool_t *pool)
{
    const spx_module_t *module = project->modules[source];
    const unsigned char *text = module->text;
    apr_size_t end = paren;
    while (end > 0 && (text[end - 1] == ' ' || text[end - 1] == '\t'))
        end--;
    apr_size_t start = identifier_start(text, end);
    if (start == end || apr_isdigit(text[start]))
        return 0;
    const char *name = copy_word(text, start, end, pool);
    *method = 0;
    if (start > 0 && text[start - 1] == '.') {
        apr_size_t qualifier_start = identifier_start(text, start - 1);
        const char *qualifier = copy_word(text, qualifier_start, start - 1, pool);
        apr_size_t imported = import_number(project, module, qualifier);
        const spx_module_t *home = module;
        apr_size_t home_source = source;
        /* m.E.V( : the enum of an imported module */
        if (qualifier_start > 0 && text[qualifier_start - 1] == '.') {
            apr_size_t outer_start = identifier_start(text, qualifier_start - 1);
            apr_size_t outer = import_number(
                project, module, copy_word(text, outer_start, qualifier_start - 1, pool));
            if (outer != SPX_LOOKUP_NO_SOURCE) {
                home = project->modules[outer];
                home_source = outer;
            }
        }
        if (imported != SPX_LOOKUP_NO_SOURCE) {
            const spx_module_t *target = project->modules[imported];
            for (apr_size_t i = 0; i < target->function_count; i++)
                if (strcmp(target->functions[i]->name.text, name) == 0) {
                    *symbol = symbol_of(SPX_LOOKUP_FUNCTION, &target->functions[i]->name, target,
                                        imported, NULL);
                    return 1;
                }
            return 0;
        }
        const spx_enum_t *enumeration = enum_of(home, qualifier);
        for (apr_size_t v = 0; enumeration && v < enumeration->variant_count; v++)
            if (strcmp(enumeration->variants[v].name.text, name) == 0) {
                *symbol = symbol_of(SPX_LOOKUP_VARIANT, &enumeration->variants[v].name, home,
                                    home_source, enumeration->name.text);
                return 1;
            }
        for (int b = SPX_BUILTIN_NONE + 1; b <= SPX_BUILTIN_COUNT; b++) {
            const spx_builtin_info_t *info = spx_builtin_info((spx_builtin_t)b);
            if (info->form == SPX_BUILTIN_FORM_METHOD && strcmp(info->name, name) == 0) {
                spx_lookup_symbol_t builtin = {
                    SPX_LOOKUP_BUILTIN,    info->name, NULL, NULL, SPX_LOOKUP_NO_SOURCE,
                    {{0, 0, 0}, {0, 0, 0}}};
                *symbol = builtin;
                *method = 1;
                return 1;
            }
        }
        return 0;
    }
    for (apr_size_t i = 0; i < module->function_count; i++)
        if (strcmp(module->functions[i]->name.text, name) == 0) {
            *symbol =
                symbol_of(SPX_LOOKUP_FUNCTION, &module->functions[i]->name, module, source, NULL);
            return 1;
        }
    const spx_builtin_info_t *info = spx_builtin_called(name);
    if (info) {
        spx_lookup_symbol_t builtin = {
            SPX_LOOKUP_BUILTIN,    info->name, NULL, NULL, SPX_LOOKUP_NO_SOURCE,
            {{0, 0, 0}, {0, 0, 0}}};
        *symbol = builtin;
        return 1;
    }
    return 0;
}

spx_lookup_status_t spx_lookup_signature(const spx_project_t *project, apr_size_t source,
                                         apr_size_t offset, spx_lookup_signature_t *signature,
                                         apr_pool_t *pool)
{
    memset(signature, 0, sizeof(*signature));
    if (source >= project->module_count)
        return SPX_LOOKUP_BAD_SOURCE;
    const spx_module_t *module = project->modules[source];
    if (offset > module->length)
        return SPX_LOOKUP_BAD_OFFSET;
    apr_size_t start = item_start(module, offset);
    if (start == SPX_LOOKUP_NO_SOURCE)
        return SPX_LOOKUP_NOTHING;
    apr_array_header_t *open = open_brackets(module->text, start, offset, pool);
    for (int k = open->nelts - 1; k >= 0; k--) {
        const open_t *entry = &APR_ARRAY_IDX(open, k, open_t);
        int method = 0;
        if (entry->bracket != '(' ||
            !callee(project, source, entry->at, &signature->symbol, &method, pool))
            continue;
        const char *label =
            spx_lookup_declaration(project, &signature->symbol, NULL, SPX_TYPE_ERROR, pool);
        label = without(without(label, "export "), "builtin ");
        if (method) /* the receiver is the signature's first parameter */
            label = apr_pstrcat(pool, "fn ", signature->symbol.name, strchr(label, '('), NULL);
        signature->label = label;
        split_parameters(signature, pool);
        signature->active = entry->commas + (method ? 1 : 0);
        return SPX_LOOKUP_FOUND;
    }
    return SPX_LOOKUP_NOTHING;
}

/* ---- semantic tokens ---------------------------------------------------- */

const char *spx_lookup_token_kind_name(spx_lookup_token_kind_t kind)
{
    static const char *const names[] = {"keyword", "function",  "type",    "enum",    "variant",
                                        "const",   "parameter", "local",   "field",   "module",
                                        "string",  "number",    "comment", "operator"};
    return (size_t)kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "unknown";
}

static spx_lookup_token_kind_t token_kind_of(spx_lookup_kind_t kind)
{
    switch (kind) {
    case SPX_LOOKUP_MODULE:
        return SPX_TOKEN_KIND_MODULE;
    case SPX_LOOKUP_STRUCT:
        return SPX_TOKEN_KIND_TYPE;
    case SPX_LOOKUP_ENUM:
        return SPX_TOKEN_KIND_ENUM;
    case SPX_LOOKUP_VARIANT:
        return SPX_TOKEN_KIND_VARIANT;
    case SPX_LOOKUP_CONST:
        return SPX_TOKEN_KIND_CONST;
    case SPX_LOOKUP_FIELD:
        return SPX_TOKEN_KIND_FIELD;
    case SPX_LOOKUP_LOCAL:
        return SPX_TOKEN_KIND_LOCAL;
    case SPX_LOOKUP_PARAMETER:
        return SPX_TOKEN_KIND_PARAMETER;
    default:
        return SPX_TOKEN_KIND_FUNCTION;
    }
}

typedef struct tokens_t {
    apr_array_header_t *list; /* spx_lookup_token_t */
    int truncated;
} tokens_t;

static void add_token(tokens_t *tokens, spx_span_t span, spx_lookup_token_kind_t kind,
                      int declaration)
{
    if ((apr_size_t)tokens->list->nelts >= SPX_LIMIT_LOOKUP_TOKENS) {
        tokens->truncated = 1;
        return;
    }
    spx_lookup_token_t *token = &APR_ARRAY_PUSH(tokens->list, spx_lookup_token_t);
    token->span = span;
    token->kind = kind;
    token->declaration = declaration;
}

/* The comments between two tokens (from, a position, to to): each from
 * "//" to its line's end. */
static void add_comments(tokens_t *tokens, const unsigned char *text, spx_position_t from,
                         apr_size_t to)
{
    spx_position_t at = from;
    while (at.offset < to && !tokens->truncated) {
        unsigned char c = text[at.offset];
        if (c == '/' && at.offset + 1 < to && text[at.offset + 1] == '/') {
            spx_span_t span = {at, at};
            while (span.end.offset < to && text[span.end.offset] != '\n') {
                span.end.offset++;
                span.end.column++;
            }
            if (span.end.offset > span.start.offset && text[span.end.offset - 1] == '\r') {
                span.end.offset--;
                span.end.column--;
            }
            add_token(tokens, span, SPX_TOKEN_KIND_COMMENT, 0);
            at = span.end;
            continue;
        }
        if (c == '\n') {
            at.line++;
            at.column = 1;
        } else {
            at.column++;
        }
        at.offset++;
    }
}

static int separator(spx_token_kind_t kind)
{
    return kind == SPX_TOKEN_LPAREN || kind == SPX_TOKEN_RPAREN || kind == SPX_TOKEN_LBRACE ||
           kind == SPX_TOKEN_RBRACE || kind == SPX_TOKEN_LBRACKET || kind == SPX_TOKEN_RBRACKET ||
           kind == SPX_TOKEN_COMMA || kind == SPX_TOKEN_SEMICOLON || kind == SPX_TOKEN_COLON ||
           kind == SPX_TOKEN_DOT;
}

spx_lookup_status_t spx_lookup_tokens(const spx_project_t *project, apr_size_t source,
                                      spx_lookup_tokens_t *result, apr_pool_t *pool)
{
    memset(result, 0, sizeof(*result));
    if (source >= project->module_count)
        return SPX_LOOKUP_BAD_SOURCE;
    const spx_module_t *module = project->modules[source];
    lookup_table_t *table = spx_lookup_table(project, source, pool);
    tokens_t tokens = {apr_array_make(pool, 256, sizeof(spx_lookup_token_t)), 0};
    apr_pool_t *scratch;
    apr_pool_create(&scratch, pool);
    spx_arena_t *arena = spx_arena_make(scratch);
    spx_lexer_t lexer;
    spx_lexer_init(&lexer, module->text, module->length, module->path, arena, arena,
                   spx_diagnostics_make(scratch));
    spx_position_t after = {1, 1, 0};
    for (;;) {
        spx_token_t token;
        spx_lexer_next(&lexer, &token);
        add_comments(&tokens, module->text, after, token.span.start.offset);
        if (token.kind == SPX_TOKEN_EOF || tokens.truncated)
            break;
        after = token.span.end;
        apr_size_t size = token.span.end.offset - token.span.start.offset;
        const char *bytes = (const char *)module->text + token.span.start.offset;
        switch (token.kind) {
        case SPX_TOKEN_ERROR:
            break;
        case SPX_TOKEN_IDENTIFIER: {
            const lookup_name_t *name = spx_lookup_table_at(table, token.span.start.offset);
            if (name)
                add_token(&tokens, token.span, token_kind_of(name->symbol.kind), name->declaration);
            else if ((size == 3 &&
                      (memcmp(bytes, "int", 3) == 0 || memcmp(bytes, "str", 3) == 0)) ||
                     (size == 4 && memcmp(bytes, "bool", 4) == 0))
                add_token(&tokens, token.span, SPX_TOKEN_KIND_TYPE, 0);
            break;
        }
        case SPX_TOKEN_INTEGER:
            add_token(&tokens, token.span, SPX_TOKEN_KIND_NUMBER, 0);
            break;
        case SPX_TOKEN_STRING:
        case SPX_TOKEN_BYTE:
            add_token(&tokens, token.span, SPX_TOKEN_KIND_STRING, 0);
            break;
        default:
            if (spx_keyword_kind(bytes, size) != SPX_TOKEN_IDENTIFIER)
                add_token(&tokens, token.span, SPX_TOKEN_KIND_KEYWORD, 0);
            else if (!separator(token.kind))
                add_token(&tokens, token.span, SPX_TOKEN_KIND_OPERATOR, 0);
            break;
        }
    }
    apr_pool_destroy(scratch);
    spx_lookup_table_release(table);
    result->tokens = (spx_lookup_token_t *)tokens.list->elts;
    result->count = (apr_size_t)tokens.list->nelts;
    result->truncated = tokens.truncated;
    return SPX_LOOKUP_FOUND;
}
