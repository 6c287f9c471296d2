/*
 * checker_hints.c: the notes that language v3 adds to an operator that
 * does not take its operands (E0405), for the mistakes a newcomer makes
 * first (docs/language.md, "Hints"):
 *
 *   name + count        str + int: "use itos(count) to make a str of an int"
 *   name[0] == "a"      s[i] (a byte, an int) compared with a str: "s[i] is
 *                       a byte (an int); compare it with a byte literal: 'a'"
 *
 * A note only explains; the diagnostic, its code and its span are the
 * operator's.
 */
#include "checker_internal.h"

#include <apr_strings.h>

/* The source text of expr. */
static const char *source_text(scope_t *scope, const spx_expr_t *expr)
{
    return apr_pstrndup(scope->pool, (const char *)scope->module->text + expr->span.start.offset,
                        expr->span.end.offset - expr->span.start.offset);
}

/* s[i] on a str: a byte. */
static int is_byte_read(const spx_expr_t *expr)
{
    return expr->kind == SPX_EXPR_INDEX && expr->type == SPX_TYPE_INT &&
           expr->as.index.base->type == SPX_TYPE_STR;
}

/* A string literal of one printable ASCII byte other than ' and \, which a
 * byte literal spells the same way between single quotes. */
static int is_one_plain_byte(const spx_expr_t *expr)
{
    if (expr->kind != SPX_EXPR_STRING || expr->as.string.length != 1)
        return 0;
    unsigned char c = (unsigned char)expr->as.string.bytes[0];
    return c >= 0x20 && c < 0x7f && c != '\'' && c != '\\';
}

void spx_checker_hint_operands(scope_t *scope, spx_diagnostic_t *item, const spx_expr_t *operation)
{
    if (!item)
        return;
    spx_operator_t op = operation->as.binary.op;
    const spx_expr_t *left = operation->as.binary.left, *right = operation->as.binary.right;
    spx_diagnostics_t *list = scope->checker->diagnostics;
    const char *path = scope->module->path;
    if (op == SPX_OP_ADD && (left->type == SPX_TYPE_STR) != (right->type == SPX_TYPE_STR) &&
        (left->type == SPX_TYPE_INT || right->type == SPX_TYPE_INT)) {
        const spx_expr_t *number = left->type == SPX_TYPE_INT ? left : right;
        spx_diagnostic_note(list, item, path, number->span,
                            apr_psprintf(scope->pool, "use itos(%s) to make a str of an int",
                                         source_text(scope, number)));
        return;
    }
    if (op < SPX_OP_EQ || op > SPX_OP_GE)
        return;
    const spx_expr_t *byte = is_byte_read(left) ? left : is_byte_read(right) ? right : NULL;
    const spx_expr_t *other = byte == left ? right : left;
    if (!byte || other->type != SPX_TYPE_STR)
        return;
    const char *message =
        is_one_plain_byte(other)
            ? apr_psprintf(scope->pool,
                           "%s is a byte (an int); compare it with a byte literal: '%c'",
                           source_text(scope, byte), other->as.string.bytes[0])
            : apr_psprintf(scope->pool,
                           "%s is a byte (an int); compare it with a byte literal such as 'a'",
                           source_text(scope, byte));
    spx_diagnostic_note(list, item, path, byte->span, message);
}
