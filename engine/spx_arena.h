/*
 * spx_arena.h: bulk memory for Phase A, and the identifier table that lives
 * in it.
 *
 * A Phase A build allocates millions of small objects (syntax nodes, names,
 * index records) that all live exactly as long as the project. An APR pool
 * fits that lifetime, but Debian's APR maps every 8 KiB pool block with its
 * own mmap() and unmaps it again when the pool goes, so a large project
 * spent most of its time in the kernel. The arena takes memory from its pool
 * in large chunks and hands it out by bumping a pointer: one system call per
 * chunk instead of one per 8 KiB, no per-object header, nothing freed on its
 * own. (APR has no block-size setting, and no packaged library offers a bump
 * allocator over APR pools; this is the small piece written by hand.)
 *
 * The identifier table interns names: every spelling is stored once, so the
 * same name in a thousand places costs one copy, and two interned names are
 * equal exactly when their pointers are.
 */
#ifndef SPX_ARENA_H
#define SPX_ARENA_H

#include "spx_assert.h"
#include "spx_limits.h"

#include <apr_pools.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct spx_arena_t spx_arena_t;

/* An arena whose chunks come from pool (and go with it). */
spx_arena_t *spx_arena_make(apr_pool_t *pool);

/* Tell the arena it will hold about bytes in all: when that is more than a
 * small chunk (SPX_ARENA_CHUNK_BYTES), its next chunks and large requests
 * are bulk memory at once, so a large project does not fill small pages
 * first (one page fault each). */
void spx_arena_expect(spx_arena_t *arena, apr_size_t bytes);

/* Forget everything allocated (and interned) so far and hand the same
 * chunks out again: Phase A clears a module's body arena once the module's
 * bodies are checked and indexed. */
void spx_arena_clear(spx_arena_t *arena);

/* The strictest alignment the arena gives: that of any object
 * (_Alignof(max_align_t), 16 bytes on x86-64 and arm64). */
#define SPX_ARENA_ANY_ALIGNMENT ((apr_size_t) _Alignof(max_align_t))

/* size bytes aligned to alignment, a power of two no greater than
 * SPX_ARENA_ANY_ALIGNMENT: uninitialised, zeroed, or a copy of data (at
 * least one byte is taken, so a copy of none is not NULL). Phase A stores
 * millions of small objects of known type, so each asks for its type's
 * alignment (the macros below) and costs no padding beyond it. */
static inline void *spx_arena_alloc(spx_arena_t *arena, apr_size_t size, apr_size_t alignment);
static inline void *spx_arena_calloc(spx_arena_t *arena, apr_size_t size, apr_size_t alignment);
void *spx_arena_copy(spx_arena_t *arena, const void *data, apr_size_t size, apr_size_t alignment);

/* The free space of the arena's current chunk, the first member of every
 * arena: the common allocation (a small object that fits) is a few
 * instructions inline, the rest is spx_arena_take's. Only the functions
 * here read or write it. */
typedef struct spx_arena_space_t {
    char *next;      /* NULL before the first chunk and after a clear */
    apr_size_t left; /* bytes from next to the chunk's end; 0 when next is NULL */
} spx_arena_space_t;

/* Any allocation (spx_arena_alloc's contract), by the general path. */
void *spx_arena_take(spx_arena_t *arena, apr_size_t size, apr_size_t alignment);

static inline void *spx_arena_alloc(spx_arena_t *arena, apr_size_t size, apr_size_t alignment)
{
    SPX_ASSERT(alignment > 0 && alignment <= SPX_ARENA_ANY_ALIGNMENT &&
               (alignment & (alignment - 1)) == 0);
    spx_arena_space_t *space = (spx_arena_space_t *)(void *)arena;
    apr_size_t pad = (apr_size_t)(-(uintptr_t)space->next & (alignment - 1));
    /* Strictly less: left is then not 0, so next is not NULL; a request
     * that fills the chunk exactly, or a large one, goes the general way. */
    if (size <= SPX_ARENA_CHUNK_BYTES / 4 && pad + size < space->left) {
        char *memory = space->next + pad;
        space->next = memory + size;
        space->left -= pad + size;
        return memory;
    }
    return spx_arena_take(arena, size, alignment);
}

static inline void *spx_arena_calloc(spx_arena_t *arena, apr_size_t size, apr_size_t alignment)
{
    return memset(spx_arena_alloc(arena, size, alignment), 0, size);
}

/* One zeroed object of type; an uninitialised array of count objects of
 * type; a copy of the count objects of type at data. */
#define SPX_ARENA_NEW(arena, type) ((type *)spx_arena_calloc((arena), sizeof(type), _Alignof(type)))
#define SPX_ARENA_ARRAY(arena, type, count)                                                        \
    ((type *)spx_arena_alloc((arena), (apr_size_t)(count) * sizeof(type), _Alignof(type)))
#define SPX_ARENA_COPY(arena, type, data, count)                                                   \
    ((type *)spx_arena_copy((arena), (data), (apr_size_t)(count) * sizeof(type), _Alignof(type)))

/* The interned, NUL-terminated copy of the size bytes at text: the same
 * pointer for the same bytes, for the arena's whole life. */
const char *spx_arena_intern(spx_arena_t *arena, const char *text, apr_size_t size);

/* Most names are at most SPX_INTERN_WORD_BYTES long: the identifier table
 * keys such a name by its bytes read as one word, the bytes past its size
 * zero (spx_intern_word), so that finding it compares one word and its
 * size, and a lexer that reads names in place needs no hash of its own. */
#define SPX_INTERN_WORD_BYTES 8u

/* The word of the size bytes at text (size at most SPX_INTERN_WORD_BYTES);
 * the SPX_INTERN_WORD_BYTES bytes at text must all be readable (those past
 * size are read and masked off). */
static inline uint64_t spx_intern_word(const char *text, apr_size_t size)
{
    /* The mask of the first size bytes in memory order: size bytes of ones
     * from prefix_mask + 8 - size, whatever the byte order of a word. */
    static const unsigned char prefix_mask[2 * SPX_INTERN_WORD_BYTES] = {
        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0};
    uint64_t word, mask;
    memcpy(&word, text, sizeof(word));
    memcpy(&mask, prefix_mask + SPX_INTERN_WORD_BYTES - size, sizeof(mask));
    return word & mask;
}

/* spx_arena_intern for a name of at most SPX_INTERN_WORD_BYTES whose word
 * (spx_intern_word) the caller has read. */
const char *spx_arena_intern_word(spx_arena_t *arena, const char *text, apr_size_t size,
                                  uint64_t word);

#endif /* SPX_ARENA_H */
