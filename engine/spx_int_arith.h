/*
 * spx_int_arith.h: the integer semantics of Semaprax (docs/language.md,
 * "Integers"), the one copy that the checker's const evaluation
 * (checker_consts.c) and the interpreter (vm.c) both compute with: int is
 * int64_t; + - * and unary - fail on overflow; / truncates toward zero and
 * % has the sign of the dividend, both fail on a zero divisor, MIN / -1
 * overflows and MIN % -1 is 0; a << n is a * 2^n and fails when that
 * leaves the range; a >> n is floor(a / 2^n); both need 0 <= n <= 63; & | ^
 * ~ work on the two's complement bits. The operations the interpreter runs
 * are static inline, so each instruction costs what it did when vm.c
 * spelled it out; int_arith.c adds the operator dispatch the checker needs
 * and the failure messages both share.
 */
#ifndef SPX_INT_ARITH_H
#define SPX_INT_ARITH_H

#include "spx_ast.h"
#include "spx_compiler.h"

#include <apr_pools.h>
#include <stdint.h>

/* What an operation gave: a result, or why it has none. */
typedef enum spx_int_status_t {
    SPX_INT_OK = 0,
    SPX_INT_OVERFLOW,         /* the exact result leaves int64_t */
    SPX_INT_DIVISION_BY_ZERO, /* a / 0 and a % 0 */
    SPX_INT_SHIFT_COUNT       /* a << n or a >> n with n outside 0..63 */
} spx_int_status_t;

/* The message of -MIN, at check time and at run time. */
#define SPX_INT_NEGATION_OVERFLOW "integer overflow: -(-9223372036854775808)"

static inline spx_int_status_t spx_int_add(int64_t a, int64_t b, int64_t *result)
{
    return SPX_ADD_OVERFLOW(a, b, result) ? SPX_INT_OVERFLOW : SPX_INT_OK;
}

static inline spx_int_status_t spx_int_sub(int64_t a, int64_t b, int64_t *result)
{
    return SPX_SUB_OVERFLOW(a, b, result) ? SPX_INT_OVERFLOW : SPX_INT_OK;
}

static inline spx_int_status_t spx_int_mul(int64_t a, int64_t b, int64_t *result)
{
    return SPX_MUL_OVERFLOW(a, b, result) ? SPX_INT_OVERFLOW : SPX_INT_OK;
}

static inline spx_int_status_t spx_int_div(int64_t a, int64_t b, int64_t *result)
{
    if (b == 0)
        return SPX_INT_DIVISION_BY_ZERO;
    if (b == -1 && a == INT64_MIN)
        return SPX_INT_OVERFLOW;
    *result = a / b;
    return SPX_INT_OK;
}

static inline spx_int_status_t spx_int_rem(int64_t a, int64_t b, int64_t *result)
{
    if (b == 0)
        return SPX_INT_DIVISION_BY_ZERO;
    /* MIN % -1 is 0; C leaves it undefined, so it is not computed */
    *result = b == -1 ? 0 : a % b;
    return SPX_INT_OK;
}

static inline spx_int_status_t spx_int_neg(int64_t a, int64_t *result)
{
    if (a == INT64_MIN)
        return SPX_INT_OVERFLOW;
    *result = -a;
    return SPX_INT_OK;
}

/* floor(a / 2^n) for 0 <= n <= 63, without C's implementation-defined
 * shift of a negative number. */
static inline int64_t spx_int_floor_shift(int64_t a, int64_t n)
{
    return a >= 0 ? (int64_t)((uint64_t)a >> n) : (int64_t) ~(~(uint64_t)a >> n);
}

static inline spx_int_status_t spx_int_shr(int64_t a, int64_t n, int64_t *result)
{
    if (n < 0 || n > 63)
        return SPX_INT_SHIFT_COUNT;
    *result = spx_int_floor_shift(a, n);
    return SPX_INT_OK;
}

/* a * 2^n: the bits shifted on unsigned (which wraps), and the product
 * exact exactly when shifting back gives a again. */
static inline spx_int_status_t spx_int_shl(int64_t a, int64_t n, int64_t *result)
{
    if (n < 0 || n > 63)
        return SPX_INT_SHIFT_COUNT;
    int64_t shifted = (int64_t)((uint64_t)a << n);
    if (spx_int_floor_shift(shifted, n) != a)
        return SPX_INT_OVERFLOW;
    *result = shifted;
    return SPX_INT_OK;
}

/* a op b for the binary operators that compute an int (+ - * / % | ^ & <<
 * >>); any other op is SPX_INT_OK with *result 0, never asked for. */
spx_int_status_t spx_int_apply(spx_operator_t op, int64_t a, int64_t b, int64_t *result);

/* The message of a failed a op b (op as written: "+", "<<"), the same at
 * check time (E0415) and at run time: "integer overflow: 1 << 63",
 * "division by zero: 7 / 0", "remainder by zero: 7 % 0", "shift count 64
 * out of range 0..63". */
const char *spx_int_failure_message(spx_int_status_t status, const char *op, int64_t a, int64_t b,
                                    apr_pool_t *pool);

#endif /* SPX_INT_ARITH_H */
