/*
 * values.c: the run-time values of language v2 (spx_values.h): blocks with
 * holder counts, copy on write through places, size charges, the memory
 * measure and its limit, and comparison.
 *
 * Nothing here recurses in C over a value's nesting (a value may nest as
 * deep as memory allows: struct Node { kids: [Node] }): freeing uses the
 * heap's stack of dying blocks, comparison its stack of frames, and a place
 * is walked in a loop.
 */
#include "spx_values.h"
#include "values_internal.h"

#include "spx_allocation.h"
#include "spx_assert.h"
#include "spx_compiler.h"
#include "spx_limits.h"
#include "spx_utf8.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct spx_compare_frame_t {
    const spx_value_block_t *a, *b;
    uint32_t next; /* the next position or field to examine */
};

/* What a block's header adds to its payload in the measure: 32, the 24
 * bytes of spx_value_block_t's fields of language v2 and the word a 64-bit
 * allocator keeps before each block (project decision: the measure is what
 * a block really holds, docs/execution.md, so a literal's header, which
 * holds no bytes of its own, counts this too). The header has since grown
 * by an enum's variant number (read by match); the measure, on which the
 * specified charges and limits rest, stays 32. */
#define BLOCK_BYTES 32u
/* What an enum's block (v3, a variant with payloads) counts besides its
 * payloads: the specification's 16 (language v3, Memory). */
#define ENUM_BLOCK_BYTES 16u
/* What one slot (element or field) counts, of the capacity. */
#define SLOT_BYTES 8u
/* What == examining a nested block counts (spx_values_equal): one step, as
 * reading two scattered headers costs about what a step may. */
#define NESTED_BLOCK_EXAMINED 64u

void spx_heap_init(spx_heap_t *heap, uint64_t max_memory)
{
    memset(heap, 0, sizeof(*heap));
    heap->max_memory = max_memory;
    heap->map_entries_limit = SPX_LIMIT_MAP_ENTRIES;
}

void spx_heap_finish(spx_heap_t *heap)
{
    SPX_ASSERT(heap->blocks == 0 && heap->live == 0);
    while (heap->spare_count)
        free(heap->spare[--heap->spare_count]);
    for (apr_size_t k = 0; k < SPX_SPARE_BLOCK_SLOTS; k++)
        while (heap->spare_small[k]) {
            spx_value_block_t *next = heap->spare_small[k]->slots[0].b;
            free(heap->spare_small[k]);
            heap->spare_small[k] = next;
        }
    memset(heap->spare_small_count, 0, sizeof(heap->spare_small_count));
    free(heap->dying);
    free(heap->frames);
    free(heap->path);
    heap->dying = NULL;
    heap->frames = NULL;
    heap->path = NULL;
    heap->dying_capacity = heap->frame_capacity = heap->path_capacity = 0;
}

static spx_heap_status_t fail(spx_heap_t *heap, spx_runtime_code_t code, const char *format, ...)
{
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(heap->message, sizeof(heap->message), format, arguments);
    va_end(arguments);
    heap->code = code;
    return SPX_HEAP_FAILED;
}

/* ---- the measure ------------------------------------------------------------ */

/* The measure goes up by bytes (already allowed by memory_allows). */
static void grow_live(spx_heap_t *heap, uint64_t bytes)
{
    heap->live += bytes;
    if (heap->live > heap->peak)
        heap->peak = heap->live;
}

static uint64_t payload_bytes(spx_block_kind_t kind, uint64_t length)
{
    return kind == SPX_BLOCK_STR   ? length
           : kind == SPX_BLOCK_MAP ? SPX_MAP_ENTRY_BYTES * length
                                   : SLOT_BYTES * length;
}

/* A block of kind at capacity in the measure: its header and payload; an
 * enum's block (v3) is 16 + 8 per payload. */
static uint64_t block_bytes(spx_block_kind_t kind, uint64_t capacity)
{
    if (kind == SPX_BLOCK_ENUM)
        return ENUM_BLOCK_BYTES + SLOT_BYTES * capacity;
    return BLOCK_BYTES + payload_bytes(kind, capacity);
}

uint64_t spx_block_measure(const spx_value_block_t *block)
{
    return block_bytes((spx_block_kind_t)block->kind, block->capacity);
}

/* Before a block is created, grown or copied: the measure would go up by
 * more (on top of what earlier steps of the same operation add, already):
 * R0521 when that passes max_memory. The message names the measure the
 * operation would have reached. */
static spx_heap_status_t memory_allows(spx_heap_t *heap, uint64_t already, uint64_t more)
{
    uint64_t would = heap->live + already + more;
    if (would > heap->max_memory)
        return fail(heap, SPX_R0521,
                    "memory limit exceeded: %" PRIu64 " bytes live, over max_memory %" PRIu64,
                    would, heap->max_memory);
    return SPX_HEAP_OK;
}

/* The size charge of one operation: n / 64 steps, in one piece. */
static spx_heap_status_t charge(spx_heap_t *heap, uint64_t *fuel, uint64_t n)
{
    heap->charged_n = n;
    uint64_t steps = n / 64;
    if (steps > *fuel)
        return SPX_HEAP_OUT_OF_FUEL;
    *fuel -= steps;
    return SPX_HEAP_OK;
}

static spx_heap_status_t string_length_allows(spx_heap_t *heap, uint64_t length)
{
    if (length > SPX_LIMIT_STRING_BYTES)
        return fail(heap, SPX_R0506, "string too long: %" PRIu64 " bytes, over the limit of %u",
                    length, SPX_LIMIT_STRING_BYTES);
    return SPX_HEAP_OK;
}

static spx_heap_status_t array_length_allows(spx_heap_t *heap, uint64_t length)
{
    if (length > SPX_LIMIT_ARRAY_LENGTH)
        return fail(heap, SPX_R0519, "array of %" PRIu64 " elements, over the limit of %u", length,
                    SPX_LIMIT_ARRAY_LENGTH);
    return SPX_HEAP_OK;
}

/* The checks before a new block of kind and length is made, in the
 * specification's order: the size charge n (none without fuel), the length
 * limit of its kind, then memory for its size. */
static spx_heap_status_t before_creating(spx_heap_t *heap, uint64_t *fuel, uint64_t n,
                                         spx_block_kind_t kind, uint64_t length)
{
    spx_heap_status_t status = fuel ? charge(heap, fuel, n) : SPX_HEAP_OK;
    if (status == SPX_HEAP_OK && kind == SPX_BLOCK_STR)
        status = string_length_allows(heap, length);
    if (status == SPX_HEAP_OK && kind == SPX_BLOCK_ARRAY)
        status = array_length_allows(heap, length);
    if (status == SPX_HEAP_OK)
        status = memory_allows(heap, 0, block_bytes(kind, length));
    return status;
}

/* ---- blocks ----------------------------------------------------------------- */

/* The slots of storage after the header of a block of kind at capacity
 * that the heap keeps for reuse once freed (SPX_SPARE_BLOCK_SLOTS), or 0
 * for one it gives back (strings, maps, larger blocks). Arrays, structs and
 * enums of capacity 1 to SPX_SPARE_BLOCK_SLOTS have exactly that many; an
 * empty array (capacity 0) has room for SPX_SPARE_BLOCK_SLOTS, which its
 * first growth takes without moving. */
static uint32_t spare_class(spx_block_kind_t kind, uint32_t capacity)
{
    if (kind == SPX_BLOCK_STR || kind == SPX_BLOCK_MAP || capacity > SPX_SPARE_BLOCK_SLOTS)
        return 0;
    return capacity ? capacity : SPX_SPARE_BLOCK_SLOTS;
}

/* The slots an array's storage has room for (spare_class). */
static uint32_t slots_room(const spx_value_block_t *array)
{
    return array->capacity ? array->capacity : SPX_SPARE_BLOCK_SLOTS;
}

/* The freed block of spare class class (not 0) that the heap keeps, taken
 * off its list. */
static inline spx_value_block_t *take_spare(spx_heap_t *heap, uint32_t class)
{
    spx_value_block_t *block = heap->spare_small[class - 1];
    heap->spare_small[class - 1] = block->slots[0].b;
    heap->spare_small_count[class - 1]--;
    return block;
}

/* The header of a new block of kind at block (its storage after it), one
 * holder; the measure grows by its size at capacity. */
static inline void start_block(spx_heap_t *heap, spx_value_block_t *block, spx_block_kind_t kind,
                               uint32_t length, uint32_t capacity)
{
    memset(block, 0, sizeof(*block));
    block->holders = 1;
    block->kind = (uint8_t)kind;
    block->owns_storage = 1;
    block->length = length;
    block->capacity = capacity;
    if (kind == SPX_BLOCK_STR)
        block->of.bytes = (const unsigned char *)block->slots;
    grow_live(heap, block_bytes(kind, capacity));
    heap->blocks++;
}

/* A new block of kind with room for capacity bytes (strings) or slots, one
 * holder; the measure grows by its size at that capacity. */
static spx_value_block_t *new_block(spx_heap_t *heap, spx_block_kind_t kind, uint32_t length,
                                    uint32_t capacity)
{
    spx_value_block_t *block;
    uint32_t class = spare_class(kind, capacity);
    if (class && heap->spare_small[class - 1]) {
        block = take_spare(heap, class);
    } else {
        apr_size_t room = kind == SPX_BLOCK_STR ? (apr_size_t)capacity
                          : class               ? (apr_size_t) class * sizeof(spx_value_t)
                                                : (apr_size_t)capacity * sizeof(spx_value_t);
        block = spx_allocate(sizeof(spx_value_block_t) + (room ? room : 1));
    }
    start_block(heap, block, kind, length, capacity);
    return block;
}

static int slot_is_block(const spx_value_block_t *block, apr_size_t slot)
{
    if (block->kind == SPX_BLOCK_MAP) /* slots 2i and 2i + 1: entry i's key and value */
        return slot % 2 ? block->elements_are_blocks : block->map_keys == SPX_MAP_KEYS_STR;
    return block->kind == SPX_BLOCK_ARRAY  ? block->elements_are_blocks
           : block->kind == SPX_BLOCK_ENUM ? block->of.variant->payload_is_block[slot]
                                           : block->of.shape->field_is_block[slot];
}

static void push_dying(spx_heap_t *heap, apr_size_t *count, spx_value_block_t *block)
{
    if (*count == heap->dying_capacity) {
        heap->dying_capacity = heap->dying_capacity ? heap->dying_capacity * 2 : 64;
        heap->dying = spx_reallocate(heap->dying, heap->dying_capacity * sizeof(*heap->dying));
    }
    heap->dying[(*count)++] = block;
}

/* Whether the freed block of spare class k + 1 is kept for reuse (then it
 * is: take_spare's counterpart). */
static inline int keep_spare(spx_heap_t *heap, uint32_t k, spx_value_block_t *dying)
{
    if (k >= SPX_SPARE_BLOCK_SLOTS || heap->spare_small_count[k] >= SPX_SPARE_BLOCKS_PER_SIZE)
        return 0;
    dying->slots[0].b = heap->spare_small[k];
    heap->spare_small[k] = dying;
    heap->spare_small_count[k]++;
    return 1;
}

/* A freed block's storage: kept for reuse (a literal's header, a small
 * block) or given back. */
static inline void dispose(spx_heap_t *heap, spx_value_block_t *dying)
{
    if (!dying->owns_storage) {
        if (heap->spare_count < SPX_SPARE_LITERAL_BLOCKS) {
            heap->spare[heap->spare_count++] = dying; /* a literal's header: kept for reuse */
            return;
        }
    } else if (keep_spare(heap, spare_class((spx_block_kind_t)dying->kind, dying->capacity) - 1u,
                          dying))
        return;
    free(dying);
}

/* spx_block_free of a block that may hold others: each freed in turn from
 * a stack (heap->dying). */
static SPX_NOINLINE void free_holding(spx_heap_t *heap, spx_value_block_t *block)
{
    apr_size_t count = 0;
    spx_value_block_t *dying = block; /* the first without the stack */
    for (;;) {
        uint64_t slots =
            dying->kind == SPX_BLOCK_MAP ? 2u * (uint64_t)dying->length : dying->length;
        if (dying->kind == SPX_BLOCK_ARRAY) {
            if (dying->elements_are_blocks) /* an int array holds nothing */
                for (uint64_t i = 0; i < slots; i++) {
                    if (i + SPX_PREFETCH_SLOTS < slots)
                        SPX_PREFETCH_WRITE(dying->slots[i + SPX_PREFETCH_SLOTS].b);
                    spx_value_block_t *held = dying->slots[i].b;
                    if (held && !spx_value_is_constant(held) && --held->holders == 0)
                        push_dying(heap, &count, held);
                }
        } else if (dying->kind != SPX_BLOCK_STR &&
                   (dying->kind != SPX_BLOCK_ENUM || dying->elements_are_blocks))
            for (uint64_t i = 0; i < slots; i++) {
                spx_value_block_t *held = slot_is_block(dying, i) ? dying->slots[i].b : NULL;
                if (held && !spx_value_is_constant(held) && --held->holders == 0)
                    push_dying(heap, &count, held);
            }
        heap->live -= spx_block_measure(dying);
        heap->blocks--;
        dispose(heap, dying);
        if (!count)
            break;
        dying = heap->dying[--count];
    }
}

void spx_block_free(spx_heap_t *heap, spx_value_block_t *block)
{
    SPX_ASSERT(block->holders == 0);
    if (block->kind == SPX_BLOCK_STR) { /* holds nothing; a literal's header kept for reuse */
        heap->live -= block_bytes(SPX_BLOCK_STR, block->capacity);
        heap->blocks--;
        dispose(heap, block);
        return;
    }
    if (block->kind != SPX_BLOCK_ENUM || block->elements_are_blocks) {
        free_holding(heap, block);
        return;
    }
    /* a variant of int and bool payloads (a match takes many apart):
     * nothing below it to release, its storage most often kept for reuse */
    heap->live -= block_bytes(SPX_BLOCK_ENUM, block->capacity);
    heap->blocks--;
    /* spare_class: an enum's capacity is its length (a capacity of 0 makes
     * k too large to keep) */
    if (!keep_spare(heap, block->capacity - 1u, block))
        free(block);
}

/* Hold every block in slots[0..count) of a block of that layout. */
static void hold_slots(const spx_value_block_t *layout, const spx_value_t *slots, apr_size_t first,
                       apr_size_t count)
{
    if (layout->kind == SPX_BLOCK_ARRAY) {
        if (!layout->elements_are_blocks) /* an int array holds nothing */
            return;
        for (apr_size_t i = 0; i < count; i++) {
            if (i + SPX_PREFETCH_SLOTS < count)
                SPX_PREFETCH_WRITE(slots[i + SPX_PREFETCH_SLOTS].b);
            if (slots[i].b)
                spx_block_hold(slots[i].b);
        }
        return;
    }
    for (apr_size_t i = 0; i < count; i++)
        if (slot_is_block(layout, first + i) && slots[i].b)
            spx_block_hold(slots[i].b);
}

/* ---- strings ------------------------------------------------------------------ */

spx_heap_status_t spx_str_literal(spx_heap_t *heap, const unsigned char *bytes, apr_size_t length,
                                  spx_value_block_t **out)
{
    SPX_ASSERT(length <= SPX_LIMIT_STRING_BYTES);
    spx_heap_status_t status = memory_allows(heap, 0, BLOCK_BYTES);
    if (status != SPX_HEAP_OK)
        return status;
    spx_value_block_t *block = heap->spare_count ? heap->spare[--heap->spare_count]
                                                 : spx_allocate(sizeof(spx_value_block_t));
    memset(block, 0, sizeof(*block));
    block->holders = 1;
    block->kind = SPX_BLOCK_STR;
    block->owns_storage = 0;
    block->length = (uint32_t)length;
    block->capacity = 0; /* the bytes are the program's */
    block->of.bytes = bytes;
    grow_live(heap, BLOCK_BYTES);
    heap->blocks++;
    *out = block;
    return SPX_HEAP_OK;
}

/* A new string of length bytes: a's bytes then b's. The caller has
 * checked the limits. */
static spx_value_block_t *joined(spx_heap_t *heap, const unsigned char *a, apr_size_t a_length,
                                 const unsigned char *b, apr_size_t b_length)
{
    apr_size_t length = a_length + b_length;
    spx_value_block_t *block = new_block(heap, SPX_BLOCK_STR, (uint32_t)length, (uint32_t)length);
    unsigned char *bytes = (unsigned char *)block->slots;
    if (a_length)
        memcpy(bytes, a, a_length);
    if (b_length)
        memcpy(bytes + a_length, b, b_length);
    return block;
}

spx_heap_status_t spx_str_make(spx_heap_t *heap, const unsigned char *bytes, apr_size_t length,
                               spx_value_block_t **out)
{
    spx_heap_status_t status = before_creating(heap, NULL, 0, SPX_BLOCK_STR, length);
    if (status != SPX_HEAP_OK)
        return status;
    *out = joined(heap, bytes, length, NULL, 0);
    return SPX_HEAP_OK;
}

spx_heap_status_t spx_str_concat(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *a,
                                 const spx_value_block_t *b, spx_value_block_t **out)
{
    uint64_t length = (uint64_t)a->length + b->length;
    spx_heap_status_t status = before_creating(heap, fuel, length, SPX_BLOCK_STR, length);
    if (status != SPX_HEAP_OK)
        return status;
    *out = joined(heap, a->of.bytes, a->length, b->of.bytes, b->length);
    return SPX_HEAP_OK;
}

static spx_heap_status_t grow_array_in_place(spx_heap_t *heap, uint64_t *fuel,
                                             spx_value_block_t **slot, const spx_value_block_t *e,
                                             uint64_t key_n);

/* The append in place: *slot, held by the slot alone and not e, grows by
 * e's bytes or elements (language v3, Execution, "Append"). */
static spx_heap_status_t grow_in_place(spx_heap_t *heap, uint64_t *fuel, spx_value_block_t **slot,
                                       const spx_value_block_t *e, uint64_t key_n)
{
    spx_value_block_t *x = *slot;
    SPX_ASSERT(x->holders == 1 && x != e);
    if (x->kind == SPX_BLOCK_ARRAY)
        return grow_array_in_place(heap, fuel, slot, e, key_n);
    spx_value_block_t **variable = slot;
    uint64_t length = (uint64_t)x->length + e->length;
    /* A literal's or const's block gets storage when it first grows: like a
     * concatenation's, its charge counts both parts (project decision: the
     * bytes are copied then, so time per step stays bounded). */
    uint64_t n = x->owns_storage || e->length == 0 ? e->length : length;
    spx_heap_status_t status = charge(heap, fuel, n > UINT64_MAX - key_n ? UINT64_MAX : n + key_n);
    if (status == SPX_HEAP_OK)
        status = string_length_allows(heap, length);
    if (status != SPX_HEAP_OK || e->length == 0) /* nothing to grow */
        return status;
    /* A literal's block gets storage of its own, as a concatenation's block
     * (the literal's header still counted meanwhile); one with storage grows
     * by the capacity it adds, doubling, when its capacity is short. */
    uint64_t capacity = x->capacity;
    if (x->owns_storage && capacity < length) {
        capacity = capacity * 2 > SPX_LIMIT_STRING_BYTES ? SPX_LIMIT_STRING_BYTES : capacity * 2;
        if (capacity < length)
            capacity = length;
    }
    status =
        memory_allows(heap, 0, x->owns_storage ? capacity - x->capacity : BLOCK_BYTES + length);
    if (status != SPX_HEAP_OK)
        return status;
    if (!x->owns_storage) {
        spx_value_block_t *grown = joined(heap, x->of.bytes, x->length, e->of.bytes, e->length);
        heap->blocks--; /* the same block, with storage of its own now */
        heap->live -= spx_block_measure(x);
        free(x);
        *variable = grown;
        return SPX_HEAP_OK;
    }
    if (x->capacity < capacity) {
        grow_live(heap, capacity - x->capacity);
        x = spx_reallocate(x, sizeof(spx_value_block_t) + (apr_size_t)capacity);
        x->capacity = (uint32_t)capacity;
        x->of.bytes = (const unsigned char *)x->slots;
        *variable = x;
    }
    memcpy((unsigned char *)x->slots + x->length, e->of.bytes, e->length);
    x->length = (uint32_t)length;
    x->key_hash = 0; /* other bytes now: a map hashes them again */
    return SPX_HEAP_OK;
}

spx_heap_status_t spx_str_append(spx_heap_t *heap, uint64_t *fuel, spx_value_block_t **variable,
                                 const spx_value_block_t *e)
{
    spx_value_block_t *x = *variable;
    if (x->holders != 1 || x == e) { /* shared (x = x + x reads x twice): a concatenation */
        spx_value_block_t *value = NULL;
        spx_heap_status_t status = spx_value_concat(heap, fuel, x, e, &value);
        if (status != SPX_HEAP_OK)
            return status;
        spx_block_release(heap, x);
        *variable = value;
        return SPX_HEAP_OK;
    }
    return grow_in_place(heap, fuel, variable, e, 0);
}

static spx_heap_status_t index_allows(spx_heap_t *heap, int64_t i, uint32_t length)
{
    if (i < 0 || (uint64_t)i >= length)
        return fail(heap, SPX_R0511, "index %" PRId64 " out of range for length %" PRIu32, i,
                    length);
    return SPX_HEAP_OK;
}

static spx_heap_status_t slice_allows(spx_heap_t *heap, int64_t i, int64_t j, uint32_t length)
{
    if (i < 0 || i > j || (uint64_t)j > length)
        return fail(heap, SPX_R0512,
                    "slice %" PRId64 "..%" PRId64 " out of range for length %" PRIu32, i, j,
                    length);
    return SPX_HEAP_OK;
}

spx_heap_status_t spx_str_index(spx_heap_t *heap, const spx_value_block_t *s, int64_t i,
                                int64_t *out)
{
    spx_heap_status_t status = index_allows(heap, i, s->length);
    if (status == SPX_HEAP_OK)
        *out = s->of.bytes[i];
    return status;
}

/* Whether at is a character boundary of the (well-formed) string. */
static int boundary(const spx_value_block_t *s, uint64_t at)
{
    return at == s->length || (s->of.bytes[at] & 0xC0u) != 0x80u;
}

/* Where the character that at cuts starts. */
static uint64_t character_start(const spx_value_block_t *s, uint64_t at)
{
    while (at > 0 && !boundary(s, at))
        at--;
    return at;
}

spx_heap_status_t spx_str_slice(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *s,
                                int64_t i, int64_t j, spx_value_block_t **out)
{
    spx_heap_status_t status = slice_allows(heap, i, j, s->length);
    if (status != SPX_HEAP_OK)
        return status;
    uint64_t cut = !boundary(s, (uint64_t)i) ? (uint64_t)i : (uint64_t)j;
    if (!boundary(s, cut))
        return fail(heap, SPX_R0513,
                    "slice %" PRId64 "..%" PRId64 " cuts the character at byte %" PRIu64, i, j,
                    character_start(s, cut));
    uint64_t length = (uint64_t)(j - i);
    status = before_creating(heap, fuel, length, SPX_BLOCK_STR, length);
    if (status != SPX_HEAP_OK)
        return status;
    *out = joined(heap, s->of.bytes + i, (apr_size_t)length, NULL, 0);
    return SPX_HEAP_OK;
}

spx_heap_status_t spx_str_chr(spx_heap_t *heap, int64_t c, spx_value_block_t **out)
{
    if (c < 0 || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
        return fail(heap, SPX_R0515, "chr(%" PRId64 ") is not a Unicode scalar value", c);
    char bytes[4];
    apr_size_t length = spx_utf8_encode((unsigned long)c, bytes);
    return spx_str_make(heap, (const unsigned char *)bytes, length, out);
}

/* How stoi's messages show s: quoted, its first STOI_SHOWN bytes at most
 * (cut at a character boundary, then "..."), with '"', '\\' and control
 * bytes escaped as in a string literal. */
#define STOI_SHOWN 32u
static void quote_for_message(const spx_value_block_t *s, char *out, apr_size_t room)
{
    apr_size_t shown = spx_utf8_cut(s->of.bytes, s->length, STOI_SHOWN);
    apr_size_t at = 0;
    out[at++] = '"';
    for (apr_size_t i = 0; i < shown && at + 8 < room; i++) {
        unsigned char byte = s->of.bytes[i];
        if (byte == '"' || byte == '\\') {
            out[at++] = '\\';
            out[at++] = (char)byte;
        } else if (byte == '\n') {
            out[at++] = '\\';
            out[at++] = 'n';
        } else if (byte == '\t') {
            out[at++] = '\\';
            out[at++] = 't';
        } else if (byte < 0x20 || byte == 0x7f) {
            at += (apr_size_t)snprintf(out + at, room - at, "\\x%02x", byte);
        } else {
            out[at++] = (char)byte;
        }
    }
    if (shown < s->length)
        at += (apr_size_t)snprintf(out + at, room - at, "...");
    out[at++] = '"';
    out[at] = '\0';
}

spx_heap_status_t spx_str_stoi(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *s,
                               int64_t *out)
{
    spx_heap_status_t status = charge(heap, fuel, s->length);
    if (status != SPX_HEAP_OK)
        return status;
    const unsigned char *bytes = s->of.bytes;
    apr_size_t length = s->length, i = 0;
    int negative = length > 0 && bytes[0] == '-';
    i = negative ? 1 : 0;
    int digits = i < length;
    for (apr_size_t k = i; k < length; k++)
        digits = digits && bytes[k] >= '0' && bytes[k] <= '9';
    char shown[STOI_SHOWN * 4 + 16];
    if (!digits) {
        quote_for_message(s, shown, sizeof(shown));
        return fail(heap, SPX_R0516, "stoi(%s): not a decimal integer", shown);
    }
    /* Accumulate negatively: -2^63 has no positive counterpart. */
    int64_t value = 0;
    for (; i < length; i++) {
        int digit = bytes[i] - '0';
        if (value < (INT64_MIN + digit) / 10) {
            quote_for_message(s, shown, sizeof(shown));
            return fail(heap, SPX_R0520, "stoi(%s): out of range", shown);
        }
        value = value * 10 - digit;
    }
    if (!negative) {
        if (value == INT64_MIN) {
            quote_for_message(s, shown, sizeof(shown));
            return fail(heap, SPX_R0520, "stoi(%s): out of range", shown);
        }
        value = -value;
    }
    *out = value;
    return SPX_HEAP_OK;
}

/* ---- arrays -------------------------------------------------------------------- */

spx_heap_status_t spx_array_make(spx_heap_t *heap, uint64_t *fuel, int elements_are_blocks,
                                 const spx_value_t *elements, apr_size_t count,
                                 spx_value_block_t **out)
{
    spx_heap_status_t status = before_creating(heap, fuel, count, SPX_BLOCK_ARRAY, count);
    if (status != SPX_HEAP_OK)
        return status;
    spx_value_block_t *array = new_block(heap, SPX_BLOCK_ARRAY, (uint32_t)count, (uint32_t)count);
    array->elements_are_blocks = elements_are_blocks ? 1 : 0;
    if (count)
        memcpy(array->slots, elements, count * sizeof(spx_value_t));
    *out = array;
    return SPX_HEAP_OK;
}

spx_heap_status_t spx_array_get(spx_heap_t *heap, const spx_value_block_t *a, int64_t i,
                                spx_value_t *out)
{
    spx_heap_status_t status = index_allows(heap, i, a->length);
    if (status != SPX_HEAP_OK)
        return status;
    *out = a->slots[i];
    if (a->elements_are_blocks)
        spx_block_hold(out->b);
    return SPX_HEAP_OK;
}

/* The n of holding length elements of block: SPX_LIMIT_HELD_ELEMENT_N each
 * when it is an array of blocks, else 1 each (saturating). */
static uint64_t held_n(const spx_value_block_t *block, uint64_t length)
{
    if (block->kind != SPX_BLOCK_ARRAY || !block->elements_are_blocks)
        return length;
    return length > UINT64_MAX / SPX_LIMIT_HELD_ELEMENT_N ? UINT64_MAX
                                                          : length * SPX_LIMIT_HELD_ELEMENT_N;
}

spx_heap_status_t spx_array_slice(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *a,
                                  int64_t i, int64_t j, spx_value_block_t **out)
{
    spx_heap_status_t status = slice_allows(heap, i, j, a->length);
    if (status != SPX_HEAP_OK)
        return status;
    uint64_t length = (uint64_t)(j - i);
    status = before_creating(heap, fuel, held_n(a, length), SPX_BLOCK_ARRAY, length);
    if (status != SPX_HEAP_OK)
        return status;
    spx_value_block_t *slice = new_block(heap, SPX_BLOCK_ARRAY, (uint32_t)length, (uint32_t)length);
    slice->elements_are_blocks = a->elements_are_blocks;
    if (length)
        memcpy(slice->slots, a->slots + i, (apr_size_t)length * sizeof(spx_value_t));
    hold_slots(slice, slice->slots, 0, (apr_size_t)length);
    *out = slice;
    return SPX_HEAP_OK;
}

spx_heap_status_t spx_array_concat(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *a,
                                   const spx_value_block_t *b, spx_value_block_t **out)
{
    uint64_t length = (uint64_t)a->length + b->length;
    spx_heap_status_t status =
        before_creating(heap, fuel, held_n(a, length), SPX_BLOCK_ARRAY, length);
    if (status != SPX_HEAP_OK)
        return status;
    spx_value_block_t *joined_array =
        new_block(heap, SPX_BLOCK_ARRAY, (uint32_t)length, (uint32_t)length);
    joined_array->elements_are_blocks = a->elements_are_blocks;
    if (a->length)
        memcpy(joined_array->slots, a->slots, a->length * sizeof(spx_value_t));
    if (b->length)
        memcpy(joined_array->slots + a->length, b->slots, b->length * sizeof(spx_value_t));
    hold_slots(joined_array, joined_array->slots, 0, (apr_size_t)length);
    *out = joined_array;
    return SPX_HEAP_OK;
}

spx_heap_status_t spx_value_concat(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *a,
                                   const spx_value_block_t *b, spx_value_block_t **out)
{
    return a->kind == SPX_BLOCK_STR ? spx_str_concat(heap, fuel, a, b, out)
                                    : spx_array_concat(heap, fuel, a, b, out);
}

/* The capacity an array of capacity slots grows to so that it holds
 * length (the push's doubling, 4 at first, as often as needed). */
static uint32_t capacity_for(uint32_t capacity, uint64_t length);

static spx_heap_status_t grow_array_in_place(spx_heap_t *heap, uint64_t *fuel,
                                             spx_value_block_t **slot, const spx_value_block_t *e,
                                             uint64_t key_n)
{
    spx_value_block_t *x = *slot;
    uint64_t length = (uint64_t)x->length + e->length;
    uint64_t e_n = held_n(x, e->length);
    spx_heap_status_t status =
        charge(heap, fuel, e_n > UINT64_MAX - key_n ? UINT64_MAX : e_n + key_n);
    if (status == SPX_HEAP_OK)
        status = array_length_allows(heap, length);
    if (status != SPX_HEAP_OK || e->length == 0) /* nothing to grow */
        return status;
    uint32_t capacity = x->capacity < length ? capacity_for(x->capacity, length) : x->capacity;
    status = memory_allows(heap, 0, SLOT_BYTES * (uint64_t)(capacity - x->capacity));
    if (status != SPX_HEAP_OK)
        return status;
    if (x->capacity < capacity) {
        grow_live(heap, SLOT_BYTES * (uint64_t)(capacity - x->capacity));
        if (capacity > slots_room(x))
            x = spx_reallocate(x, sizeof(spx_value_block_t) +
                                      (apr_size_t)capacity * sizeof(spx_value_t));
        x->capacity = capacity;
        *slot = x;
    }
    memcpy(x->slots + x->length, e->slots, e->length * sizeof(spx_value_t));
    hold_slots(x, x->slots + x->length, x->length, e->length);
    x->length = (uint32_t)length;
    return SPX_HEAP_OK;
}

/* spx_block_make_checked's every case but a small block that a freed one
 * makes. */
static SPX_NOINLINE spx_heap_status_t make_checked(spx_heap_t *heap, uint64_t *fuel, uint64_t n,
                                                   spx_block_kind_t kind, uint32_t length,
                                                   spx_value_block_t **out)
{
    spx_heap_status_t status = before_creating(heap, fuel, n, kind, length);
    if (status == SPX_HEAP_OK)
        *out = new_block(heap, kind, length, length);
    return status;
}

spx_heap_status_t spx_block_make_checked(spx_heap_t *heap, uint64_t *fuel, uint64_t n,
                                         spx_block_kind_t kind, uint32_t length,
                                         spx_value_block_t **out)
{
    uint32_t class = spare_class(kind, length);
    if (class && class == length && n < 64 && heap->spare_small[class - 1] &&
        heap->live + block_bytes(kind, length) <= heap->max_memory) {
        /* before_creating and new_block for a small block (an enum's
         * payloads) that a freed one of its size makes: a charge of 0
         * steps, no length limit near, memory allowed */
        heap->charged_n = n;
        spx_value_block_t *block = take_spare(heap, class);
        start_block(heap, block, kind, length, length);
        *out = block;
        return SPX_HEAP_OK;
    }
    return make_checked(heap, fuel, n, kind, length, out);
}

/* ---- structs ------------------------------------------------------------------- */

spx_heap_status_t spx_struct_make(spx_heap_t *heap, uint64_t *fuel, const spx_struct_shape_t *shape,
                                  const spx_value_t *fields, spx_value_block_t **out)
{
    uint32_t count = shape->field_count;
    spx_heap_status_t status = before_creating(heap, fuel, count, SPX_BLOCK_STRUCT, count);
    if (status != SPX_HEAP_OK)
        return status;
    spx_value_block_t *record = new_block(heap, SPX_BLOCK_STRUCT, count, count);
    record->of.shape = shape;
    memcpy(record->slots, fields, count * sizeof(spx_value_t));
    *out = record;
    return SPX_HEAP_OK;
}

/* ---- places ---------------------------------------------------------------------- */

/* What a resolved place is for: a write of its last step's slot; push (or
 * insert: the array grows by one), pop, another edit of the array at its
 * end (a library method's, spx_library.h), or m.remove(k) (language v3). */
typedef enum place_action_t {
    PLACE_WRITE,
    PLACE_PUSH,
    PLACE_POP,
    PLACE_EDIT,
    PLACE_REMOVE_KEY
} place_action_t;

/* The slot step names in block: an array's element, a struct's field, a
 * map's value (NULL: its key is missing). */
static spx_value_t *step_slot(const spx_heap_t *heap, spx_value_block_t *block, int64_t step)
{
    if (block->kind == SPX_BLOCK_MAP)
        return spx_map_slot(heap, block, spx_map_step_key(block, step));
    return &block->slots[step];
}

/* The capacity a push into a full array of capacity slots grows it to. */
static uint32_t grown_capacity(uint32_t capacity)
{
    uint64_t grown = capacity ? (uint64_t)capacity * 2 : 4;
    return (uint32_t)(grown > SPX_LIMIT_ARRAY_LENGTH ? SPX_LIMIT_ARRAY_LENGTH : grown);
}

static uint32_t capacity_for(uint32_t capacity, uint64_t length)
{
    while (capacity < length && capacity < SPX_LIMIT_ARRAY_LENGTH)
        capacity = grown_capacity(capacity);
    return capacity;
}

/* A one-level copy of block (an array or struct): the same values in its
 * slots, each block among them held once more. One holder; no spare
 * capacity. */
static spx_value_block_t *one_level_copy(spx_heap_t *heap, const spx_value_block_t *block)
{
    spx_value_block_t *copy =
        new_block(heap, (spx_block_kind_t)block->kind, block->length, block->length);
    copy->elements_are_blocks = block->elements_are_blocks;
    if (block->kind == SPX_BLOCK_STRUCT)
        copy->of.shape = block->of.shape;
    if (block->length)
        memcpy(copy->slots, block->slots, block->length * sizeof(spx_value_t));
    hold_slots(copy, copy->slots, 0, block->length);
    heap->copies++;
    return copy;
}

/* Resolve a place for action: check every index and map key (and, for
 * pop, that the array is not empty); then the copies' charge (with
 * operation_n, the operation's own n: one rounding), push's length (an
 * insertion's), each copy's memory and push's growth (an insertion's); then
 * make the copies. On success heap->path[k] is the slot that holds the k-th
 * block of the path (heap->path[0] = root), for k < blocks, every one of
 * those blocks now having one holder. Language v3: a map step looks its key
 * up (its n, len(k) for a str, added to the operation's); a missing key is
 * R0522 but at the last step of a write, which inserts it; for
 * PLACE_REMOVE_KEY the path ends at a map and *removing is the key: when
 * it is absent only the n is charged and *blocks_out is 0. */
static spx_heap_status_t resolve(spx_heap_t *heap, uint64_t *fuel, spx_value_block_t **root,
                                 const int64_t *steps, apr_size_t step_count, place_action_t action,
                                 uint64_t operation_n, const spx_value_t *removing,
                                 apr_size_t *blocks_out)
{
    /* The blocks on the path: the containers of the steps, and for push and
     * pop the array at the end. */
    apr_size_t blocks = action == PLACE_WRITE ? step_count : step_count + 1;
    SPX_ASSERT(blocks >= 1);
    if (blocks > heap->path_capacity) {
        heap->path_capacity = blocks > 16 ? blocks : 16;
        heap->path = spx_reallocate(heap->path, heap->path_capacity * sizeof(*heap->path));
    }
    spx_value_block_t **at = root;
    apr_size_t first_shared = blocks;
    uint64_t own_n = operation_n; /* and the str keys the place looks up */
    int inserting = 0;
    for (apr_size_t k = 0; k < blocks; k++) {
        spx_value_block_t *block = *at;
        heap->path[k] = at;
        SPX_ASSERT(block && block->kind != SPX_BLOCK_STR);
        if (first_shared == blocks && block->holders >= 2)
            first_shared = k;
        if (k == step_count) /* push or pop's array */
            break;
        int64_t step = steps[k];
        if (block->kind == SPX_BLOCK_ARRAY) {
            spx_heap_status_t status = index_allows(heap, step, block->length);
            if (status != SPX_HEAP_OK)
                return status;
        } else if (block->kind == SPX_BLOCK_MAP) {
            spx_value_t key = spx_map_step_key(block, step);
            own_n += spx_map_key_n(block, key);
            spx_value_t *slot = spx_map_slot(heap, block, key);
            if (slot) {
                at = &slot->b;
                continue;
            }
            if (action != PLACE_WRITE || k + 1 != step_count) /* only the last step inserts */
                return spx_map_missing(heap, block, key);
            inserting = 1;
            break;
        } else {
            SPX_ASSERT(step >= 0 && (uint64_t)step < block->length);
        }
        at = &block->slots[step].b;
    }
    spx_value_block_t *last = *heap->path[blocks - 1];
    if (action == PLACE_PUSH || action == PLACE_POP)
        SPX_ASSERT(last->kind == SPX_BLOCK_ARRAY);
    if (action == PLACE_POP && last->length == 0)
        return fail(heap, SPX_R0514, "pop of an empty array");
    if (action == PLACE_REMOVE_KEY) {
        SPX_ASSERT(last->kind == SPX_BLOCK_MAP);
        own_n += spx_map_key_n(last, *removing);
        if (!spx_map_slot(heap, last, *removing)) { /* nothing to copy or change */
            *blocks_out = 0;
            return charge(heap, fuel, own_n);
        }
        own_n += spx_map_entries_after(heap, last, *removing);
    }

    /* The write as one operation (language v2: the size charge first, then
     * the length limit, then memory): the copies' charge, n their lengths
     * summed and rounded down once, then push's length, then each copy's
     * memory and push's growth.
     * Worked out before anything changes. */
    spx_heap_status_t status = SPX_HEAP_OK;
    uint64_t left = *fuel, more = 0, n = own_n;
    for (apr_size_t k = first_shared; k < blocks; k++) { /* saturating: own_n may be huge */
        const spx_value_block_t *copied = *heap->path[k];
        uint64_t copy_n = held_n(copied, copied->length);
        n = n > UINT64_MAX - copy_n ? UINT64_MAX : n + copy_n;
    }
    heap->charged_n = n;
    if (n / 64 > left)
        return SPX_HEAP_OUT_OF_FUEL;
    left -= n / 64;
    if (action == PLACE_PUSH)
        status = array_length_allows(heap, (uint64_t)last->length + 1);
    if (inserting)
        status = spx_map_length_allows(heap, (uint64_t)last->length + 1);
    for (apr_size_t k = first_shared; k < blocks && status == SPX_HEAP_OK; k++) {
        const spx_value_block_t *block = *heap->path[k];
        uint64_t size = BLOCK_BYTES + payload_bytes((spx_block_kind_t)block->kind, block->length);
        status = memory_allows(heap, more, size);
        more += size;
    }
    if (status == SPX_HEAP_OK && inserting) /* a copy has no spare capacity */
        status =
            memory_allows(heap, more,
                          spx_map_growth_bytes(
                              last->length, first_shared < blocks ? last->length : last->capacity));
    if (status == SPX_HEAP_OK && action == PLACE_PUSH) {
        /* a copy has no spare capacity */
        uint32_t capacity = first_shared < blocks ? last->length : last->capacity;
        if (last->length == capacity)
            status = memory_allows(heap, more,
                                   SLOT_BYTES * (uint64_t)(grown_capacity(capacity) - capacity));
    }
    *fuel = left; /* what was charged is paid, also when a check after it fails */
    if (status != SPX_HEAP_OK)
        return status;

    /* The copies, from the root down: each copied block keeps its other
     * holders and loses the one of the slot, which holds the copy now. */
    for (apr_size_t k = first_shared; k < blocks; k++) {
        at = k == 0 ? root : &step_slot(heap, *heap->path[k - 1], steps[k - 1])->b;
        heap->path[k] = at;
        spx_value_block_t *block = *at;
        spx_value_block_t *copy =
            block->kind == SPX_BLOCK_MAP ? spx_map_copy(heap, block) : one_level_copy(heap, block);
        SPX_ASSERT(block->holders >= 2);
        block->holders--;
        *at = copy;
    }
    *blocks_out = blocks;
    return SPX_HEAP_OK;
}

spx_heap_status_t spx_place_write(spx_heap_t *heap, uint64_t *fuel, spx_value_block_t **root,
                                  const int64_t *steps, apr_size_t step_count, spx_value_t value)
{
    SPX_ASSERT(step_count >= 1);
    apr_size_t blocks = 0;
    spx_heap_status_t status =
        resolve(heap, fuel, root, steps, step_count, PLACE_WRITE, 0, NULL, &blocks);
    if (status != SPX_HEAP_OK)
        return status;
    spx_value_block_t *container = *heap->path[blocks - 1];
    if (container->kind == SPX_BLOCK_MAP) { /* language v3: replace, or insert last */
        spx_value_t key = spx_map_step_key(container, steps[step_count - 1]);
        spx_value_t *slot = spx_map_slot(heap, container, key);
        if (!slot) {
            spx_map_insert(heap, heap->path[blocks - 1], key, value);
            return SPX_HEAP_OK;
        }
        spx_value_t old = *slot;
        *slot = value;
        if (container->elements_are_blocks)
            spx_block_release(heap, old.b);
        return SPX_HEAP_OK;
    }
    apr_size_t slot = (apr_size_t)steps[step_count - 1];
    spx_value_t old = container->slots[slot];
    container->slots[slot] = value;
    if (slot_is_block(container, slot))
        spx_block_release(heap, old.b);
    return SPX_HEAP_OK;
}

/* The array in *at (held by *at alone, its growth's memory allowed) with
 * room for one more element: a full one doubles its capacity. */
static spx_value_block_t *room_for_one(spx_heap_t *heap, spx_value_block_t **at)
{
    spx_value_block_t *array = *at;
    if (array->length == array->capacity) {
        uint32_t capacity = grown_capacity(array->capacity);
        grow_live(heap, SLOT_BYTES * (uint64_t)(capacity - array->capacity));
        if (capacity > slots_room(array))
            array = spx_reallocate(array, sizeof(spx_value_block_t) +
                                              (apr_size_t)capacity * sizeof(spx_value_t));
        array->capacity = capacity;
        *at = array;
    }
    return array;
}

/* After the array in *at (held by *at alone) lost an element: half its
 * storage goes back once its length is under a quarter of it (the measure
 * counts the capacity), so a pop costs amortised O(1) still. */
static void give_back(spx_heap_t *heap, spx_value_block_t **at)
{
    spx_value_block_t *array = *at;
    if (array->capacity > 16 && array->length < array->capacity / 4) {
        uint32_t capacity = array->capacity / 2;
        heap->live -= SLOT_BYTES * (uint64_t)(array->capacity - capacity);
        array = spx_reallocate(array, sizeof(spx_value_block_t) +
                                          (apr_size_t)capacity * sizeof(spx_value_t));
        array->capacity = capacity;
        *at = array;
    }
}

spx_heap_status_t spx_place_push(spx_heap_t *heap, uint64_t *fuel, spx_value_block_t **root,
                                 const int64_t *steps, apr_size_t step_count, spx_value_t value)
{
    apr_size_t blocks = 0;
    spx_heap_status_t status =
        resolve(heap, fuel, root, steps, step_count, PLACE_PUSH, 0, NULL, &blocks);
    if (status != SPX_HEAP_OK)
        return status;
    spx_value_block_t *array = room_for_one(heap, heap->path[blocks - 1]);
    array->slots[array->length++] = value;
    return SPX_HEAP_OK;
}

spx_heap_status_t spx_place_pop(spx_heap_t *heap, uint64_t *fuel, spx_value_block_t **root,
                                const int64_t *steps, apr_size_t step_count, spx_value_t *out)
{
    apr_size_t blocks = 0;
    spx_heap_status_t status =
        resolve(heap, fuel, root, steps, step_count, PLACE_POP, 0, NULL, &blocks);
    if (status != SPX_HEAP_OK)
        return status;
    spx_value_block_t **at = heap->path[blocks - 1];
    spx_value_block_t *array = *at;
    *out = array->slots[--array->length];
    give_back(heap, at);
    return SPX_HEAP_OK;
}

/* ---- for the standard library (spx_library.h) -------------------------------- */

spx_heap_status_t spx_heap_fail_with(spx_heap_t *heap, spx_runtime_code_t code, const char *message)
{
    return fail(heap, code, "%s", message);
}

spx_heap_status_t spx_heap_charge(spx_heap_t *heap, uint64_t *fuel, uint64_t n)
{
    return charge(heap, fuel, n);
}

spx_heap_status_t spx_heap_before_creating(spx_heap_t *heap, uint64_t *fuel, uint64_t n,
                                           spx_block_kind_t kind, uint64_t length)
{
    return before_creating(heap, fuel, n, kind, length);
}

spx_heap_status_t spx_heap_string_length_allows(spx_heap_t *heap, uint64_t length)
{
    return string_length_allows(heap, length);
}

spx_heap_status_t spx_heap_array_length_allows(spx_heap_t *heap, uint64_t length)
{
    return array_length_allows(heap, length);
}

uint64_t spx_heap_block_bytes(spx_block_kind_t kind, uint64_t length)
{
    return BLOCK_BYTES + payload_bytes(kind, length);
}

spx_value_block_t *spx_heap_new_block(spx_heap_t *heap, spx_block_kind_t kind, uint32_t length)
{
    return new_block(heap, kind, length, length);
}

spx_heap_status_t spx_place_array(spx_heap_t *heap, spx_value_block_t *const *root,
                                  const int64_t *steps, apr_size_t step_count,
                                  const spx_value_block_t **array)
{
    const spx_value_block_t *block = *root;
    for (apr_size_t k = 0; k < step_count; k++) {
        if (block->kind == SPX_BLOCK_MAP) { /* language v3: a key, looked up */
            spx_value_t key = spx_map_step_key(block, steps[k]);
            const spx_value_t *slot = spx_map_slot(heap, block, key);
            if (!slot)
                return spx_map_missing(heap, block, key);
            block = slot->b;
            continue;
        }
        if (block->kind == SPX_BLOCK_ARRAY) {
            spx_heap_status_t status = index_allows(heap, steps[k], block->length);
            if (status != SPX_HEAP_OK)
                return status;
        }
        block = block->slots[steps[k]].b;
    }
    SPX_ASSERT(block->kind == SPX_BLOCK_ARRAY);
    *array = block;
    return SPX_HEAP_OK;
}

spx_heap_status_t spx_place_edit(spx_heap_t *heap, uint64_t *fuel, spx_value_block_t **root,
                                 const int64_t *steps, apr_size_t step_count, uint64_t own_n,
                                 int grows, spx_value_block_t ***array)
{
    apr_size_t blocks = 0;
    spx_heap_status_t status = resolve(heap, fuel, root, steps, step_count,
                                       grows ? PLACE_PUSH : PLACE_EDIT, own_n, NULL, &blocks);
    if (status != SPX_HEAP_OK)
        return status;
    *array = heap->path[blocks - 1];
    if (grows)
        room_for_one(heap, *array);
    return SPX_HEAP_OK;
}

void spx_array_gave_one(spx_heap_t *heap, spx_value_block_t **at)
{
    give_back(heap, at);
}

/* Language v3's compound assignment reads its place here and appends
 * through it in spx_place_append. A map key step of a place ("m[k] += v")
 * is looked up (R0522 when missing) and charged len(k) for a str key at
 * this read, and again where the write resolves the place (the append's
 * n, or the write's). */
spx_heap_status_t spx_place_read(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *root,
                                 const int64_t *steps, apr_size_t step_count, spx_value_t *out)
{
    SPX_ASSERT(step_count >= 1);
    const spx_value_block_t *block = root;
    uint64_t n = 0; /* the str map keys looked up */
    for (apr_size_t k = 0;; k++) {
        int64_t step = steps[k];
        const spx_value_t *slot;
        int holds_block;
        if (block->kind == SPX_BLOCK_MAP) {
            spx_value_t key = spx_map_step_key(block, step);
            uint64_t key_n = spx_map_key_n(block, key);
            n = n > UINT64_MAX - key_n ? UINT64_MAX : n + key_n;
            slot = spx_map_slot(heap, block, key);
            if (!slot)
                return spx_map_missing(heap, block, key);
            holds_block = block->elements_are_blocks;
        } else {
            if (block->kind == SPX_BLOCK_ARRAY) {
                spx_heap_status_t status = index_allows(heap, step, block->length);
                if (status != SPX_HEAP_OK)
                    return status;
            }
            slot = &block->slots[step];
            holds_block = slot_is_block(block, (apr_size_t)step);
        }
        if (k == step_count - 1) {
            spx_heap_status_t status = charge(heap, fuel, n);
            if (status != SPX_HEAP_OK)
                return status;
            *out = *slot;
            if (holds_block)
                spx_block_hold(out->b);
            return SPX_HEAP_OK;
        }
        block = slot->b;
    }
}

spx_heap_status_t spx_place_append(spx_heap_t *heap, uint64_t *fuel, spx_value_block_t **root,
                                   const int64_t *steps, apr_size_t step_count,
                                   spx_value_block_t *read, const spx_value_block_t *e)
{
    /* The slot test: P resolves, every block above P's own has one holder,
     * and P's slot still holds the block read, held by it and the read. */
    spx_value_block_t **at = root;
    int in_place = 1;
    uint64_t key_n = 0; /* P's map-key charges (language v3) */
    for (apr_size_t k = 0; k < step_count && in_place; k++) {
        spx_value_block_t *block = *at;
        int64_t step = steps[k];
        if (block->holders != 1 ||
            (block->kind == SPX_BLOCK_ARRAY && (step < 0 || (uint64_t)step >= block->length))) {
            in_place = 0;
        } else if (block->kind == SPX_BLOCK_MAP) {
            spx_value_t key = spx_map_step_key(block, step);
            uint64_t n = spx_map_key_n(block, key);
            key_n = key_n > UINT64_MAX - n ? UINT64_MAX : key_n + n;
            spx_value_t *slot = spx_map_slot(heap, block, key);
            if (slot)
                at = &slot->b;
            else
                in_place = 0;
        } else {
            at = &block->slots[step].b;
        }
    }
    if (in_place && *at == read && read->holders == 2 && read != e) {
        read->holders--; /* the read's holder: the slot holds it alone now */
        spx_heap_status_t status = grow_in_place(heap, fuel, at, e, key_n);
        if (status != SPX_HEAP_OK)
            read->holders++; /* nothing consumed: the block did not move */
        return status;
    }
    /* v2's way: the value read and e concatenated, then an ordinary write. */
    spx_value_block_t *value = NULL;
    spx_heap_status_t status = spx_value_concat(heap, fuel, read, e, &value);
    if (status != SPX_HEAP_OK)
        return status;
    if (step_count == 0) {
        spx_value_block_t *old = *root;
        *root = value;
        spx_block_release(heap, old);
    } else {
        spx_value_t written;
        written.b = value;
        status = spx_place_write(heap, fuel, root, steps, step_count, written);
        if (status != SPX_HEAP_OK) {
            spx_block_release(heap, value);
            return status;
        }
    }
    spx_block_release(heap, read);
    return SPX_HEAP_OK;
}

/* ---- comparison ------------------------------------------------------------------ */

/* The bytes two strings examine (up to and including the first difference,
 * or the shorter length), and whether they are equal. */
static uint64_t compare_strings(const spx_value_block_t *a, const spx_value_block_t *b, int *equal)
{
    uint32_t shorter = a->length < b->length ? a->length : b->length;
    const unsigned char *x = a->of.bytes, *y = b->of.bytes;
    uint32_t at = 0;
    /* Whole chunks that match, by memcmp; then byte by byte. */
    while (shorter - at >= 256 && memcmp(x + at, y + at, 256) == 0)
        at += 256;
    while (at < shorter && x[at] == y[at])
        at++;
    if (at < shorter) {
        *equal = 0;
        return (uint64_t)at + 1;
    }
    *equal = a->length == b->length;
    return shorter;
}

static void push_frame(spx_heap_t *heap, apr_size_t *depth, const spx_value_block_t *a,
                       const spx_value_block_t *b)
{
    if (*depth == heap->frame_capacity) {
        heap->frame_capacity = heap->frame_capacity ? heap->frame_capacity * 2 : 16;
        heap->frames = spx_reallocate(heap->frames, heap->frame_capacity * sizeof(*heap->frames));
    }
    heap->frames[(*depth)++] = (spx_compare_frame_t){a, b, 0};
}

spx_heap_status_t spx_values_equal(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *a,
                                   const spx_value_block_t *b, int *equal, uint64_t *examined)
{
    /* Past budget, n / 64 cannot be paid: stop examining. */
    uint64_t budget = *fuel > (UINT64_MAX - 63) / 64 ? UINT64_MAX : *fuel * 64 + 63;
    uint64_t n = 0, positions = 0;
    int same = 1;
    apr_size_t depth = 0;
    if (spx_enum_heads_differ(a, b, &n, &same))
        ; /* v3: enums of other variants, or constants */
    else if (spx_enum_is_block(a))
        push_frame(heap, &depth, a, b);
    else if (a->kind == SPX_BLOCK_STR)
        n = compare_strings(a, b, &same);
    else if ((a->kind == SPX_BLOCK_ARRAY || a->kind == SPX_BLOCK_MAP) && a->length != b->length)
        same = 0;
    else
        push_frame(heap, &depth, a, b);
    while (depth && same && n <= budget) {
        spx_compare_frame_t *top = &heap->frames[depth - 1];
        if (top->next == top->a->length) {
            depth--;
            continue;
        }
        if (heap->interrupt && ++positions % SPX_COMPARE_POLL_POSITIONS == 0 &&
            heap->interrupt->poll(heap->interrupt->context) == 0)
            return SPX_HEAP_INTERRUPTED;
        uint32_t k = top->next++;
        const spx_value_block_t *x = top->a, *y = top->b;
        n++;
        spx_value_t left = x->slots[k], right = y->slots[k];
        int nested = 0;
        if (x->kind == SPX_BLOCK_MAP) {
            /* language v3: the left's entries in its order, each key looked
             * up in the right (its n: len(k) for a str) */
            spx_value_t key = x->slots[2u * k];
            uint64_t key_n = spx_map_key_n(x, key);
            n = key_n > UINT64_MAX - n ? UINT64_MAX : n + key_n;
            const spx_value_t *found = spx_map_slot(heap, y, key);
            if (!found) {
                same = 0;
                continue;
            }
            left = x->slots[2u * k + 1];
            right = *found;
            nested = x->elements_are_blocks;
        } else {
            nested = slot_is_block(x, k);
            if (nested && x->kind == SPX_BLOCK_ARRAY && k + SPX_PREFETCH_SLOTS < x->length) {
                /* scattered elements: their headers fetched ahead */
                SPX_PREFETCH_WRITE(x->slots[k + SPX_PREFETCH_SLOTS].b);
                SPX_PREFETCH_WRITE(y->slots[k + SPX_PREFETCH_SLOTS].b);
            }
        }
        if (!nested) {
            same = left.i == right.i;
            continue;
        }
        const spx_value_block_t *u = left.b, *v = right.b;
        n += NESTED_BLOCK_EXAMINED;
        if (spx_enum_heads_differ(u, v, &n, &same)) {
            continue; /* v3: enums of other variants, or constants */
        } else if (spx_enum_is_block(u)) {
            push_frame(heap, &depth, u, v); /* top is stale from here */
        } else if (u->kind == SPX_BLOCK_STR) {
            uint64_t bytes = compare_strings(u, v, &same);
            n = bytes > UINT64_MAX - n ? UINT64_MAX : n + bytes;
        } else if ((u->kind == SPX_BLOCK_ARRAY || u->kind == SPX_BLOCK_MAP) &&
                   u->length != v->length) {
            same = 0;
        } else {
            push_frame(heap, &depth, u, v); /* top is stale from here */
        }
    }
    if (examined)
        *examined = n;
    spx_heap_status_t status = charge(heap, fuel, n);
    if (status == SPX_HEAP_OK)
        *equal = same;
    return status;
}

spx_heap_status_t spx_str_order(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *a,
                                const spx_value_block_t *b, int *order)
{
    int equal = 0;
    uint64_t n = compare_strings(a, b, &equal);
    spx_heap_status_t status = charge(heap, fuel, n);
    if (status != SPX_HEAP_OK)
        return status;
    uint32_t shorter = a->length < b->length ? a->length : b->length;
    int bytes = shorter ? memcmp(a->of.bytes, b->of.bytes, shorter) : 0;
    if (bytes == 0)
        bytes = (a->length > b->length) - (a->length < b->length);
    *order = (bytes > 0) - (bytes < 0);
    return SPX_HEAP_OK;
}

/* ---- what values_map.c borrows (values_internal.h) ------------------------------- */

spx_heap_status_t spx_heap_memory_allows(spx_heap_t *heap, uint64_t already, uint64_t more)
{
    return memory_allows(heap, already, more);
}

void spx_heap_grow(spx_heap_t *heap, uint64_t bytes)
{
    grow_live(heap, bytes);
}

spx_heap_status_t spx_array_gather(spx_heap_t *heap, uint64_t *fuel, int elements_are_blocks,
                                   const spx_value_t *source, apr_size_t count, apr_size_t stride,
                                   spx_value_block_t **out)
{
    spx_heap_status_t status = before_creating(heap, fuel, count, SPX_BLOCK_ARRAY, count);
    if (status != SPX_HEAP_OK)
        return status;
    spx_value_block_t *array = new_block(heap, SPX_BLOCK_ARRAY, (uint32_t)count, (uint32_t)count);
    array->elements_are_blocks = elements_are_blocks ? 1 : 0;
    for (apr_size_t i = 0; i < count; i++)
        array->slots[i] = source[i * stride];
    hold_slots(array, array->slots, 0, count);
    *out = array;
    return SPX_HEAP_OK;
}

spx_heap_status_t spx_place_remove_key(spx_heap_t *heap, uint64_t *fuel, spx_value_block_t **root,
                                       const int64_t *steps, apr_size_t step_count, spx_value_t key,
                                       int *removed)
{
    apr_size_t blocks = 0;
    spx_heap_status_t status =
        resolve(heap, fuel, root, steps, step_count, PLACE_REMOVE_KEY, 0, &key, &blocks);
    if (status != SPX_HEAP_OK)
        return status;
    *removed = blocks != 0;
    if (blocks)
        spx_map_erase(heap, heap->path[blocks - 1], key);
    return SPX_HEAP_OK;
}
