/*
 * ast.c: small helpers over the syntax tree (spx_ast.h) shared by the
 * checker, the graph and the index: type names and function signatures as
 * outputs.md renders them ("fn(s: str)", "fn() -> int").
 */
#include "spx_ast.h"

#include <apr_strings.h>
#include <apr_tables.h>

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
    case SPX_TYPE_ERROR:
        break;
    }
    return "<error>";
}

const char *spx_function_signature(const spx_function_t *function, apr_pool_t *pool)
{
    apr_array_header_t *parts =
        apr_array_make(pool, (int)(function->param_count * 4 + 4), sizeof(const char *));
    APR_ARRAY_PUSH(parts, const char *) = "fn(";
    for (apr_size_t i = 0; i < function->param_count; i++) {
        if (i > 0)
            APR_ARRAY_PUSH(parts, const char *) = ", ";
        APR_ARRAY_PUSH(parts, const char *) = function->params[i].name.text;
        APR_ARRAY_PUSH(parts, const char *) = ": ";
        APR_ARRAY_PUSH(parts, const char *) = spx_type_name(function->params[i].type);
    }
    APR_ARRAY_PUSH(parts, const char *) = ")";
    /* A unit function is written without "->", and so is its signature. */
    if (function->result != SPX_TYPE_UNIT) {
        APR_ARRAY_PUSH(parts, const char *) = " -> ";
        APR_ARRAY_PUSH(parts, const char *) = spx_type_name(function->result);
    }
    return apr_array_pstrcat(pool, parts, 0);
}
