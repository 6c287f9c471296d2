/*
 * spx_library.h: the methods of the standard library at run time
 * (docs/language.md, "Standard library"): one C function per row, each
 * taking the fuel like values.c's operations (spx_values.h), and the one
 * entry the interpreter dispatches through (spx_library_call). Private to
 * the engine.
 *
 * Each row checks its arguments' ranges first (R0511, R0523, R0524), then
 * pays floor(n / 64) for the row's n in one piece (SPX_HEAP_OUT_OF_FUEL,
 * leaving *fuel as it was, when it cannot), then the length limits (R0506,
 * R0519), then memory (R0521); a failure changes no value. The call's own
 * step is the interpreter's. Every search runs in linear time (Two-Way), and
 * the work of every row is O(n + 1) for its n.
 *
 * Ownership as in spx_values.h: operands are read (the receiver first),
 * except insert's value, which is consumed on success; a block result is
 * held by the caller.
 */
#ifndef SPX_LIBRARY_H
#define SPX_LIBRARY_H

#include "spx_ast.h"
#include "values_internal.h"

/* ---- the rows -------------------------------------------------------------- */

/* str rows; n as docs/language.md's table says. */
spx_heap_status_t spx_str_split(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *s,
                                const spx_value_block_t *separator, spx_value_block_t **out);
spx_heap_status_t spx_str_join(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *parts,
                               const spx_value_block_t *separator, spx_value_block_t **out);
spx_heap_status_t spx_str_find(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *s,
                               const spx_value_block_t *t, int64_t *out);
spx_heap_status_t spx_str_starts_with(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *s,
                                      const spx_value_block_t *t, int64_t *out);
spx_heap_status_t spx_str_ends_with(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *s,
                                    const spx_value_block_t *t, int64_t *out);
spx_heap_status_t spx_str_trim(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *s,
                               spx_value_block_t **out);
/* lower (upper 0) or upper (upper 1). */
spx_heap_status_t spx_str_case(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *s,
                               int upper, spx_value_block_t **out);
spx_heap_status_t spx_str_replace(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *s,
                                  const spx_value_block_t *old, const spx_value_block_t *new_text,
                                  spx_value_block_t **out);
spx_heap_status_t spx_str_repeat(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *s,
                                 int64_t count, spx_value_block_t **out);

/* array rows that read; v is an element value. */
spx_heap_status_t spx_array_index_of(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *a,
                                     spx_value_t v, int64_t *out);

/* array rows that write a place (its root and steps, as spx_place_push). */
spx_heap_status_t spx_array_sort(spx_heap_t *heap, uint64_t *fuel, spx_value_block_t **root,
                                 const int64_t *steps, apr_size_t step_count);
spx_heap_status_t spx_array_reverse(spx_heap_t *heap, uint64_t *fuel, spx_value_block_t **root,
                                    const int64_t *steps, apr_size_t step_count);
/* Consumes value on success. */
spx_heap_status_t spx_array_insert(spx_heap_t *heap, uint64_t *fuel, spx_value_block_t **root,
                                   const int64_t *steps, apr_size_t step_count, int64_t at,
                                   spx_value_t value);
/* *out holds the element removed. */
spx_heap_status_t spx_array_remove(spx_heap_t *heap, uint64_t *fuel, spx_value_block_t **root,
                                   const int64_t *steps, apr_size_t step_count, int64_t at,
                                   spx_value_t *out);

/* int rows (n 0: they take the fuel as every row does). */
spx_heap_status_t spx_int_abs(spx_heap_t *heap, uint64_t *fuel, int64_t x, int64_t *out);
/* x.min(y) (max 0) or x.max(y) (max 1). */
spx_heap_status_t spx_int_min_max(spx_heap_t *heap, uint64_t *fuel, int64_t x, int64_t y, int max,
                                  int64_t *out);

/* ---- the interpreter's entry ------------------------------------------------ */

/* A writing method's place: the variable's register and the steps. */
typedef struct spx_library_place_t {
    spx_value_block_t **root;
    const int64_t *steps;
    apr_size_t step_count;
} spx_library_place_t;

/* The method row method (a METHOD row of spx_builtins.h other than push
 * and pop) on operands[0..): the receiver then the arguments, ints in .i
 * and blocks in .b; a writing method's receiver is place instead (then
 * operands are its arguments alone). *out gets the result (nothing for a
 * unit method). */
spx_heap_status_t spx_library_call(spx_heap_t *heap, uint64_t *fuel, spx_builtin_t method,
                                   const spx_library_place_t *place, const spx_value_t *operands,
                                   spx_value_t *out);

/* Whether method writes its receiver's place (sort, reverse, insert, remove
 * on an array). */
int spx_library_writes(spx_builtin_t method);

#endif /* SPX_LIBRARY_H */
