/*
 * lookup_table.c: the names of one source for the position queries
 * (docs/lookup.md). Phase A keeps no function bodies, so the source is
 * parsed and checked again, with the modules it imports (their
 * declarations are what its bodies need), in a scratch pool under the
 * caller's: every name written in it (declarations, references, types,
 * fields, variants, locals and parameters) is listed with the symbol it
 * names, read from the checker's annotations, sorted by offset.
 */
#include "lookup_internal.h"

#include "spx_limits.h"

#include <apr_lib.h>
#include <apr_strings.h>
#include <stdlib.h>
#include <string.h>

typedef struct walk_t {
    const spx_project_t *project;
    spx_module_t **modules; /* the scratch modules, in the project's order */
    spx_module_t *module;   /* the one whose names are listed */
    apr_size_t source;
    apr_array_header_t *names;  /* lookup_name_t */
    apr_array_header_t *locals; /* lookup_local_t */
    apr_array_header_t *slots;  /* int: the current function's slot -> locals index */
    apr_array_header_t *stack;  /* const spx_expr_t *: the expressions still to walk */
    const spx_function_t *function;
    apr_size_t function_number;
    int in_const; /* walking a const's value: names are consts, not locals */
} walk_t;

apr_size_t spx_lookup_module_number(const spx_project_t *project, const char *name)
{
    const apr_size_t *number = spx_project_module_numbered(project, name);
    return number ? *number : SPX_LOOKUP_NO_SOURCE;
}

const spx_module_t *spx_lookup_module(const spx_project_t *project, apr_size_t source)
{
    return project->modules[source];
}

spx_position_t spx_lookup_position(const unsigned char *text, apr_size_t length, apr_size_t offset)
{
    spx_position_t position = {1, 1, 0};
    if (offset > length)
        offset = length;
    apr_size_t line_start = 0;
    for (apr_size_t i = 0; i < offset; i++)
        if (text[i] == '\n') {
            position.line++;
            line_start = i + 1;
        }
    position.column = (uint32_t)(offset - line_start + 1);
    position.offset = (uint32_t)offset;
    return position;
}

/* The position that offset has, counted from position (offset >= position's). */
static spx_position_t advance(const unsigned char *text, spx_position_t position, apr_size_t offset)
{
    for (apr_size_t i = position.offset; i < offset; i++) {
        if (text[i] == '\n') {
            position.line++;
            position.column = 1;
        } else {
            position.column++;
        }
    }
    position.offset = (uint32_t)offset;
    return position;
}

/* The part [from, to) of a span (offsets inside it). */
static spx_span_t span_part(const unsigned char *text, spx_span_t span, apr_size_t from,
                            apr_size_t to)
{
    spx_span_t part;
    part.start = advance(text, span.start, from);
    part.end = advance(text, part.start, to);
    return part;
}

static apr_size_t number_of(const walk_t *walk, const spx_module_t *module)
{
    if (!module)
        return SPX_LOOKUP_NO_SOURCE;
    if (module == walk->module)
        return walk->source;
    return spx_lookup_module_number(walk->project, module->name);
}

static spx_lookup_symbol_t item_symbol(const walk_t *walk, spx_lookup_kind_t kind,
                                       const spx_name_t *name, const spx_module_t *module,
                                       const char *container)
{
    spx_lookup_symbol_t symbol = {
        kind,      name->text, module ? module->name : NULL, container, number_of(walk, module),
        name->span};
    return symbol;
}

static spx_lookup_symbol_t module_symbol(const walk_t *walk, apr_size_t number)
{
    spx_lookup_symbol_t symbol = {SPX_LOOKUP_MODULE,
                                  walk->project->modules[number]->name,
                                  walk->project->modules[number]->name,
                                  NULL,
                                  number,
                                  {{1, 1, 0}, {1, 1, 0}}};
    return symbol;
}

static lookup_name_t *add(walk_t *walk, spx_span_t span, spx_lookup_symbol_t symbol,
                          int declaration)
{
    if (span.end.offset <= span.start.offset || !symbol.name)
        return NULL;
    lookup_name_t *name = &APR_ARRAY_PUSH(walk->names, lookup_name_t);
    memset(name, 0, sizeof(*name));
    name->span = span;
    name->symbol = symbol;
    name->declaration = declaration;
    name->local = -1;
    return name;
}

/* The module that module imports under name, or NULL. */
static spx_module_t *imported(const walk_t *walk, const spx_module_t *module, const char *name)
{
    for (apr_size_t i = 0; name && i < module->import_count; i++)
        if (module->imports[i].module.text && strcmp(module->imports[i].module.text, name) == 0) {
            const apr_size_t *number = spx_project_module_numbered(walk->project, name);
            return number ? walk->modules[*number] : NULL;
        }
    return NULL;
}

static void add_module(walk_t *walk, const spx_name_t *name, const spx_module_t *module)
{
    apr_size_t number = number_of(walk, module);
    if (number != SPX_LOOKUP_NO_SOURCE)
        add(walk, name->span, module_symbol(walk, number), 0);
}

static const spx_struct_t *struct_named(const spx_module_t *module, const char *name)
{
    for (apr_size_t i = 0; module && name && i < module->struct_count; i++)
        if (strcmp(module->structs[i]->name.text, name) == 0)
            return module->structs[i];
    return NULL;
}

static const spx_enum_t *enum_named(const spx_module_t *module, const char *name)
{
    for (apr_size_t i = 0; module && name && i < module->enum_count; i++)
        if (strcmp(module->enums[i]->name.text, name) == 0)
            return module->enums[i];
    return NULL;
}

static const spx_const_t *const_named(const spx_module_t *module, const char *name)
{
    for (apr_size_t i = 0; module && name && i < module->const_count; i++)
        if (strcmp(module->consts[i]->name.text, name) == 0)
            return module->consts[i];
    return NULL;
}

static void add_field(walk_t *walk, const spx_name_t *name, const spx_struct_t *structure,
                      const spx_expr_t *value)
{
    for (apr_size_t i = 0; structure && name->text && i < structure->field_count; i++)
        if (strcmp(structure->fields[i].name.text, name->text) == 0) {
            spx_lookup_symbol_t symbol =
                item_symbol(walk, SPX_LOOKUP_FIELD, &structure->fields[i].name, structure->module,
                            structure->name.text);
            lookup_name_t *added = add(walk, name->span, symbol, 0);
            if (added && value) {
                added->vtype = value->vtype;
                added->type = value->type;
            }
            return;
        }
}

/* A type as written in module: its module qualifier and its struct or
 * enum. Types nest only as deep as the parser allowed. */
static void walk_type(walk_t *walk, const spx_module_t *module, const spx_type_syntax_t *syntax)
{
    if (!syntax)
        return;
    switch (syntax->kind) {
    case SPX_TYPE_SYNTAX_BASIC:
        return;
    case SPX_TYPE_SYNTAX_MAP:
        walk_type(walk, module, syntax->key);
        walk_type(walk, module, syntax->element);
        return;
    case SPX_TYPE_SYNTAX_ARRAY:
        walk_type(walk, module, syntax->element);
        return;
    case SPX_TYPE_SYNTAX_STRUCT:
        break;
    }
    const spx_module_t *target = module;
    if (syntax->module.text) {
        target = imported(walk, module, syntax->module.text);
        if (!target)
            return;
        add_module(walk, &syntax->module, target);
    }
    const spx_struct_t *structure = struct_named(target, syntax->name.text);
    const spx_enum_t *enumeration = structure ? NULL : enum_named(target, syntax->name.text);
    if (structure)
        add(walk, syntax->name.span,
            item_symbol(walk, SPX_LOOKUP_STRUCT, &structure->name, structure->module, NULL), 0);
    else if (enumeration)
        add(walk, syntax->name.span,
            item_symbol(walk, SPX_LOOKUP_ENUM, &enumeration->name, enumeration->module, NULL), 0);
}

/* A local or parameter declared at name with slot, visible to scope_end. */
static void declare_local(walk_t *walk, const spx_name_t *name, int slot, apr_size_t scope_end,
                          int parameter, const spx_vtype_t *vtype, spx_type_t type)
{
    if (slot < 0 || !name->text || strcmp(name->text, "_") == 0)
        return;
    while (walk->slots->nelts <= slot)
        APR_ARRAY_PUSH(walk->slots, int) = -1;
    APR_ARRAY_IDX(walk->slots, slot, int) = walk->locals->nelts;
    lookup_local_t *local = &APR_ARRAY_PUSH(walk->locals, lookup_local_t);
    local->name = name->text;
    local->span = name->span;
    local->function = walk->function_number;
    local->scope_end = scope_end;
    local->parameter = parameter;
    local->vtype = vtype;
    local->type = type;
    spx_lookup_symbol_t symbol =
        item_symbol(walk, parameter ? SPX_LOOKUP_PARAMETER : SPX_LOOKUP_LOCAL, name, walk->module,
                    walk->function->name.text);
    lookup_name_t *added = add(walk, name->span, symbol, 1);
    if (added)
        added->local = walk->locals->nelts - 1;
}

/* A use of the local in slot, written at span. */
static void use_local(walk_t *walk, spx_span_t span, int slot, const spx_vtype_t *vtype,
                      spx_type_t type)
{
    if (slot < 0 || slot >= walk->slots->nelts || APR_ARRAY_IDX(walk->slots, slot, int) < 0)
        return;
    int number = APR_ARRAY_IDX(walk->slots, slot, int);
    lookup_local_t *local = &APR_ARRAY_IDX(walk->locals, number, lookup_local_t);
    if (!local->vtype && vtype) {
        local->vtype = vtype;
        local->type = vtype->kind;
    } else if (local->type == SPX_TYPE_ERROR && !local->vtype) {
        local->type = type;
    }
    spx_name_t declared = {local->name, local->span};
    spx_lookup_symbol_t symbol =
        item_symbol(walk, local->parameter ? SPX_LOOKUP_PARAMETER : SPX_LOOKUP_LOCAL, &declared,
                    walk->module, walk->function->name.text);
    lookup_name_t *added = add(walk, span, symbol, 0);
    if (added)
        added->local = number;
}

static void push_expression(void *context, const spx_expr_t *expression)
{
    walk_t *walk = context;
    if (expression)
        APR_ARRAY_PUSH(walk->stack, const spx_expr_t *) = expression;
}

static void name_expression(walk_t *walk, const spx_expr_t *e)
{
    const spx_name_t *name = &e->as.name.name;
    if (walk->in_const) {
        const spx_const_t *constant = const_named(walk->module, name->text);
        if (constant)
            add(walk, name->span,
                item_symbol(walk, SPX_LOOKUP_CONST, &constant->name, constant->module, NULL), 0);
        return;
    }
    if (e->as.name.constant)
        add(walk, name->span,
            item_symbol(walk, SPX_LOOKUP_CONST, &e->as.name.constant->name,
                        e->as.name.constant->module, NULL),
            0);
    else
        use_local(walk, name->span, e->as.name.slot, e->vtype, e->type);
}

static void call_expression(walk_t *walk, const spx_call_t *call)
{
    if (call->module.text) {
        const spx_module_t *target = imported(walk, walk->module, call->module.text);
        if (target)
            add_module(walk, &call->module, target);
        else if (!walk->in_const && call->builtin != SPX_BUILTIN_NONE)
            use_local(walk, call->module.span, call->receiver_slot, NULL, SPX_TYPE_ERROR);
    }
    if (call->target) {
        add(walk, call->function.span,
            item_symbol(walk, SPX_LOOKUP_FUNCTION, &call->target->name, call->target->module, NULL),
            0);
    } else if (call->builtin != SPX_BUILTIN_NONE) {
        spx_lookup_symbol_t symbol = {SPX_LOOKUP_BUILTIN,
                                      spx_builtin_info(call->builtin)->name,
                                      NULL,
                                      NULL,
                                      SPX_LOOKUP_NO_SOURCE,
                                      {{0, 0, 0}, {0, 0, 0}}};
        add(walk, call->function.span, symbol, 0);
    }
}

static void field_expression(walk_t *walk, const spx_expr_t *e)
{
    const spx_expr_t *base = e->as.field.base;
    const spx_name_t *name = &e->as.field.name;
    const spx_const_t *constant = e->as.field.constant;
    const spx_module_t *target =
        base && base->kind == SPX_EXPR_NAME && (walk->in_const || base->as.name.slot < 0)
            ? imported(walk, walk->module, base->as.name.name.text)
            : NULL;
    if (walk->in_const && target)
        constant = const_named(target, name->text);
    if (constant) {
        if (target)
            add_module(walk, &base->as.name.name, target);
        add(walk, name->span,
            item_symbol(walk, SPX_LOOKUP_CONST, &constant->name, constant->module, NULL), 0);
        return;
    }
    if (base && base->type == SPX_TYPE_STRUCT && base->vtype)
        add_field(walk, name, base->vtype->structure, e);
}

static void variant_expression(walk_t *walk, const spx_expr_t *e)
{
    const spx_enum_t *enumeration = e->as.variant.enumeration;
    if (!enumeration || e->as.variant.variant >= enumeration->variant_count)
        return;
    const spx_variant_t *variant = &enumeration->variants[e->as.variant.variant];
    add(walk, e->as.variant.name_span,
        item_symbol(walk, SPX_LOOKUP_VARIANT, &variant->name, enumeration->module,
                    enumeration->name.text),
        0);
    /* E, or m.E: the enum's name is the last word of the span. */
    spx_span_t written = e->as.variant.enum_span;
    const unsigned char *text = walk->module->text;
    apr_size_t start = written.start.offset, end = written.end.offset, dot = end;
    for (apr_size_t i = start; i < end; i++)
        if (text[i] == '.')
            dot = i;
    apr_size_t name_start = dot < end ? dot + 1 : start;
    while (name_start < end && (text[name_start] == ' ' || text[name_start] == '\t' ||
                                text[name_start] == '\n' || text[name_start] == '\r'))
        name_start++;
    apr_size_t name_end = name_start;
    while (name_end < end && (apr_isalnum(text[name_end]) || text[name_end] == '_'))
        name_end++;
    add(walk, span_part(text, written, name_start, name_end),
        item_symbol(walk, SPX_LOOKUP_ENUM, &enumeration->name, enumeration->module, NULL), 0);
    if (dot < end) {
        apr_size_t module_end = start;
        while (module_end < dot && (apr_isalnum(text[module_end]) || text[module_end] == '_'))
            module_end++;
        apr_size_t number = number_of(walk, enumeration->module);
        if (number != SPX_LOOKUP_NO_SOURCE)
            add(walk, span_part(text, written, start, module_end), module_symbol(walk, number), 0);
    }
}

static void literal_expression(walk_t *walk, const spx_expr_t *e)
{
    const spx_struct_literal_t *literal = e->as.literal;
    const spx_struct_t *structure =
        e->type == SPX_TYPE_STRUCT && e->vtype ? e->vtype->structure : NULL;
    if (!structure)
        return;
    if (literal->module.text)
        add_module(walk, &literal->module, structure->module);
    add(walk, literal->name.span,
        item_symbol(walk, SPX_LOOKUP_STRUCT, &structure->name, structure->module, NULL), 0);
    for (apr_size_t i = 0; i < literal->field_count; i++)
        add_field(walk, &literal->fields[i].name, structure, literal->fields[i].value);
}

/* The expression and every expression in it, with an explicit stack:
 * operator chains may be deeper than any recursion should go. */
static void walk_expression(walk_t *walk, const spx_expr_t *root)
{
    if (!root)
        return;
    apr_size_t bottom = (apr_size_t)walk->stack->nelts;
    APR_ARRAY_PUSH(walk->stack, const spx_expr_t *) = root;
    while ((apr_size_t)walk->stack->nelts > bottom) {
        const spx_expr_t *e = *(const spx_expr_t **)apr_array_pop(walk->stack);
        switch (e->kind) {
        case SPX_EXPR_NAME:
            name_expression(walk, e);
            break;
        case SPX_EXPR_CALL:
            call_expression(walk, e->as.call);
            break;
        case SPX_EXPR_FIELD:
            field_expression(walk, e);
            break;
        case SPX_EXPR_VARIANT:
            variant_expression(walk, e);
            break;
        case SPX_EXPR_STRUCT_LITERAL:
            literal_expression(walk, e);
            break;
        default:
            break;
        }
        spx_expr_visit_children(e, push_expression, walk);
    }
}

static void walk_block(walk_t *walk, const spx_block_t *block);

static void walk_statement(walk_t *walk, const spx_stmt_t *s, apr_size_t scope_end)
{
    switch (s->kind) {
    case SPX_STMT_LET:
    case SPX_STMT_VAR: {
        const spx_expr_t *value = s->as.binding.value;
        walk_type(walk, walk->module, s->as.binding.type_syntax);
        walk_expression(walk, value);
        declare_local(walk, &s->as.binding.name, s->as.binding.slot, scope_end, 0,
                      value ? value->vtype : NULL,
                      s->as.binding.has_type && !s->as.binding.type_syntax
                          ? s->as.binding.declared
                          : (value ? value->type : SPX_TYPE_ERROR));
        break;
    }
    case SPX_STMT_ASSIGN:
        if (s->as.assign.place)
            walk_expression(walk, s->as.assign.place);
        use_local(walk, s->as.assign.name.span, s->as.assign.slot, NULL, SPX_TYPE_ERROR);
        walk_expression(walk, s->as.assign.value);
        break;
    case SPX_STMT_IF:
        for (const spx_stmt_t *at = s; at; at = at->as.if_stmt.else_if) {
            walk_expression(walk, at->as.if_stmt.condition);
            walk_block(walk, &at->as.if_stmt.then_block);
            if (at->as.if_stmt.else_block)
                walk_block(walk, at->as.if_stmt.else_block);
        }
        break;
    case SPX_STMT_WHILE:
        walk_expression(walk, s->as.while_stmt.condition);
        walk_block(walk, &s->as.while_stmt.body);
        break;
    case SPX_STMT_RETURN:
        walk_expression(walk, s->as.return_stmt.value);
        break;
    case SPX_STMT_EXPR:
        walk_expression(walk, s->as.expr_stmt.expression);
        break;
    case SPX_STMT_FOR: {
        walk_expression(walk, s->as.for_stmt.from);
        walk_expression(walk, s->as.for_stmt.to);
        const spx_expr_t *from = s->as.for_stmt.from;
        int over_array = !s->as.for_stmt.to && from && from->type == SPX_TYPE_ARRAY && from->vtype;
        declare_local(walk, &s->as.for_stmt.variable, s->as.for_stmt.slot,
                      s->as.for_stmt.body.span.end.offset, 0,
                      over_array ? from->vtype->element : NULL,
                      over_array ? from->vtype->element->kind : SPX_TYPE_INT);
        walk_block(walk, &s->as.for_stmt.body);
        break;
    }
    case SPX_STMT_MATCH: {
        walk_expression(walk, s->as.match_stmt.scrutinee);
        const spx_enum_t *enumeration = s->as.match_stmt.enumeration;
        for (apr_size_t a = 0; a < s->as.match_stmt.arm_count; a++) {
            const spx_match_arm_t *arm = &s->as.match_stmt.arms[a];
            if (enumeration && !arm->wildcard && arm->variant >= 0 &&
                (apr_size_t)arm->variant < enumeration->variant_count)
                add(walk, arm->pattern.span,
                    item_symbol(walk, SPX_LOOKUP_VARIANT, &enumeration->variants[arm->variant].name,
                                enumeration->module, enumeration->name.text),
                    0);
            const spx_variant_t *variant =
                enumeration && arm->variant >= 0 &&
                        (apr_size_t)arm->variant < enumeration->variant_count
                    ? &enumeration->variants[arm->variant]
                    : NULL;
            for (apr_size_t b = 0; b < arm->binder_count; b++) {
                /* a basic payload's type is known here; another one's from its uses */
                spx_type_t type =
                    variant && b < variant->payload_count && !variant->payloads[b].type_syntax
                        ? variant->payloads[b].type
                        : SPX_TYPE_ERROR;
                declare_local(walk, &arm->binders[b].name, arm->binders[b].slot,
                              arm->body.span.end.offset, 0, NULL, type);
            }
            walk_block(walk, &arm->body);
        }
        break;
    }
    case SPX_STMT_BREAK:
    case SPX_STMT_CONTINUE:
        break;
    }
}

/* Blocks nest only as deep as the parser allowed (SPX_LIMIT_PARSE_DEPTH). */
static void walk_block(walk_t *walk, const spx_block_t *block)
{
    for (apr_size_t i = 0; i < block->count; i++)
        if (block->statements[i])
            walk_statement(walk, block->statements[i], block->span.end.offset);
}

static void walk_function(walk_t *walk, const spx_function_t *function, apr_size_t number)
{
    walk->function = function;
    walk->function_number = number;
    apr_array_clear(walk->slots);
    add(walk, function->name.span,
        item_symbol(walk, SPX_LOOKUP_FUNCTION, &function->name, walk->module, NULL), 1);
    for (apr_size_t p = 0; p < function->param_count; p++) {
        const spx_param_t *param = &function->params[p];
        walk_type(walk, walk->module, param->type_syntax);
        declare_local(walk, &param->name, (int)p, function->span.end.offset, 1, NULL,
                      param->type_syntax ? SPX_TYPE_ERROR : param->type);
    }
    walk_type(walk, walk->module, function->result_syntax);
    walk_block(walk, &function->body);
}

static void walk_module(walk_t *walk)
{
    spx_module_t *module = walk->module;
    for (apr_size_t i = 0; i < module->import_count; i++) {
        const spx_module_t *target = imported(walk, module, module->imports[i].module.text);
        if (target)
            add_module(walk, &module->imports[i].module, target);
    }
    for (apr_size_t i = 0; i < module->struct_count; i++) {
        const spx_struct_t *structure = module->structs[i];
        add(walk, structure->name.span,
            item_symbol(walk, SPX_LOOKUP_STRUCT, &structure->name, module, NULL), 1);
        for (apr_size_t f = 0; f < structure->field_count; f++) {
            walk_type(walk, module, structure->fields[f].type_syntax);
            add(walk, structure->fields[f].name.span,
                item_symbol(walk, SPX_LOOKUP_FIELD, &structure->fields[f].name, module,
                            structure->name.text),
                1);
        }
    }
    for (apr_size_t i = 0; i < module->enum_count; i++) {
        const spx_enum_t *enumeration = module->enums[i];
        add(walk, enumeration->name.span,
            item_symbol(walk, SPX_LOOKUP_ENUM, &enumeration->name, module, NULL), 1);
        for (apr_size_t v = 0; v < enumeration->variant_count; v++) {
            const spx_variant_t *variant = &enumeration->variants[v];
            add(walk, variant->name.span,
                item_symbol(walk, SPX_LOOKUP_VARIANT, &variant->name, module,
                            enumeration->name.text),
                1);
            for (apr_size_t k = 0; k < variant->payload_count; k++)
                walk_type(walk, module, variant->payloads[k].type_syntax);
        }
    }
    walk->in_const = 1;
    for (apr_size_t i = 0; i < module->const_count; i++) {
        const spx_const_t *constant = module->consts[i];
        add(walk, constant->name.span,
            item_symbol(walk, SPX_LOOKUP_CONST, &constant->name, module, NULL), 1);
        walk_type(walk, module, constant->type_syntax);
        walk_expression(walk, constant->value);
    }
    walk->in_const = 0;
    for (apr_size_t i = 0; i < module->function_count; i++)
        walk_function(walk, module->functions[i], i);
}

static int compare_names(const void *left, const void *right)
{
    const lookup_name_t *a = left, *b = right;
    if (a->span.start.offset != b->span.start.offset)
        return a->span.start.offset < b->span.start.offset ? -1 : 1;
    return b->declaration - a->declaration; /* a declaration first */
}

/* Parse and declare the source and every module it imports, directly or
 * not (their declarations are what its bodies need), imports first, with
 * an explicit stack; only the source's bodies are kept. */
static void declare_closure(const spx_project_t *project, spx_module_t **modules,
                            spx_checker_t *checker, apr_size_t source, spx_arena_t *arena,
                            apr_pool_t *scratch, spx_diagnostics_t *diagnostics)
{
    apr_size_t count = project->module_count;
    char *state = apr_pcalloc(scratch, count + 1); /* 0 new, 1 on the stack, 2 declared */
    apr_size_t *stack = apr_palloc(scratch, (count + 1) * sizeof(apr_size_t));
    apr_size_t *next = apr_palloc(scratch, (count + 1) * sizeof(apr_size_t));
    /* only the source's bodies are kept: an imported module's go as soon as
     * it is parsed */
    spx_arena_t *discard = spx_arena_make(scratch);
    apr_size_t depth = 0;
    stack[depth] = source;
    next[depth++] = 0;
    state[source] = 1;
    spx_parse_module(modules[source], arena, arena, scratch, diagnostics);
    while (depth > 0) {
        spx_module_t *current = modules[stack[depth - 1]];
        if (next[depth - 1] < current->import_count) {
            apr_size_t number =
                spx_lookup_module_number(project, current->imports[next[depth - 1]++].module.text);
            if (number != SPX_LOOKUP_NO_SOURCE && state[number] == 0) {
                state[number] = 1;
                spx_module_t *module = modules[number];
                spx_parse_module(module, arena, discard, scratch, diagnostics);
                for (apr_size_t f = 0; f < module->function_count; f++)
                    memset(&module->functions[f]->body, 0, sizeof(module->functions[f]->body));
                spx_arena_clear(discard);
                stack[depth] = number;
                next[depth++] = 0;
            }
            continue;
        }
        apr_size_t done = stack[--depth];
        spx_checker_declare(checker, done);
        state[done] = 2;
    }
}

/* The scratch program: fresh modules over the retained texts and their
 * checker, everything in scratch. */
typedef struct program_t {
    spx_module_t **modules;
    spx_checker_t *checker;
    spx_arena_t *arena;
    spx_diagnostics_t *diagnostics;
} program_t;

static program_t make_program(const spx_project_t *project, apr_pool_t *scratch)
{
    program_t program;
    apr_size_t count = project->module_count;
    program.arena = spx_arena_make(scratch);
    program.diagnostics = spx_diagnostics_make(scratch);
    program.modules = apr_palloc(scratch, (count + 1) * sizeof(*program.modules));
    for (apr_size_t i = 0; i < count; i++)
        program.modules[i] =
            spx_module_make(project->modules[i]->name, project->modules[i]->path,
                            project->modules[i]->text, project->modules[i]->length, program.arena);
    program.checker = spx_checker_make(program.modules, count, scratch, program.diagnostics);
    if (project->data_entry_count)
        spx_checker_set_data(program.checker, project->data_entries, project->data_entry_count);
    return program;
}

/* Walk the checked bodies of source into a table whose names live in
 * scratch. */
static lookup_table_t *walk_table(const spx_project_t *project, const program_t *program,
                                  apr_size_t source, apr_pool_t *scratch)
{
    lookup_table_t *table = apr_pcalloc(scratch, sizeof(*table));
    table->source = source;
    table->module = project->modules[source];
    table->scratch = scratch;
    walk_t walk = {project,
                   program->modules,
                   program->modules[source],
                   source,
                   apr_array_make(scratch, 256, sizeof(lookup_name_t)),
                   apr_array_make(scratch, 64, sizeof(lookup_local_t)),
                   apr_array_make(scratch, 64, sizeof(int)),
                   apr_array_make(scratch, 64, sizeof(const spx_expr_t *)),
                   NULL,
                   0,
                   0};
    walk_module(&walk);
    lookup_name_t *names = (lookup_name_t *)walk.names->elts;
    apr_size_t kept = 0;
    qsort(names, (apr_size_t)walk.names->nelts, sizeof(*names), compare_names);
    for (apr_size_t i = 0; i < (apr_size_t)walk.names->nelts; i++)
        if (kept == 0 || names[kept - 1].span.start.offset != names[i].span.start.offset)
            names[kept++] = names[i];
    table->names = names;
    table->count = kept;
    table->locals = (lookup_local_t *)walk.locals->elts;
    table->local_count = (apr_size_t)walk.locals->nelts;
    /* a local's type is what the checker knew of it anywhere */
    for (apr_size_t i = 0; i < kept; i++)
        if (names[i].local >= 0) {
            names[i].vtype = table->locals[names[i].local].vtype;
            names[i].type = table->locals[names[i].local].type;
        }
    return table;
}

lookup_table_t *spx_lookup_table(const spx_project_t *project, apr_size_t source, apr_pool_t *pool)
{
    apr_pool_t *scratch;
    apr_pool_create(&scratch, pool);
    program_t program = make_program(project, scratch);
    declare_closure(project, program.modules, program.checker, source, program.arena, scratch,
                    program.diagnostics);
    spx_checker_check_bodies(program.checker, source);
    return walk_table(project, &program, source, scratch);
}

/* The walk's state of one module in spx_lookup_each_table. */
enum { EACH_NEW, EACH_WAITING, EACH_DECLARED, EACH_DONE };

typedef struct each_t {
    const spx_project_t *project;
    program_t program;
    apr_pool_t *scratch;
    char *state;
    spx_arena_t **bodies;            /* per declared module not done */
    apr_array_header_t *free_arenas; /* spx_arena_t *: cleared */
} each_t;

static void each_declare(each_t *each, apr_size_t number)
{
    if (each->state[number] >= EACH_DECLARED)
        return;
    spx_arena_t *bodies = each->free_arenas->nelts
                              ? *(spx_arena_t **)apr_array_pop(each->free_arenas)
                              : spx_arena_make(each->scratch);
    spx_parse_module(each->program.modules[number], each->program.arena, bodies, each->scratch,
                     each->program.diagnostics);
    spx_checker_declare(each->program.checker, number);
    each->bodies[number] = bodies;
    each->state[number] = EACH_DECLARED;
}

void spx_lookup_each_table(const spx_project_t *project, const char *wanted,
                           void (*visit)(void *context, const lookup_table_t *table), void *context,
                           apr_pool_t *pool)
{
    apr_size_t count = project->module_count;
    each_t each;
    each.project = project;
    apr_pool_create(&each.scratch, pool);
    each.program = make_program(project, each.scratch);
    each.state = apr_pcalloc(each.scratch, count + 1);
    each.bodies = apr_pcalloc(each.scratch, (count + 1) * sizeof(*each.bodies));
    each.free_arenas = apr_array_make(each.scratch, 4, sizeof(spx_arena_t *));
    apr_size_t *stack = apr_palloc(each.scratch, (count + 1) * sizeof(apr_size_t));
    apr_size_t *next = apr_palloc(each.scratch, (count + 1) * sizeof(apr_size_t));
    for (apr_size_t root = 0; root < count; root++) {
        if (each.state[root] != EACH_NEW)
            continue;
        apr_size_t depth = 0;
        stack[depth] = root;
        next[depth++] = 0;
        each.state[root] = EACH_WAITING;
        while (depth > 0) {
            /* the retained declarations say what a module imports */
            const spx_module_t *current = project->modules[stack[depth - 1]];
            if (next[depth - 1] < current->import_count) {
                const apr_size_t *imported = spx_project_module_numbered(
                    project, current->imports[next[depth - 1]++].module.text);
                if (imported && each.state[*imported] == EACH_NEW) {
                    each.state[*imported] = EACH_WAITING;
                    stack[depth] = *imported;
                    next[depth++] = 0;
                }
                continue;
            }
            apr_size_t done = stack[--depth];
            spx_module_t *module = each.program.modules[done];
            each_declare(&each, done);
            for (apr_size_t i = 0; i < module->import_count; i++) {
                const apr_size_t *imported =
                    spx_project_module_numbered(project, module->imports[i].module.text);
                if (imported)
                    each_declare(&each, *imported);
            }
            if (wanted[done]) {
                spx_checker_check_bodies(each.program.checker, done);
                apr_pool_t *names;
                apr_pool_create(&names, each.scratch);
                visit(context, walk_table(project, &each.program, done, names));
                apr_pool_destroy(names);
            }
            for (apr_size_t f = 0; f < module->function_count; f++)
                memset(&module->functions[f]->body, 0, sizeof(module->functions[f]->body));
            spx_arena_clear(each.bodies[done]);
            APR_ARRAY_PUSH(each.free_arenas, spx_arena_t *) = each.bodies[done];
            each.bodies[done] = NULL;
            each.state[done] = EACH_DONE;
        }
    }
    apr_pool_destroy(each.scratch);
}

void spx_lookup_table_release(lookup_table_t *table)
{
    apr_pool_destroy(table->scratch); /* the table itself is there too */
}

const lookup_name_t *spx_lookup_table_at(const lookup_table_t *table, apr_size_t offset)
{
    apr_size_t low = 0, high = table->count;
    while (low < high) {
        apr_size_t middle = low + (high - low) / 2;
        if (table->names[middle].span.start.offset <= offset)
            low = middle + 1;
        else
            high = middle;
    }
    if (low == 0)
        return NULL;
    const lookup_name_t *name = &table->names[low - 1];
    return offset < name->span.end.offset ? name : NULL;
}
