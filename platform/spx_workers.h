/*
 * spx_workers.h: a small team of threads that run one job side by side.
 *
 * Re-authentication hashes every held file twice per semantic request; on a
 * large project that hashing is most of the request (docs/performance.md).
 * A team spreads such a job over the machine's processors: the calling thread
 * is member 0, and helper threads, started once and kept waiting, are the
 * others. The job itself decides, from its member number, which share of the
 * work is its own; members share nothing but what the job gives them.
 *
 * Portable: APR threads, mutexes and condition variables. The processor count
 * comes from the platform (spx_processor_count).
 */
#ifndef SPX_WORKERS_H
#define SPX_WORKERS_H

#include <apr_pools.h>

typedef struct spx_workers_t spx_workers_t;

/* One member's part of a job: member is 0 .. members-1, scratch a pool of that
 * member's own (cleared after the job), which nobody else touches meanwhile. */
typedef void spx_work_fn(void *job, unsigned member, unsigned members, apr_pool_t *scratch);

/* A team of up to `members` members (at least 1), fewer when the machine has
 * fewer processors or a helper thread cannot be started. Each helper thread
 * has a stack of stack_bytes; the helpers are stopped and joined when pool is
 * cleaned up. */
apr_status_t spx_workers_create(spx_workers_t **workers, unsigned members, apr_size_t stack_bytes,
                                apr_pool_t *pool);

/* How many members the team has (1 means the caller works alone). */
unsigned spx_workers_members(const spx_workers_t *workers);

/* Run work(job, member, members, scratch) once on every member at the same
 * time, and return when all have finished. Not reentrant: one job at a time. */
void spx_workers_run(spx_workers_t *workers, spx_work_fn *work, void *job);

#endif /* SPX_WORKERS_H */
