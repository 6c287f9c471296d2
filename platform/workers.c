/*
 * workers.c: a team of threads that run one job side by side (spx_workers.h).
 *
 * Each helper waits on a condition variable for the next job's generation
 * number, runs its share, and counts itself done; the caller runs member 0's
 * share meanwhile and then waits for the count. Every member has a pool with
 * an allocator of its own, because APR pools that share an allocator must not
 * be used from two threads at once.
 */
#include "spx_workers.h"

#include "spx_platform.h"

#include <apr_allocator.h>
#include <apr_thread_cond.h>
#include <apr_thread_mutex.h>
#include <apr_thread_proc.h>

typedef struct helper_t {
    spx_workers_t *team;
    unsigned member;
    apr_pool_t *scratch;
    apr_thread_t *thread;
} helper_t;

struct spx_workers_t {
    apr_thread_mutex_t *lock;
    apr_thread_cond_t *job_posted;
    apr_thread_cond_t *job_done;
    /* Under lock: */
    unsigned long generation; /* bumped for every job */
    unsigned finished;        /* helpers done with the current generation */
    int stopping;
    spx_work_fn *work;
    void *job;
    /* Fixed once started: */
    unsigned members;
    helper_t *helpers; /* members - 1 of them */
    apr_pool_t *own_scratch;
};

/* A pool on an allocator of its own, destroyed with its parent. */
static apr_status_t private_pool(apr_pool_t **pool, apr_pool_t *parent)
{
    apr_allocator_t *allocator = NULL;
    apr_status_t status = apr_allocator_create(&allocator);
    if (status != APR_SUCCESS)
        return status;
    status = apr_pool_create_ex(pool, parent, NULL, allocator);
    if (status != APR_SUCCESS) {
        apr_allocator_destroy(allocator);
        return status;
    }
    apr_allocator_owner_set(allocator, *pool);
    return APR_SUCCESS;
}

/* Returns instead of calling apr_thread_exit(), which would destroy the
 * thread's pool from this thread while the team's owner may use its parent. */
static void *APR_THREAD_FUNC helper_main(apr_thread_t *thread, void *data)
{
    (void)thread;
    helper_t *helper = data;
    spx_workers_t *team = helper->team;
    unsigned long seen = 0;
    apr_thread_mutex_lock(team->lock);
    for (;;) {
        while (!team->stopping && team->generation == seen)
            apr_thread_cond_wait(team->job_posted, team->lock);
        if (team->stopping)
            break;
        seen = team->generation;
        spx_work_fn *work = team->work;
        void *job = team->job;
        apr_thread_mutex_unlock(team->lock);
        work(job, helper->member, team->members, helper->scratch);
        apr_pool_clear(helper->scratch);
        apr_thread_mutex_lock(team->lock);
        team->finished++;
        apr_thread_cond_signal(team->job_done);
    }
    apr_thread_mutex_unlock(team->lock);
    return NULL;
}

/* Stop and join the helpers; registered before the pools they use go. */
static apr_status_t stop_helpers(void *data)
{
    spx_workers_t *team = data;
    apr_thread_mutex_lock(team->lock);
    team->stopping = 1;
    apr_thread_cond_broadcast(team->job_posted);
    apr_thread_mutex_unlock(team->lock);
    for (unsigned i = 0; i + 1 < team->members; i++) {
        apr_status_t ignored;
        apr_thread_join(&ignored, team->helpers[i].thread);
    }
    return APR_SUCCESS;
}

apr_status_t spx_workers_create(spx_workers_t **workers, unsigned members, apr_size_t stack_bytes,
                                apr_pool_t *pool)
{
    spx_workers_t *team = apr_pcalloc(pool, sizeof(*team));
    if (members < 1)
        members = 1;
    members = spx_processor_count(members);
    team->members = 1;
    apr_status_t status = private_pool(&team->own_scratch, pool);
    if (status == APR_SUCCESS)
        status = apr_thread_mutex_create(&team->lock, APR_THREAD_MUTEX_DEFAULT, pool);
    if (status == APR_SUCCESS)
        status = apr_thread_cond_create(&team->job_posted, pool);
    if (status == APR_SUCCESS)
        status = apr_thread_cond_create(&team->job_done, pool);
    apr_threadattr_t *attributes = NULL;
    if (status == APR_SUCCESS)
        status = apr_threadattr_create(&attributes, pool);
    if (status == APR_SUCCESS)
        status = apr_threadattr_stacksize_set(attributes, stack_bytes);
    if (status != APR_SUCCESS)
        return status;
    team->helpers = apr_pcalloc(pool, (members - 1) * sizeof(helper_t));
    /* Joined before any pool below is destroyed: pre-cleanups run first. */
    apr_pool_pre_cleanup_register(pool, team, stop_helpers);
    for (unsigned i = 0; i + 1 < members; i++) {
        helper_t *helper = &team->helpers[i];
        helper->team = team;
        helper->member = i + 1;
        if (private_pool(&helper->scratch, pool) != APR_SUCCESS ||
            apr_thread_create(&helper->thread, attributes, helper_main, helper, pool) !=
                APR_SUCCESS)
            break; /* a smaller team still works */
        team->members++;
    }
    *workers = team;
    return APR_SUCCESS;
}

unsigned spx_workers_members(const spx_workers_t *workers)
{
    return workers->members;
}

void spx_workers_run(spx_workers_t *workers, spx_work_fn *work, void *job)
{
    spx_workers_t *team = workers;
    if (team->members > 1) {
        apr_thread_mutex_lock(team->lock);
        team->work = work;
        team->job = job;
        team->finished = 0;
        team->generation++;
        apr_thread_cond_broadcast(team->job_posted);
        apr_thread_mutex_unlock(team->lock);
    }
    work(job, 0, team->members, team->own_scratch);
    apr_pool_clear(team->own_scratch);
    if (team->members > 1) {
        apr_thread_mutex_lock(team->lock);
        while (team->finished < team->members - 1)
            apr_thread_cond_wait(team->job_done, team->lock);
        apr_thread_mutex_unlock(team->lock);
    }
}
