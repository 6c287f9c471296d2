/*
 * spx_program.h: building the compiled program during Phase A, inside the
 * engine (compile.c builds, project.c and envelope.c call). The run side
 * of the program, public, is spx_vm.h.
 */
#ifndef SPX_PROGRAM_H
#define SPX_PROGRAM_H

#include "spx_ast.h"
#include "spx_vm.h"

/* The program is built during Phase A, one module at a time, while the
 * module's checked bodies are still held (docs/phase-a.md): every function
 * is compiled, except that one over a bytecode limit (SPX_LIMIT_FUNCTION_*)
 * is marked too large, and only a run that can reach it fails. Tables live
 * in pool, code and constants in arena. */
typedef struct spx_program_builder_t spx_program_builder_t;
spx_program_builder_t *spx_program_builder_make(apr_pool_t *pool, spx_arena_t *arena);
void spx_program_add_module(spx_program_builder_t *builder, const spx_module_t *module);
/* Once every module is added. */
spx_program_t *spx_program_finish(spx_program_builder_t *builder);

/* Whether runs of the NULL-terminated "module.function" roots reach only
 * compiled functions: APR_EINVAL with *message ("function 'm.f' is too
 * large to run") otherwise. */
apr_status_t spx_program_check_roots(const spx_program_t *program, const char *const *roots,
                                     apr_pool_t *pool, const char **message);

/* The index of the program's function for the AST-free name "module.function",
 * or -1. */
long spx_program_find(const spx_program_t *program, const char *qualified);

#endif /* SPX_PROGRAM_H */
