/*
 * spx_vm.h: the compiled program and the metered interpreter (language.md,
 * Execution).
 *
 * compile.c turns the checked HIR into a compact register bytecode
 * (spx_program_t, opaque here; spx_program.h builds it) during Phase A; it
 * is the only file of the execution engine that reads the syntax tree. vm.c runs one function of a
 * program with fuel, a call-depth limit and a bounded output buffer, and never recurses in C per
 * Semaprax call: frames live in an array of max_call_depth entries. Every instruction carries the
 * steps charged before it runs, so a run's step count is exactly the count of language.md, and
 * every instruction that can stop a run can name its source span.
 * A run may be given an interrupt, which it asks between steps whether to
 * go on (a daemon's deadline per call, a client's cancellation): the engine
 * reads no clock itself.
 * docs/execution.md describes the bytecode, the R05xx failures and the
 * decisions the specification leaves open.
 */
#ifndef SPX_VM_H
#define SPX_VM_H

#include "spx_diagnostics.h"
#include "spx_status.h"

#include <apr_pools.h>
#include <stdint.h>

typedef struct spx_program_t spx_program_t;

/* The limits of one run (each test gets its own, fresh). */
typedef struct spx_run_limits_t {
    uint64_t max_steps;      /* fuel, SPX_LIMIT_MAX_STEPS_* */
    apr_size_t max_bytes;    /* output kept, SPX_LIMIT_MAX_BYTES_* */
    unsigned max_call_depth; /* 1..SPX_LIMIT_CALL_DEPTH_MAXIMUM */
    uint64_t max_memory;     /* live value memory, 0..SPX_LIMIT_MAX_MEMORY_MAXIMUM (language v2) */
    /* v3: what args() gives (semaprax run's arguments, valid UTF-8, each
     * outliving the run); none in every test. Not a limit, but a run's. */
    const char *const *arguments;
    apr_size_t argument_count;
    /* v3: which of max_steps, max_memory and max_call_depth the command did
     * NOT give (SPX_RUN_UNSET_*): their values here are defaults, which a
     * test's key or the manifest's [limits] replace; 0: all given. */
    unsigned unset;
} spx_run_limits_t;

#define SPX_RUN_UNSET_STEPS 1u
#define SPX_RUN_UNSET_MEMORY 2u
#define SPX_RUN_UNSET_DEPTH 4u
#define SPX_RUN_UNSET_ALL 7u

/* The limits with every default of spx_limits.h. */
spx_run_limits_t spx_run_limits_default(void);

typedef enum spx_outcome_t {
    SPX_OUTCOME_RETURNED = 0, /* the function returned: value is set */
    SPX_OUTCOME_LANGUAGE_FAILURE,
    SPX_OUTCOME_FUEL_EXHAUSTED,
    SPX_OUTCOME_DEPTH_EXHAUSTED
} spx_outcome_t;

/* Why a run stopped before returning (outputs.md, "failure"). */
typedef struct spx_failure_t {
    const char *code;    /* "R0501": spx_runtime_code_name (docs/execution.md) */
    const char *message; /* one sentence, no final period */
    const char *path;    /* the source of the span */
    spx_span_t span;
} spx_failure_t;

typedef struct spx_run_result_t {
    spx_outcome_t outcome;
    int64_t value;  /* when RETURNED */
    uint64_t steps; /* exactly max_steps when FUEL_EXHAUSTED */
    const char *output;
    apr_size_t output_length; /* <= max_bytes, cut at a UTF-8 boundary */
    int output_truncated;
    uint64_t memory_peak;  /* the highest live memory of the run (language v2, Memory) */
    spx_failure_t failure; /* when not RETURNED */
    /* The limits it ran under (their arguments not kept): what a sentence
     * about the limit that stopped it names (spx_run_stopped_by). */
    spx_run_limits_t limits;
} spx_run_result_t;

/* The limit that stopped a run, if one did: max_steps (fuel exhausted),
 * max_memory (R0521), max_call_depth (a call past it; not a frame whose
 * registers are full, which no limit raises). */
typedef enum spx_run_limit_kind_t {
    SPX_RUN_LIMIT_NONE = 0,
    SPX_RUN_LIMIT_STEPS,
    SPX_RUN_LIMIT_MEMORY,
    SPX_RUN_LIMIT_DEPTH
} spx_run_limit_kind_t;

spx_run_limit_kind_t spx_run_stopped_by(const spx_run_result_t *result);

/* Run function index (a function of no parameters returning int, as the
 * entry and tests are) under limits. The output and failure texts are
 * allocated in pool. APR_SUCCESS whatever the program did; APR_EINVAL for a
 * bad index or limits (memory running out is fatal: spx_allocation.h). */
apr_status_t spx_vm_run(const spx_program_t *program, long function, const spx_run_limits_t *limits,
                        spx_run_result_t *result, apr_pool_t *pool);

/* What a run asks, between steps, whether it may go on. poll answers 0 to
 * stop the run now, or else how many more steps the run may take before it
 * asks again (at least 1; the run may ask sooner, as it does in the middle
 * of a long comparison). The run asks first before its first step. The
 * steps, outputs and outcome of a run that is not stopped are those it has
 * without an interrupt: only the wall-clock time between two questions
 * depends on the answers. */
typedef struct spx_run_interrupt_t {
    uint64_t (*poll)(void *context);
    void *context;
} spx_run_interrupt_t;

/* spx_vm_run, asking interrupt (NULL: never) between steps: when it answers
 * stop, the run ends at once with SPX_STATUS_INTERRUPTED and no result. */
apr_status_t spx_vm_run_interruptible(const spx_program_t *program, long function,
                                      const spx_run_limits_t *limits,
                                      const spx_run_interrupt_t *interrupt,
                                      spx_run_result_t *result, apr_pool_t *pool);

#endif /* SPX_VM_H */
