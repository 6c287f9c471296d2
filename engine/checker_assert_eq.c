/*
 * checker_assert_eq.c: the typing of the builtin assert_eq (language v3,
 * Standard library): assert_eq(a, b) and assert_eq(a, b, message). a and b
 * are of one type, not unit (E0404); b expects a's type (so
 * assert_eq(xs, []) is typed), the message a str (E0404); any other number
 * of arguments is E0403. Its row in spx_builtins.h names it (E0306, the
 * graph's builtin node); its typing is here because its parameters' types
 * come from its first argument.
 */
#include "checker_internal.h"

#include <apr_strings.h>

/* E0404 for a unit argument: assert_eq compares values. */
static void report_unit_side(scope_t *scope, const spx_expr_t *side, apr_size_t position)
{
    report(scope, SPX_E0404, side->span,
           apr_psprintf(scope->pool,
                        "argument %" APR_SIZE_T_FMT " of 'assert_eq' must be a value, not unit",
                        position));
}

const spx_vtype_t *spx_checker_check_assert_eq(scope_t *scope, spx_expr_t *call)
{
    spx_call_t *c = call->as.call;
    c->builtin = SPX_BUILTIN_ASSERT_EQ;
    c->target = NULL;
    apr_size_t count = c->argument_count;
    const spx_vtype_t *first = NULL, *unit = basic_type(scope, SPX_TYPE_UNIT);
    for (apr_size_t i = 0; i < count; i++) {
        if (i == 1)
            expect(scope, first); /* the right side expects the left's type */
        else if (i == 2)
            expect(scope, basic_type(scope, SPX_TYPE_STR));
        spx_checker_check_expr(scope, c->arguments[i]);
        if (i == 0)
            first = vtype_of(scope, c->arguments[0]);
    }
    if (count < 2 || count > 3) {
        report(scope, SPX_E0403, call->span,
               apr_psprintf(scope->pool, "'assert_eq' takes 2 or 3 arguments, not %" APR_SIZE_T_FMT,
                            count));
        return unit;
    }
    const spx_expr_t *left = c->arguments[0], *right = c->arguments[1];
    spx_type_t a = type_of(left), b = type_of(right);
    if (a == SPX_TYPE_UNIT)
        report_unit_side(scope, left, 1);
    if (b == SPX_TYPE_UNIT)
        report_unit_side(scope, right, 2);
    else if (a != SPX_TYPE_UNIT && a != SPX_TYPE_ERROR && b != SPX_TYPE_ERROR &&
             vtype_of(scope, right) != first)
        report(scope, SPX_E0404, right->span,
               apr_psprintf(scope->pool,
                            "argument 2 of 'assert_eq' must be '%s' like argument 1, not '%s'",
                            spx_vtype_name(first, scope->pool), type_text(scope, right)));
    if (count == 3) {
        const spx_expr_t *message = c->arguments[2];
        spx_type_t type = type_of(message);
        if (type == SPX_TYPE_UNIT)
            spx_checker_report_unit(scope, message, "an argument");
        else if (type != SPX_TYPE_ERROR && type != SPX_TYPE_STR)
            report(scope, SPX_E0404, message->span,
                   apr_psprintf(scope->pool, "argument 3 of 'assert_eq' must be 'str', not '%s'",
                                type_text(scope, message)));
    }
    return unit;
}
