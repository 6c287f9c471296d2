/*
 * spx_allocation.h: the one out-of-memory policy of both programs.
 *
 * A failed allocation is fatal, as APR's pool abort function, Redis's
 * zmalloc and SQLite's "malloc failed" path each make it one decision:
 * whatever asked for the memory, the program writes one line to stderr
 * ("semaprax: out of memory: stopping", "semapraxd: ..." in the daemon)
 * and exits with
 * SPX_EXIT_OUT_OF_MEMORY, without flushing stdout, so no partial answer or
 * document is ever written. Nothing above this header checks an allocation:
 *
 * - APR pools: every pool descends from the root pool a program makes with
 *   spx_root_pool, whose abort function is spx_out_of_memory_abort, and APR
 *   calls a pool's abort function whenever it cannot allocate (pools inherit
 *   it from their parent), so apr_palloc and apr_pool_create never fail.
 * - Jansson: spx_allocation_policy_install routes its allocations through
 *   the same path (json_set_alloc_funcs).
 * - The engine and the transport's own buffers use spx_allocate and
 *   spx_reallocate, which never return NULL.
 *
 * Tests (docs/reliability.md, Out of memory) make the Nth allocation of one
 * phase take that path: the allocation gate, enabled only in test builds.
 */
#ifndef SPX_ALLOCATION_H
#define SPX_ALLOCATION_H

#include <apr_pools.h>
#include <stddef.h>

/* The exit status after a failed allocation (docs/reliability.md; the man
 * pages of both programs list it). */
#define SPX_EXIT_OUT_OF_MEMORY 3

/* Say so on stderr and exit with SPX_EXIT_OUT_OF_MEMORY; stdout is not
 * flushed. */
_Noreturn void spx_out_of_memory(void);

/* The same, as an APR pool abort function. */
int spx_out_of_memory_abort(int status);

/* Jansson's allocations through the policy, and program ("semaprax",
 * "semapraxd": static) the name the out-of-memory line begins with. With
 * gate_allowed (the test-only
 * daemon), the gate is read from SPX_TEST_ALLOCATION=PHASE:N (the Nth
 * allocation counted in PHASE takes the out-of-memory path) or
 * SPX_TEST_ALLOCATION=PHASE:count (at the end of PHASE, stderr says
 * "allocations in PHASE: N"). Call once, first thing in main. */
void spx_allocation_policy_install(const char *program, int gate_allowed);

/* A top-level pool (its parent is APR's global pool) whose abort function
 * is spx_out_of_memory_abort, and whose allocator (APR's global one) keeps
 * at most free_kept_bytes of the memory its pools free for reuse and gives
 * the rest back to the C library (apr_allocator_max_free_set). */
apr_pool_t *spx_root_pool(apr_size_t free_kept_bytes);

/* malloc and realloc that never return NULL (size 0 is taken as 1). */
void *spx_allocate(size_t size);
void *spx_reallocate(void *memory, size_t size);

/* Where the gate counts: between the start and the end of the named phase
 * ("open", "graph", "context", "test"). No-ops unless the gate is on. */
void spx_allocation_phase_start(const char *phase);
void spx_allocation_phase_end(const char *phase);

#endif /* SPX_ALLOCATION_H */
