/*
 * test_compiler.c: platform/spx_compiler.h's checked int64_t arithmetic on
 * edge values: the macros (the GNU builtins where the compiler has them)
 * and the portable fallbacks, which a compiler without them builds (and
 * SPX_COMPILER_PORTABLE forces), called directly, against a reference that
 * works on 32-bit halves and against known answers.
 */
#include "spx_compiler.h"
#include "spx_test.h"

#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

static const int64_t edges[] = {
    INT64_MIN,
    INT64_MIN + 1,
    INT64_MIN / 2,
    -3037000500,
    -3037000499,
    -((int64_t)1 << 32),
    -((int64_t)1 << 31),
    -3,
    -2,
    -1,
    0,
    1,
    2,
    3,
    (int64_t)1 << 31,
    (int64_t)1 << 32,
    3037000499,
    3037000500,
    INT64_MAX / 2,
    INT64_MAX / 2 + 1,
    INT64_MAX - 1,
    INT64_MAX,
};
#define EDGE_COUNT (sizeof(edges) / sizeof(edges[0]))

typedef int (*checked_t)(int64_t a, int64_t b, int64_t *result);

/* The magnitude of a as uint64_t (2^63 for INT64_MIN). */
static uint64_t magnitude(int64_t a)
{
    return a < 0 ? (uint64_t)0 - (uint64_t)a : (uint64_t)a;
}

/* Whether a * b fits in int64_t: the 128-bit product of the magnitudes
 * from 32-bit halves, against 2^63 - 1 (positive) or 2^63 (negative). */
static int reference_mul_fits(int64_t a, int64_t b)
{
    uint64_t x = magnitude(a), y = magnitude(b);
    uint64_t x_low = x & 0xffffffffu, x_high = x >> 32;
    uint64_t y_low = y & 0xffffffffu, y_high = y >> 32;
    uint64_t low = x_low * y_low;
    uint64_t middle_1 = x_high * y_low, middle_2 = x_low * y_high;
    uint64_t high = x_high * y_high;
    uint64_t carry = ((low >> 32) + (middle_1 & 0xffffffffu) + (middle_2 & 0xffffffffu)) >> 32;
    high += (middle_1 >> 32) + (middle_2 >> 32) + carry;
    uint64_t product_low = x * y; /* the low 64 bits, modulo 2^64 */
    if (high != 0)
        return 0;
    int negative = (a < 0) != (b < 0);
    return negative ? product_low <= (uint64_t)1 << 63 : product_low <= (uint64_t)INT64_MAX;
}

/* The wrapped result and whether the exact one fits, worked out another way:
 * a sum overflows when both operands have the sign the wrapped sum lacks. */
static void reference(char op, int64_t a, int64_t b, int64_t *wrapped, int *overflow)
{
    uint64_t x = (uint64_t)a, y = (uint64_t)b;
    uint64_t r = op == '+' ? x + y : op == '-' ? x - y : x * y;
    *wrapped = (int64_t)r;
    if (op == '+')
        *overflow = ((x ^ r) & (y ^ r)) >> 63;
    else if (op == '-')
        *overflow = ((x ^ y) & (x ^ r)) >> 63;
    else
        *overflow = !reference_mul_fits(a, b);
}

/* Every pair of edge values through checked, against the reference. */
static void check_all_pairs(char op, checked_t checked)
{
    unsigned mismatches = 0;
    for (size_t i = 0; i < EDGE_COUNT; i++)
        for (size_t j = 0; j < EDGE_COUNT; j++) {
            int64_t expected = 0, got = 0;
            int expected_overflow = 0;
            reference(op, edges[i], edges[j], &expected, &expected_overflow);
            int overflow = checked(edges[i], edges[j], &got);
            if (overflow != expected_overflow || got != expected) {
                if (mismatches++ < 5)
                    fprintf(stderr,
                            "\n  %" PRId64 " %c %" PRId64 ": overflow %d (expected %d), %" PRId64
                            " (expected %" PRId64 ")",
                            edges[i], op, edges[j], overflow, expected_overflow, got, expected);
            }
        }
    CU_ASSERT_EQUAL(mismatches, 0);
}

static int macro_add(int64_t a, int64_t b, int64_t *result)
{
    return SPX_ADD_OVERFLOW(a, b, result);
}

static int macro_sub(int64_t a, int64_t b, int64_t *result)
{
    return SPX_SUB_OVERFLOW(a, b, result);
}

static int macro_mul(int64_t a, int64_t b, int64_t *result)
{
    return SPX_MUL_OVERFLOW(a, b, result);
}

static void test_all_pairs(void)
{
    check_all_pairs('+', macro_add);
    check_all_pairs('-', macro_sub);
    check_all_pairs('*', macro_mul);
    check_all_pairs('+', spx_add_overflow_portable);
    check_all_pairs('-', spx_sub_overflow_portable);
    check_all_pairs('*', spx_mul_overflow_portable);
}

/* Known answers, so that the reference itself is checked. */
static void check_known(checked_t checked, int64_t a, int64_t b, int overflow, int64_t result)
{
    int64_t got = 0;
    CU_ASSERT_EQUAL(checked(a, b, &got), overflow);
    CU_ASSERT_EQUAL(got, result);
}

static void check_known_answers(checked_t add, checked_t sub, checked_t mul)
{
    check_known(add, INT64_MAX, 1, 1, INT64_MIN);
    check_known(add, INT64_MAX, 0, 0, INT64_MAX);
    check_known(add, INT64_MIN, -1, 1, INT64_MAX);
    check_known(add, INT64_MIN, INT64_MAX, 0, -1);
    check_known(add, INT64_MIN, INT64_MIN, 1, 0);
    check_known(sub, INT64_MIN, 1, 1, INT64_MAX);
    check_known(sub, 0, INT64_MIN, 1, INT64_MIN);
    check_known(sub, -1, INT64_MIN, 0, INT64_MAX);
    check_known(sub, INT64_MAX, -1, 1, INT64_MIN);
    check_known(sub, -2, INT64_MAX, 1, INT64_MAX);
    check_known(sub, -1, INT64_MAX, 0, INT64_MIN);
    check_known(mul, INT64_MIN, -1, 1, INT64_MIN);
    check_known(mul, -1, INT64_MIN, 1, INT64_MIN);
    check_known(mul, INT64_MIN, 1, 0, INT64_MIN);
    check_known(mul, INT64_MAX, -1, 0, -INT64_MAX);
    check_known(mul, 3037000499, 3037000499, 0, 9223372030926249001);
    check_known(mul, 3037000500, 3037000500, 1, -9223372036709301616);
    check_known(mul, -3037000500, 3037000500, 1, 9223372036709301616);
    check_known(mul, (int64_t)1 << 32, (int64_t)1 << 31, 1, INT64_MIN);
    check_known(mul, -((int64_t)1 << 32), (int64_t)1 << 31, 0, INT64_MIN);
    check_known(mul, INT64_MIN / 2, 2, 0, INT64_MIN);
    check_known(mul, INT64_MIN / 2, -2, 1, INT64_MIN);
    check_known(mul, 0, INT64_MIN, 0, 0);
    check_known(mul, INT64_MIN, 0, 0, 0);
}

static void test_known_answers(void)
{
    check_known_answers(macro_add, macro_sub, macro_mul);
    check_known_answers(spx_add_overflow_portable, spx_sub_overflow_portable,
                        spx_mul_overflow_portable);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"every pair of edge values, macros and fallbacks", test_all_pairs},
        {"known answers, macros and fallbacks", test_known_answers},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("compiler", tests);
}
