/*
 * held.c: a long-lived front end's held project (spx_op_held.h): opening,
 * adopting a written transaction's project, and the re-authentication that
 * says whether the held project may still answer.
 */
#include "spx_op_held.h"

#include "spx_status.h"

#include <apr_strings.h>

void spx_op_held_init(spx_op_held_t *held, const char *manifest_path, apr_pool_t *parent)
{
    held->manifest_path = apr_pstrdup(parent, manifest_path);
    held->parent = parent;
    held->project = NULL;
    held->project_pool = NULL;
    held->unavailable = NULL;
    held->earlier_phase_a_runs = held->earlier_authentications = held->earlier_source_reads = 0;
}

/* The current project's own work (nothing when none is held). */
static spx_op_held_work_t current_work(const spx_op_held_t *held)
{
    spx_op_held_work_t work = {0, 0, 0};
    if (!held->project)
        return work;
    const spx_input_set_t *inputs = spx_project_inputs(held->project);
    if (inputs) {
        spx_input_counters_t counters = spx_input_set_counters(inputs);
        work.authentications = counters.authentications;
        work.source_reads = counters.source_reads;
    }
    work.phase_a_runs = spx_project_phase_a_runs(held->project);
    return work;
}

spx_op_held_work_t spx_op_held_work(const spx_op_held_t *held)
{
    spx_op_held_work_t work = current_work(held);
    work.phase_a_runs += held->earlier_phase_a_runs;
    work.authentications += held->earlier_authentications;
    work.source_reads += held->earlier_source_reads;
    return work;
}

/* Count the current project's work among the earlier projects'. */
static void count_current(spx_op_held_t *held)
{
    spx_op_held_work_t work = current_work(held);
    held->earlier_phase_a_runs += work.phase_a_runs;
    held->earlier_authentications += work.authentications;
    held->earlier_source_reads += work.source_reads;
}

void spx_op_held_open(spx_op_held_t *held)
{
    count_current(held);
    held->project = NULL;
    if (held->project_pool)
        apr_pool_destroy(held->project_pool);
    apr_pool_create(&held->project_pool, held->parent);
    const char *message = NULL;
    apr_status_t status =
        spx_project_open(&held->project, held->manifest_path, held->project_pool, &message);
    held->unavailable = NULL;
    if (status != APR_SUCCESS) {
        char reason[256];
        held->project = NULL;
        held->unavailable = apr_pstrdup(
            held->project_pool, message ? message : spx_strerror(status, reason, sizeof(reason)));
    }
}

void spx_op_held_adopt(spx_op_held_t *held, spx_project_t *fresh, apr_pool_t *fresh_pool)
{
    apr_pool_t *old_pool = held->project_pool;
    count_current(held);
    held->project = fresh;
    held->project_pool = fresh_pool;
    held->unavailable = NULL;
    if (old_pool)
        apr_pool_destroy(old_pool);
}

spx_op_held_state_t spx_op_held_check(spx_op_held_t *held, spx_op_held_excuse_t excuse,
                                      void *context, apr_array_header_t **drift, apr_pool_t *pool)
{
    *drift = apr_array_make(pool, 0, sizeof(spx_drift_t));
    spx_input_set_t *inputs = held->project ? spx_project_inputs(held->project) : NULL;
    if (!inputs)
        return SPX_OP_HELD_NONE;
    apr_array_header_t *found = NULL;
    if (spx_input_set_reauthenticate(inputs, pool, &found) != APR_SUCCESS)
        return SPX_OP_HELD_UNVERIFIABLE;
    for (int i = 0; i < found->nelts; i++) {
        const spx_drift_t *record = &APR_ARRAY_IDX(found, i, spx_drift_t);
        if (!excuse || !excuse(context, record->path))
            APR_ARRAY_PUSH(*drift, spx_drift_t) = *record;
    }
    return (*drift)->nelts > 0 ? SPX_OP_HELD_DRIFTED : SPX_OP_HELD_CURRENT;
}
