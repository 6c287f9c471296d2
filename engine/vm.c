/*
 * vm.c: the metered interpreter of the bytecode of vm_internal.h
 * (language.md, Execution).
 *
 * One loop dispatches instructions; a Semaprax call pushes a frame on an
 * array of max_call_depth frames and continues the same loop, so no C stack
 * is used per call. Before an instruction runs, its charge is taken from the
 * fuel; when the fuel cannot pay it, the run stops with exactly max_steps
 * steps. Integers are int64_t with every overflow checked; strings are
 * reference counted, so a string held by one register only is extended in
 * place ("s = s + t" is linear, not quadratic), and every byte of every live
 * string counts against SPX_LIMIT_RUN_STRING_BYTES. print keeps at most
 * max_bytes of output, cut at a UTF-8 boundary.
 */
#include "spx_allocation.h"
#include "spx_assert.h"
#include "spx_compiler.h"
#include "spx_limits.h"
#include "spx_utf8.h"
#include "vm_internal.h"

#include <apr_strings.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct frame_t {
    const spx_vm_function_t *function;
    const spx_instr_t *resume; /* the caller's next instruction */
    apr_size_t int_base, str_base;
} frame_t;

typedef struct vm_t {
    const spx_program_t *program;
    int64_t *ints;
    apr_size_t int_capacity;
    spx_string_t **strs;
    apr_size_t str_capacity;
    frame_t *frames;
    unsigned depth;
    unsigned char *output;
    apr_size_t output_length, max_bytes;
    int output_truncated;
    apr_size_t live_bytes; /* lengths of every counted live string */
} vm_t;

spx_run_limits_t spx_run_limits_default(void)
{
    spx_run_limits_t limits = {SPX_LIMIT_MAX_STEPS_DEFAULT, SPX_LIMIT_MAX_BYTES_DEFAULT,
                               SPX_LIMIT_CALL_DEPTH, SPX_LIMIT_MAX_MEMORY_DEFAULT};
    return limits;
}

static void release(vm_t *vm, spx_string_t *s)
{
    if (s && s->refs && --s->refs == 0) {
        vm->live_bytes -= s->length;
        free(s);
    }
}

/* Release the string in a register and leave the register empty. */
static void drop(vm_t *vm, spx_string_t **slot)
{
    release(vm, *slot);
    *slot = NULL;
}

static void retain(spx_string_t *s)
{
    if (s->refs)
        s->refs++;
}

/* A new counted string of length bytes (uninitialised). The caller has
 * checked both string limits. */
static spx_string_t *new_string(vm_t *vm, apr_size_t length)
{
    spx_string_t *s = spx_allocate(sizeof(*s) + (length ? length : 1));
    s->refs = 1;
    s->length = s->capacity = length;
    vm->live_bytes += length;
    return s;
}

/* Make room for a frame of function at the bases. The register files may move: the caller reloads
 * its pointers. Each file holds at least one register once reserved, so a frame's base pointer is
 * never arithmetic on NULL, even in a run whose functions have no str (or
 * no int) registers at all (found by fuzz_interpreter: UBSan's "applying
 * zero offset to null pointer"). */
static void reserve(vm_t *vm, const spx_vm_function_t *function, apr_size_t int_base,
                    apr_size_t str_base)
{
    apr_size_t int_need = int_base + function->int_registers;
    if (int_need == 0)
        int_need = 1;
    if (int_need > vm->int_capacity) {
        apr_size_t capacity = vm->int_capacity * 2 > int_need ? vm->int_capacity * 2 : int_need;
        vm->ints = spx_reallocate(vm->ints, capacity * sizeof(*vm->ints));
        vm->int_capacity = capacity;
    }
    apr_size_t str_need = str_base + function->str_registers;
    if (str_need == 0)
        str_need = 1;
    if (str_need > vm->str_capacity) {
        apr_size_t capacity = vm->str_capacity * 2 > str_need ? vm->str_capacity * 2 : str_need;
        spx_string_t **strs = spx_reallocate(vm->strs, capacity * sizeof(*strs));
        memset(strs + vm->str_capacity, 0, (capacity - vm->str_capacity) * sizeof(*strs));
        vm->strs = strs;
        vm->str_capacity = capacity;
    }
}

/* Set up a frame whose parameters are in place: constants copied in, every
 * other str register empty. */
static void enter(vm_t *vm, const spx_vm_function_t *function, apr_size_t int_base,
                  apr_size_t str_base)
{
    if (function->int_const_count)
        memcpy(vm->ints + int_base + function->int_const_base, function->int_consts,
               function->int_const_count * sizeof(int64_t));
    spx_string_t **strs = vm->strs + str_base;
    for (uint32_t i = function->str_params; i < function->str_registers; i++) {
        release(vm, strs[i]);
        strs[i] = NULL;
    }
    if (function->str_const_count)
        memcpy(strs + function->str_const_base, function->str_consts,
               function->str_const_count * sizeof(spx_string_t *));
}

/* Release every str register of the frame. */
static void leave(vm_t *vm, const frame_t *frame)
{
    spx_string_t **strs = vm->strs + frame->str_base;
    for (uint32_t i = 0; i < frame->function->str_registers; i++) {
        release(vm, strs[i]);
        strs[i] = NULL;
    }
}

/* print: append s, keeping at most max_bytes, cut at a UTF-8 boundary. Once
 * cut, nothing more is kept, so the output is always a prefix. */
static void print(vm_t *vm, const spx_string_t *s)
{
    if (vm->output_truncated)
        return;
    apr_size_t room = vm->max_bytes - vm->output_length;
    apr_size_t take = s->length;
    if (take > room) {
        take = spx_utf8_cut(s->bytes, s->length, room);
        vm->output_truncated = 1;
    }
    memcpy(vm->output + vm->output_length, s->bytes, take);
    vm->output_length += take;
}

/* The span recorded for pc of kind; for a charge, the nth one. */
static spx_span_t site_span(const spx_vm_function_t *function, uint32_t pc, spx_site_kind_t kind,
                            uint64_t nth)
{
    uint32_t low = 0, high = function->site_count;
    while (low < high) {
        uint32_t middle = low + (high - low) / 2;
        if (function->sites[middle].pc < pc)
            low = middle + 1;
        else
            high = middle;
    }
    spx_span_t last = function->span;
    for (uint32_t i = low; i < function->site_count && function->sites[i].pc == pc; i++) {
        if (function->sites[i].kind != kind)
            continue;
        last = spx_span_between(function->text, function->text_length, function->sites[i].start,
                                function->sites[i].end);
        if (nth-- == 0)
            break;
    }
    return last;
}

static void fail(spx_run_result_t *result, spx_outcome_t outcome, const spx_vm_function_t *function,
                 spx_span_t span, spx_runtime_code_t code, const char *message)
{
    result->outcome = outcome;
    result->failure.code = spx_runtime_code_name(code);
    result->failure.message = message;
    result->failure.path = function->path;
    result->failure.span = span;
}

static const char *operator_text(uint8_t op)
{
    return op == SPX_I_ADD   ? "+"
           : op == SPX_I_SUB ? "-"
           : op == SPX_I_MUL ? "*"
           : op == SPX_I_DIV ? "/"
                             : "%";
}

/* The loop. Returns APR_SUCCESS when the run ended (however it ended), with
 * result filled. */
static apr_status_t execute(vm_t *vm, long entry, uint64_t max_steps, unsigned max_depth,
                            spx_run_result_t *result, apr_pool_t *pool)
{
    const spx_program_t *program = vm->program;
    const spx_vm_function_t *function = &program->functions[entry];
    uint64_t fuel = max_steps;
    if (fuel == 0) { /* the call of the entry or test function is the first step */
        result->steps = max_steps;
        fail(result, SPX_OUTCOME_FUEL_EXHAUSTED, function, function->span, SPX_R0509,
             apr_psprintf(pool, "fuel exhausted: max_steps %" PRIu64 " reached", max_steps));
        return APR_SUCCESS;
    }
    fuel--;
    reserve(vm, function, 0, 0);
    enter(vm, function, 0, 0);
    vm->frames[0] = (frame_t){function, NULL, 0, 0};
    vm->depth = 1;
    frame_t *frame = &vm->frames[0];
    const spx_instr_t *pc = function->code;
    int64_t *I = vm->ints;
    spx_string_t **S = vm->strs;
    const spx_instr_t *ins = pc;
    spx_runtime_code_t code = SPX_R0501; /* set before every goto language_failure */
    const char *message = NULL;

    for (;;) {
        ins = pc++;
        if (ins->charge) {
            if (fuel < ins->charge)
                goto out_of_fuel;
            fuel -= ins->charge;
        }
        switch ((spx_opcode_t)ins->op) {
        case SPX_I_NOP:
            break;
        case SPX_I_MOVE_I:
            I[ins->a] = I[ins->b];
            break;
        case SPX_I_MOVE_S: {
            spx_string_t *value = S[ins->b];
            if (ins->flags & SPX_FLAG_FREE_B) {
                S[ins->b] = NULL;
                if (ins->a == ins->b) { /* dropping an unused temporary */
                    release(vm, value);
                    break;
                }
            } else {
                retain(value);
            }
            release(vm, S[ins->a]);
            S[ins->a] = value;
            break;
        }
        case SPX_I_ADD: {
            int64_t value; /* not I[ins->a]: it may be an operand the message names */
            if (SPX_ADD_OVERFLOW(I[ins->b], I[ins->c], &value))
                goto overflow;
            I[ins->a] = value;
            break;
        }
        case SPX_I_SUB: {
            int64_t value; /* not I[ins->a]: it may be an operand the message names */
            if (SPX_SUB_OVERFLOW(I[ins->b], I[ins->c], &value))
                goto overflow;
            I[ins->a] = value;
            break;
        }
        case SPX_I_MUL: {
            int64_t value; /* not I[ins->a]: it may be an operand the message names */
            if (SPX_MUL_OVERFLOW(I[ins->b], I[ins->c], &value))
                goto overflow;
            I[ins->a] = value;
            break;
        }
        case SPX_I_DIV:
            if (I[ins->c] == 0) {
                code = SPX_R0503;
                message = apr_psprintf(pool, "division by zero: %" PRId64 " / 0", I[ins->b]);
                goto language_failure;
            }
            if (I[ins->c] == -1 && I[ins->b] == INT64_MIN) {
                code = SPX_R0505;
                message = "integer overflow: -9223372036854775808 / -1";
                goto language_failure;
            }
            I[ins->a] = I[ins->b] / I[ins->c];
            break;
        case SPX_I_REM:
            if (I[ins->c] == 0) {
                code = SPX_R0504;
                message = apr_psprintf(pool, "remainder by zero: %" PRId64 " %% 0", I[ins->b]);
                goto language_failure;
            }
            /* MIN % -1 is 0; C leaves it undefined, so it is not computed */
            I[ins->a] = I[ins->c] == -1 ? 0 : I[ins->b] % I[ins->c];
            break;
        case SPX_I_NEG:
            if (I[ins->b] == INT64_MIN) {
                code = SPX_R0502;
                message = "integer overflow: -(-9223372036854775808)";
                goto language_failure;
            }
            I[ins->a] = -I[ins->b];
            break;
        case SPX_I_NOT:
            I[ins->a] = !I[ins->b];
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
        case SPX_I_EQ_S:
        case SPX_I_NE_S: {
            const spx_string_t *x = S[ins->b], *y = S[ins->c];
            int equal = x->length == y->length && memcmp(x->bytes, y->bytes, x->length) == 0;
            I[ins->a] = ins->op == SPX_I_EQ_S ? equal : !equal;
            if (ins->flags & SPX_FLAG_FREE_B)
                drop(vm, &S[ins->b]);
            if (ins->flags & SPX_FLAG_FREE_C)
                drop(vm, &S[ins->c]);
            break;
        }
        case SPX_I_CONCAT: {
            spx_string_t *x = S[ins->b], *y = S[ins->c], *value;
            apr_size_t total = x->length + y->length;
            if (total > SPX_LIMIT_STRING_BYTES) {
                code = SPX_R0506;
                message = apr_psprintf(
                    pool, "string too long: %" APR_SIZE_T_FMT " bytes, over the limit of %u", total,
                    SPX_LIMIT_STRING_BYTES);
                goto language_failure;
            }
            int in_place = ((ins->flags & SPX_FLAG_FREE_B) || ins->a == ins->b) && x->refs == 1;
            apr_size_t added = in_place ? y->length : total;
            if (added > SPX_LIMIT_RUN_STRING_BYTES - vm->live_bytes)
                goto string_memory;
            if (in_place) {
                if (x->capacity < total) {
                    apr_size_t capacity = x->capacity * 2;
                    if (capacity > SPX_LIMIT_STRING_BYTES)
                        capacity = SPX_LIMIT_STRING_BYTES;
                    if (capacity < total)
                        capacity = total;
                    spx_string_t *grown = spx_reallocate(x, sizeof(*x) + capacity);
                    if (y == x)
                        y = grown;
                    x = grown;
                    x->capacity = capacity;
                }
                memcpy(x->bytes + x->length, y->bytes, added); /* y may be x */
                x->length = total;
                vm->live_bytes += added;
                S[ins->b] = NULL;
                value = x;
            } else {
                value = new_string(vm, total);
                memcpy(value->bytes, x->bytes, x->length);
                memcpy(value->bytes + x->length, y->bytes, y->length);
                if (ins->flags & SPX_FLAG_FREE_B)
                    drop(vm, &S[ins->b]);
            }
            if (ins->flags & SPX_FLAG_FREE_C)
                drop(vm, &S[ins->c]);
            release(vm, S[ins->a]);
            S[ins->a] = value;
            break;
        }
        case SPX_I_JUMP:
            pc = frame->function->code + ins->a;
            break;
        case SPX_I_JUMP_IF:
            if (I[ins->b])
                pc = frame->function->code + ins->a;
            break;
        case SPX_I_JUMP_NOT:
            if (!I[ins->b])
                pc = frame->function->code + ins->a;
            break;
        case SPX_I_JUMP_EQ:
            if (I[ins->b] == I[ins->c])
                pc = frame->function->code + ins->a;
            break;
        case SPX_I_JUMP_NE:
            if (I[ins->b] != I[ins->c])
                pc = frame->function->code + ins->a;
            break;
        case SPX_I_JUMP_LT:
            if (I[ins->b] < I[ins->c])
                pc = frame->function->code + ins->a;
            break;
        case SPX_I_JUMP_LE:
            if (I[ins->b] <= I[ins->c])
                pc = frame->function->code + ins->a;
            break;
        case SPX_I_CALL: {
            const spx_vm_function_t *callee = &program->functions[ins->a];
            if (vm->depth >= max_depth) {
                result->steps = max_steps - fuel;
                fail(result, SPX_OUTCOME_DEPTH_EXHAUSTED, frame->function,
                     site_span(frame->function, (uint32_t)(ins - frame->function->code),
                               SPX_SITE_FAILURE, 0),
                     SPX_R0510,
                     apr_psprintf(pool,
                                  "call depth exhausted: calling '%s' would exceed the "
                                  "call-depth limit of %u",
                                  callee->name, max_depth));
                return APR_SUCCESS;
            }
            apr_size_t int_base = frame->int_base + (apr_size_t)ins->b;
            apr_size_t str_base = frame->str_base + (apr_size_t)ins->c;
            reserve(vm, callee, int_base, str_base);
            enter(vm, callee, int_base, str_base);
            frame->resume = pc;
            frame = &vm->frames[vm->depth++];
            *frame = (frame_t){callee, NULL, int_base, str_base};
            I = vm->ints + int_base;
            S = vm->strs + str_base;
            pc = callee->code;
            break;
        }
        case SPX_I_RETURN_I: {
            int64_t value = I[ins->a];
            leave(vm, frame);
            if (--vm->depth == 0) {
                result->outcome = SPX_OUTCOME_RETURNED;
                result->value = value;
                result->steps = max_steps - fuel;
                return APR_SUCCESS;
            }
            I[0] = value; /* the caller's first argument register */
            frame = &vm->frames[vm->depth - 1];
            I = vm->ints + frame->int_base;
            S = vm->strs + frame->str_base;
            pc = frame->resume;
            break;
        }
        case SPX_I_RETURN_S:
        case SPX_I_RETURN: {
            spx_string_t *value = NULL;
            if (ins->op == SPX_I_RETURN_S) {
                value = S[ins->a];
                if (ins->flags & SPX_FLAG_FREE_A)
                    S[ins->a] = NULL;
                else
                    retain(value);
            }
            leave(vm, frame);
            if (--vm->depth == 0) {
                release(vm, value);
                return APR_EGENERAL; /* entries and tests return int */
            }
            if (value) /* the caller's first argument register, empty now */
                S[0] = value;
            frame = &vm->frames[vm->depth - 1];
            I = vm->ints + frame->int_base;
            S = vm->strs + frame->str_base;
            pc = frame->resume;
            break;
        }
        case SPX_I_PRINT:
            print(vm, S[ins->a]);
            if (ins->flags & SPX_FLAG_FREE_A)
                drop(vm, &S[ins->a]);
            break;
        case SPX_I_ITOS: {
            char digits[24];
            int length = snprintf(digits, sizeof(digits), "%" PRId64, I[ins->b]);
            if ((apr_size_t)length > SPX_LIMIT_RUN_STRING_BYTES - vm->live_bytes)
                goto string_memory;
            spx_string_t *value = new_string(vm, (apr_size_t)length);
            memcpy(value->bytes, digits, (apr_size_t)length);
            release(vm, S[ins->a]);
            S[ins->a] = value;
            break;
        }
        case SPX_I_LEN: {
            spx_string_t *s = S[ins->b];
            int64_t length = (int64_t)s->length;
            if (ins->flags & SPX_FLAG_FREE_B) {
                release(vm, s);
                S[ins->b] = NULL;
            }
            I[ins->a] = length;
            break;
        }
        case SPX_I_ASSERT:
            if (!I[ins->a]) {
                code = SPX_R0508;
                message = "assertion failed";
                goto language_failure;
            }
            break;
        case SPX_I_UNREACHABLE:
        default:
            SPX_ASSERT(!"past the end of a function that returns on every path, or no instruction");
            return APR_EGENERAL;
        }
    }

string_memory:
    code = SPX_R0507;
    message = apr_psprintf(pool, "string memory exhausted: live strings would hold over %u bytes",
                           SPX_LIMIT_RUN_STRING_BYTES);
    goto language_failure;
overflow:
    code = SPX_R0501;
    message = apr_psprintf(pool, "integer overflow: %" PRId64 " %s %" PRId64, I[ins->b],
                           operator_text(ins->op), I[ins->c]);
language_failure:
    result->steps = max_steps - fuel;
    fail(result, SPX_OUTCOME_LANGUAGE_FAILURE, frame->function,
         site_span(frame->function, (uint32_t)(ins - frame->function->code), SPX_SITE_FAILURE, 0),
         code, message);
    return APR_SUCCESS;
out_of_fuel:
    result->steps = max_steps;
    fail(result, SPX_OUTCOME_FUEL_EXHAUSTED, frame->function,
         site_span(frame->function, (uint32_t)(ins - frame->function->code), SPX_SITE_CHARGE, fuel),
         SPX_R0509, apr_psprintf(pool, "fuel exhausted: max_steps %" PRIu64 " reached", max_steps));
    return APR_SUCCESS;
}

apr_status_t spx_vm_run(const spx_program_t *program, long function, const spx_run_limits_t *limits,
                        spx_run_result_t *result, apr_pool_t *pool)
{
    memset(result, 0, sizeof(*result));
    if (function < 0 || (apr_size_t)function >= program->function_count ||
        !program->functions[function].code || !program->functions[function].returns_int ||
        program->functions[function].param_count ||
        limits->max_steps > SPX_LIMIT_MAX_STEPS_MAXIMUM ||
        limits->max_bytes > SPX_LIMIT_MAX_BYTES_MAXIMUM || limits->max_call_depth < 1 ||
        limits->max_call_depth > SPX_LIMIT_CALL_DEPTH ||
        limits->max_memory > SPX_LIMIT_MAX_MEMORY_MAXIMUM)
        return APR_EINVAL;
    vm_t vm;
    memset(&vm, 0, sizeof(vm));
    vm.program = program;
    vm.max_bytes = limits->max_bytes;
    vm.frames = spx_allocate(limits->max_call_depth * sizeof(frame_t));
    vm.output = spx_allocate(limits->max_bytes + 1);
    apr_status_t status =
        execute(&vm, function, limits->max_steps, limits->max_call_depth, result, pool);
    for (apr_size_t i = 0; i < vm.str_capacity; i++)
        release(&vm, vm.strs[i]);
    if (status == APR_SUCCESS) {
        result->output = apr_pstrmemdup(pool, (const char *)vm.output, vm.output_length);
        result->output_length = vm.output_length;
        result->output_truncated = vm.output_truncated;
    }
    free(vm.ints);
    free(vm.strs);
    free(vm.frames);
    free(vm.output);
    return status;
}
