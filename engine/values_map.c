/*
 * values_map.c: the map blocks of language v3 (spx_values.h, "maps";
 * docs/execution.md, "Maps"): literals, lookups, inserts and removals in
 * insertion order, one-level copies, keys() and values(), and R0522 (its
 * key rendered by the one renderer of values, render.h).
 *
 * A map block is one allocation: the header, then capacity entries of two
 * slots (key, value) in insertion order, then each entry's hash (32 bits of
 * its key's SipHash-1-3 under the heap's random key, spx_siphash.h; a str
 * key's with its top bit set, kept in the string's block too), then
 * the index (its slot count - 1 kept in the header's index_mask): a power
 * of two at least twice the capacity of slots, each two
 * uint32_t: 0 (empty) or 1 + the position of an entry, and that entry's
 * hash again (so a probe compares hashes without reading the entries or the
 * hashes), probed linearly from the hash. The entries' order is the map's, so iteration, keys(),
 * values() and
 * == read the entries, never the index: nothing observable depends on the
 * hash. Copying or growing a map moves the stored hashes and never hashes a
 * key again; removing an entry shifts the later ones up and fixes their
 * index slots (its n counts them). The measure counts 32 + 24 per entry of
 * capacity (the specification's 24: key, value and a share of the index);
 * growth doubles the capacity (4 at first), and storage goes back, halved,
 * once the length is under a quarter of a capacity over 16, as for arrays.
 * Each map keeps a hint, the position its last lookup or insert found or
 * its last "for k in m" step gave, tried before the index (locate):
 * m.has(k) then m[k] hashes k once, and m[k] in a "for k in m" loop not
 * at all; a map
 * of at most SPX_MAP_SCAN_ENTRIES entries compares its keys in order
 * instead of hashing.
 */
#include "render.h"
#include "spx_values.h"
#include "values_internal.h"

#include "spx_allocation.h"
#include "spx_assert.h"
#include "spx_compiler.h"
#include "spx_limits.h"
#include "spx_siphash.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- layout ------------------------------------------------------------------ */

/* The least power of two at least 2 * capacity (1 for 0), without a loop:
 * every lookup asks it. */
#define INDEX_SLOT_BYTES (2 * sizeof(uint32_t))

static uint32_t index_size(uint32_t capacity)
{
    if (capacity == 0)
        return 1;
    uint32_t size = 2u * capacity - 1;
    size |= size >> 1;
    size |= size >> 2;
    size |= size >> 4;
    size |= size >> 8;
    size |= size >> 16;
    return size + 1;
}

static apr_size_t map_bytes(uint32_t capacity)
{
    return sizeof(spx_value_block_t) + (apr_size_t)capacity * 2 * sizeof(spx_value_t) +
           (apr_size_t)capacity * sizeof(uint32_t) +
           (apr_size_t)index_size(capacity) * INDEX_SLOT_BYTES;
}

static uint32_t *hashes_of(const spx_value_block_t *map)
{
    return (uint32_t *)(void *)((char *)(void *)map->slots +
                                (apr_size_t)map->capacity * 2 * sizeof(spx_value_t));
}

/* The index: slot at is index[2 * at] (0, or 1 + a position) and
 * index[2 * at + 1] (that entry's hash). */
static uint32_t *index_of(const spx_value_block_t *map)
{
    return hashes_of(map) + map->capacity;
}

/* A key's hash. A str key's has its top bit set and is kept in the
 * string's block (key_hash, 0 until then), so a string looked up again, in
 * this map or another of the run's (one heap, one hash key), is not hashed
 * again: the block is changed through a read-only pointer, but nothing
 * observable depends on the hash. A string's bytes change only when it
 * grows in place, which clears it (values.c). */
static uint32_t hash_key(const spx_heap_t *heap, const spx_value_block_t *map, spx_value_t key)
{
    if (map->map_keys == SPX_MAP_KEYS_STR) {
        if (!key.b->key_hash)
            ((spx_value_block_t *)(uintptr_t)key.b)->key_hash =
                (uint32_t)spx_siphash13(heap->hash_key, spx_str_bytes(key.b), key.b->length) |
                0x80000000u;
        return key.b->key_hash;
    }
    unsigned char bytes[8];
    for (unsigned i = 0; i < 8; i++)
        bytes[i] = (unsigned char)((uint64_t)key.i >> (8u * i));
    return (uint32_t)spx_siphash13(heap->hash_key, bytes, sizeof(bytes));
}

static int keys_equal(const spx_value_block_t *map, spx_value_t a, spx_value_t b)
{
    if (map->map_keys != SPX_MAP_KEYS_STR)
        return a.i == b.i;
    /* two strings whose kept hashes differ differ (hash_key) */
    return a.b == b.b || (a.b->length == b.b->length &&
                          (!a.b->key_hash || !b.b->key_hash || a.b->key_hash == b.b->key_hash) &&
                          spx_bytes_equal(spx_str_bytes(a.b), spx_str_bytes(b.b), a.b->length));
}

/* The position of key (whose hash is hash), or -1, by the probe all finds
 * share: an entry's key is compared, by same, only where its index slot
 * holds key's hash. The index is at most half full, so a probe ends at an
 * empty slot. In line, so that each caller's same is called directly. */
static inline int64_t probe(const spx_value_block_t *map, spx_value_t key, uint32_t hash,
                            int (*same)(const spx_value_block_t *, spx_value_t, spx_value_t))
{
    const uint32_t *index = index_of(map);
    uint32_t mask = map->index_mask;
    for (uint32_t at = hash & mask;; at = (at + 1) & mask) {
        uint32_t slot = index[2u * at];
        if (!slot)
            return -1;
        if (index[2u * at + 1] == hash && same(map, map->slots[2u * (slot - 1)], key))
            return (int64_t)(slot - 1);
    }
}

static int64_t find(const spx_value_block_t *map, spx_value_t key, uint32_t hash)
{
    return probe(map, key, hash, keys_equal);
}

/* Whether the str key stored in a map, whose hash equals key's kept hash,
 * is key: the same block, or the same bytes (hashes that agree say
 * nothing more, so no kept hash is compared again). */
static int same_str_key(const spx_value_block_t *stored, const spx_value_block_t *key)
{
    return stored == key ||
           (stored->length == key->length &&
            spx_bytes_equal(spx_str_bytes(stored), spx_str_bytes(key), key->length));
}

/* same_str_key as probe calls it. */
static int same_str_slot(const spx_value_block_t *map, spx_value_t stored, spx_value_t key)
{
    (void)map;
    return same_str_key(stored.b, key.b);
}

/* find for a str key whose hash is kept (hash_key). */
static int64_t find_str(const spx_value_block_t *map, spx_value_t key, uint32_t hash)
{
    return probe(map, key, hash, same_str_slot);
}

/* The position of key in map, or -1: first the map's hint (the position
 * its last lookup or insert found), which is key's when the key there
 * equals it (keys are distinct, so a hint left stale by a removal or a
 * copy is never wrong, only missed); then the index. A found position
 * becomes the hint: the map is changed through a read-only pointer, but
 * nothing observable depends on the hint. */
static int64_t locate(const spx_heap_t *heap, const spx_value_block_t *map, spx_value_t key)
{
    uint32_t hint = map->of.hint;
    if (map->length <= SPX_MAP_SCAN_ENTRIES && map->map_keys == SPX_MAP_KEYS_STR) {
        /* a few str keys: compared, not hashed (no kept hash to compare) */
        if (hint < map->length && same_str_key(map->slots[2u * hint].b, key.b))
            return (int64_t)hint;
        for (uint32_t position = 0; position < map->length; position++)
            if (same_str_key(map->slots[2u * position].b, key.b)) {
                ((spx_value_block_t *)(uintptr_t)map)->of.hint = position;
                return (int64_t)position;
            }
        return -1;
    }
    if (map->length <= SPX_MAP_SCAN_ENTRIES) { /* a few keys: compared, not hashed */
        if (hint < map->length && keys_equal(map, map->slots[2u * hint], key))
            return (int64_t)hint;
        for (uint32_t position = 0; position < map->length; position++)
            if (keys_equal(map, map->slots[2u * position], key)) {
                ((spx_value_block_t *)(uintptr_t)map)->of.hint = position;
                return (int64_t)position;
            }
        return -1;
    }
    int64_t position;
    if (map->map_keys == SPX_MAP_KEYS_STR) {
        /* Every key of a map has its hash kept (hash_key) and equal to
         * the entry's, so the hint is tried by the entry's hash first: a
         * missed hint costs no look at the key stored there, and the very
         * key (the block a "for k in m" gave) is found there too. */
        uint32_t hash = hash_key(heap, map, key);
        if (hint < map->length && hashes_of(map)[hint] == hash &&
            same_str_key(map->slots[2u * hint].b, key.b))
            return (int64_t)hint;
        position = find_str(map, key, hash);
    } else {
        if (hint < map->length && map->slots[2u * hint].i == key.i)
            return (int64_t)hint;
        position = find(map, key, hash_key(heap, map, key));
    }
    if (position >= 0)
        ((spx_value_block_t *)(uintptr_t)map)->of.hint = (uint32_t)position;
    return position;
}

/* The index slot that holds position. */
static uint32_t index_slot_of(const spx_value_block_t *map, uint32_t position)
{
    const uint32_t *index = index_of(map);
    uint32_t mask = map->index_mask;
    uint32_t at = hashes_of(map)[position] & mask;
    while (index[2u * at] != position + 1)
        at = (at + 1) & mask;
    return at;
}

static void index_put(spx_value_block_t *map, uint32_t position)
{
    uint32_t *index = index_of(map);
    uint32_t mask = map->index_mask;
    uint32_t hash = hashes_of(map)[position];
    uint32_t at = hash & mask;
    while (index[2u * at])
        at = (at + 1) & mask;
    index[2u * at] = position + 1;
    index[2u * at + 1] = hash;
}

static void index_rebuild(spx_value_block_t *map)
{
    memset(index_of(map), 0, ((apr_size_t)map->index_mask + 1) * INDEX_SLOT_BYTES);
    for (uint32_t position = 0; position < map->length; position++)
        index_put(map, position);
}

/* Empty the index slot at (linear probing's deletion: later entries of the
 * cluster that may move back do). */
static void index_delete(spx_value_block_t *map, uint32_t at)
{
    uint32_t *index = index_of(map);
    uint32_t mask = map->index_mask;
    uint32_t hole = at;
    index[2u * hole] = 0;
    for (uint32_t next = (hole + 1) & mask; index[2u * next]; next = (next + 1) & mask) {
        uint32_t home = index[2u * next + 1] & mask;
        if (((next - home) & mask) >= ((next - hole) & mask)) {
            index[2u * hole] = index[2u * next];
            index[2u * hole + 1] = index[2u * next + 1];
            index[2u * next] = 0;
            hole = next;
        }
    }
}

/* A new empty map of capacity entries, one holder, counted in the measure
 * (allowed already). */
static spx_value_block_t *map_allocate(spx_heap_t *heap, int map_keys, int values_are_blocks,
                                       uint32_t capacity)
{
    spx_value_block_t *map = spx_allocate(map_bytes(capacity));
    memset(map, 0, sizeof(*map));
    map->holders = 1;
    map->kind = SPX_BLOCK_MAP;
    map->owns_storage = 1;
    map->elements_are_blocks = values_are_blocks ? 1 : 0;
    map->map_keys = (uint8_t)map_keys;
    map->capacity = capacity;
    map->index_mask = index_size(capacity) - 1;
    memset(index_of(map), 0, (apr_size_t)index_size(capacity) * INDEX_SLOT_BYTES);
    spx_heap_grow(heap, spx_block_measure(map));
    heap->blocks++;
    return map;
}

/* The map *slot (one holder) with room for capacity entries (at least its
 * length), the measure following. */
static void map_resize(spx_heap_t *heap, spx_value_block_t **slot, uint32_t capacity)
{
    spx_value_block_t *map = *slot;
    uint32_t old = map->capacity;
    uint64_t before = spx_block_measure(map);
    SPX_ASSERT(capacity >= map->length);
    if (capacity < old) /* the hashes move down before the storage shrinks */
        memmove((char *)(void *)map->slots + (apr_size_t)capacity * 2 * sizeof(spx_value_t),
                hashes_of(map), (apr_size_t)map->length * sizeof(uint32_t));
    map = spx_reallocate(map, map_bytes(capacity));
    if (capacity > old) /* ... and up after it grows */
        memmove((char *)(void *)map->slots + (apr_size_t)capacity * 2 * sizeof(spx_value_t),
                (char *)(void *)map->slots + (apr_size_t)old * 2 * sizeof(spx_value_t),
                (apr_size_t)map->length * sizeof(uint32_t));
    map->capacity = capacity;
    map->index_mask = index_size(capacity) - 1;
    index_rebuild(map);
    uint64_t after = spx_block_measure(map);
    if (after > before)
        spx_heap_grow(heap, after - before);
    else
        heap->live -= before - after;
    *slot = map;
}

static void append(spx_value_block_t *map, spx_value_t key, spx_value_t value, uint32_t hash)
{
    SPX_ASSERT(map->length < map->capacity);
    uint32_t position = map->length++;
    map->slots[2u * position] = key;
    map->slots[2u * position + 1] = value;
    hashes_of(map)[position] = hash;
    index_put(map, position);
    map->of.hint = position;
}

static spx_heap_status_t fail(spx_heap_t *heap, spx_runtime_code_t code, const char *message)
{
    snprintf(heap->message, sizeof(heap->message), "%s", message);
    heap->code = code;
    return SPX_HEAP_FAILED;
}

/* ---- what values.c calls (values_internal.h) -------------------------------------- */

spx_value_t spx_map_step_key(const spx_value_block_t *map, int64_t step)
{
    spx_value_t key;
    if (map->map_keys == SPX_MAP_KEYS_STR)
        key.b = (spx_value_block_t *)(intptr_t)step; /* the interpreter's str key operand */
    else
        key.i = step;
    return key;
}

/* spx_map_slot's every case but its most frequent (locate). */
static SPX_NOINLINE spx_value_t *located_slot(const spx_heap_t *heap, const spx_value_block_t *map,
                                              spx_value_t key)
{
    int64_t position = locate(heap, map, key);
    return position < 0 ? NULL : (spx_value_t *)&map->slots[2u * (uint64_t)position + 1];
}

spx_value_t *spx_map_slot(const spx_heap_t *heap, const spx_value_block_t *map, spx_value_t key)
{
    uint32_t hash;
    if (map->map_keys != SPX_MAP_KEYS_STR || map->length <= SPX_MAP_SCAN_ENTRIES ||
        (hash = key.b->key_hash) == 0)
        return located_slot(heap, map, key);
    /* locate's work for a str key hashed before (the most frequent lookup:
     * a key looked up again), in line and without calls: where an entry's
     * hash is the key's but its key another block, locate compares the
     * bytes */
    uint32_t hint = map->of.hint;
    if (hint < map->length && hashes_of(map)[hint] == hash) {
        if (map->slots[2u * hint].b == key.b)
            return (spx_value_t *)&map->slots[2u * (uint64_t)hint + 1];
        return located_slot(heap, map, key);
    }
    const uint32_t *index = index_of(map);
    uint32_t mask = map->index_mask;
    for (uint32_t at = hash & mask;; at = (at + 1) & mask) {
        uint32_t slot = index[2u * at];
        if (!slot)
            return NULL;
        if (index[2u * at + 1] == hash) {
            if (map->slots[2u * (slot - 1)].b != key.b)
                return located_slot(heap, map, key);
            ((spx_value_block_t *)(uintptr_t)map)->of.hint = slot - 1;
            return (spx_value_t *)&map->slots[2u * (uint64_t)slot - 1];
        }
    }
}

uint64_t spx_map_key_n(const spx_value_block_t *map, spx_value_t key)
{
    return map->map_keys == SPX_MAP_KEYS_STR ? key.b->length : 0;
}

spx_heap_status_t spx_map_missing(spx_heap_t *heap, const spx_value_block_t *map, spx_value_t key)
{
    spx_render_text_t shown;
    if (map->map_keys == SPX_MAP_KEYS_STR)
        spx_render_scalar(SPX_RENDER_STR, 0, spx_str_bytes(key.b), key.b->length, &shown);
    else
        spx_render_scalar(map->map_keys == SPX_MAP_KEYS_BOOL ? SPX_RENDER_BOOL : SPX_RENDER_INT,
                          key.i, NULL, 0, &shown);
    char message[sizeof(shown.bytes) + 64];
    snprintf(message, sizeof(message), "key %s not in map of length %" PRIu32, shown.bytes,
             map->length);
    return fail(heap, SPX_R0522, message);
}

spx_value_block_t *spx_map_copy(spx_heap_t *heap, const spx_value_block_t *map)
{
    spx_value_block_t *copy =
        map_allocate(heap, map->map_keys, map->elements_are_blocks, map->length);
    copy->length = map->length;
    if (map->length) {
        memcpy(copy->slots, map->slots, (apr_size_t)map->length * 2 * sizeof(spx_value_t));
        memcpy(hashes_of(copy), hashes_of(map), (apr_size_t)map->length * sizeof(uint32_t));
    }
    index_rebuild(copy);
    for (uint32_t i = 0; i < copy->length; i++) {
        if (copy->map_keys == SPX_MAP_KEYS_STR)
            spx_block_hold(copy->slots[2u * i].b);
        if (copy->elements_are_blocks)
            spx_block_hold(copy->slots[2u * i + 1].b);
    }
    heap->copies++;
    return copy;
}

/* The capacity a full map of capacity entries grows to. */
static uint32_t grown_capacity(uint32_t capacity)
{
    uint64_t grown = capacity ? (uint64_t)capacity * 2 : 4;
    return (uint32_t)(grown > SPX_LIMIT_MAP_ENTRIES ? SPX_LIMIT_MAP_ENTRIES : grown);
}

uint64_t spx_map_growth_bytes(uint32_t length, uint32_t capacity)
{
    if (length < capacity)
        return 0;
    return (uint64_t)SPX_MAP_ENTRY_BYTES * (grown_capacity(capacity) - capacity);
}

spx_heap_status_t spx_map_length_allows(spx_heap_t *heap, uint64_t length)
{
    if (length <= heap->map_entries_limit)
        return SPX_HEAP_OK;
    char message[128];
    snprintf(message, sizeof(message), "map of %" PRIu64 " entries, over the limit of %" PRIu32,
             length, heap->map_entries_limit);
    return fail(heap, SPX_R0525, message);
}

void spx_map_insert(spx_heap_t *heap, spx_value_block_t **slot, spx_value_t key, spx_value_t value)
{
    spx_value_block_t *map = *slot;
    SPX_ASSERT(map->holders == 1);
    if (map->length == map->capacity)
        map_resize(heap, slot, grown_capacity(map->capacity));
    map = *slot;
    if (map->map_keys == SPX_MAP_KEYS_STR)
        spx_block_hold(key.b);
    append(map, key, value, hash_key(heap, map, key));
}

uint64_t spx_map_entries_after(const spx_heap_t *heap, const spx_value_block_t *map,
                               spx_value_t key)
{
    int64_t position = locate(heap, map, key);
    SPX_ASSERT(position >= 0);
    return map->length - (uint64_t)position - 1;
}

void spx_map_erase(spx_heap_t *heap, spx_value_block_t **slot, spx_value_t key)
{
    spx_value_block_t *map = *slot;
    SPX_ASSERT(map->holders == 1);
    int64_t found = locate(heap, map, key);
    SPX_ASSERT(found >= 0);
    uint32_t position = (uint32_t)found;
    spx_value_t old_key = map->slots[2u * position], old_value = map->slots[2u * position + 1];
    index_delete(map, index_slot_of(map, position));
    /* the later entries move up one position: their index slots say so */
    uint32_t *hashes = hashes_of(map);
    uint32_t *index = index_of(map);
    for (uint32_t later = position + 1; later < map->length; later++)
        index[2u * index_slot_of(map, later)] = later; /* position later - 1, plus one */
    uint32_t after = map->length - position - 1;
    if (after) {
        memmove(&map->slots[2u * position], &map->slots[2u * position + 2],
                (apr_size_t)after * 2 * sizeof(spx_value_t));
        memmove(&hashes[position], &hashes[position + 1], (apr_size_t)after * sizeof(uint32_t));
    }
    map->length--;
    if (map->map_keys == SPX_MAP_KEYS_STR)
        spx_block_release(heap, old_key.b);
    if (map->elements_are_blocks)
        spx_block_release(heap, old_value.b);
    if (map->capacity > 16 && map->length < map->capacity / 4)
        map_resize(heap, slot, map->capacity / 2);
}

/* ---- operations (spx_values.h) ------------------------------------------------------ */

spx_heap_status_t spx_map_make(spx_heap_t *heap, uint64_t *fuel, int map_keys,
                               int values_are_blocks, const spx_value_t *keys,
                               const spx_value_t *values, apr_size_t count, spx_value_block_t **out)
{
    uint64_t n = count;
    for (apr_size_t i = 0; map_keys == SPX_MAP_KEYS_STR && i < count; i++)
        n += keys[i].b->length;
    spx_heap_status_t status = spx_heap_charge(heap, fuel, n);
    if (status != SPX_HEAP_OK)
        return status;
    /* The distinct keys, counted in a map outside the measure (at most the
     * literal's entries: bounded by the program) before the real one. */
    spx_value_block_t *counting = spx_allocate(map_bytes((uint32_t)count));
    memset(counting, 0, sizeof(*counting));
    counting->kind = SPX_BLOCK_MAP;
    counting->map_keys = (uint8_t)map_keys;
    counting->capacity = (uint32_t)count;
    counting->index_mask = index_size((uint32_t)count) - 1;
    memset(index_of(counting), 0, (apr_size_t)index_size((uint32_t)count) * INDEX_SLOT_BYTES);
    for (apr_size_t i = 0; i < count; i++) {
        uint32_t hash = hash_key(heap, counting, keys[i]);
        if (find(counting, keys[i], hash) < 0)
            append(counting, keys[i], values[i], hash);
    }
    uint32_t distinct = counting->length;
    free(counting);
    status = spx_map_length_allows(heap, distinct);
    if (status == SPX_HEAP_OK)
        status = spx_heap_memory_allows(
            heap, 0,
            spx_block_measure(&(spx_value_block_t){.kind = SPX_BLOCK_MAP, .capacity = distinct}));
    if (status != SPX_HEAP_OK)
        return status;
    spx_value_block_t *map = map_allocate(heap, map_keys, values_are_blocks, distinct);
    for (apr_size_t i = 0; i < count; i++) {
        uint32_t hash = hash_key(heap, map, keys[i]);
        int64_t position = find(map, keys[i], hash);
        if (position < 0) {
            append(map, keys[i], values[i], hash); /* both holders pass to the entry */
            continue;
        }
        /* a repeated key: the value replaces, the first key stays */
        spx_value_t *slot = &map->slots[2u * (uint64_t)position + 1];
        if (values_are_blocks)
            spx_block_release(heap, slot->b);
        *slot = values[i];
        if (map_keys == SPX_MAP_KEYS_STR)
            spx_block_release(heap, keys[i].b);
    }
    *out = map;
    return SPX_HEAP_OK;
}

spx_heap_status_t spx_map_get(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *map,
                              spx_value_t key, spx_value_t *out)
{
    const spx_value_t *slot = spx_map_slot(heap, map, key);
    if (!slot) /* a range check: before the charge */
        return spx_map_missing(heap, map, key);
    spx_heap_status_t status = spx_heap_charge(heap, fuel, spx_map_key_n(map, key));
    if (status != SPX_HEAP_OK)
        return status;
    *out = *slot;
    if (map->elements_are_blocks)
        spx_block_hold(out->b);
    return SPX_HEAP_OK;
}

spx_value_t spx_map_key_at(const spx_value_block_t *map, uint32_t position)
{
    SPX_ASSERT(position < map->length);
    /* the loop's body most often looks its key up: m[k] */
    ((spx_value_block_t *)(uintptr_t)map)->of.hint = position;
    spx_value_t key = map->slots[2u * position];
    if (map->map_keys == SPX_MAP_KEYS_STR)
        spx_block_hold(key.b);
    return key;
}

spx_heap_status_t spx_map_has(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *map,
                              spx_value_t key, int *out)
{
    spx_heap_status_t status = spx_heap_charge(heap, fuel, spx_map_key_n(map, key));
    if (status == SPX_HEAP_OK)
        *out = spx_map_slot(heap, map, key) != NULL;
    return status;
}

spx_heap_status_t spx_map_get_or(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *map,
                                 spx_value_t key, spx_value_t fallback, spx_value_t *out)
{
    spx_heap_status_t status = spx_heap_charge(heap, fuel, spx_map_key_n(map, key));
    if (status != SPX_HEAP_OK)
        return status;
    const spx_value_t *slot = spx_map_slot(heap, map, key);
    *out = slot ? *slot : fallback;
    if (map->elements_are_blocks)
        spx_block_hold(out->b);
    return SPX_HEAP_OK;
}

spx_heap_status_t spx_map_list(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *map,
                               int values, spx_value_block_t **out)
{
    int blocks = values ? map->elements_are_blocks : map->map_keys == SPX_MAP_KEYS_STR;
    return spx_array_gather(heap, fuel, blocks, map->slots + (values ? 1 : 0), map->length, 2, out);
}
