/*
 * lookup.c: the position queries that name one thing (spx_lookup.h): what
 * is at an offset, its definition, its references across the project, its
 * hover text and comment; and the symbol lists of a source and of the
 * project, read from the retained declarations alone (docs/lookup.md).
 */
#include "lookup_internal.h"
#include "spx_declaration.h"

#include "spx_limits.h"

#include <apr_lib.h>
#include <apr_strings.h>
#include <stdlib.h>
#include <string.h>

const char *spx_lookup_kind_name(spx_lookup_kind_t kind)
{
    static const char *const names[] = {"module",    "function", "struct", "enum",
                                        "variant",   "const",    "field",  "local",
                                        "parameter", "builtin",  "test",   "keyword"};
    return (size_t)kind < sizeof(names) / sizeof(names[0]) ? names[kind] : "unknown";
}

const char *spx_lookup_source_module(const spx_project_t *project, apr_size_t source)
{
    return source < project->module_count ? project->modules[source]->name : NULL;
}

const char *spx_lookup_source_path(const spx_project_t *project, apr_size_t source)
{
    return source < project->module_count ? project->modules[source]->path : NULL;
}

const unsigned char *spx_lookup_source_text(const spx_project_t *project, apr_size_t source,
                                            apr_size_t *length)
{
    *length = source < project->module_count ? project->modules[source]->length : 0;
    return source < project->module_count ? project->modules[source]->text : NULL;
}

apr_size_t spx_lookup_source_named(const spx_project_t *project, const char *name)
{
    for (apr_size_t i = 0; name && i < project->module_count; i++)
        if (strcmp(project->modules[i]->path, name) == 0 ||
            strcmp(project->modules[i]->name, name) == 0)
            return i;
    return SPX_LOOKUP_NO_SOURCE;
}

int spx_lookup_same(const spx_lookup_symbol_t *a, const spx_lookup_symbol_t *b)
{
    if (a->kind != b->kind)
        return 0;
    if (a->kind == SPX_LOOKUP_BUILTIN)
        return strcmp(a->name, b->name) == 0;
    return a->source == b->source && a->span.start.offset == b->span.start.offset;
}

/* The symbol with its words copied into pool (a table's go with it). */
static spx_lookup_symbol_t kept_symbol(const spx_lookup_symbol_t *symbol, apr_pool_t *pool)
{
    spx_lookup_symbol_t kept = *symbol;
    kept.name = kept.name ? apr_pstrdup(pool, kept.name) : NULL;
    kept.module = kept.module ? apr_pstrdup(pool, kept.module) : NULL;
    kept.container = kept.container ? apr_pstrdup(pool, kept.container) : NULL;
    return kept;
}

/* The source and offset are the project's (offset may be the length: the
 * end of the text). */
static spx_lookup_status_t check_place(const spx_project_t *project, apr_size_t source,
                                       apr_size_t offset)
{
    if (source >= project->module_count)
        return SPX_LOOKUP_BAD_SOURCE;
    if (offset > project->modules[source]->length)
        return SPX_LOOKUP_BAD_OFFSET;
    return SPX_LOOKUP_FOUND;
}

/* The name at offset, copied into *name (its symbol's words in pool), with
 * its hover text when hover is not NULL; the table is let go. */
static spx_lookup_status_t name_at(const spx_project_t *project, apr_size_t source,
                                   apr_size_t offset, lookup_name_t *name, const char **hover,
                                   apr_pool_t *pool)
{
    spx_lookup_status_t status = check_place(project, source, offset);
    if (status != SPX_LOOKUP_FOUND)
        return status;
    lookup_table_t *table = spx_lookup_table(project, source, pool);
    const lookup_name_t *found = spx_lookup_table_at(table, offset);
    if (found) {
        *name = *found;
        name->symbol = kept_symbol(&found->symbol, pool);
        if (hover)
            *hover =
                spx_lookup_declaration(project, &found->symbol, found->vtype, found->type, pool);
        name->vtype = NULL;
    }
    spx_lookup_table_release(table);
    return found ? SPX_LOOKUP_FOUND : SPX_LOOKUP_NOTHING;
}

spx_lookup_status_t spx_lookup_at(const spx_project_t *project, apr_size_t source,
                                  apr_size_t offset, spx_lookup_at_t *at, apr_pool_t *pool)
{
    memset(at, 0, sizeof(*at));
    lookup_name_t name;
    spx_lookup_status_t status = name_at(project, source, offset, &name, NULL, pool);
    if (status != SPX_LOOKUP_FOUND)
        return status;
    at->symbol = name.symbol;
    at->site.source = source;
    at->site.span = name.span;
    at->site.declaration = name.declaration;
    return SPX_LOOKUP_FOUND;
}

spx_lookup_status_t spx_lookup_definition(const spx_project_t *project, apr_size_t source,
                                          apr_size_t offset, spx_lookup_site_t *site,
                                          apr_pool_t *pool)
{
    memset(site, 0, sizeof(*site));
    spx_lookup_at_t at;
    spx_lookup_status_t status = spx_lookup_at(project, source, offset, &at, pool);
    if (status != SPX_LOOKUP_FOUND)
        return status;
    if (at.symbol.source == SPX_LOOKUP_NO_SOURCE)
        return SPX_LOOKUP_NOTHING;
    site->source = at.symbol.source;
    site->span = at.symbol.span;
    site->declaration = 1;
    return SPX_LOOKUP_FOUND;
}

/* 1 when the bytes of text hold word (a quick test before a source is
 * checked again: a source that never spells a name cannot name it). */
static int spells(const unsigned char *text, apr_size_t length, const char *word)
{
    apr_size_t size = strlen(word);
    if (size == 0 || size > length)
        return 0;
    for (const unsigned char *at = text; (apr_size_t)(at - text) + size <= length;) {
        const unsigned char *found =
            memchr(at, (unsigned char)word[0], length - size + 1 - (apr_size_t)(at - text));
        if (!found)
            return 0;
        if (memcmp(found, word, size) == 0)
            return 1;
        at = found + 1;
    }
    return 0;
}

/* Sites by source number, then offset. */
static int compare_sites(const void *left, const void *right)
{
    const spx_lookup_site_t *a = left, *b = right;
    if (a->source != b->source)
        return a->source < b->source ? -1 : 1;
    return a->span.start.offset < b->span.start.offset   ? -1
           : a->span.start.offset > b->span.start.offset ? 1
                                                         : 0;
}

/* Add table's sites of symbol to list, up to the limit. */
static void collect_sites(const lookup_table_t *table, const spx_lookup_symbol_t *symbol,
                          int include_declaration, apr_array_header_t *list, int *truncated)
{
    for (apr_size_t i = 0; i < table->count; i++) {
        const lookup_name_t *name = &table->names[i];
        if (!spx_lookup_same(&name->symbol, symbol) || (name->declaration && !include_declaration))
            continue;
        if ((apr_size_t)list->nelts >= SPX_LIMIT_LOOKUP_REFERENCES) {
            *truncated = 1;
            return;
        }
        spx_lookup_site_t *site = &APR_ARRAY_PUSH(list, spx_lookup_site_t);
        site->source = table->source;
        site->span = name->span;
        site->declaration = name->declaration;
    }
}

/* What spx_lookup_references gathers from each table. */
typedef struct gathering_t {
    const spx_lookup_symbol_t *symbol;
    int include_declaration;
    apr_array_header_t *list;
    int truncated;
} gathering_t;

static void gather(void *context, const lookup_table_t *table)
{
    gathering_t *gathering = context;
    if (!gathering->truncated)
        collect_sites(table, gathering->symbol, gathering->include_declaration, gathering->list,
                      &gathering->truncated);
}

spx_lookup_status_t spx_lookup_references(const spx_project_t *project, apr_size_t source,
                                          apr_size_t offset, int include_declaration,
                                          spx_lookup_references_t *references, apr_pool_t *pool)
{
    memset(references, 0, sizeof(*references));
    spx_lookup_status_t status = check_place(project, source, offset);
    if (status != SPX_LOOKUP_FOUND)
        return status;
    lookup_table_t *own = spx_lookup_table(project, source, pool);
    const lookup_name_t *name = spx_lookup_table_at(own, offset);
    if (!name)
        return SPX_LOOKUP_NOTHING;
    references->symbol = kept_symbol(&name->symbol, pool);
    gathering_t gathering = {&references->symbol, include_declaration,
                             apr_array_make(pool, 16, sizeof(spx_lookup_site_t)), 0};
    int local = name->symbol.kind == SPX_LOOKUP_LOCAL || name->symbol.kind == SPX_LOOKUP_PARAMETER;
    /* The other sources that spell the name can name it: they are checked
     * again in one pass over the project (Phase A's order), then the sites
     * are put in source order. */
    char *wanted = apr_pcalloc(pool, project->module_count + 1);
    int others = 0;
    for (apr_size_t m = 0; m < project->module_count && !local; m++) {
        const spx_module_t *module = project->modules[m];
        wanted[m] = m != source && spells(module->text, module->length, name->symbol.name);
        others |= wanted[m];
    }
    if (others)
        spx_lookup_each_table(project, wanted, gather, &gathering, pool);
    collect_sites(own, &references->symbol, include_declaration, gathering.list,
                  &gathering.truncated);
    spx_lookup_table_release(own);
    qsort(gathering.list->elts, (apr_size_t)gathering.list->nelts, sizeof(spx_lookup_site_t),
          compare_sites);
    references->sites = (spx_lookup_site_t *)gathering.list->elts;
    references->count = (apr_size_t)gathering.list->nelts;
    references->truncated = gathering.truncated;
    return SPX_LOOKUP_FOUND;
}

/* ---- declarations and comments ------------------------------------------- */

static const spx_function_t *retained_function(const spx_module_t *module, apr_size_t offset)
{
    for (apr_size_t i = 0; i < module->function_count; i++)
        if (module->functions[i]->name.span.start.offset == offset)
            return module->functions[i];
    return NULL;
}

static const spx_struct_t *retained_struct(const spx_module_t *module, const char *name)
{
    for (apr_size_t i = 0; name && i < module->struct_count; i++)
        if (strcmp(module->structs[i]->name.text, name) == 0)
            return module->structs[i];
    return NULL;
}

static const spx_enum_t *retained_enum(const spx_module_t *module, const char *name)
{
    for (apr_size_t i = 0; name && i < module->enum_count; i++)
        if (strcmp(module->enums[i]->name.text, name) == 0)
            return module->enums[i];
    return NULL;
}

static const spx_const_t *retained_const(const spx_module_t *module, apr_size_t offset)
{
    for (apr_size_t i = 0; i < module->const_count; i++)
        if (module->consts[i]->name.span.start.offset == offset)
            return module->consts[i];
    return NULL;
}

/* A value's type as messages write it: the checker's whole type, or its
 * kind's name; NULL when unknown. */
static const char *type_text(const spx_vtype_t *vtype, spx_type_t type, apr_pool_t *pool)
{
    if (vtype && vtype->kind != SPX_TYPE_ERROR)
        return spx_vtype_name(vtype, pool);
    if (type == SPX_TYPE_ERROR)
        return NULL;
    return spx_type_name(type);
}

const char *spx_lookup_declaration(const spx_project_t *project, const spx_lookup_symbol_t *symbol,
                                   const spx_vtype_t *vtype, spx_type_t type, apr_pool_t *pool)
{
    if (symbol->kind == SPX_LOOKUP_BUILTIN)
        return spx_declaration_builtin(symbol->name, pool);
    if (symbol->source >= project->module_count)
        return symbol->name;
    const spx_module_t *module = project->modules[symbol->source];
    const char *typed = type_text(vtype, type, pool);
    switch (symbol->kind) {
    case SPX_LOOKUP_MODULE:
        return spx_declaration_module(module, pool);
    case SPX_LOOKUP_FUNCTION: {
        const spx_function_t *function = retained_function(module, symbol->span.start.offset);
        return function ? spx_declaration_function(function, pool) : symbol->name;
    }
    case SPX_LOOKUP_STRUCT: {
        const spx_struct_t *structure = retained_struct(module, symbol->name);
        return structure ? spx_declaration_struct(structure, pool) : symbol->name;
    }
    case SPX_LOOKUP_ENUM: {
        const spx_enum_t *enumeration = retained_enum(module, symbol->name);
        return enumeration ? spx_declaration_enum(enumeration, pool) : symbol->name;
    }
    case SPX_LOOKUP_CONST: {
        const spx_const_t *constant = retained_const(module, symbol->span.start.offset);
        return constant ? spx_declaration_const(constant, pool) : symbol->name;
    }
    case SPX_LOOKUP_VARIANT: {
        const spx_enum_t *enumeration = retained_enum(module, symbol->container);
        for (apr_size_t v = 0; enumeration && v < enumeration->variant_count; v++)
            if (enumeration->variants[v].name.span.start.offset == symbol->span.start.offset)
                return apr_pstrcat(
                    pool, enumeration->name.text, ".",
                    spx_declaration_variant(enumeration, &enumeration->variants[v], pool), NULL);
        return symbol->name;
    }
    case SPX_LOOKUP_FIELD: {
        const spx_struct_t *structure = retained_struct(module, symbol->container);
        for (apr_size_t i = 0; structure && i < structure->field_count; i++)
            if (structure->fields[i].name.span.start.offset == symbol->span.start.offset)
                return apr_pstrcat(pool, structure->name.text, ".", symbol->name, ": ",
                                   spx_written_type_name(structure->fields[i].type_syntax,
                                                         structure->fields[i].type, module, pool),
                                   NULL);
        return symbol->name;
    }
    case SPX_LOOKUP_PARAMETER: {
        const spx_function_t *function = NULL;
        for (apr_size_t i = 0; i < module->function_count && !function; i++)
            if (module->functions[i]->span.start.offset <= symbol->span.start.offset &&
                symbol->span.start.offset < module->functions[i]->span.end.offset)
                function = module->functions[i];
        for (apr_size_t p = 0; function && p < function->param_count; p++)
            if (function->params[p].name.span.start.offset == symbol->span.start.offset)
                return apr_pstrcat(pool, symbol->name, ": ",
                                   spx_written_type_name(function->params[p].type_syntax,
                                                         function->params[p].type, module, pool),
                                   NULL);
        return symbol->name;
    }
    case SPX_LOOKUP_LOCAL: {
        /* let or var: the word before the name, as written */
        apr_size_t at = symbol->span.start.offset;
        while (at > 0 && (module->text[at - 1] == ' ' || module->text[at - 1] == '\t'))
            at--;
        const char *word = at >= 3 && memcmp(module->text + at - 3, "var", 3) == 0   ? "var "
                           : at >= 3 && memcmp(module->text + at - 3, "let", 3) == 0 ? "let "
                                                                                     : "";
        return typed ? apr_pstrcat(pool, word, symbol->name, ": ", typed, NULL)
                     : apr_pstrcat(pool, word, symbol->name, NULL);
    }
    default:
        return symbol->name;
    }
}

/* Where an item's declaration starts: its whole span for items, its name
 * for the rest. */
static apr_size_t declaration_start(const spx_project_t *project, const spx_lookup_symbol_t *symbol)
{
    const spx_module_t *module = project->modules[symbol->source];
    apr_size_t offset = symbol->span.start.offset;
    for (apr_size_t i = 0; i < module->function_count; i++)
        if (module->functions[i]->name.span.start.offset == offset)
            return module->functions[i]->span.start.offset;
    for (apr_size_t i = 0; i < module->struct_count; i++)
        if (module->structs[i]->name.span.start.offset == offset)
            return module->structs[i]->span.start.offset;
    for (apr_size_t i = 0; i < module->enum_count; i++)
        if (module->enums[i]->name.span.start.offset == offset)
            return module->enums[i]->span.start.offset;
    for (apr_size_t i = 0; i < module->const_count; i++)
        if (module->consts[i]->name.span.start.offset == offset)
            return module->consts[i]->span.start.offset;
    return offset;
}

/* The // lines right above the declaration starting at start, when only
 * blanks precede it on its line: each without its "//" and one space
 * after it, joined by LF; NULL when there are none. */
static const char *leading_comment(const unsigned char *text, apr_size_t start, apr_pool_t *pool)
{
    apr_size_t line = start;
    while (line > 0 && text[line - 1] != '\n') {
        if (text[line - 1] != ' ' && text[line - 1] != '\t')
            return NULL;
        line--;
    }
    apr_size_t first = line; /* the first byte of the comment's lines */
    while (first > 0) {
        apr_size_t above = first - 1; /* the LF ending the line above */
        while (above > 0 && text[above - 1] != '\n')
            above--;
        apr_size_t at = above;
        while (at < first && (text[at] == ' ' || text[at] == '\t'))
            at++;
        if (at + 1 >= first || text[at] != '/' || text[at + 1] != '/')
            break;
        if (line - above > SPX_LIMIT_LOOKUP_COMMENT_BYTES)
            break;
        first = above;
    }
    if (first == line)
        return NULL;
    char *out = apr_palloc(pool, line - first + 1);
    apr_size_t length = 0;
    for (apr_size_t at = first; at < line;) {
        while (text[at] == ' ' || text[at] == '\t')
            at++;
        at += 2;
        if (at < line && text[at] == ' ')
            at++;
        apr_size_t end = at;
        while (end < line && text[end] != '\n')
            end++;
        apr_size_t cut = end;
        if (cut > at && text[cut - 1] == '\r')
            cut--;
        if (length)
            out[length++] = '\n';
        memcpy(out + length, text + at, cut - at);
        length += cut - at;
        at = end + 1;
    }
    out[length] = '\0';
    return out;
}

spx_lookup_status_t spx_lookup_hover(const spx_project_t *project, apr_size_t source,
                                     apr_size_t offset, spx_lookup_hover_t *hover, apr_pool_t *pool)
{
    memset(hover, 0, sizeof(*hover));
    lookup_name_t name;
    const char *declaration = NULL;
    spx_lookup_status_t status = name_at(project, source, offset, &name, &declaration, pool);
    if (status != SPX_LOOKUP_FOUND)
        return status;
    hover->symbol = name.symbol;
    hover->site.source = source;
    hover->site.span = name.span;
    hover->site.declaration = name.declaration;
    hover->declaration = declaration;
    if (name.symbol.kind != SPX_LOOKUP_BUILTIN && name.symbol.kind != SPX_LOOKUP_MODULE &&
        name.symbol.source < project->module_count) {
        const spx_module_t *module = project->modules[name.symbol.source];
        hover->comment =
            leading_comment(module->text, declaration_start(project, &name.symbol), pool);
    }
    return SPX_LOOKUP_FOUND;
}

/* ---- symbol lists ------------------------------------------------------- */

static spx_lookup_item_t *add_item(apr_array_header_t *list, int *truncated, spx_lookup_kind_t kind,
                                   const spx_module_t *module, apr_size_t source,
                                   const spx_name_t *name, spx_span_t span, long parent)
{
    if ((apr_size_t)list->nelts >= SPX_LIMIT_LOOKUP_SYMBOLS) {
        *truncated = 1;
        return NULL;
    }
    spx_lookup_item_t *item = &APR_ARRAY_PUSH(list, spx_lookup_item_t);
    item->kind = kind;
    item->name = name->text;
    item->module = module->name;
    item->source = source;
    item->span = span;
    item->name_span = name->span;
    item->parent = parent;
    item->declaration = NULL;
    return item;
}

/* An item of module in source order: its kind and its number in its list. */
typedef struct ordered_item_t {
    spx_lookup_kind_t kind;
    apr_size_t number;
    apr_size_t offset;
} ordered_item_t;

static int compare_ordered(const void *left, const void *right)
{
    const ordered_item_t *a = left, *b = right;
    return a->offset < b->offset ? -1 : a->offset > b->offset;
}

/* The module's items in source order (in pool). */
static ordered_item_t *ordered_items(const spx_module_t *module, apr_size_t *count,
                                     apr_pool_t *pool)
{
    apr_size_t total =
        module->function_count + module->struct_count + module->enum_count + module->const_count;
    ordered_item_t *items = apr_palloc(pool, (total + 1) * sizeof(*items));
    apr_size_t n = 0;
    for (apr_size_t i = 0; i < module->function_count; i++)
        items[n++] =
            (ordered_item_t){SPX_LOOKUP_FUNCTION, i, module->functions[i]->span.start.offset};
    for (apr_size_t i = 0; i < module->struct_count; i++)
        items[n++] = (ordered_item_t){SPX_LOOKUP_STRUCT, i, module->structs[i]->span.start.offset};
    for (apr_size_t i = 0; i < module->enum_count; i++)
        items[n++] = (ordered_item_t){SPX_LOOKUP_ENUM, i, module->enums[i]->span.start.offset};
    for (apr_size_t i = 0; i < module->const_count; i++)
        items[n++] = (ordered_item_t){SPX_LOOKUP_CONST, i, module->consts[i]->span.start.offset};
    qsort(items, n, sizeof(*items), compare_ordered);
    *count = n;
    return items;
}

/* 1 when name contains query, ASCII letters without case. */
static int contains_folded(const char *name, const char *query)
{
    apr_size_t size = strlen(query);
    for (const char *at = name; *at; at++) {
        apr_size_t k = 0;
        while (k < size && at[k] &&
               apr_tolower((unsigned char)at[k]) == apr_tolower((unsigned char)query[k]))
            k++;
        if (k == size)
            return 1;
    }
    return size == 0;
}

/* Add module's items (with members when members) to list. */
static void module_items(const spx_module_t *module, apr_size_t source, int members,
                         const char *query, apr_size_t max, apr_array_header_t *list,
                         int *truncated, apr_pool_t *pool)
{
    apr_size_t count = 0;
    ordered_item_t *items = ordered_items(module, &count, pool);
    for (apr_size_t i = 0; i < count && !*truncated; i++) {
        const spx_name_t *name = NULL;
        spx_span_t span;
        switch (items[i].kind) {
        case SPX_LOOKUP_FUNCTION:
            name = &module->functions[items[i].number]->name;
            span = module->functions[items[i].number]->span;
            break;
        case SPX_LOOKUP_STRUCT:
            name = &module->structs[items[i].number]->name;
            span = module->structs[items[i].number]->span;
            break;
        case SPX_LOOKUP_ENUM:
            name = &module->enums[items[i].number]->name;
            span = module->enums[items[i].number]->span;
            break;
        default:
            name = &module->consts[items[i].number]->name;
            span = module->consts[items[i].number]->span;
            break;
        }
        if (!name->text || (query && !contains_folded(name->text, query)))
            continue;
        if (query && (apr_size_t)list->nelts >= max) {
            *truncated = 1;
            return;
        }
        long parent = list->nelts;
        spx_lookup_item_t *added =
            add_item(list, truncated, items[i].kind, module, source, name, span, -1);
        if (!added)
            return;
        if (!members)
            continue;
        switch (items[i].kind) {
        case SPX_LOOKUP_FUNCTION:
            added->declaration = spx_declaration_function(module->functions[items[i].number], pool);
            break;
        case SPX_LOOKUP_STRUCT:
            added->declaration = spx_declaration_struct(module->structs[items[i].number], pool);
            break;
        case SPX_LOOKUP_ENUM:
            added->declaration = spx_declaration_enum(module->enums[items[i].number], pool);
            break;
        default:
            added->declaration = spx_declaration_const(module->consts[items[i].number], pool);
            break;
        }
        if (items[i].kind == SPX_LOOKUP_STRUCT) {
            const spx_struct_t *structure = module->structs[items[i].number];
            for (apr_size_t f = 0; f < structure->field_count && !*truncated; f++) {
                const spx_param_t *field = &structure->fields[f];
                spx_span_t whole = {field->name.span.start, field->type_span.end};
                spx_lookup_item_t *member = add_item(list, truncated, SPX_LOOKUP_FIELD, module,
                                                     source, &field->name, whole, parent);
                if (member && field->name.text)
                    member->declaration = apr_pstrcat(
                        pool, field->name.text, ": ",
                        spx_written_type_name(field->type_syntax, field->type, module, pool), NULL);
            }
        } else if (items[i].kind == SPX_LOOKUP_ENUM) {
            const spx_enum_t *enumeration = module->enums[items[i].number];
            for (apr_size_t v = 0; v < enumeration->variant_count && !*truncated; v++) {
                const spx_variant_t *variant = &enumeration->variants[v];
                spx_span_t whole = variant->name.span;
                if (variant->payload_count) { /* to its ")" */
                    whole.end = variant->payloads[variant->payload_count - 1].type_span.end;
                    while (whole.end.offset < module->length &&
                           (module->text[whole.end.offset] == ' ' ||
                            module->text[whole.end.offset] == '\t'))
                        whole.end = (spx_position_t){whole.end.line, whole.end.column + 1,
                                                     whole.end.offset + 1};
                    if (whole.end.offset < module->length && module->text[whole.end.offset] == ')')
                        whole.end = (spx_position_t){whole.end.line, whole.end.column + 1,
                                                     whole.end.offset + 1};
                }
                spx_lookup_item_t *member = add_item(list, truncated, SPX_LOOKUP_VARIANT, module,
                                                     source, &variant->name, whole, parent);
                if (member)
                    member->declaration = spx_declaration_variant(enumeration, variant, pool);
            }
        }
    }
}

spx_lookup_status_t spx_lookup_document_symbols(const spx_project_t *project, apr_size_t source,
                                                spx_lookup_items_t *items, apr_pool_t *pool)
{
    memset(items, 0, sizeof(*items));
    spx_lookup_status_t status = check_place(project, source, 0);
    if (status != SPX_LOOKUP_FOUND)
        return status;
    const spx_module_t *module = project->modules[source];
    apr_array_header_t *list = apr_array_make(pool, 16, sizeof(spx_lookup_item_t));
    module_items(module, source, 1, NULL, 0, list, &items->truncated, pool);
    for (apr_size_t t = 0;
         project->manifest && t < project->manifest->test_count && !items->truncated; t++) {
        const spx_function_t *function = project->tests ? project->tests[t] : NULL;
        if (!function || function->module != module)
            continue;
        spx_name_t name = {project->manifest->tests[t].name, function->name.span};
        spx_lookup_item_t *test = add_item(list, &items->truncated, SPX_LOOKUP_TEST, module, source,
                                           &name, function->span, -1);
        if (test)
            test->declaration = spx_declaration_function(function, pool);
    }
    items->items = (spx_lookup_item_t *)list->elts;
    items->count = (apr_size_t)list->nelts;
    return SPX_LOOKUP_FOUND;
}

void spx_lookup_workspace_symbols(const spx_project_t *project, const char *query, apr_size_t max,
                                  spx_lookup_items_t *items, apr_pool_t *pool)
{
    memset(items, 0, sizeof(*items));
    if (max > SPX_LIMIT_LOOKUP_SYMBOLS)
        max = SPX_LIMIT_LOOKUP_SYMBOLS;
    apr_array_header_t *list = apr_array_make(pool, 16, sizeof(spx_lookup_item_t));
    apr_pool_t *scratch;
    apr_pool_create(&scratch, pool);
    for (apr_size_t m = 0; m < project->module_count && !items->truncated; m++) {
        module_items(project->modules[m], m, 0, query ? query : "", max, list, &items->truncated,
                     scratch);
        apr_pool_clear(scratch);
    }
    apr_pool_destroy(scratch);
    items->items = (spx_lookup_item_t *)list->elts;
    items->count = (apr_size_t)list->nelts;
}
