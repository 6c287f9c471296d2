/*
 * library.c: the interpreter's one entry into the standard library
 * (spx_library_call, spx_library.h): each method row of spx_builtins.h to
 * its C function, with its operands; and the int rows abs, min and max.
 */
#include "spx_library.h"

#include <inttypes.h>
#include <stdio.h>

spx_heap_status_t spx_int_abs(spx_heap_t *heap, uint64_t *fuel, int64_t x, int64_t *out)
{
    if (x == INT64_MIN) {
        char message[64];
        snprintf(message, sizeof(message), "integer overflow: abs(%" PRId64 ")", x);
        return spx_heap_fail_with(heap, SPX_R0502, message);
    }
    spx_heap_status_t status = spx_heap_charge(heap, fuel, 0);
    if (status == SPX_HEAP_OK)
        *out = x < 0 ? -x : x;
    return status;
}

spx_heap_status_t spx_int_min_max(spx_heap_t *heap, uint64_t *fuel, int64_t x, int64_t y, int max,
                                  int64_t *out)
{
    spx_heap_status_t status = spx_heap_charge(heap, fuel, 0);
    if (status == SPX_HEAP_OK)
        *out = (max ? x >= y : x <= y) ? x : y;
    return status;
}

int spx_library_writes(spx_builtin_t method)
{
    return method == SPX_BUILTIN_SORT || method == SPX_BUILTIN_REVERSE ||
           method == SPX_BUILTIN_INSERT || method == SPX_BUILTIN_REMOVE;
}

spx_heap_status_t spx_library_call(spx_heap_t *heap, uint64_t *fuel, spx_builtin_t method,
                                   const spx_library_place_t *place, const spx_value_t *operands,
                                   spx_value_t *out)
{
    const spx_value_t *o = operands;
    switch (method) {
    case SPX_BUILTIN_SPLIT:
        return spx_str_split(heap, fuel, o[0].b, o[1].b, &out->b);
    case SPX_BUILTIN_JOIN:
        return spx_str_join(heap, fuel, o[0].b, o[1].b, &out->b);
    case SPX_BUILTIN_FIND:
        return spx_str_find(heap, fuel, o[0].b, o[1].b, &out->i);
    case SPX_BUILTIN_CONTAINS: {
        int64_t at = -1;
        spx_heap_status_t status = o[0].b->kind == SPX_BLOCK_STR
                                       ? spx_str_find(heap, fuel, o[0].b, o[1].b, &at)
                                       : spx_array_index_of(heap, fuel, o[0].b, o[1], &at);
        out->i = at >= 0;
        return status;
    }
    case SPX_BUILTIN_STARTS_WITH:
        return spx_str_starts_with(heap, fuel, o[0].b, o[1].b, &out->i);
    case SPX_BUILTIN_ENDS_WITH:
        return spx_str_ends_with(heap, fuel, o[0].b, o[1].b, &out->i);
    case SPX_BUILTIN_TRIM:
        return spx_str_trim(heap, fuel, o[0].b, &out->b);
    case SPX_BUILTIN_LOWER:
    case SPX_BUILTIN_UPPER:
        return spx_str_case(heap, fuel, o[0].b, method == SPX_BUILTIN_UPPER, &out->b);
    case SPX_BUILTIN_REPLACE:
        return spx_str_replace(heap, fuel, o[0].b, o[1].b, o[2].b, &out->b);
    case SPX_BUILTIN_REPEAT:
        return spx_str_repeat(heap, fuel, o[0].b, o[1].i, &out->b);
    case SPX_BUILTIN_INDEX_OF:
        return spx_array_index_of(heap, fuel, o[0].b, o[1], &out->i);
    case SPX_BUILTIN_SORT:
        return spx_array_sort(heap, fuel, place->root, place->steps, place->step_count);
    case SPX_BUILTIN_REVERSE:
        return spx_array_reverse(heap, fuel, place->root, place->steps, place->step_count);
    case SPX_BUILTIN_INSERT:
        return spx_array_insert(heap, fuel, place->root, place->steps, place->step_count, o[0].i,
                                o[1]);
    case SPX_BUILTIN_REMOVE:
        return spx_array_remove(heap, fuel, place->root, place->steps, place->step_count, o[0].i,
                                out);
    case SPX_BUILTIN_ABS:
        return spx_int_abs(heap, fuel, o[0].i, &out->i);
    case SPX_BUILTIN_MIN:
    case SPX_BUILTIN_MAX:
        return spx_int_min_max(heap, fuel, o[0].i, o[1].i, method == SPX_BUILTIN_MAX, &out->i);
    default:
        SPX_ASSERT(!"not a library method");
        return SPX_HEAP_FAILED;
    }
}
