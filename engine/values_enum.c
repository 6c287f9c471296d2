/*
 * values_enum.c: language v3's enum values (spx_values.h, "enums"): a
 * variant with payloads is a block of kind SPX_BLOCK_ENUM whose slots are
 * its payloads (16 + 8 per payload in the measure); a variant without
 * payloads is the constant spx_enum_constant, no block, counting 0. The
 * constructor's size charge, the match's, and the head of == on enums (1
 * for the variant; the payloads are compared as a struct's fields by
 * spx_values_equal).
 */
#include "spx_values.h"

#include <string.h>

spx_heap_status_t spx_enum_block(spx_heap_t *heap, uint64_t *fuel, const spx_variant_shape_t *shape,
                                 spx_value_block_t **out)
{
    uint32_t count = shape->payload_count;
    SPX_ASSERT(count >= 1);
    spx_heap_status_t status =
        spx_block_make_checked(heap, fuel, count, SPX_BLOCK_ENUM, count, out);
    if (status != SPX_HEAP_OK)
        return status;
    (*out)->of.variant = shape;
    (*out)->variant = shape->variant;
    for (uint32_t k = 0; k < count; k++) /* what a free must look through */
        (*out)->elements_are_blocks |= shape->payload_is_block[k];
    return SPX_HEAP_OK;
}

spx_heap_status_t spx_enum_make(spx_heap_t *heap, uint64_t *fuel, const spx_variant_shape_t *shape,
                                const spx_value_t *payloads, spx_value_block_t **out)
{
    spx_heap_status_t status = spx_enum_block(heap, fuel, shape, out);
    if (status == SPX_HEAP_OK)
        memcpy((*out)->slots, payloads, shape->payload_count * sizeof(spx_value_t));
    return status;
}

int spx_enum_heads_differ(const spx_value_block_t *a, const spx_value_block_t *b, uint64_t *n,
                          int *same)
{
    if (!spx_value_is_constant(a) && a->kind != SPX_BLOCK_ENUM)
        return 0;
    (*n)++;
    if (spx_enum_variant(a) != spx_enum_variant(b)) {
        *same = 0;
        return 1;
    }
    return spx_value_is_constant(a); /* one variant: its payloads are compared next */
}
