/*
 * vm.c: the metered interpreter of the bytecode of vm_internal.h
 * (language.md, Execution).
 *
 * One loop dispatches instructions; a Semaprax call pushes a frame on an
 * array of max_call_depth frames and continues the same loop, so no C stack
 * is used per call; the registers of all frames together are bounded by
 * SPX_LIMIT_FRAME_REGISTERS whatever the depth. Before an instruction runs, its charge is taken
 * from the fuel; when the fuel cannot pay it, the run stops with exactly max_steps steps. Integers
 * are int64_t with every overflow checked. Strings, arrays and structs are blocks of spx_values.h
 * (language v2, Execution): the block registers are holders, values.c does the copy on write, the
 * size charges (paid from the same fuel, after the instruction's own charge) and the memory measure
 * against max_memory. print keeps at most max_bytes of output, cut at a UTF-8 boundary.
 *
 * A run with an interrupt (spx_vm.h) keeps its fuel in two parts: the slice, which the loop
 * spends, and the reserve. When the slice cannot pay a charge, the run asks the interrupt, which
 * stops it or says how many steps the next slice holds, taken from the reserve; so the loop's
 * own test of the fuel is the only cost of asking, and a run without an interrupt has no reserve.
 * An operation with a size charge is lent the whole fuel and spends the slice first.
 */
#include "spx_allocation.h"
#include "spx_assert.h"
#include "spx_compiler.h"
#include "spx_leb128.h"
#include "spx_int_arith.h"
#include "spx_library.h"
#include "spx_limits.h"
#include "spx_random.h"
#include "spx_utf8.h"
#include "spx_values.h"
#include "vm_internal.h"

#include <apr_strings.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The words of the failure of a call past max_call_depth, which
 * spx_run_stopped_by finds again (a frame whose registers are full says
 * otherwise: no limit raises it). */
#define AT_THE_DEPTH_LIMIT "call-depth limit"

typedef struct frame_t {
    const spx_vm_function_t *function;
    apr_size_t int_base;
    const spx_instr_t *resume; /* the caller's next instruction */
    apr_size_t block_base;     /* apart from int_base: read as a pair, they made vector moves */
} frame_t;

typedef struct vm_t {
    const spx_program_t *program;
    int64_t *ints;
    apr_size_t int_capacity;
    spx_value_block_t **blocks;
    apr_size_t block_capacity;
    frame_t *frames; /* max_call_depth of them */
    unsigned char *output;
    apr_size_t output_length, max_bytes;
    int output_truncated;
    spx_heap_t heap;     /* every string, array and struct of the run */
    spx_value_t *values; /* scratch: an array or struct literal's values */
    apr_size_t value_capacity;
    int64_t *steps; /* scratch: a place's steps */
    apr_size_t step_capacity;
    const spx_run_interrupt_t *interrupt; /* asked between steps, or NULL */
    struct {
        const char *const *values;
        apr_size_t count;
    } arguments; /* v3: what args() gives */
} vm_t;

spx_run_limits_t spx_run_limits_default(void)
{
    spx_run_limits_t limits = {SPX_LIMIT_MAX_STEPS_DEFAULT,
                               SPX_LIMIT_MAX_BYTES_DEFAULT,
                               SPX_LIMIT_CALL_DEPTH_DEFAULT,
                               SPX_LIMIT_MAX_MEMORY_DEFAULT,
                               NULL,
                               0,
                               0};
    return limits;
}

/* Release the block in a register and leave the register empty. */
static void drop(vm_t *vm, spx_value_block_t **slot)
{
    spx_block_release(&vm->heap, *slot);
    *slot = NULL;
}

/* Put value (a holder the caller passes on) into a register, releasing
 * what it held. */
static void assign(vm_t *vm, spx_value_block_t **slot, spx_value_block_t *value)
{
    spx_value_block_t *old = *slot;
    *slot = value;
    spx_block_release(&vm->heap, old);
}

/* Make room for a frame of function at the bases. The register files may move: the caller reloads
 * its pointers. Each file holds at least one register once reserved, so a frame's base pointer is
 * never arithmetic on NULL, even in a run whose functions have no block (or
 * no int) registers at all (found by fuzz_interpreter: UBSan's "applying
 * zero offset to null pointer"). */
static void reserve(vm_t *vm, const spx_vm_function_t *function, apr_size_t int_base,
                    apr_size_t block_base)
{
    apr_size_t int_need = int_base + function->int_registers;
    if (int_need == 0)
        int_need = 1;
    if (int_need > vm->int_capacity) {
        apr_size_t capacity = vm->int_capacity * 2 > int_need ? vm->int_capacity * 2 : int_need;
        if (capacity > SPX_LIMIT_FRAME_REGISTERS && int_need <= SPX_LIMIT_FRAME_REGISTERS)
            capacity = SPX_LIMIT_FRAME_REGISTERS; /* never more than the frames may use */
        vm->ints = spx_reallocate(vm->ints, capacity * sizeof(*vm->ints));
        vm->int_capacity = capacity;
    }
    apr_size_t block_need = block_base + function->block_registers;
    if (block_need == 0)
        block_need = 1;
    if (block_need > vm->block_capacity) {
        apr_size_t capacity =
            vm->block_capacity * 2 > block_need ? vm->block_capacity * 2 : block_need;
        if (capacity > SPX_LIMIT_FRAME_REGISTERS && block_need <= SPX_LIMIT_FRAME_REGISTERS)
            capacity = SPX_LIMIT_FRAME_REGISTERS;
        spx_value_block_t **blocks = spx_reallocate(vm->blocks, capacity * sizeof(*blocks));
        memset(blocks + vm->block_capacity, 0, (capacity - vm->block_capacity) * sizeof(*blocks));
        vm->blocks = blocks;
        vm->block_capacity = capacity;
    }
}

/* Set up a frame whose parameters are in place: constants copied in, every
 * other block register empty. Only the first below_top block registers of
 * the frame can hold anything: those past the caller's frame are empty,
 * as every frame leaves its registers empty (leave) and the files start
 * empty (reserve). */
static inline void enter(vm_t *vm, const spx_vm_function_t *function, apr_size_t int_base,
                         apr_size_t block_base, apr_size_t below_top)
{
    uint32_t count = function->int_const_count;
    if (count) { /* none in fib: its literals are immediates */
        int64_t *consts = vm->ints + int_base + function->int_const_base;
        const int64_t *values = function->int_consts;
        if (count % SPX_VM_CONST_GROUP == 0) /* a move of known size each: no call to memcpy */
            for (uint32_t i = 0; i < count; i += SPX_VM_CONST_GROUP)
                memcpy(consts + i, values + i, SPX_VM_CONST_GROUP * sizeof(*consts));
        else
            for (uint32_t i = 0; i < count; i++)
                consts[i] = values[i];
    }
    apr_size_t end = function->block_registers < below_top ? function->block_registers : below_top;
    if (end > function->block_params) {
        spx_value_block_t **blocks = vm->blocks + block_base;
        for (apr_size_t i = function->block_params; i < end; i++)
            if (blocks[i])
                drop(vm, &blocks[i]);
    }
}

/* Release the four block registers at blocks, some of which hold a block:
 * out of line, so that the returns in the loop keep their registers. */
static SPX_NOINLINE void drop_four(vm_t *vm, spx_value_block_t **blocks)
{
    for (uint32_t k = 0; k < 4; k++)
        if (blocks[k])
            drop(vm, &blocks[k]);
}

/* Release every block register of the frame (four at a time past those
 * that are empty). In line in the two returns: a call per return cost more
 * than the scan of a frame whose registers are mostly empty. */
static inline void leave(vm_t *vm, const frame_t *frame)
{
    uint32_t count = frame->function->block_registers, i = 0;
    if (count == 0)
        return;
    spx_value_block_t **blocks = vm->blocks + frame->block_base;
    for (; i + 4 <= count; i += 4) {
        if (((uintptr_t)blocks[i] | (uintptr_t)blocks[i + 1] | (uintptr_t)blocks[i + 2] |
             (uintptr_t)blocks[i + 3]) != 0)
            drop_four(vm, blocks + i);
    }
    for (; i < count; i++)
        if (blocks[i])
            drop(vm, &blocks[i]);
}

/* print: append s, keeping at most max_bytes, cut at a UTF-8 boundary. Once
 * cut, nothing more is kept, so the output is always a prefix. */
static void print(vm_t *vm, const spx_value_block_t *s)
{
    if (vm->output_truncated)
        return;
    apr_size_t room = vm->max_bytes - vm->output_length;
    apr_size_t take = s->length;
    if (take > room) {
        take = spx_utf8_cut(spx_str_bytes(s), s->length, room);
        vm->output_truncated = 1;
    }
    if (take)
        memcpy(vm->output + vm->output_length, spx_str_bytes(s), take);
    vm->output_length += take;
}

/* Room for count values (an array or struct literal's). */
static spx_value_t *value_room(vm_t *vm, apr_size_t count)
{
    if (count > vm->value_capacity) {
        vm->value_capacity = count > 2 * vm->value_capacity ? count : 2 * vm->value_capacity;
        vm->values = spx_reallocate(vm->values, vm->value_capacity * sizeof(*vm->values));
    }
    return vm->values;
}

/* The steps of the place at aux (vm_internal.h), read from the registers
 * I: index values, and field numbers (language v3: a map's key from I or
 * B, a str key as its block's address, spx_values.h). */
static const int64_t *place_steps(vm_t *vm, const int32_t *place, const int64_t *I,
                                  spx_value_block_t *const *B)
{
    apr_size_t count = (apr_size_t)place[1];
    if (count > vm->step_capacity) {
        vm->step_capacity = count > 2 * vm->step_capacity ? count : 2 * vm->step_capacity;
        vm->steps = spx_reallocate(vm->steps, vm->step_capacity * sizeof(*vm->steps));
    }
    for (apr_size_t k = 0; k < count; k++) {
        int32_t step = place[2 + k];
        if (step < 0) { /* a map's key */
            int32_t key = -1 - step;
            vm->steps[k] = key & 1 ? (int64_t)(intptr_t)B[key >> 2] : I[key >> 2];
            continue;
        }
        vm->steps[k] = step & 1 ? (int64_t)(step >> 1) : I[step >> 1];
    }
    return vm->steps;
}

/* Language v3: once an instruction through the place at aux is done, the
 * str map keys of its steps that were temporaries are released. */
static void release_place_keys(vm_t *vm, const int32_t *place, spx_value_block_t **B)
{
    for (int32_t k = 0; k < place[1]; k++) {
        int32_t step = place[2 + k];
        if (step < 0 && ((-1 - step) & 2))
            drop(vm, &B[(-1 - step) >> 2]);
    }
}

/* Language v3: a map instruction's key operand (vm_internal.h). */
static spx_value_t key_operand(int32_t key, const int64_t *I, spx_value_block_t *const *B)
{
    spx_value_t value;
    if (key & 1)
        value.b = B[key >> 1];
    else
        value.i = I[key >> 1];
    return value;
}

/* Language v3: whether a map lookup of the key operand key (its value)
 * costs 0 steps: an int or bool key, or a str under 64 bytes (its n is
 * len(k)). */
static int small_key(int32_t operand, spx_value_t key)
{
    return !(operand & 1) || key.b->length < 64;
}

/* The slot a write through the place at aux (vm_internal.h) changes, when
 * every block on its path has one holder and every index is in range (so
 * the write copies nothing and charges nothing); NULL otherwise, for
 * spx_place_write to decide. */
static spx_value_t *unshared_slot(spx_value_block_t *block, const int32_t *place, const int64_t *I)
{
    int32_t count = place[1];
    for (int32_t k = 0;; k++) {
        int32_t step = place[2 + k];
        if (step < 0) /* language v3: a map's key, which spx_place_write looks up */
            return NULL;
        int64_t at = step & 1 ? (int64_t)(step >> 1) : I[step >> 1];
        if (block->holders != 1 ||
            (block->kind == SPX_BLOCK_ARRAY && (uint64_t)at >= block->length))
            return NULL;
        if (k == count - 1)
            return &block->slots[at];
        block = block->slots[at].b;
    }
}

/* The span of the function's name, where its first step is charged. */
static spx_span_t name_span(const spx_vm_function_t *function)
{
    return spx_span_between(function->source->text, function->source->text_length,
                            function->name_start, function->name_end);
}

/* The span recorded for pc of kind; for a charge, the nth one. The packed
 * sites (vm_internal.h) are read in order up to pc's. */
static spx_span_t site_span(const spx_vm_function_t *function, uint32_t pc, spx_site_kind_t kind,
                            uint64_t nth)
{
    const uint8_t *at = function->sites, *end = function->sites + function->site_bytes;
    uint32_t site_pc = 0, start = 0;
    /* the nth site of kind at pc, or the last of them; its line and column
     * are found once (spx_span_between reads the text up to it) */
    int chosen = 0;
    uint32_t chosen_start = 0, chosen_length = 0;
    while (at < end) {
        uint32_t step = spx_leb128_get(&at);
        uint32_t distance = spx_leb128_get(&at);
        uint32_t length = spx_leb128_get(&at);
        site_pc += step >> 1;
        start = distance & 1 ? start - (distance + 1) / 2 : start + distance / 2;
        if (site_pc < pc)
            continue;
        if (site_pc > pc)
            break;
        if ((spx_site_kind_t)(step & 1) != kind)
            continue;
        chosen = 1;
        chosen_start = start;
        chosen_length = length;
        if (nth-- == 0)
            break;
    }
    if (!chosen)
        return name_span(function);
    return spx_span_between(function->source->text, function->source->text_length, chosen_start,
                            chosen_start + chosen_length);
}

static void fail(spx_run_result_t *result, spx_outcome_t outcome, const spx_vm_function_t *function,
                 spx_span_t span, spx_runtime_code_t code, const char *message)
{
    result->outcome = outcome;
    result->failure.code = spx_runtime_code_name(code);
    result->failure.message = message;
    result->failure.path = function->source->path;
    result->failure.span = span;
}

typedef enum refuel_t {
    REFUEL_PAID,   /* the slice can pay the charge now */
    REFUEL_EMPTY,  /* the whole fuel cannot: the run is out of fuel */
    REFUEL_STOPPED /* the interrupt stops the run */
} refuel_t;

/* The slice (*fuel) cannot pay charge and the reserve is not empty: ask the
 * interrupt, then move the next slice from the reserve (at least what the
 * charge needs, when the reserve holds it). */
static refuel_t refuel(const spx_run_interrupt_t *interrupt, uint64_t *fuel, uint64_t *reserve,
                       uint64_t charge)
{
    uint64_t slice = interrupt->poll(interrupt->context);
    if (slice == 0)
        return REFUEL_STOPPED;
    if (slice < charge - *fuel)
        slice = charge - *fuel;
    if (slice > *reserve)
        slice = *reserve;
    *fuel += slice;
    *reserve -= slice;
    return *fuel >= charge ? REFUEL_PAID : REFUEL_EMPTY;
}

static const char *operator_text(uint8_t op)
{
    return op == SPX_I_ADD || op == SPX_I_ADD_K   ? "+"
           : op == SPX_I_SUB || op == SPX_I_SUB_K ? "-"
           : op == SPX_I_MUL                      ? "*"
           : op == SPX_I_DIV                      ? "/"
           : op == SPX_I_SHL                      ? "<<"
                                                  : "%";
}

/* v3: the failure of assert_eq at ins (record: its aux, vm_internal.h):
 * "assertion failed: LEFT != RIGHT", or "assertion failed: MESSAGE: LEFT
 * != RIGHT" (MESSAGE cut as assert's), each value rendered (render.h). */
static const char *assert_eq_message(const spx_vm_function_t *function, const int32_t *record,
                                     const int64_t *I, spx_value_block_t *const *B,
                                     const spx_instr_t *ins, apr_pool_t *pool)
{
    const spx_render_type_t *type = function->render_types[record[1]];
    int block = ins->op == SPX_I_ASSERT_EQ_B;
    spx_value_t left, right;
    if (block) {
        left.b = B[ins->a];
        right.b = B[ins->b];
    } else {
        left.i = I[ins->a];
        right.i = I[ins->b];
    }
    spx_render_text_t *texts = apr_palloc(pool, 2 * sizeof(*texts));
    spx_render_value(type, left, &texts[0]);
    spx_render_value(type, right, &texts[1]);
    if (record[0] < 0)
        return apr_psprintf(pool, "assertion failed: %s != %s", texts[0].bytes, texts[1].bytes);
    const spx_value_block_t *text = B[record[0]];
    apr_size_t shown =
        spx_utf8_cut(spx_str_bytes(text), text->length, SPX_LIMIT_ASSERT_MESSAGE_BYTES);
    return apr_psprintf(pool, "assertion failed: %.*s%s: %s != %s", (int)shown,
                        (const char *)spx_str_bytes(text), shown < text->length ? "..." : "",
                        texts[0].bytes, texts[1].bytes);
}

/* The loop. Returns APR_SUCCESS when the run ended (however it ended), with
 * result filled. */
static apr_status_t execute(vm_t *vm, long entry, uint64_t max_steps, unsigned max_depth,
                            spx_run_result_t *result, apr_pool_t *pool)
{
    const spx_program_t *program = vm->program;
    const spx_vm_function_t *function = program->functions[entry];
    spx_heap_t *heap = &vm->heap;
    uint64_t fuel = max_steps;
    if (fuel == 0) { /* the call of the entry or test function is the first step */
        result->steps = max_steps;
        fail(result, SPX_OUTCOME_FUEL_EXHAUSTED, function, name_span(function), SPX_R0509,
             apr_psprintf(pool, "fuel exhausted: max_steps %" PRIu64 " reached", max_steps));
        return APR_SUCCESS;
    }
    fuel--;
    uint64_t reserved = 0; /* the fuel beyond the slice (an interrupted run's) */
    if (vm->interrupt) {
        uint64_t slice = vm->interrupt->poll(vm->interrupt->context);
        if (slice == 0)
            return SPX_STATUS_INTERRUPTED;
        if (fuel > slice) {
            reserved = fuel - slice;
            fuel = slice;
        }
    }
    reserve(vm, function, 0, 0);
    enter(vm, function, 0, 0, function->block_registers);
    vm->frames[0] = (frame_t){function, 0, NULL, 0};
    unsigned depth = 1; /* the frames in use */
    frame_t *frame = &vm->frames[0];
    const spx_instr_t *pc = function->code;
    const spx_instr_t *code_base = function->code; /* the current frame's function's */
    const int32_t *aux = function->aux;
    int64_t *I = vm->ints;
    spx_value_block_t **B = vm->blocks;
    const spx_instr_t *ins = pc;
    spx_runtime_code_t code = SPX_R0501; /* set before every goto language_failure */
    const char *message = NULL;
    spx_heap_status_t status = SPX_HEAP_OK;
    uint64_t failure_site = 0; /* which of the instruction's failure spans a failure names */
    uint64_t metered;          /* the fuel, lent to an operation with a size charge */

/* Lend the whole fuel to an operation with a size charge; take back what
 * it left, spent from the slice first. */
#define LEND() (metered = fuel + reserved)
#define TAKE_BACK()                                                                                \
    do {                                                                                           \
        if (metered >= reserved) {                                                                 \
            fuel = metered - reserved;                                                             \
        } else {                                                                                   \
            reserved = metered;                                                                    \
            fuel = 0;                                                                              \
        }                                                                                          \
    } while (0)
/* Run a values.c operation that may take a size charge from the fuel. */
#define METERED(call)                                                                              \
    do {                                                                                           \
        LEND();                                                                                    \
        status = (call);                                                                           \
        TAKE_BACK();                                                                               \
        if (status != SPX_HEAP_OK)                                                                 \
            goto heap_stop;                                                                        \
    } while (0)
/* Run a values.c operation without a size charge. */
#define CHECKED(call)                                                                              \
    do {                                                                                           \
        status = (call);                                                                           \
        if (status != SPX_HEAP_OK)                                                                 \
            goto heap_stop;                                                                        \
    } while (0)

/* After an instruction, when the next one is op and the fuel pays its
 * charge: run it at label without going round the loop (the same charge,
 * taken the same way). Each such test is a branch of its own, which the
 * processor predicts far better than the loop's one dispatch; the common
 * successions of instructions are followed so. */
#define FOLLOW(next, label)                                                                        \
    do {                                                                                           \
        if (pc->op == (next) && pc->charge <= fuel) {                                              \
            ins = pc++;                                                                            \
            fuel -= ins->charge;                                                                   \
            goto label;                                                                            \
        }                                                                                          \
    } while (0)

    for (;;) {
        ins = pc++;
        /* one test per instruction: a charge of 0 never fails it */
        if (fuel < ins->charge) {
            if (!reserved)
                goto out_of_fuel;
            refuel_t refueled = refuel(vm->interrupt, &fuel, &reserved, ins->charge);
            if (refueled == REFUEL_STOPPED)
                return SPX_STATUS_INTERRUPTED;
            if (refueled == REFUEL_EMPTY)
                goto out_of_fuel;
        }
        fuel -= ins->charge;
        switch ((spx_opcode_t)ins->op) {
        case SPX_I_NOP:
            break;
        case SPX_I_MOVE_I:
        move_i:
            I[ins->a] = I[ins->b];
            FOLLOW(SPX_I_MOVE_I, move_i);
            FOLLOW(SPX_I_CALL, call);
            FOLLOW(SPX_I_MOVE_B, move_b);
            FOLLOW(SPX_I_VARIANT, variant);
            FOLLOW(SPX_I_JUMP, jump);
            break;
        case SPX_I_MOVE_B:
        move_b : {
            spx_value_block_t *value = B[ins->b];
            if (ins->flags & SPX_FLAG_FREE_B)
                B[ins->b] = NULL; /* taken over */
            else
                spx_block_hold(value);
            assign(vm, &B[ins->a], value);
            FOLLOW(SPX_I_MOVE_B, move_b);
            FOLLOW(SPX_I_CALL, call);
            FOLLOW(SPX_I_MATCH, match);
            FOLLOW(SPX_I_MOVE_I, move_i);
            break;
        }
        case SPX_I_DROP_B:
        drop_b:
            drop(vm, &B[ins->a]);
            FOLLOW(SPX_I_DROP_B, drop_b);
            FOLLOW(SPX_I_JUMP, jump);
            FOLLOW(SPX_I_INC, inc);
            break;
        case SPX_I_LITERAL: {
            const spx_literal_t *literal = &frame->function->literals[ins->b];
            spx_value_block_t *value = NULL;
            CHECKED(spx_str_literal(heap, literal->bytes, literal->length, &value));
            assign(vm, &B[ins->a], value);
            FOLLOW(SPX_I_EQ_B, eq_b);
            break;
        }
        case SPX_I_ADD:
        add : {
            int64_t value; /* not I[ins->a]: it may be an operand the message names */
            if (spx_int_add(I[ins->b], I[ins->c], &value) != SPX_INT_OK)
                goto overflow;
            I[ins->a] = value;
            FOLLOW(SPX_I_JUMP_LE, jump_le); /* while j <= n */
            FOLLOW(SPX_I_RETURN_I, return_i);
            FOLLOW(SPX_I_VARIANT, variant);
            FOLLOW(SPX_I_JUMP_GE_K, jump_ge_k); /* if x + y < 0 */
            break;
        }
        case SPX_I_SUB:
        sub : {
            int64_t value; /* not I[ins->a]: it may be an operand the message names */
            if (spx_int_sub(I[ins->b], I[ins->c], &value) != SPX_INT_OK)
                goto overflow;
            I[ins->a] = value;
            FOLLOW(SPX_I_VARIANT, variant);
            FOLLOW(SPX_I_CALL, call);
            break;
        }
        case SPX_I_ADD_K: {
            int64_t value;
            if (spx_int_add(I[ins->b], ins->c, &value) != SPX_INT_OK)
                goto overflow;
            I[ins->a] = value;
            FOLLOW(SPX_I_JUMP_LT_K, jump_lt_k);
            FOLLOW(SPX_I_JUMP_LT, jump_lt);
            FOLLOW(SPX_I_INC, inc); /* a loop's step after x += k */
            break;
        }
        case SPX_I_SUB_K:
        sub_k : {
            int64_t value;
            if (spx_int_sub(I[ins->b], ins->c, &value) != SPX_INT_OK)
                goto overflow;
            I[ins->a] = value;
            FOLLOW(SPX_I_CALL, call);
            break;
        }
        case SPX_I_MUL: {
            int64_t value; /* not I[ins->a]: it may be an operand the message names */
            if (spx_int_mul(I[ins->b], I[ins->c], &value) != SPX_INT_OK)
                goto overflow;
            I[ins->a] = value;
            FOLLOW(SPX_I_VARIANT, variant);
            break;
        }
        case SPX_I_DIV:
        case SPX_I_REM: {
            int64_t value; /* not I[ins->a]: it may be an operand the message names */
            spx_int_status_t failed = ins->op == SPX_I_DIV
                                          ? spx_int_div(I[ins->b], I[ins->c], &value)
                                          : spx_int_rem(I[ins->b], I[ins->c], &value);
            if (failed != SPX_INT_OK) {
                code = failed == SPX_INT_OVERFLOW ? SPX_R0505
                       : ins->op == SPX_I_DIV     ? SPX_R0503
                                                  : SPX_R0504;
                message = spx_int_failure_message(failed, operator_text(ins->op), I[ins->b],
                                                  I[ins->c], pool);
                goto language_failure;
            }
            I[ins->a] = value;
            FOLLOW(SPX_I_JUMP, jump); /* the end of an if's branch */
            break;
        }
        case SPX_I_NEG:
            if (spx_int_neg(I[ins->b], &I[ins->a]) != SPX_INT_OK) {
                code = SPX_R0502;
                message = SPX_INT_NEGATION_OVERFLOW;
                goto language_failure;
            }
            FOLLOW(SPX_I_MAP_GET_OR_I, map_get_or); /* m.get(k, -1) */
            break;
        case SPX_I_NOT:
            I[ins->a] = !I[ins->b];
            break;
        case SPX_I_BIT_AND:
            I[ins->a] = I[ins->b] & I[ins->c];
            break;
        case SPX_I_BIT_OR:
            I[ins->a] = I[ins->b] | I[ins->c];
            break;
        case SPX_I_BIT_XOR:
            I[ins->a] = I[ins->b] ^ I[ins->c];
            break;
        case SPX_I_BIT_NOT:
            I[ins->a] = ~I[ins->b];
            break;
        case SPX_I_SHL:
        case SPX_I_SHR: {
            int64_t value; /* not I[ins->a]: it may be an operand the message names */
            spx_int_status_t failed = ins->op == SPX_I_SHR
                                          ? spx_int_shr(I[ins->b], I[ins->c], &value)
                                          : spx_int_shl(I[ins->b], I[ins->c], &value);
            if (failed == SPX_INT_SHIFT_COUNT)
                goto shift_count;
            if (failed != SPX_INT_OK)
                goto overflow;
            I[ins->a] = value;
            break;
        }
        case SPX_I_INC:
        inc:
            I[ins->a]++;
            FOLLOW(SPX_I_JUMP_LT, jump_lt);
            break;
        case SPX_I_EQ:
            I[ins->a] = I[ins->b] == I[ins->c];
            break;
        case SPX_I_NE:
            I[ins->a] = I[ins->b] != I[ins->c];
            break;
        case SPX_I_LT:
            I[ins->a] = I[ins->b] < I[ins->c];
            break;
        case SPX_I_LE:
            I[ins->a] = I[ins->b] <= I[ins->c];
            break;
        case SPX_I_EQ_K:
            I[ins->a] = I[ins->b] == ins->c;
            break;
        case SPX_I_NE_K:
            I[ins->a] = I[ins->b] != ins->c;
            break;
        case SPX_I_LT_K:
            I[ins->a] = I[ins->b] < ins->c;
            break;
        case SPX_I_GE_K:
            I[ins->a] = I[ins->b] >= ins->c;
            break;
        case SPX_I_EQ_B:
        case SPX_I_NE_B:
        eq_b : {
            int equal = 0;
            const spx_value_block_t *x = B[ins->b], *y = B[ins->c];
            if (!spx_value_is_constant(x) && x->kind == SPX_BLOCK_STR &&
                (x->length < 64 || y->length < 64)) {
                /* two strings, one under 64 bytes: == examines fewer than 64
                 * bytes, so its size charge is 0 steps (spx_values_equal's
                 * result, lengths and shared bytes first) */
                equal = x->length == y->length &&
                        spx_bytes_equal(spx_str_bytes(x), spx_str_bytes(y), x->length);
            } else {
                METERED(spx_values_equal(heap, &metered, x, y, &equal, NULL));
            }
            if (ins->flags & SPX_FLAG_FREE_B)
                drop(vm, &B[ins->b]);
            if (ins->flags & SPX_FLAG_FREE_C)
                drop(vm, &B[ins->c]);
            I[ins->a] = ins->op == SPX_I_EQ_B ? equal : !equal;
            FOLLOW(SPX_I_JUMP_NOT, jump_not);
            FOLLOW(SPX_I_JUMP_IF, jump_if);
            break;
        }
        case SPX_I_CONCAT: {
            spx_value_block_t *value = NULL;
            METERED(spx_value_concat(heap, &metered, B[ins->b], B[ins->c], &value));
            if (ins->flags & SPX_FLAG_FREE_B)
                drop(vm, &B[ins->b]);
            if (ins->flags & SPX_FLAG_FREE_C)
                drop(vm, &B[ins->c]);
            assign(vm, &B[ins->a], value);
            break;
        }
        case SPX_I_APPEND:
            METERED(spx_str_append(heap, &metered, &B[ins->a], B[ins->b]));
            if (ins->flags & SPX_FLAG_FREE_B)
                drop(vm, &B[ins->b]);
            break;
        case SPX_I_JUMP:
        jump:
            pc = code_base + ins->a;
            FOLLOW(SPX_I_DROP_B, drop_b);
            FOLLOW(SPX_I_JUMP_LT, jump_lt);
            FOLLOW(SPX_I_JUMP_NOT, jump_not);
            FOLLOW(SPX_I_INC, inc); /* a for loop's step after an if */
            break;
        case SPX_I_JUMP_IF:
        jump_if:
            if (I[ins->b])
                pc = code_base + ins->a;
            FOLLOW(SPX_I_MAP_GET_I, map_get);
            break;
        case SPX_I_JUMP_NOT:
        jump_not:
            if (!I[ins->b])
                pc = code_base + ins->a;
            break;
        case SPX_I_JUMP_EQ:
            if (I[ins->b] == I[ins->c])
                pc = code_base + ins->a;
            break;
        case SPX_I_JUMP_NE:
            if (I[ins->b] != I[ins->c])
                pc = code_base + ins->a;
            FOLLOW(SPX_I_MOVE_I, move_i);
            break;
        case SPX_I_JUMP_LT:
        jump_lt:
            if (I[ins->b] < I[ins->c])
                pc = code_base + ins->a;
            FOLLOW(SPX_I_INDEX_I, index_i);
            FOLLOW(SPX_I_INDEX_B, index_b);
            FOLLOW(SPX_I_DROP_B, drop_b);
            break;
        case SPX_I_JUMP_LE:
        jump_le:
            if (I[ins->b] <= I[ins->c])
                pc = code_base + ins->a;
            FOLLOW(SPX_I_JUMP_LE, jump_le);
            FOLLOW(SPX_I_ADD, add);
            FOLLOW(SPX_I_SUB, sub);
            break;
        case SPX_I_JUMP_EQ_K:
            if (I[ins->b] == ins->c)
                pc = code_base + ins->a;
            break;
        case SPX_I_JUMP_NE_K:
            if (I[ins->b] != ins->c)
                pc = code_base + ins->a;
            break;
        case SPX_I_JUMP_LT_K:
        jump_lt_k:
            if (I[ins->b] < ins->c)
                pc = code_base + ins->a;
            FOLLOW(SPX_I_ADD, add);
            break;
        case SPX_I_JUMP_GE_K:
        jump_ge_k:
            if (I[ins->b] >= ins->c)
                pc = code_base + ins->a;
            FOLLOW(SPX_I_SUB_K, sub_k);
            FOLLOW(SPX_I_RETURN_I, return_i);
            break;
        case SPX_I_CALL:
        call : {
            /* the compiler's: a function the checker resolved */
            SPX_ASSERT(ins->a >= 0 && (apr_size_t)ins->a < program->function_count);
            const spx_vm_function_t *callee = program->functions[ins->a];
            if (depth >= max_depth) {
                result->steps = max_steps - fuel - reserved;
                fail(result, SPX_OUTCOME_DEPTH_EXHAUSTED, frame->function,
                     site_span(frame->function, (uint32_t)(ins - frame->function->code),
                               SPX_SITE_FAILURE, 0),
                     SPX_R0510,
                     apr_psprintf(
                         pool,
                         "call depth exhausted: calling '%s' would exceed the " AT_THE_DEPTH_LIMIT
                         " of %u",
                         callee->name, max_depth));
                return APR_SUCCESS;
            }
            apr_size_t int_base = frame->int_base + (apr_size_t)ins->b;
            apr_size_t block_base = frame->block_base + (apr_size_t)ins->c;
            /* the files never grow past SPX_LIMIT_FRAME_REGISTERS (reserve):
             * a frame that fits them is within the limit */
            int fits = int_base + callee->int_registers <= vm->int_capacity &&
                       block_base + callee->block_registers <= vm->block_capacity;
            if (!fits && (int_base + callee->int_registers > SPX_LIMIT_FRAME_REGISTERS ||
                          block_base + callee->block_registers > SPX_LIMIT_FRAME_REGISTERS)) {
                /* Deep enough for --max-call-depth, but the frames' registers
                 * are full: more depth would not help. */
                result->steps = max_steps - fuel - reserved;
                fail(result, SPX_OUTCOME_DEPTH_EXHAUSTED, frame->function,
                     site_span(frame->function, (uint32_t)(ins - frame->function->code),
                               SPX_SITE_FAILURE, 0),
                     SPX_R0510,
                     apr_psprintf(pool,
                                  "call depth exhausted: calling '%s' at depth %u would need "
                                  "more than the %u registers all frames may hold",
                                  callee->name, depth + 1, SPX_LIMIT_FRAME_REGISTERS));
                return APR_SUCCESS;
            }
            if (!fits)
                reserve(vm, callee, int_base, block_base);
            SPX_ASSERT((uint32_t)ins->c <= frame->function->block_registers);
            enter(vm, callee, int_base, block_base,
                  frame->function->block_registers - (apr_size_t)ins->c);
            frame->resume = pc;
            frame = &vm->frames[depth++];
            frame->function = callee; /* its resume is set when it calls */
            frame->int_base = int_base;
            frame->block_base = block_base;
            I = vm->ints + int_base;
            B = vm->blocks + block_base;
            pc = code_base = callee->code;
            aux = callee->aux;
            FOLLOW(SPX_I_JUMP_GE_K, jump_ge_k); /* fib: if n < 2 */
            FOLLOW(SPX_I_MOVE_B, move_b);
            FOLLOW(SPX_I_MATCH, match);
            FOLLOW(SPX_I_JUMP_LE, jump_le);
            break;
        }
        case SPX_I_RETURN_I:
        return_i : {
            int64_t value = I[ins->a];
            leave(vm, frame);
            if (--depth == 0) {
                result->outcome = SPX_OUTCOME_RETURNED;
                result->value = value;
                result->steps = max_steps - fuel - reserved;
                return APR_SUCCESS;
            }
            I[0] = value; /* the caller's first argument register */
            frame = &vm->frames[depth - 1];
            I = vm->ints + frame->int_base;
            B = vm->blocks + frame->block_base;
            pc = frame->resume;
            code_base = frame->function->code;
            aux = frame->function->aux;
            /* what a caller does with an int result next: fib(n - 1) + fib(n - 2) */
            FOLLOW(SPX_I_SUB_K, sub_k);
            FOLLOW(SPX_I_ADD, add);
            FOLLOW(SPX_I_MOVE_I, move_i);
            FOLLOW(SPX_I_SUB, sub);
            break;
        }
        case SPX_I_RETURN_B:
        case SPX_I_RETURN:
        return_b : {
            spx_value_block_t *value = NULL;
            if (ins->op == SPX_I_RETURN_B) {
                value = B[ins->a];
                if (ins->flags & SPX_FLAG_FREE_A)
                    B[ins->a] = NULL;
                else
                    spx_block_hold(value);
            }
            leave(vm, frame);
            if (--depth == 0) {
                spx_block_release(heap, value);
                return APR_EGENERAL; /* entries and tests return int */
            }
            if (value) /* the caller's first argument register, empty now */
                B[0] = value;
            frame = &vm->frames[depth - 1];
            I = vm->ints + frame->int_base;
            B = vm->blocks + frame->block_base;
            pc = frame->resume;
            code_base = frame->function->code;
            aux = frame->function->aux;
            FOLLOW(SPX_I_MATCH, match);
            FOLLOW(SPX_I_RETURN_B, return_b);
            break;
        }
        case SPX_I_PRINT:
            print(vm, B[ins->a]);
            if (ins->flags & SPX_FLAG_FREE_A)
                drop(vm, &B[ins->a]);
            break;
        case SPX_I_ITOS: {
            char digits[24];
            int length = snprintf(digits, sizeof(digits), "%" PRId64, I[ins->b]);
            spx_value_block_t *value = NULL;
            CHECKED(spx_str_make(heap, (const unsigned char *)digits, (apr_size_t)length, &value));
            assign(vm, &B[ins->a], value);
            break;
        }
        case SPX_I_CHR: {
            spx_value_block_t *value = NULL;
            CHECKED(spx_str_chr(heap, I[ins->b], &value));
            assign(vm, &B[ins->a], value);
            break;
        }
        case SPX_I_STOI: {
            int64_t value = 0;
            METERED(spx_str_stoi(heap, &metered, B[ins->b], &value));
            if (ins->flags & SPX_FLAG_FREE_B)
                drop(vm, &B[ins->b]);
            I[ins->a] = value;
            break;
        }
        case SPX_I_LEN: {
            int64_t length = spx_block_length(B[ins->b]);
            if (ins->flags & SPX_FLAG_FREE_B)
                drop(vm, &B[ins->b]);
            I[ins->a] = length;
            FOLLOW(SPX_I_JUMP, jump);
            break;
        }
        case SPX_I_ASSERT:
            if (!I[ins->a]) {
                code = SPX_R0508;
                message = "assertion failed";
                goto language_failure;
            }
            break;
        case SPX_I_ASSERT_MSG:
            if (!I[ins->a]) {
                const spx_value_block_t *text = B[ins->b];
                apr_size_t shown =
                    spx_utf8_cut(spx_str_bytes(text), text->length, SPX_LIMIT_ASSERT_MESSAGE_BYTES);
                code = SPX_R0508;
                message = apr_psprintf(pool, "assertion failed: %.*s%s", (int)shown,
                                       (const char *)spx_str_bytes(text),
                                       shown < text->length ? "..." : "");
                goto language_failure;
            }
            if (ins->flags & SPX_FLAG_FREE_B)
                drop(vm, &B[ins->b]);
            break;
        case SPX_I_STR_INDEX: {
            const spx_value_block_t *string = B[ins->b];
            int64_t byte = 0;
            if ((uint64_t)I[ins->c] < string->length)
                byte = spx_str_bytes(string)[I[ins->c]];
            else
                CHECKED(spx_str_index(heap, string, I[ins->c], &byte));
            if (ins->flags & SPX_FLAG_FREE_B)
                drop(vm, &B[ins->b]);
            I[ins->a] = byte;
            break;
        }
        case SPX_I_INDEX_I:
        index_i : {
            const spx_value_block_t *array = B[ins->b];
            int64_t index = I[ins->c];
            if ((uint64_t)index >= array->length) {
                spx_value_t unused;
                CHECKED(spx_array_get(heap, array, index, &unused)); /* fails: R0511 */
            }
            I[ins->a] = array->slots[index].i; /* spx_array_get's work, in line */
            if (ins->flags & SPX_FLAG_FREE_B)
                drop(vm, &B[ins->b]);
            break;
        }
        case SPX_I_INDEX_I_AT: {
            const int32_t *operands = aux + ins->c;
            int64_t x = I[operands[0]], k = operands[1], index;
            if ((operands[2] ? spx_int_sub(x, k, &index) : spx_int_add(x, k, &index)) !=
                SPX_INT_OK) {
                code = SPX_R0501;
                message =
                    spx_int_failure_message(SPX_INT_OVERFLOW, operands[2] ? "-" : "+", x, k, pool);
                goto language_failure;
            }
            const spx_value_block_t *array = B[ins->b];
            if ((uint64_t)index >= array->length) {
                spx_value_t unused;
                failure_site = 1; /* the index expression's span, not the sum's */
                CHECKED(spx_array_get(heap, array, index, &unused)); /* fails: R0511 */
            }
            I[ins->a] = array->slots[index].i;
            if (ins->flags & SPX_FLAG_FREE_B)
                drop(vm, &B[ins->b]);
            break;
        }
        case SPX_I_INDEX_B:
        index_b : {
            const spx_value_block_t *array = B[ins->b];
            int64_t index = I[ins->c];
            if ((uint64_t)index >= array->length) {
                spx_value_t unused;
                CHECKED(spx_array_get(heap, array, index, &unused)); /* fails: R0511 */
            }
            spx_value_block_t *element = array->slots[index].b;
            spx_block_hold(element);
            if (ins->flags & SPX_FLAG_FREE_B)
                drop(vm, &B[ins->b]);
            assign(vm, &B[ins->a], element);
            FOLLOW(SPX_I_MOVE_B, move_b);
            break;
        }
        case SPX_I_STR_SLICE:
        case SPX_I_SLICE: {
            spx_value_block_t *value = NULL;
            if (ins->op == SPX_I_STR_SLICE)
                METERED(spx_str_slice(heap, &metered, B[ins->b], I[ins->c], I[ins->c + 1], &value));
            else
                METERED(
                    spx_array_slice(heap, &metered, B[ins->b], I[ins->c], I[ins->c + 1], &value));
            if (ins->flags & SPX_FLAG_FREE_B)
                drop(vm, &B[ins->b]);
            assign(vm, &B[ins->a], value);
            break;
        }
        case SPX_I_FIELD_I:
        case SPX_I_FIELD_B: {
            spx_value_t field = spx_struct_get(B[ins->b], (uint32_t)ins->c);
            if (ins->flags & SPX_FLAG_FREE_B)
                drop(vm, &B[ins->b]);
            if (ins->op == SPX_I_FIELD_I)
                I[ins->a] = field.i;
            else
                assign(vm, &B[ins->a], field.b);
            break;
        }
        case SPX_I_ELEMENT_FIELD_I: {
            const spx_value_block_t *array = B[ins->b];
            const int32_t *operands = aux + ins->c;
            int64_t index = I[operands[0]];
            if ((uint64_t)index >= array->length) {
                spx_value_t unused;
                CHECKED(spx_array_get(heap, array, index, &unused)); /* fails: R0511 */
            }
            /* a field the checker found in the element's struct */
            SPX_ASSERT(array->slots[index].b->kind == SPX_BLOCK_STRUCT &&
                       (uint64_t)operands[1] < array->slots[index].b->length);
            I[ins->a] = array->slots[index].b->slots[operands[1]].i;
            break;
        }
        case SPX_I_SET_I: {
            spx_value_block_t *array = B[ins->a];
            int64_t index = I[ins->c];
            if (array->holders == 1 && (uint64_t)index < array->length) {
                array->slots[index].i = I[ins->b]; /* nothing to copy or charge */
                break;
            }
            spx_value_t value = {.i = I[ins->b]};
            METERED(spx_place_write(heap, &metered, &B[ins->a], &index, 1, value));
            break;
        }
        case SPX_I_SET_B: {
            spx_value_block_t *array = B[ins->a];
            int64_t index = I[ins->c];
            int taken = ins->flags & SPX_FLAG_FREE_B;
            spx_value_t value = {.b = B[ins->b]};
            if (!taken) /* the element gets a holder of its own */
                spx_block_hold(value.b);
            if (array->holders == 1 && (uint64_t)index < array->length) {
                spx_value_t old = array->slots[index];
                array->slots[index] = value; /* nothing to copy or charge */
                spx_block_release(heap, old.b);
            } else {
                LEND();
                status = spx_place_write(heap, &metered, &B[ins->a], &index, 1, value);
                TAKE_BACK();
                if (status != SPX_HEAP_OK) {
                    if (!taken) /* nothing was consumed */
                        spx_block_release(heap, value.b);
                    goto heap_stop;
                }
            }
            if (taken)
                B[ins->b] = NULL;
            break;
        }
        case SPX_I_ARGS: {
            /* v3: strings over the arguments' bytes, counted as literals,
             * then their array (n = k, 16 + 8k). */
            apr_size_t count = vm->arguments.count;
            spx_value_t *values = value_room(vm, count);
            for (apr_size_t k = 0; k < count; k++) {
                const char *argument = vm->arguments.values[k];
                status = spx_str_literal(heap, (const unsigned char *)argument, strlen(argument),
                                         &values[k].b);
                if (status != SPX_HEAP_OK) {
                    while (k-- > 0)
                        spx_block_release(heap, values[k].b);
                    goto heap_stop;
                }
            }
            spx_value_block_t *value = NULL;
            LEND();
            status = spx_array_make(heap, &metered, 1, values, count, &value);
            TAKE_BACK();
            if (status != SPX_HEAP_OK) {
                for (apr_size_t k = 0; k < count; k++)
                    spx_block_release(heap, values[k].b);
                goto heap_stop;
            }
            assign(vm, &B[ins->a], value);
            break;
        }
        case SPX_I_ARRAY_I:
        case SPX_I_ARRAY_B: {
            apr_size_t count = (apr_size_t)ins->c;
            spx_value_t *values = value_room(vm, count);
            int blocks = ins->op == SPX_I_ARRAY_B;
            for (apr_size_t k = 0; k < count; k++) {
                if (blocks)
                    values[k].b = B[ins->b + (int32_t)k];
                else
                    values[k].i = I[ins->b + (int32_t)k];
            }
            spx_value_block_t *value = NULL;
            METERED(spx_array_make(heap, &metered, blocks, values, count, &value));
            if (blocks) /* the elements were taken over */
                for (apr_size_t k = 0; k < count; k++)
                    B[ins->b + (int32_t)k] = NULL;
            assign(vm, &B[ins->a], value);
            break;
        }
        case SPX_I_STRUCT: {
            const spx_struct_shape_t *shape = program->shapes[ins->c];
            const int32_t *fields = aux + ins->b;
            spx_value_t *values = value_room(vm, shape->field_count);
            for (uint32_t k = 0; k < shape->field_count; k++) {
                if (fields[k] & 1)
                    values[k].b = B[fields[k] >> 1];
                else
                    values[k].i = I[fields[k] >> 1];
            }
            spx_value_block_t *value = NULL;
            METERED(spx_struct_make(heap, &metered, shape, values, &value));
            for (uint32_t k = 0; k < shape->field_count; k++) /* taken over */
                if (fields[k] & 1)
                    B[fields[k] >> 1] = NULL;
            assign(vm, &B[ins->a], value);
            break;
        }
        case SPX_I_VARIANT:
        variant : {
            const spx_variant_shape_t *shape = program->variant_shapes[ins->c];
            const int32_t *payloads = aux + ins->b;
            spx_value_block_t *value = NULL;
            METERED(spx_enum_block(heap, &metered, shape, &value));
            for (uint32_t k = 0; k < shape->payload_count; k++) {
                if (payloads[k] & 1) { /* taken over */
                    value->slots[k].b = B[payloads[k] >> 1];
                    B[payloads[k] >> 1] = NULL;
                } else {
                    value->slots[k].i = I[payloads[k] >> 1];
                }
            }
            assign(vm, &B[ins->a], value);
            FOLLOW(SPX_I_RETURN_B, return_b);
            break;
        }
        case SPX_I_VARIANT_CONST:
            assign(vm, &B[ins->a], spx_enum_constant((uint32_t)ins->b));
            break;
        case SPX_I_MATCH:
        match : {
            uint32_t variant = spx_enum_variant(B[ins->a]);
            SPX_ASSERT(variant < (uint32_t)ins->c);
            const int32_t *entry = aux + ins->b + 2 * variant;
            if (entry[1] >= 64) /* under 64 payloads the size charge is 0 steps */
                METERED(spx_heap_charge(heap, &metered, (uint64_t)entry[1]));
            pc = code_base + entry[0];
            FOLLOW(SPX_I_PAYLOAD_I, payload_i);
            FOLLOW(SPX_I_PAYLOAD_B, payload_b);
            FOLLOW(SPX_I_MOVE_I, move_i);
            break;
        }
        case SPX_I_PAYLOAD_I: /* spx_enum_payload's work, in line */
        payload_i:
            SPX_ASSERT(spx_enum_is_block(B[ins->b]) && (uint32_t)ins->c < B[ins->b]->length);
            I[ins->a] = B[ins->b]->slots[ins->c].i;
            FOLLOW(SPX_I_TAKE_APART, take_apart);
            break;
        case SPX_I_PAYLOAD_B:
        payload_b : {
            SPX_ASSERT(spx_enum_is_block(B[ins->b]) && (uint32_t)ins->c < B[ins->b]->length);
            spx_value_block_t *payload = B[ins->b]->slots[ins->c].b;
            spx_block_hold(payload);
            assign(vm, &B[ins->a], payload);
            FOLLOW(SPX_I_PAYLOAD_B, payload_b);
            FOLLOW(SPX_I_TAKE_APART, take_apart);
            break;
        }
        case SPX_I_TAKE_APART:
        take_apart:
            if (!spx_value_is_constant(B[ins->a]) && B[ins->a]->holders == 1)
                drop(vm, &B[ins->a]);
            FOLLOW(SPX_I_MOVE_B, move_b);
            FOLLOW(SPX_I_MOVE_I, move_i);
            FOLLOW(SPX_I_VARIANT, variant);
            FOLLOW(SPX_I_PUSH_I, place_value);
            FOLLOW(SPX_I_MAP_HAS, map_has);
            break;
        case SPX_I_WRITE_I:
        case SPX_I_WRITE_B:
        case SPX_I_PUSH_I:
        case SPX_I_PUSH_B:
        place_value : {
            const int32_t *place = aux + ins->b;
            int is_block = ins->op == SPX_I_WRITE_B || ins->op == SPX_I_PUSH_B;
            int taken = is_block && (ins->flags & SPX_FLAG_FREE_A);
            spx_value_t value;
            if (is_block) {
                value.b = B[ins->a];
                if (!taken) /* the place gets a holder of its own */
                    spx_block_hold(value.b);
            } else {
                value.i = I[ins->a];
            }
            int is_write = ins->op == SPX_I_WRITE_I || ins->op == SPX_I_WRITE_B;
            if (!is_write && place[1] == 0) {
                /* a variable's array held by it alone, with room: nothing to
                 * copy, grow or charge (spx_place_push's work, in line) */
                spx_value_block_t *array = B[place[0]];
                if (array->holders == 1 && array->length < array->capacity &&
                    array->length < SPX_LIMIT_ARRAY_LENGTH) {
                    array->slots[array->length++] = value;
                    if (taken)
                        B[ins->a] = NULL;
                    FOLLOW(SPX_I_JUMP, jump);
                    break;
                }
            }
            if (is_write && place[1] == 1 && place[2] < 0 && B[place[0]]->holders == 1) {
                /* m[k] = e on a variable's map held by it alone, k present:
                 * no copy, and the key's n (len(k), under 64 bytes) is 0
                 * steps (spx_place_write's work, in line) */
                int32_t key_code = -1 - place[2];
                spx_value_t key = key_operand((key_code >> 2) * 2 + (key_code & 1), I, B);
                spx_value_t *entry = (key_code & 1) && key.b->length >= 64
                                         ? NULL
                                         : spx_map_slot(heap, B[place[0]], key);
                if (entry) {
                    spx_value_t old = *entry;
                    *entry = value;
                    if (is_block)
                        spx_block_release(heap, old.b);
                    if (taken)
                        B[ins->a] = NULL;
                    release_place_keys(vm, place, B);
                    break;
                }
            }
            spx_value_t *slot = is_write ? unshared_slot(B[place[0]], place, I) : NULL;
            if (slot) { /* nothing to copy or charge: spx_place_write's work, in line */
                spx_value_t old = *slot;
                *slot = value;
                if (is_block)
                    spx_block_release(heap, old.b);
                if (taken)
                    B[ins->a] = NULL;
                break;
            }
            const int64_t *steps = place_steps(vm, place, I, B);
            LEND();
            status = is_write ? spx_place_write(heap, &metered, &B[place[0]], steps,
                                                (apr_size_t)place[1], value)
                              : spx_place_push(heap, &metered, &B[place[0]], steps,
                                               (apr_size_t)place[1], value);
            TAKE_BACK();
            if (status != SPX_HEAP_OK) {
                if (is_block && !taken) /* nothing was consumed */
                    spx_block_release(heap, value.b);
                goto heap_stop;
            }
            if (taken)
                B[ins->a] = NULL;
            release_place_keys(vm, place, B);
            break;
        }
        case SPX_I_POP_I:
        case SPX_I_POP_B: {
            const int32_t *place = aux + ins->b;
            const int64_t *steps = place_steps(vm, place, I, B);
            spx_value_t value;
            METERED(
                spx_place_pop(heap, &metered, &B[place[0]], steps, (apr_size_t)place[1], &value));
            release_place_keys(vm, place, B); /* before dst, which may be one of them */
            if (ins->op == SPX_I_POP_I)
                I[ins->a] = value.i;
            else
                assign(vm, &B[ins->a], value.b);
            break;
        }
        /* ---- language v3: maps ---- */
        case SPX_I_MAP: {
            const int32_t *operands = aux + ins->b;
            apr_size_t count = (apr_size_t)ins->c;
            spx_value_t *values = value_room(vm, 2 * count + 1); /* never NULL, {} too */
            for (apr_size_t k = 0; k < count; k++) {
                values[k] = key_operand(operands[2 + 2 * k], I, B);
                values[count + k] = key_operand(operands[3 + 2 * k], I, B);
            }
            spx_value_block_t *value = NULL;
            METERED(spx_map_make(heap, &metered, operands[0], operands[1], values, values + count,
                                 count, &value));
            for (apr_size_t k = 0; k < 2 * count; k++) /* taken over */
                if (operands[2 + k] & 1)
                    B[operands[2 + k] >> 1] = NULL;
            assign(vm, &B[ins->a], value);
            break;
        }
        case SPX_I_MAP_GET_I:
        case SPX_I_MAP_GET_B:
        map_get : {
            spx_value_t value, key = key_operand(ins->c, I, B);
            /* a key whose lookup is 0 steps (an int, a str under 64 bytes)
             * that is present: spx_map_get's work, in line */
            const spx_value_t *entry =
                small_key(ins->c, key) ? spx_map_slot(heap, B[ins->b], key) : NULL;
            if (entry) {
                value = *entry;
                if (B[ins->b]->elements_are_blocks)
                    spx_block_hold(value.b);
            } else {
                METERED(spx_map_get(heap, &metered, B[ins->b], key, &value));
            }
            if (ins->flags & SPX_FLAG_FREE_C)
                drop(vm, &B[ins->c >> 1]);
            if (ins->flags & SPX_FLAG_FREE_B)
                drop(vm, &B[ins->b]);
            if (ins->op == SPX_I_MAP_GET_I)
                I[ins->a] = value.i;
            else
                assign(vm, &B[ins->a], value.b);
            FOLLOW(SPX_I_VARIANT, variant);
            break;
        }
        case SPX_I_MAP_KEY_I:
        case SPX_I_MAP_KEY_B: {
            spx_value_t key = spx_map_key_at(B[ins->b], (uint32_t)I[ins->c]);
            if (ins->op == SPX_I_MAP_KEY_I)
                I[ins->a] = key.i;
            else
                assign(vm, &B[ins->a], key.b);
            break;
        }
        case SPX_I_MAP_HAS:
        map_has : {
            int found = 0;
            spx_value_t key = key_operand(ins->c, I, B);
            if (small_key(ins->c, key)) /* 0 steps: spx_map_has's work, in line */
                found = spx_map_slot(heap, B[ins->b], key) != NULL;
            else
                METERED(spx_map_has(heap, &metered, B[ins->b], key, &found));
            if (ins->flags & SPX_FLAG_FREE_C)
                drop(vm, &B[ins->c >> 1]);
            if (ins->flags & SPX_FLAG_FREE_B)
                drop(vm, &B[ins->b]);
            I[ins->a] = found;
            FOLLOW(SPX_I_JUMP_IF, jump_if);
            break;
        }
        case SPX_I_MAP_GET_OR_I:
        case SPX_I_MAP_GET_OR_B:
        map_get_or : {
            const int32_t *operands = aux + ins->c;
            const spx_value_block_t *map = B[ins->b];
            spx_value_t value, key = key_operand(operands[0], I, B);
            if (small_key(operands[0], key)) { /* 0 steps: spx_map_get_or's work, in line */
                const spx_value_t *entry = spx_map_slot(heap, map, key);
                value = entry ? *entry : key_operand(operands[1], I, B);
                if (map->elements_are_blocks)
                    spx_block_hold(value.b);
            } else {
                METERED(spx_map_get_or(heap, &metered, map, key, key_operand(operands[1], I, B),
                                       &value));
            }
            if (ins->flags) { /* most often none: the operands are variables */
                if (ins->flags & SPX_FLAG_FREE_D)
                    drop(vm, &B[operands[1] >> 1]);
                if (ins->flags & SPX_FLAG_FREE_C)
                    drop(vm, &B[operands[0] >> 1]);
                if (ins->flags & SPX_FLAG_FREE_B)
                    drop(vm, &B[ins->b]);
            }
            if (ins->op == SPX_I_MAP_GET_OR_I)
                I[ins->a] = value.i;
            else
                assign(vm, &B[ins->a], value.b);
            FOLLOW(SPX_I_JUMP_LT_K, jump_lt_k); /* if v >= 0 */
            break;
        }
        case SPX_I_MAP_KEYS:
        case SPX_I_MAP_VALUES: {
            spx_value_block_t *value = NULL;
            METERED(spx_map_list(heap, &metered, B[ins->b], ins->op == SPX_I_MAP_VALUES, &value));
            if (ins->flags & SPX_FLAG_FREE_B)
                drop(vm, &B[ins->b]);
            assign(vm, &B[ins->a], value);
            break;
        }
        case SPX_I_MAP_REMOVE: {
            const int32_t *place = aux + ins->b;
            const int64_t *steps = place_steps(vm, place, I, B);
            int removed = 0;
            METERED(spx_place_remove_key(heap, &metered, &B[place[0]], steps, (apr_size_t)place[1],
                                         key_operand(ins->c, I, B), &removed));
            if (ins->flags & SPX_FLAG_FREE_C)
                drop(vm, &B[ins->c >> 1]);
            release_place_keys(vm, place, B);
            I[ins->a] = removed;
            break;
        }
        case SPX_I_METHOD: {
            const int32_t *record = aux + ins->b;
            int32_t count = record[2];
            const int32_t *codes = record + 3;
            spx_value_t *operands = value_room(vm, (apr_size_t)count);
            for (int32_t k = 0; k < count; k++) {
                if (codes[k] & 1)
                    operands[k].b = B[codes[k] >> 2];
                else
                    operands[k].i = I[codes[k] >> 2];
            }
            /* insert's value is stored: the array gets a holder of its own
             * unless the operand is a dying temporary, taken over */
            int stored = ins->c == SPX_BUILTIN_INSERT && (codes[count - 1] & 1);
            int taken = stored && (codes[count - 1] & 2);
            if (stored && !taken)
                spx_block_hold(operands[count - 1].b);
            spx_library_place_t place = {NULL, NULL, 0};
            if (record[0] >= 0) {
                const int32_t *at = aux + record[0];
                place =
                    (spx_library_place_t){&B[at[0]], place_steps(vm, at, I, B), (apr_size_t)at[1]};
            }
            spx_value_t value = {0};
            LEND();
            status = spx_library_call(heap, &metered, (spx_builtin_t)ins->c,
                                      record[0] >= 0 ? &place : NULL, operands, &value);
            TAKE_BACK();
            if (status != SPX_HEAP_OK) {
                if (stored && !taken) /* nothing was consumed */
                    spx_block_release(heap, operands[count - 1].b);
                goto heap_stop;
            }
            for (int32_t k = 0; k < count; k++)
                if ((codes[k] & 3) == 3) {
                    if (taken && k == count - 1)
                        B[codes[k] >> 2] = NULL;
                    else
                        drop(vm, &B[codes[k] >> 2]);
                }
            if (record[0] >= 0) /* before the result, which may take a key's register */
                release_place_keys(vm, aux + record[0], B);
            if (record[1] == 1)
                I[ins->a] = value.i;
            else if (record[1] == 2)
                assign(vm, &B[ins->a], value.b);
            break;
        }
        case SPX_I_READ_I:
        case SPX_I_READ_B: {
            const int32_t *place = aux + ins->b;
            const int64_t *steps = place_steps(vm, place, I, B);
            spx_value_t value;
            METERED(
                spx_place_read(heap, &metered, B[place[0]], steps, (apr_size_t)place[1], &value));
            if (ins->op == SPX_I_READ_I)
                I[ins->a] = value.i;
            else
                assign(vm, &B[ins->a], value.b);
            break;
        }
        case SPX_I_APPEND_PLACE: {
            const int32_t *place = aux + ins->b;
            const int64_t *steps = place_steps(vm, place, I, B);
            METERED(spx_place_append(heap, &metered, &B[place[0]], steps, (apr_size_t)place[1],
                                     B[ins->a], B[ins->c]));
            B[ins->a] = NULL; /* consumed */
            if (ins->flags & SPX_FLAG_FREE_C)
                drop(vm, &B[ins->c]);
            release_place_keys(vm, place, B);
            break;
        }
        case SPX_I_STR_LT:
        case SPX_I_STR_LE: {
            int order = 0;
            METERED(spx_str_order(heap, &metered, B[ins->b], B[ins->c], &order));
            if (ins->flags & SPX_FLAG_FREE_B)
                drop(vm, &B[ins->b]);
            if (ins->flags & SPX_FLAG_FREE_C)
                drop(vm, &B[ins->c]);
            I[ins->a] = ins->op == SPX_I_STR_LT ? order < 0 : order <= 0;
            break;
        }
        case SPX_I_ASSERT_EQ_I:
        case SPX_I_ASSERT_EQ_B: {
            const int32_t *record = aux + ins->c;
            int block = ins->op == SPX_I_ASSERT_EQ_B, equal = 0;
            if (block)
                METERED(spx_values_equal(heap, &metered, B[ins->a], B[ins->b], &equal, NULL));
            else
                equal = I[ins->a] == I[ins->b];
            if (!equal) {
                code = SPX_R0508;
                message = assert_eq_message(frame->function, record, I, B, ins, pool);
                goto language_failure;
            }
            if (ins->flags & SPX_FLAG_FREE_A)
                drop(vm, &B[ins->a]);
            if (ins->flags & SPX_FLAG_FREE_B)
                drop(vm, &B[ins->b]);
            if (record[2])
                drop(vm, &B[record[0]]);
            break;
        }
        case SPX_I_UNREACHABLE:
            SPX_ASSERT(!"past the end of a function that returns on every path");
            return APR_EGENERAL;
        default: /* no instruction: the compiler makes none, so no range is checked */
            SPX_ASSERT(!"no instruction");
            SPX_UNREACHABLE();
            return APR_EGENERAL;
        }
    }
#undef FOLLOW
#undef METERED
#undef CHECKED
#undef LEND
#undef TAKE_BACK

heap_stop:
    if (status == SPX_HEAP_INTERRUPTED)
        return SPX_STATUS_INTERRUPTED;
    if (status == SPX_HEAP_OUT_OF_FUEL) {
        result->steps = max_steps;
        fail(result, SPX_OUTCOME_FUEL_EXHAUSTED, frame->function,
             site_span(frame->function, (uint32_t)(ins - frame->function->code), SPX_SITE_FAILURE,
                       0),
             SPX_R0509,
             apr_psprintf(pool, "fuel exhausted: max_steps %" PRIu64 " reached", max_steps));
        return APR_SUCCESS;
    }
    code = heap->code;
    message = apr_pstrdup(pool, heap->message);
    goto language_failure;
shift_count:
    code = SPX_R0517;
    message = spx_int_failure_message(SPX_INT_SHIFT_COUNT, operator_text(ins->op), I[ins->b],
                                      I[ins->c], pool);
    goto language_failure;
overflow:
    code = ins->op == SPX_I_SHL ? SPX_R0518 : SPX_R0501;
    message = spx_int_failure_message(
        SPX_INT_OVERFLOW, operator_text(ins->op), I[ins->b],
        ins->op == SPX_I_ADD_K || ins->op == SPX_I_SUB_K ? ins->c : I[ins->c], pool);
language_failure:
    result->steps = max_steps - fuel - reserved;
    fail(result, SPX_OUTCOME_LANGUAGE_FAILURE, frame->function,
         site_span(frame->function, (uint32_t)(ins - frame->function->code), SPX_SITE_FAILURE,
                   failure_site),
         code, message);
    return APR_SUCCESS;
out_of_fuel: /* the reserve is empty: fuel is all the run had left */
    result->steps = max_steps;
    fail(result, SPX_OUTCOME_FUEL_EXHAUSTED, frame->function,
         site_span(frame->function, (uint32_t)(ins - frame->function->code), SPX_SITE_CHARGE, fuel),
         SPX_R0509, apr_psprintf(pool, "fuel exhausted: max_steps %" PRIu64 " reached", max_steps));
    return APR_SUCCESS;
}

spx_run_limit_kind_t spx_run_stopped_by(const spx_run_result_t *result)
{
    const spx_failure_t *failure = &result->failure;
    switch (result->outcome) {
    case SPX_OUTCOME_FUEL_EXHAUSTED:
        return SPX_RUN_LIMIT_STEPS;
    case SPX_OUTCOME_DEPTH_EXHAUSTED:
        return failure->message && strstr(failure->message, AT_THE_DEPTH_LIMIT)
                   ? SPX_RUN_LIMIT_DEPTH
                   : SPX_RUN_LIMIT_NONE;
    case SPX_OUTCOME_LANGUAGE_FAILURE:
        return failure->code && strcmp(failure->code, spx_runtime_code_name(SPX_R0521)) == 0
                   ? SPX_RUN_LIMIT_MEMORY
                   : SPX_RUN_LIMIT_NONE;
    default:
        return SPX_RUN_LIMIT_NONE;
    }
}

apr_status_t spx_vm_run(const spx_program_t *program, long function, const spx_run_limits_t *limits,
                        spx_run_result_t *result, apr_pool_t *pool)
{
    return spx_vm_run_interruptible(program, function, limits, NULL, result, pool);
}

apr_status_t spx_vm_run_interruptible(const spx_program_t *program, long function,
                                      const spx_run_limits_t *limits,
                                      const spx_run_interrupt_t *interrupt,
                                      spx_run_result_t *result, apr_pool_t *pool)
{
    memset(result, 0, sizeof(*result));
    if (function < 0 || (apr_size_t)function >= program->function_count ||
        !program->functions[function]->code || !program->functions[function]->returns_int ||
        program->functions[function]->param_count ||
        limits->max_steps > SPX_LIMIT_MAX_STEPS_MAXIMUM ||
        limits->max_bytes > SPX_LIMIT_MAX_BYTES_MAXIMUM || limits->max_call_depth < 1 ||
        limits->max_call_depth > SPX_LIMIT_CALL_DEPTH_MAXIMUM ||
        limits->max_memory > SPX_LIMIT_MAX_MEMORY_MAXIMUM)
        return APR_EINVAL;
    result->limits = *limits;
    result->limits.arguments = NULL; /* they need not outlive the run */
    result->limits.argument_count = 0;
    vm_t vm;
    memset(&vm, 0, sizeof(vm));
    vm.program = program;
    vm.max_bytes = limits->max_bytes;
    vm.arguments.values = limits->arguments;
    vm.arguments.count = limits->arguments ? limits->argument_count : 0;
    spx_heap_init(&vm.heap, limits->max_memory);
    /* the maps' hash key: nothing observable depends on it */
    if (spx_random_bytes(vm.heap.hash_key, sizeof(vm.heap.hash_key)) != APR_SUCCESS)
        return APR_EGENERAL;
    vm.interrupt = interrupt;
    vm.heap.interrupt = interrupt;
    vm.frames = spx_allocate(limits->max_call_depth * sizeof(frame_t));
    vm.output = spx_allocate(limits->max_bytes + 1);
    apr_status_t status =
        execute(&vm, function, limits->max_steps, limits->max_call_depth, result, pool);
    for (apr_size_t i = 0; i < vm.block_capacity; i++)
        drop(&vm, &vm.blocks[i]);
    result->memory_peak = vm.heap.peak;
    spx_heap_finish(&vm.heap);
    if (status == APR_SUCCESS) {
        result->output = apr_pstrmemdup(pool, (const char *)vm.output, vm.output_length);
        result->output_length = vm.output_length;
        result->output_truncated = vm.output_truncated;
    }
    free(vm.ints);
    free(vm.blocks);
    free(vm.frames);
    free(vm.output);
    free(vm.values);
    free(vm.steps);
    return status;
}
