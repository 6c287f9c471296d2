/*
 * values_internal.h: what values.c lends the other files of the value model
 * (values_map.c, language v3's map blocks, and the library's rows,
 * spx_library.h), and the map functions values.c calls when a place, a free
 * or a comparison meets a map. Nothing outside the value model includes it.
 */
#ifndef SPX_VALUES_INTERNAL_H
#define SPX_VALUES_INTERNAL_H

#include "spx_values.h"

/* values.c: the size charge of one operation (n / 64 steps in one piece;
 * heap->charged_n = n). */
spx_heap_status_t spx_heap_charge(spx_heap_t *heap, uint64_t *fuel, uint64_t n);
/* values.c: R0521 when the measure plus already plus more passes
 * max_memory. */
spx_heap_status_t spx_heap_memory_allows(spx_heap_t *heap, uint64_t already, uint64_t more);
/* values.c: the measure goes up by bytes (and the peak with it). */
void spx_heap_grow(spx_heap_t *heap, uint64_t bytes);
/* values.c: a new array of count elements, source[0], source[stride], ...,
 * each block among them held once more (keys() and values()): n = count,
 * R0519, R0521. Holds *out. */
spx_heap_status_t spx_array_gather(spx_heap_t *heap, uint64_t *fuel, int elements_are_blocks,
                                   const spx_value_t *source, apr_size_t count, apr_size_t stride,
                                   spx_value_block_t **out);

/* values.c, for the library's rows (spx_library.h): */
/* Fail with code and message (the spec's text, no final period). */
spx_heap_status_t spx_heap_fail_with(spx_heap_t *heap, spx_runtime_code_t code,
                                     const char *message);
/* Before a new block of kind and length: the charge n, its length limit,
 * then memory. */
spx_heap_status_t spx_heap_before_creating(spx_heap_t *heap, uint64_t *fuel, uint64_t n,
                                           spx_block_kind_t kind, uint64_t length);
spx_heap_status_t spx_heap_string_length_allows(spx_heap_t *heap, uint64_t length);
spx_heap_status_t spx_heap_array_length_allows(spx_heap_t *heap, uint64_t length);
/* What a new block of kind and length counts in the measure. */
uint64_t spx_heap_block_bytes(spx_block_kind_t kind, uint64_t length);
/* A new block of kind and length (its memory allowed), one holder. */
spx_value_block_t *spx_heap_new_block(spx_heap_t *heap, spx_block_kind_t kind, uint32_t length);

/* The array a place holds, read, after checking the place's indexes
 * (R0511); nothing copied or charged. */
spx_heap_status_t spx_place_array(spx_heap_t *heap, spx_value_block_t *const *root,
                                  const int64_t *steps, apr_size_t step_count,
                                  const spx_value_block_t **array);
/* Resolve a place holding an array for an edit whose own n is own_n: the
 * copies' lengths and own_n are one charge (rounded once); with grows, the
 * array's length limit and growth's memory are checked and it gets room
 * for one more element. *array is then the slot holding the array, which
 * has one holder. */
spx_heap_status_t spx_place_edit(spx_heap_t *heap, uint64_t *fuel, spx_value_block_t **root,
                                 const int64_t *steps, apr_size_t step_count, uint64_t own_n,
                                 int grows, spx_value_block_t ***array);
/* After the array in *at (one holder) lost an element: storage given back
 * as pop gives it. */
void spx_array_gave_one(spx_heap_t *heap, spx_value_block_t **at);

/* values_map.c: what the measure counts per entry of capacity. */
#define SPX_MAP_ENTRY_BYTES 24u

/* values_map.c: a map step of a place (a key as the place's int64_t step,
 * spx_values.h) as a key value. */
spx_value_t spx_map_step_key(const spx_value_block_t *map, int64_t step);
/* values_map.c: len(k) for a str key, else 0 (a lookup's n). */
uint64_t spx_map_key_n(const spx_value_block_t *map, spx_value_t key);
/* values_map.c: R0522 for key, missing from map. */
spx_heap_status_t spx_map_missing(spx_heap_t *heap, const spx_value_block_t *map, spx_value_t key);
/* values_map.c: a one-level copy of map (one holder, no spare capacity,
 * each block among its keys and values held once more), counted in the
 * measure (already allowed). */
spx_value_block_t *spx_map_copy(spx_heap_t *heap, const spx_value_block_t *map);
/* values_map.c: what inserting one entry into a map of length entries and
 * capacity adds to the measure (the capacity it doubles when full; 0 while
 * there is room). */
uint64_t spx_map_growth_bytes(uint32_t length, uint32_t capacity);
/* values_map.c: R0525 when map cannot take one more entry. */
spx_heap_status_t spx_map_length_allows(spx_heap_t *heap, uint64_t length);
/* values_map.c: key (held once more when a str) and value (consumed)
 * inserted last in the map *slot (one holder; growth allowed already),
 * which may move. */
void spx_map_insert(spx_heap_t *heap, spx_value_block_t **slot, spx_value_t key, spx_value_t value);
/* values_map.c: the entry of key (present) removed from the map *slot (one
 * holder), later entries moved up; storage given back under a quarter of
 * the capacity. */
void spx_map_erase(spx_heap_t *heap, spx_value_block_t **slot, spx_value_t key);
/* values_map.c: the entries after key's (present) in map. */
uint64_t spx_map_entries_after(const spx_heap_t *heap, const spx_value_block_t *map,
                               spx_value_t key);

#endif /* SPX_VALUES_INTERNAL_H */
