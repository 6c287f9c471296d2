/*
 * int_arith.c: the operator dispatch and the failure messages of the
 * integer semantics of spx_int_arith.h (whose static inline operations the
 * interpreter runs directly); the checker's const evaluation computes every
 * int operator through spx_int_apply, so a const and a run agree.
 */
#include "spx_int_arith.h"

#include <apr_strings.h>
#include <inttypes.h>
#include <string.h>

spx_int_status_t spx_int_apply(spx_operator_t op, int64_t a, int64_t b, int64_t *result)
{
    *result = 0;
    switch (op) {
    case SPX_OP_ADD:
        return spx_int_add(a, b, result);
    case SPX_OP_SUB:
        return spx_int_sub(a, b, result);
    case SPX_OP_MUL:
        return spx_int_mul(a, b, result);
    case SPX_OP_DIV:
        return spx_int_div(a, b, result);
    case SPX_OP_REM:
        return spx_int_rem(a, b, result);
    case SPX_OP_BIT_OR:
        *result = a | b;
        return SPX_INT_OK;
    case SPX_OP_BIT_XOR:
        *result = a ^ b;
        return SPX_INT_OK;
    case SPX_OP_BIT_AND:
        *result = a & b;
        return SPX_INT_OK;
    case SPX_OP_SHL:
        return spx_int_shl(a, b, result);
    case SPX_OP_SHR:
        return spx_int_shr(a, b, result);
    default:
        return SPX_INT_OK;
    }
}

const char *spx_int_failure_message(spx_int_status_t status, const char *op, int64_t a, int64_t b,
                                    apr_pool_t *pool)
{
    switch (status) {
    case SPX_INT_DIVISION_BY_ZERO:
        return apr_psprintf(pool, "%s by zero: %" PRId64 " %s 0",
                            strcmp(op, "/") == 0 ? "division" : "remainder", a, op);
    case SPX_INT_SHIFT_COUNT:
        return apr_psprintf(pool, "shift count %" PRId64 " out of range 0..63", b);
    case SPX_INT_OVERFLOW:
    case SPX_INT_OK:
        break;
    }
    return apr_psprintf(pool, "integer overflow: %" PRId64 " %s %" PRId64, a, op, b);
}
