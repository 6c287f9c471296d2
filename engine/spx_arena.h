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

#include <apr_pools.h>
#include <stddef.h>

typedef struct spx_arena_t spx_arena_t;

/* An arena whose chunks come from pool (and go with it). */
spx_arena_t *spx_arena_make(apr_pool_t *pool);

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
void *spx_arena_alloc(spx_arena_t *arena, apr_size_t size, apr_size_t alignment);
void *spx_arena_calloc(spx_arena_t *arena, apr_size_t size, apr_size_t alignment);
void *spx_arena_copy(spx_arena_t *arena, const void *data, apr_size_t size, apr_size_t alignment);

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

#endif /* SPX_ARENA_H */
