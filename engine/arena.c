/*
 * arena.c: the Phase A bump allocator and identifier table (spx_arena.h).
 *
 * Chunks (SPX_ARENA_SMALL_CHUNKS small ones from the pool, then large ones of
 * bulk memory) are kept, so a cleared arena reuses them; a request larger
 * than a quarter of the chunks the arena now takes gets memory of its own
 * (from the pool while the arena is small, bulk memory after), held by a
 * subpool (made at the first such request) that a clear empties, so the
 * tail a chunk wastes stays small. The identifier table is open addressing
 * with linear probing over slots that hold a name's first bytes as a word,
 * its hash, size and text, grown at half full.
 */
#include "spx_arena.h"
#include "spx_name_table.h"

#include "spx_assert.h"
#include "spx_limits.h"
#include "spx_platform.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Chunks form a list in the order they were taken, so that a cleared arena
 * hands out the same memory again before it asks the pool for more. */
typedef struct chunk_t {
    struct chunk_t *next;
    apr_size_t size; /* of bytes */
    char bytes[];
} chunk_t;

typedef struct intern_slot_t {
    uint64_t word; /* the first bytes (spx_intern_word): the whole name up to 8 bytes */
    uint32_t hash;
    uint32_t size;
    const char *text; /* NULL: empty slot */
} intern_slot_t;

struct spx_arena_t {
    spx_arena_space_t space; /* first: the inline allocation reads it (spx_arena.h) */
    apr_pool_t *pool;
    apr_pool_t *large; /* requests over a quarter chunk; made for the first */
    chunk_t *first;
    chunk_t *current;
    apr_size_t chunk_count;
    int large_expected;   /* spx_arena_expect: bulk memory from the next chunk on */
    intern_slot_t *slots; /* the identifier table; capacity a power of two */
    apr_size_t capacity;
    apr_size_t used;
};

spx_arena_t *spx_arena_make(apr_pool_t *pool)
{
    spx_arena_t *arena = apr_pcalloc(pool, sizeof(*arena));
    arena->pool = pool;
    return arena;
}

void spx_arena_expect(spx_arena_t *arena, apr_size_t bytes)
{
    if (bytes > SPX_ARENA_CHUNK_BYTES)
        arena->large_expected = 1;
}

/* Whether the arena takes bulk memory: once it has grown past its small
 * chunks, or when told it will. */
static int takes_bulk(const spx_arena_t *arena)
{
    return arena->large_expected || arena->chunk_count >= SPX_ARENA_SMALL_CHUNKS;
}

/* The first chunks are small and come from the pool, so a small project
 * stays small; once an arena has grown past them it takes large chunks of
 * bulk memory (huge pages where the system has them). */
static chunk_t *new_chunk(spx_arena_t *arena)
{
    chunk_t *chunk = NULL;
    apr_size_t size = SPX_ARENA_CHUNK_BYTES;
    if (takes_bulk(arena)) {
        chunk = spx_bulk_memory(SPX_ARENA_LARGE_CHUNK_BYTES, arena->pool);
        size = SPX_ARENA_LARGE_CHUNK_BYTES - sizeof(chunk_t);
    }
    if (!chunk) {
        chunk = apr_palloc(arena->pool, sizeof(chunk_t) + SPX_ARENA_CHUNK_BYTES);
        size = SPX_ARENA_CHUNK_BYTES;
    }
    chunk->next = NULL;
    chunk->size = size;
    arena->chunk_count++;
    return chunk;
}

/* How many bytes after at the next address aligned to alignment (a power of
 * two) is. */
static apr_size_t padding(const char *at, apr_size_t alignment)
{
    return (apr_size_t)(-(uintptr_t)at & (alignment - 1));
}

/* size bytes aligned to alignment (a power of two, at most
 * SPX_ARENA_ANY_ALIGNMENT). Interned text asks for 1: it is packed. */
static void *take(spx_arena_t *arena, apr_size_t size, apr_size_t alignment)
{
    int grown = takes_bulk(arena);
    if (size > (grown ? SPX_ARENA_LARGE_CHUNK_BYTES : SPX_ARENA_CHUNK_BYTES) / 4) {
        /* Most arenas never take one (a quick look at a module's imports
         * makes one arena per module): the subpool waits for the first. */
        if (!arena->large)
            apr_pool_create(&arena->large, arena->pool);
        char *memory = grown ? spx_bulk_memory(size, arena->large) : NULL;
        if (memory)
            return memory; /* page-aligned */
        /* APR aligns to 8 bytes only. */
        memory = apr_palloc(arena->large, size + alignment - 1);
        return memory + padding(memory, alignment);
    }
    apr_size_t pad = arena->space.next ? padding(arena->space.next, alignment) : 0;
    if (!arena->space.next || pad + size > arena->space.left) {
        chunk_t *chunk = arena->current ? arena->current->next : arena->first;
        if (!chunk) {
            chunk = new_chunk(arena);
            if (arena->current)
                arena->current->next = chunk;
            else
                arena->first = chunk;
        }
        arena->current = chunk;
        arena->space.next = chunk->bytes;
        arena->space.left = chunk->size;
        pad = padding(arena->space.next, alignment); /* a chunk holds far more than pad + size */
    }
    char *memory = arena->space.next + pad;
    arena->space.next = memory + size;
    arena->space.left -= pad + size;
    return memory;
}

void *spx_arena_take(spx_arena_t *arena, apr_size_t size, apr_size_t alignment)
{
    SPX_ASSERT(alignment > 0 && alignment <= SPX_ARENA_ANY_ALIGNMENT &&
               (alignment & (alignment - 1)) == 0);
    return take(arena, size, alignment);
}

void *spx_arena_copy(spx_arena_t *arena, const void *data, apr_size_t size, apr_size_t alignment)
{
    void *copy = spx_arena_alloc(arena, size ? size : 1, alignment);
    if (size)
        memcpy(copy, data, size);
    return copy;
}

void spx_arena_clear(spx_arena_t *arena)
{
    if (arena->large)
        apr_pool_clear(arena->large);
    arena->current = NULL;
    arena->space.next = NULL;
    arena->space.left = 0;
    arena->used = 0;
    if (arena->capacity)
        memset(arena->slots, 0, arena->capacity * sizeof(*arena->slots));
}

/* A short name's hash: its word times a large odd constant, high bits
 * (spread well enough for a table indexed by the low bits of the result). */
static uint32_t hash_word(uint64_t word, apr_size_t size)
{
    return (uint32_t)(((word ^ size) * UINT64_C(0x9e3779b97f4a7c15)) >> 29);
}

/* Whether the size bytes at a and b are the same: a name is a few bytes,
 * which a loop compares in less than a call of memcmp takes. */
static int same_bytes(const char *a, const char *b, apr_size_t size)
{
    for (apr_size_t i = 0; i < size; i++)
        if (a[i] != b[i])
            return 0;
    return 1;
}

static void grow_table(spx_arena_t *arena)
{
    apr_size_t capacity = arena->capacity ? arena->capacity * 2 : 1024;
    intern_slot_t *slots = apr_pcalloc(arena->pool, capacity * sizeof(*slots));
    for (apr_size_t i = 0; i < arena->capacity; i++) {
        if (!arena->slots[i].text)
            continue;
        apr_size_t at = arena->slots[i].hash & (capacity - 1);
        while (slots[at].text)
            at = (at + 1) & (capacity - 1);
        slots[at] = arena->slots[i];
    }
    arena->slots = slots;
    arena->capacity = capacity;
}

/* Interning by the general path: the table made or grown as needed, the
 * bytes found or added. word is the name's first bytes (zero past its
 * size), the whole name when it is short. */
static const char *intern(spx_arena_t *arena, const char *text, apr_size_t size, uint64_t word,
                          uint32_t hash)
{
    if (2 * (arena->used + 1) > arena->capacity)
        grow_table(arena);
    apr_size_t mask = arena->capacity - 1, at = hash & mask;
    for (; arena->slots[at].text; at = (at + 1) & mask) {
        const intern_slot_t *slot = &arena->slots[at];
        if (slot->word == word && slot->size == size &&
            (size <= SPX_INTERN_WORD_BYTES || same_bytes(slot->text, text, size)))
            return slot->text;
    }
    char *copy = take(arena, size + 1, 1);
    memcpy(copy, text, size);
    copy[size] = '\0';
    arena->slots[at].word = word;
    arena->slots[at].hash = hash;
    arena->slots[at].size = (uint32_t)size;
    arena->slots[at].text = copy;
    arena->used++;
    return copy;
}

const char *spx_arena_intern(spx_arena_t *arena, const char *text, apr_size_t size)
{
    /* The first bytes as spx_intern_word reads them, without reading past
     * the end of text. */
    uint64_t word = 0;
    if (size <= SPX_INTERN_WORD_BYTES) {
        char bytes[SPX_INTERN_WORD_BYTES] = {0};
        if (size)
            memcpy(bytes, text, size);
        word = spx_intern_word(bytes, size);
        return intern(arena, text, size, word, hash_word(word, size));
    }
    memcpy(&word, text, sizeof(word));
    return intern(arena, text, size, word, spx_bytes_hash(text, size));
}

/* Most names a lexer meets are interned already: they are looked up here
 * by one compare per slot, and only a new one (or the first) takes the
 * general path, which looks again and adds it. The table is never full
 * (it grows at half), so the search ends at an empty slot. */
const char *spx_arena_intern_word(spx_arena_t *arena, const char *text, apr_size_t size,
                                  uint64_t word)
{
    SPX_ASSERT(size <= SPX_INTERN_WORD_BYTES);
    uint32_t hash = hash_word(word, size);
    if (arena->capacity) {
        apr_size_t mask = arena->capacity - 1, at = hash & mask;
        for (; arena->slots[at].text; at = (at + 1) & mask) {
            const intern_slot_t *slot = &arena->slots[at];
            if (slot->word == word && slot->size == size)
                return slot->text;
        }
    }
    return intern(arena, text, size, word, hash);
}
