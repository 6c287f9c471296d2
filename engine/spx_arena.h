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

typedef struct spx_arena_t spx_arena_t;

/* An arena whose chunks come from pool (and go with it). */
spx_arena_t *spx_arena_make(apr_pool_t *pool);

/* Forget everything allocated (and interned) so far and hand the same
 * chunks out again: Phase A clears a module's body arena once the module's
 * bodies are checked and indexed. */
void spx_arena_clear(spx_arena_t *arena);

/* size bytes, aligned for any object; uninitialised / zeroed. */
void *spx_arena_alloc(spx_arena_t *arena, apr_size_t size);
void *spx_arena_calloc(spx_arena_t *arena, apr_size_t size);

/* A copy of size bytes of data in the arena. */
void *spx_arena_copy(spx_arena_t *arena, const void *data, apr_size_t size);

/* The interned, NUL-terminated copy of the size bytes at text: the same
 * pointer for the same bytes, for the arena's whole life. */
const char *spx_arena_intern(spx_arena_t *arena, const char *text, apr_size_t size);

#endif /* SPX_ARENA_H */
