/*
 * fuzz_generator.h: the generator of well-typed Semaprax (language v3)
 * programs that fuzz_interpreter runs and fuzz_show_program prints. Input
 * bytes are its choices; running out of bytes makes every later choice the
 * first one, which always ends what is being generated, so every input
 * gives a complete program.
 *
 * A program is two modules: "app", which imports "lib", whose exported
 * consts it reads as lib.C<n>.
 *
 * The programs check themselves: assertions whose message starts with
 * SPX_FUZZ_INVARIANT must never fail (value semantics, moves, for
 * snapshots, `==` agreeing with the values compared, library calls and map
 * order against the generator's own model of the values); the fuzz target
 * counts such a failure as a broken invariant. Every other failure is the
 * program's own.
 */
#ifndef SPX_FUZZ_GENERATOR_H
#define SPX_FUZZ_GENERATOR_H

#include "project_internal.h" /* white-box: the project's own fields */
#include "spx_vm.h"

#include <apr_pools.h>
#include <stddef.h>
#include <stdint.h>

/* The start of the message of the program's self-checking assertions. */
#define SPX_FUZZ_INVARIANT "spx-fuzz invariant"

/* At most this many functions, so at most this many tests. */
#define SPX_FUZZ_MAX_TESTS 6

typedef struct spx_fuzz_program_t {
    const char *text;                      /* the source of module "app" (app.spx) */
    const char *lib_text;                  /* of module "lib" (lib.spx): consts app reads */
    int test_count;                        /* functions fn() -> int: at least app.f0 */
    const char *tests[SPX_FUZZ_MAX_TESTS]; /* their names, "app.f0" */
} spx_fuzz_program_t;

/* The program of data's choices, allocated in pool. */
void spx_fuzz_generate(const uint8_t *data, size_t size, apr_pool_t *pool,
                       spx_fuzz_program_t *program);

/* fuzz_interpreter's reading of an input: the first five bytes choose the
 * limits (fuel 1..20,000, output 0..255 bytes, call depth 1..64, and
 * max_memory: the default, or 64..6,160 bytes so that R0521 happens), the
 * rest are the generator's choices. 0 for an input too short to read. */
int spx_fuzz_interpreter_input(const uint8_t *data, size_t size, apr_pool_t *pool,
                               spx_run_limits_t *limits, spx_fuzz_program_t *program);

/* Phase A of the program's two modules (spx_project_build_texts). */
spx_project_t *spx_fuzz_build(const spx_fuzz_program_t *program, apr_pool_t *pool);

#endif /* SPX_FUZZ_GENERATOR_H */
