/*
 * ast.c: small helpers over the syntax tree (spx_ast.h) shared by the
 * checker, the index and the compiler: type names and function signatures as
 * outputs.md renders them ("fn(s: str)", "fn() -> int"), and the walk over a
 * block's statements to the expressions they hold (the walk over an
 * expression's children is spx_ast.h's, inline).
 */
#include "spx_ast.h"
#include "spx_name_table.h"

#include <apr_strings.h>
#include <apr_tables.h>
#include <string.h>

const char *spx_type_name(spx_type_t type)
{
    switch (type) {
    case SPX_TYPE_INT:
        return "int";
    case SPX_TYPE_BOOL:
        return "bool";
    case SPX_TYPE_STR:
        return "str";
    case SPX_TYPE_UNIT:
        return "unit";
    case SPX_TYPE_ARRAY:
        return "array";
    case SPX_TYPE_STRUCT:
        return "struct";
    case SPX_TYPE_ENUM:
        return "enum";
    case SPX_TYPE_MAP:
        return "map";
    case SPX_TYPE_ERROR:
        break;
    }
    return "<error>";
}

/* The signature is measured, then written once into pool: no list of its
 * parts is left behind (Phase A makes one for every function). */
const char *spx_function_signature(const spx_function_t *function, apr_pool_t *pool)
{
    enum { FEW_PARAMS = 16 };
    const char *few[FEW_PARAMS + 1];
    const char **types = function->param_count < FEW_PARAMS
                             ? few
                             : apr_palloc(pool, (function->param_count + 1) * sizeof(*types));
    apr_size_t length = strlen("fn()");
    for (apr_size_t i = 0; i < function->param_count; i++) {
        types[i] = spx_written_type_name(function->params[i].type_syntax, function->params[i].type,
                                         function->module, pool);
        length += (i > 0 ? 2 : 0) + strlen(function->params[i].name.text) + 2 + strlen(types[i]);
    }
    /* A unit function is written without "->", and so is its signature. */
    const char *result = function->result == SPX_TYPE_UNIT
                             ? NULL
                             : spx_written_type_name(function->result_syntax, function->result,
                                                     function->module, pool);
    if (result)
        length += 4 + strlen(result);
    char *signature = apr_palloc(pool, length + 1);
    char *at = signature;
#define SIGNATURE_PUT(text)                                                                        \
    do {                                                                                           \
        apr_size_t size = strlen(text);                                                            \
        memcpy(at, (text), size);                                                                  \
        at += size;                                                                                \
    } while (0)
    SIGNATURE_PUT("fn(");
    for (apr_size_t i = 0; i < function->param_count; i++) {
        if (i > 0)
            SIGNATURE_PUT(", ");
        SIGNATURE_PUT(function->params[i].name.text);
        SIGNATURE_PUT(": ");
        SIGNATURE_PUT(types[i]);
    }
    SIGNATURE_PUT(")");
    if (result) {
        SIGNATURE_PUT(" -> ");
        SIGNATURE_PUT(result);
    }
#undef SIGNATURE_PUT
    *at = '\0';
    return signature;
}

/* Arrays nest only as deep as the parser allowed, but are walked as a loop. */
const char *spx_written_type_name(const spx_type_syntax_t *syntax, spx_type_t basic,
                                  const spx_module_t *module, apr_pool_t *pool)
{
    size_t depth = 0;
    while (syntax && syntax->kind == SPX_TYPE_SYNTAX_ARRAY) {
        depth++;
        syntax = syntax->element;
    }
    const char *inner = spx_type_name(basic);
    if (syntax && syntax->kind == SPX_TYPE_SYNTAX_BASIC)
        inner = spx_type_name(syntax->basic);
    else if (syntax && syntax->kind == SPX_TYPE_SYNTAX_MAP) /* v3: {K: V}, the value recursing */
        inner = apr_pstrcat(
            pool, "{", spx_written_type_name(syntax->key, SPX_TYPE_ERROR, module, pool), ": ",
            spx_written_type_name(syntax->element, SPX_TYPE_ERROR, module, pool), "}", NULL);
    else if (syntax) /* a struct: its module as written, or the one it is written in */
        inner = apr_pstrcat(pool, syntax->module.text ? syntax->module.text : module->name, ".",
                            syntax->name.text, NULL);
    return spx_array_type_name(inner, depth, pool);
}

const char *spx_array_type_name(const char *inner, size_t depth, apr_pool_t *pool)
{
    if (depth == 0) /* a name written once: no copy */
        return inner;
    size_t size = strlen(inner);
    char *name = apr_palloc(pool, size + 2 * depth + 1);
    memset(name, '[', depth);
    memcpy(name + depth, inner, size);
    memset(name + depth + size, ']', depth);
    name[size + 2 * depth] = '\0';
    return name;
}

void spx_block_visit_expressions(const spx_block_t *block, spx_expression_visitor_t visit,
                                 void *context)
{
    spx_block_visit(block, visit, NULL, context);
}

void spx_block_visit(const spx_block_t *block, spx_expression_visitor_t visit,
                     spx_annotation_visitor_t annotation, void *context)
{
    for (apr_size_t i = 0; i < block->count; i++) {
        const spx_stmt_t *s = block->statements[i];
        switch (s->kind) {
        case SPX_STMT_LET:
        case SPX_STMT_VAR:
            if (annotation && s->as.binding.type_syntax)
                annotation(context, s->as.binding.type_syntax);
            visit(context, s->as.binding.value);
            break;
        case SPX_STMT_ASSIGN:
            if (s->as.assign.place)
                visit(context, s->as.assign.place);
            visit(context, s->as.assign.value);
            break;
        case SPX_STMT_IF:
            /* An "else if" chain is walked by this loop, not by recursion. */
            for (; s; s = s->as.if_stmt.else_if) {
                visit(context, s->as.if_stmt.condition);
                spx_block_visit(&s->as.if_stmt.then_block, visit, annotation, context);
                if (s->as.if_stmt.else_block)
                    spx_block_visit(s->as.if_stmt.else_block, visit, annotation, context);
            }
            break;
        case SPX_STMT_WHILE:
            visit(context, s->as.while_stmt.condition);
            spx_block_visit(&s->as.while_stmt.body, visit, annotation, context);
            break;
        case SPX_STMT_RETURN:
            if (s->as.return_stmt.value)
                visit(context, s->as.return_stmt.value);
            break;
        case SPX_STMT_EXPR:
            visit(context, s->as.expr_stmt.expression);
            break;
        case SPX_STMT_FOR:
            visit(context, s->as.for_stmt.from);
            if (s->as.for_stmt.to)
                visit(context, s->as.for_stmt.to);
            spx_block_visit(&s->as.for_stmt.body, visit, annotation, context);
            break;
        case SPX_STMT_BREAK:
        case SPX_STMT_CONTINUE:
            break;
        case SPX_STMT_MATCH:
            visit(context, s->as.match_stmt.scrutinee);
            for (apr_size_t j = 0; j < s->as.match_stmt.arm_count; j++)
                spx_block_visit(&s->as.match_stmt.arms[j].body, visit, annotation, context);
            break;
        }
    }
}

/* The slot of name in module's table: its function's, or the empty one
 * where it would go. */
static apr_size_t function_slot(const spx_module_t *module, const char *name)
{
    apr_size_t mask = module->function_slot_count - 1;
    apr_size_t at = spx_name_hash(name) & mask;
    while (module->function_slots[at] &&
           strcmp(module->functions[module->function_slots[at] - 1]->name.text, name) != 0)
        at = (at + 1) & mask;
    return at;
}

spx_function_t *spx_module_function(const spx_module_t *module, const char *name)
{
    if (!module->function_slots || !name)
        return NULL;
    uint32_t number = module->function_slots[function_slot(module, name)];
    return number ? module->functions[number - 1] : NULL;
}

void spx_module_collect_functions(spx_module_t *module, apr_pool_t *pool)
{
    apr_size_t slot_count = 2;
    while (slot_count < 2 * module->function_count)
        slot_count *= 2;
    module->function_slots = apr_pcalloc(pool, slot_count * sizeof(*module->function_slots));
    module->function_slot_count = slot_count;
    for (apr_size_t i = 0; i < module->function_count; i++) {
        const char *name = module->functions[i]->name.text;
        if (!name)
            continue;
        apr_size_t at = function_slot(module, name);
        if (!module->function_slots[at]) /* calls resolve to the first declaration */
            module->function_slots[at] = (uint32_t)i + 1;
    }
}
