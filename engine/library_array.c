/*
 * library_array.c: the array methods of the standard library
 * (spx_library.h): index_of (and so contains), and the methods that write
 * their receiver's place: sort (a stable bottom-up merge sort), reverse,
 * insert and remove. A writing method checks the place's indexes and its
 * own range first, then pays its n and the copies the write forces as one
 * charge (values.c's spx_place_edit), then works on the array, which then
 * has one holder.
 */
#include "spx_library.h"

#include "spx_allocation.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

spx_heap_status_t spx_array_index_of(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *a,
                                     spx_value_t v, int64_t *out)
{
    /* n: 1 per element compared, up to and including the first equal one,
     * plus what comparing it examines; the work stops as soon as n / 64
     * exceeds the fuel (then the charge below fails). */
    uint64_t n = 0;
    int64_t found = -1;
    for (uint32_t k = 0; k < a->length && n / 64 <= *fuel; k++) {
        n++;
        if (!a->elements_are_blocks) {
            if (a->slots[k].i == v.i) {
                found = k;
                break;
            }
            continue;
        }
        if (n / 64 > *fuel)
            break;
        uint64_t left = *fuel - n / 64, examined = 0;
        int equal = 0;
        spx_heap_status_t status =
            spx_values_equal(heap, &left, a->slots[k].b, v.b, &equal, &examined);
        n = examined > UINT64_MAX - n ? UINT64_MAX : n + examined;
        if (status == SPX_HEAP_INTERRUPTED)
            return status;
        if (status == SPX_HEAP_OUT_OF_FUEL) /* n / 64 is over the fuel now */
            break;
        if (equal) {
            found = k;
            break;
        }
    }
    spx_heap_status_t status = spx_heap_charge(heap, fuel, n);
    if (status == SPX_HEAP_OK)
        *out = found;
    return status;
}

/* ---- sort ------------------------------------------------------------------- */

/* The least c >= 0 with 2^c >= k. */
static uint64_t ceiling_log2(uint64_t k)
{
    uint64_t c = 0;
    while (c < 64 && ((uint64_t)1 << c) < k)
        c++;
    return c;
}

/* Whether x sorts after y: ints (and bools) by value, strings bytewise, a
 * proper prefix first. */
static int after(int strings, spx_value_t x, spx_value_t y)
{
    if (!strings)
        return x.i > y.i;
    uint32_t shorter = x.b->length < y.b->length ? x.b->length : y.b->length;
    int order = shorter ? memcmp(spx_str_bytes(x.b), spx_str_bytes(y.b), shorter) : 0;
    return order > 0 || (order == 0 && x.b->length > y.b->length);
}

/* Sort slots[0..k) stably: bottom-up merging of runs of width 1, 2, 4,
 * ... through scratch (outside the measure), ceil(log2 k) levels. */
static void merge_sort(spx_value_t *slots, apr_size_t k, int strings)
{
    if (k < 2)
        return;
    spx_value_t *scratch = spx_allocate(k * sizeof(spx_value_t));
    spx_value_t *from = slots, *to = scratch;
    for (apr_size_t width = 1; width < k; width *= 2) {
        for (apr_size_t left = 0; left < k; left += 2 * width) {
            apr_size_t middle = left + width < k ? left + width : k;
            apr_size_t right = middle + width < k ? middle + width : k;
            apr_size_t i = left, j = middle, o = left;
            while (i < middle && j < right) /* equal: the left run's first (stable) */
                to[o++] = after(strings, from[i], from[j]) ? from[j++] : from[i++];
            while (i < middle)
                to[o++] = from[i++];
            while (j < right)
                to[o++] = from[j++];
        }
        spx_value_t *swap = from;
        from = to;
        to = swap;
    }
    if (from != slots)
        memcpy(slots, from, k * sizeof(spx_value_t));
    free(scratch);
}

spx_heap_status_t spx_array_sort(spx_heap_t *heap, uint64_t *fuel, spx_value_block_t **root,
                                 const int64_t *steps, apr_size_t step_count)
{
    const spx_value_block_t *a = NULL;
    spx_heap_status_t status = spx_place_array(heap, root, steps, step_count, &a);
    if (status != SPX_HEAP_OK)
        return status;
    /* n = ceil(log2 k) * (k + B), B the elements' bytes (strings only). */
    uint64_t k = a->length, levels = ceiling_log2(k), bytes = 0;
    for (uint32_t i = 0; levels && a->elements_are_blocks && i < a->length; i++)
        bytes += a->slots[i].b->length;
    uint64_t n = levels && k + bytes > UINT64_MAX / levels ? UINT64_MAX : levels * (k + bytes);
    spx_value_block_t **at = NULL;
    status = spx_place_edit(heap, fuel, root, steps, step_count, n, 0, &at);
    if (status == SPX_HEAP_OK)
        merge_sort((*at)->slots, (*at)->length, (*at)->elements_are_blocks);
    return status;
}

spx_heap_status_t spx_array_reverse(spx_heap_t *heap, uint64_t *fuel, spx_value_block_t **root,
                                    const int64_t *steps, apr_size_t step_count)
{
    const spx_value_block_t *a = NULL;
    spx_heap_status_t status = spx_place_array(heap, root, steps, step_count, &a);
    spx_value_block_t **at = NULL;
    if (status == SPX_HEAP_OK)
        status = spx_place_edit(heap, fuel, root, steps, step_count, a->length, 0, &at);
    if (status != SPX_HEAP_OK)
        return status;
    spx_value_t *slots = (*at)->slots;
    for (uint32_t i = 0, j = (*at)->length; i + 1 < j; i++, j--) {
        spx_value_t swap = slots[i];
        slots[i] = slots[j - 1];
        slots[j - 1] = swap;
    }
    return SPX_HEAP_OK;
}

/* R0511 for insert (or remove): at outside 0..length (0..length - 1). */
static spx_heap_status_t position_allows(spx_heap_t *heap, int64_t at, uint32_t length, int insert)
{
    if (at >= 0 && (insert ? (uint64_t)at <= length : (uint64_t)at < length))
        return SPX_HEAP_OK;
    char message[128];
    snprintf(message, sizeof(message), "index %" PRId64 " out of range for %s length %" PRIu32, at,
             insert ? "insert into" : "remove from", length);
    return spx_heap_fail_with(heap, SPX_R0511, message);
}

spx_heap_status_t spx_array_insert(spx_heap_t *heap, uint64_t *fuel, spx_value_block_t **root,
                                   const int64_t *steps, apr_size_t step_count, int64_t at,
                                   spx_value_t value)
{
    const spx_value_block_t *a = NULL;
    spx_heap_status_t status = spx_place_array(heap, root, steps, step_count, &a);
    if (status == SPX_HEAP_OK)
        status = position_allows(heap, at, a->length, 1);
    spx_value_block_t **slot = NULL;
    if (status == SPX_HEAP_OK)
        status = spx_place_edit(heap, fuel, root, steps, step_count,
                                (uint64_t)a->length - (uint64_t)at, 1, &slot);
    if (status != SPX_HEAP_OK)
        return status;
    spx_value_block_t *array = *slot;
    memmove(array->slots + at + 1, array->slots + at,
            (array->length - (apr_size_t)at) * sizeof(spx_value_t));
    array->slots[at] = value;
    array->length++;
    return SPX_HEAP_OK;
}

spx_heap_status_t spx_array_remove(spx_heap_t *heap, uint64_t *fuel, spx_value_block_t **root,
                                   const int64_t *steps, apr_size_t step_count, int64_t at,
                                   spx_value_t *out)
{
    const spx_value_block_t *a = NULL;
    spx_heap_status_t status = spx_place_array(heap, root, steps, step_count, &a);
    if (status == SPX_HEAP_OK)
        status = position_allows(heap, at, a->length, 0);
    spx_value_block_t **slot = NULL;
    if (status == SPX_HEAP_OK)
        status = spx_place_edit(heap, fuel, root, steps, step_count,
                                (uint64_t)a->length - (uint64_t)at - 1, 0, &slot);
    if (status != SPX_HEAP_OK)
        return status;
    spx_value_block_t *array = *slot;
    *out = array->slots[at];
    memmove(array->slots + at, array->slots + at + 1,
            (array->length - (apr_size_t)at - 1) * sizeof(spx_value_t));
    array->length--;
    spx_array_gave_one(heap, slot);
    return SPX_HEAP_OK;
}
