/*
 * spx_assert.h: SPX_ASSERT(condition), for an invariant that the code
 * relies on and a comment states ("never reached", "cannot fail", ...).
 *
 * On where SPX_ASSERTIONS is defined (CMakeLists.txt defines it for the
 * sanitizer, valgrind and fuzz builds): a false condition prints
 * "FILE:LINE: assertion failed: CONDITION" on stderr and aborts. Off in the
 * normal and release builds: the condition is not evaluated (so it must have
 * no effect the code needs), but it is still compiled, inside sizeof, so it
 * keeps up with the code it checks.
 */
#ifndef SPX_ASSERT_H
#define SPX_ASSERT_H

#ifdef SPX_ASSERTIONS
#define SPX_ASSERT(condition)                                                                      \
    ((condition) ? (void)0 : spx_assert_failed(__FILE__, __LINE__, #condition))
#else
#define SPX_ASSERT(condition) ((void)sizeof(!(condition)))
#endif

/* Print where an assertion failed, and what it said, on stderr; abort. */
_Noreturn void spx_assert_failed(const char *file, int line, const char *condition);

#endif /* SPX_ASSERT_H */
