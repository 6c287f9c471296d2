/*
 * spx_compiler.h: the one place that asks which compiler builds Semaprax.
 *
 * GNU C (GCC, Clang) offers attributes and builtins that ISO C11 lacks; the
 * code names them only through the macros below, which fall back to plain
 * C11 where the compiler lacks them, so any C11 compiler builds the tree.
 * This is compiler detection (__has_builtin, __GNUC__), not a platform
 * #ifdef: the platform picks nothing here.
 *
 * Define SPX_COMPILER_PORTABLE (-DSPX_COMPILER_PORTABLE=1) to build as a
 * compiler without the GNU extensions would: every macro takes its fallback
 * (tests/platform/test_compiler.c checks the fallbacks this way too).
 *
 *   SPX_PRINTF_FORMAT(format_at, first_at)  after a function's declaration:
 *       its parameter number format_at is a printf format whose arguments
 *       start at parameter number first_at (0: a va_list), so the compiler
 *       checks the callers' arguments. Nothing without GNU C.
 *   SPX_ADD_OVERFLOW(a, b, result), SPX_SUB_OVERFLOW, SPX_MUL_OVERFLOW
 *       int64_t a and b; *result (an int64_t) receives a + b (a - b, a * b)
 *       and the value is 1 when the exact result does not fit in int64_t (then
 *       *result holds it wrapped modulo 2^64, as the GNU builtins leave it),
 *       else 0. __builtin_*_overflow where the compiler has them.
 *   SPX_NOINLINE  before a function's definition: never inlined, so that a
 *       fast path that calls it for its rare cases keeps its own code small
 *       (no registers saved for them). Nothing without GNU C.
 *   SPX_UNREACHABLE()  a statement no run reaches (a switch's default over
 *       every value its code makes): the compiler may leave out the tests
 *       that would lead there, such as a jump table's range check.
 *       Nothing without GNU C: the code after it must then be correct.
 *   SPX_PREFETCH_WRITE(address)
 *       a hint that *address will soon be read and written: its cache line
 *       is fetched ahead (__builtin_prefetch). Never faults, whatever the
 *       address (NULL too); nothing without GNU C.
 */
#ifndef SPX_COMPILER_H
#define SPX_COMPILER_H

#include <stdint.h>

/* --- attributes ---------------------------------------------------------- */

#if defined(__GNUC__) && !defined(SPX_COMPILER_PORTABLE)
#define SPX_PRINTF_FORMAT(format_at, first_at) __attribute__((format(printf, format_at, first_at)))
#else
#define SPX_PRINTF_FORMAT(format_at, first_at)
#endif

#if defined(__GNUC__) && !defined(SPX_COMPILER_PORTABLE)
#define SPX_NOINLINE __attribute__((noinline))
#else
#define SPX_NOINLINE
#endif

#if defined(__GNUC__) && !defined(SPX_COMPILER_PORTABLE)
#define SPX_UNREACHABLE() __builtin_unreachable()
#else
#define SPX_UNREACHABLE() ((void)0)
#endif

#if defined(__GNUC__) && !defined(SPX_COMPILER_PORTABLE)
#define SPX_PREFETCH_WRITE(address) __builtin_prefetch((address), 1)
#else
#define SPX_PREFETCH_WRITE(address) ((void)(address))
#endif

/* --- checked int64_t arithmetic ------------------------------------------- */

/* Whether the GNU overflow builtins are there: asked with __has_builtin
 * where the compiler has it (GCC 10, Clang), else known from the version
 * (GCC 5 brought them). The #if are nested: a compiler without
 * __has_builtin cannot parse a call of it. */
#if !defined(SPX_COMPILER_PORTABLE)
#if defined(__has_builtin)
#if __has_builtin(__builtin_add_overflow) && __has_builtin(__builtin_sub_overflow) &&              \
    __has_builtin(__builtin_mul_overflow)
#define SPX_HAVE_OVERFLOW_BUILTINS 1
#endif
#elif defined(__GNUC__) && __GNUC__ >= 5
#define SPX_HAVE_OVERFLOW_BUILTINS 1
#endif
#endif

/* The fallbacks, always defined (the tests call them directly). The wrapped
 * result is computed on uint64_t, which wraps without overflowing in C, and
 * converted back modulo 2^64 (what C11 leaves to the implementation, and
 * every two's complement one does). */
static inline int spx_add_overflow_portable(int64_t a, int64_t b, int64_t *result)
{
    *result = (int64_t)((uint64_t)a + (uint64_t)b);
    return b > 0 ? a > INT64_MAX - b : a < INT64_MIN - b;
}

static inline int spx_sub_overflow_portable(int64_t a, int64_t b, int64_t *result)
{
    *result = (int64_t)((uint64_t)a - (uint64_t)b);
    return b < 0 ? a > INT64_MAX + b : a < INT64_MIN + b;
}

static inline int spx_mul_overflow_portable(int64_t a, int64_t b, int64_t *result)
{
    *result = (int64_t)((uint64_t)a * (uint64_t)b);
    if (a > 0)
        return b > 0 ? a > INT64_MAX / b : b < INT64_MIN / a;
    if (b > 0)
        return a < INT64_MIN / b;
    return a != 0 && b < INT64_MAX / a; /* both <= 0: the product is >= 0 */
}

#ifdef SPX_HAVE_OVERFLOW_BUILTINS
/* The builtins take any integer types: these identities make every
 * compiler see the same int64_t ones. */
static inline int64_t spx_int64(int64_t value)
{
    return value;
}

static inline int64_t *spx_int64_at(int64_t *result)
{
    return result;
}

#define SPX_ADD_OVERFLOW(a, b, result)                                                             \
    __builtin_add_overflow(spx_int64(a), spx_int64(b), spx_int64_at(result))
#define SPX_SUB_OVERFLOW(a, b, result)                                                             \
    __builtin_sub_overflow(spx_int64(a), spx_int64(b), spx_int64_at(result))
#define SPX_MUL_OVERFLOW(a, b, result)                                                             \
    __builtin_mul_overflow(spx_int64(a), spx_int64(b), spx_int64_at(result))
#else
#define SPX_ADD_OVERFLOW(a, b, result) spx_add_overflow_portable((a), (b), (result))
#define SPX_SUB_OVERFLOW(a, b, result) spx_sub_overflow_portable((a), (b), (result))
#define SPX_MUL_OVERFLOW(a, b, result) spx_mul_overflow_portable((a), (b), (result))
#endif

#endif /* SPX_COMPILER_H */
