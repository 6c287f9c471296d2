/*
 * allocation.c: the out-of-memory policy (spx_allocation.h) and, for tests,
 * the allocation gate that sends the Nth counted allocation of a phase down
 * the same path.
 *
 * The gate (and the program's name, for the out-of-memory line) is the one
 * piece of process-wide state in the programs: Jansson's allocation
 * functions are process-wide and take no context, so what they consult
 * cannot hang off a session. It is set once, by main, before any other
 * thread starts, and the gate is switched on only in the test-only daemon.
 */
#include "spx_allocation.h"

#include <apr_allocator.h>

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct allocation_gate_t {
    int enabled;           /* the test-only daemon, with SPX_TEST_ALLOCATION set */
    char phase[32];        /* the phase it counts in */
    int counting;          /* "PHASE:count": report the count at the phase's end */
    unsigned long fail_at; /* "PHASE:N": the Nth allocation fails */
    int inside;            /* between spx_allocation_phase_start and _end */
    unsigned long count;   /* allocations counted in this phase so far */
} allocation_gate_t;

static allocation_gate_t gate;

/* The program the out-of-memory line names, set with the gate, by main. */
static const char *program_name = "semaprax";

_Noreturn void spx_out_of_memory(void)
{
    fputs(program_name, stderr);
    fputs(": out of memory: stopping\n", stderr);
    _Exit(SPX_EXIT_OUT_OF_MEMORY);
}

int spx_out_of_memory_abort(int status)
{
    (void)status;
    spx_out_of_memory();
}

/* One counted allocation: when the gate says this is the one to fail, the
 * out-of-memory path is taken as if the system had refused it. */
static void count_allocation(void)
{
    if (!gate.enabled || !gate.inside)
        return;
    gate.count++;
    if (!gate.counting && gate.count == gate.fail_at)
        spx_out_of_memory();
}

void *spx_allocate(size_t size)
{
    count_allocation();
    void *memory = malloc(size ? size : 1);
    if (!memory)
        spx_out_of_memory();
    return memory;
}

void *spx_reallocate(void *memory, size_t size)
{
    count_allocation();
    void *moved = realloc(memory, size ? size : 1);
    if (!moved)
        spx_out_of_memory();
    return moved;
}

static void *json_allocate(size_t size)
{
    return spx_allocate(size);
}

/* "PHASE:N" or "PHASE:count" into the gate; anything else leaves it off. */
static void read_gate(const char *setting)
{
    const char *colon = setting ? strchr(setting, ':') : NULL;
    if (!colon || (size_t)(colon - setting) >= sizeof(gate.phase) || colon == setting)
        return;
    memcpy(gate.phase, setting, (size_t)(colon - setting));
    gate.phase[colon - setting] = '\0';
    if (strcmp(colon + 1, "count") == 0) {
        gate.counting = 1;
    } else {
        char *end = NULL;
        gate.fail_at = strtoul(colon + 1, &end, 10);
        if (!end || *end || gate.fail_at == 0)
            return;
    }
    gate.enabled = 1;
}

void spx_allocation_policy_install(const char *program, int gate_allowed)
{
    program_name = program;
    json_set_alloc_funcs(json_allocate, free);
    if (gate_allowed)
        read_gate(getenv("SPX_TEST_ALLOCATION"));
}

apr_pool_t *spx_root_pool(apr_size_t free_kept_bytes)
{
    /* The pool draws on APR's global allocator, which stays reachable from a
     * static of APR's: the CLI never destroys its pool (see cli.c), and an
     * allocator of our own, referenced only from a pool block APR may have
     * mapped outside the heap, would look leaked to a leak checker. */
    apr_pool_t *pool = NULL;
    if (apr_pool_create_ex(&pool, NULL, spx_out_of_memory_abort, NULL) != APR_SUCCESS)
        spx_out_of_memory();
    apr_allocator_max_free_set(apr_pool_allocator_get(pool), free_kept_bytes);
    return pool;
}

void spx_allocation_phase_start(const char *phase)
{
    if (gate.enabled && strcmp(phase, gate.phase) == 0) {
        gate.inside = 1;
        gate.count = 0;
    }
}

void spx_allocation_phase_end(const char *phase)
{
    if (!gate.enabled || !gate.inside || strcmp(phase, gate.phase) != 0)
        return;
    gate.inside = 0;
    if (gate.counting)
        fprintf(stderr, "semaprax: allocations in %s: %lu\n", phase, gate.count);
}
