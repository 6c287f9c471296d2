/*
 * vm_internal.h: the bytecode shared by the compiler (compile.c) and the
 * interpreter (vm.c). Nothing outside those two files reads it.
 *
 * A function's frame has two register files: int registers (int and bool
 * values) and str registers (pointers to reference-counted strings, or
 * NULL). The static types of Semaprax tell the compiler which file every
 * value lives in, so the interpreter never tests a value's type. Each file
 * is laid out as [parameters][other locals][constants][temporaries]; the
 * constants are copied in when the frame is entered.
 *
 * Calls: the caller evaluates the arguments into consecutive temporaries at
 * the top of each file; those become the callee's parameters (the callee's
 * frame starts there), and the result is written back to the first of them.
 */
#ifndef SPX_VM_INTERNAL_H
#define SPX_VM_INTERNAL_H

#include "spx_vm.h"

#include <apr_hash.h>

/* A string value. refs 0 marks a constant of the program, never freed and
 * never counted; every other string is malloc'd and freed at refs 0. */
typedef struct spx_string_t {
    uint32_t refs;
    apr_size_t length;
    apr_size_t capacity;
    unsigned char bytes[]; /* capacity bytes */
} spx_string_t;

/* Operand conventions: I = int register, S = str register, T = target pc.
 * Flags mark str operands that are temporaries read for the last time: the
 * instruction releases (or steals) them. */
typedef enum spx_opcode_t {
    SPX_I_NOP,        /* only carries a charge */
    SPX_I_MOVE_I,     /* I[a] = I[b] */
    SPX_I_MOVE_S,     /* S[a] = S[b] */
    SPX_I_ADD,        /* I[a] = I[b] + I[c], R0501 on overflow */
    SPX_I_SUB,        /* I[a] = I[b] - I[c] */
    SPX_I_MUL,        /* I[a] = I[b] * I[c] */
    SPX_I_DIV,        /* I[a] = I[b] / I[c], R0503, R0505 */
    SPX_I_REM,        /* I[a] = I[b] % I[c], R0504 */
    SPX_I_NEG,        /* I[a] = -I[b], R0502 */
    SPX_I_NOT,        /* I[a] = !I[b] */
    SPX_I_EQ,         /* I[a] = I[b] == I[c] */
    SPX_I_NE,         /* I[a] = I[b] != I[c] */
    SPX_I_LT,         /* I[a] = I[b] <  I[c] */
    SPX_I_LE,         /* I[a] = I[b] <= I[c] */
    SPX_I_EQ_S,       /* I[a] = S[b] == S[c] */
    SPX_I_NE_S,       /* I[a] = S[b] != S[c] */
    SPX_I_CONCAT,     /* S[a] = S[b] + S[c], R0506, R0507 */
    SPX_I_JUMP,       /* pc = a */
    SPX_I_JUMP_IF,    /* if I[b]: pc = a */
    SPX_I_JUMP_NOT,   /* if !I[b]: pc = a */
    SPX_I_JUMP_EQ,    /* if I[b] == I[c]: pc = a */
    SPX_I_JUMP_NE,    /* if I[b] != I[c]: pc = a */
    SPX_I_JUMP_LT,    /* if I[b] <  I[c]: pc = a */
    SPX_I_JUMP_LE,    /* if I[b] <= I[c]: pc = a */
    SPX_I_CALL,       /* call function a with frames at I[b] and S[c] */
    SPX_I_RETURN_I,   /* return I[a] */
    SPX_I_RETURN_S,   /* return S[a] */
    SPX_I_RETURN,     /* return from a unit function */
    SPX_I_PRINT,      /* print(S[a]) */
    SPX_I_ITOS,       /* S[a] = itos(I[b]) */
    SPX_I_LEN,        /* I[a] = len(S[b]) */
    SPX_I_ASSERT,     /* assert(I[a]), R0508 */
    SPX_I_UNREACHABLE /* the end of a function that must have returned */
} spx_opcode_t;

#define SPX_FLAG_FREE_B 1u /* S[b] is a dying temporary */
#define SPX_FLAG_FREE_C 2u /* S[c] is a dying temporary */
#define SPX_FLAG_FREE_A 4u /* S[a] is a dying temporary (PRINT, RETURN_S) */

typedef struct spx_instr_t {
    uint8_t op;
    uint8_t flags;
    uint16_t charge; /* steps charged before the instruction runs */
    int32_t a, b, c;
} spx_instr_t;

/* Why a span is recorded for an instruction. */
typedef enum spx_site_kind_t {
    SPX_SITE_CHARGE, /* one per step of the instruction's charge, in order */
    SPX_SITE_FAILURE /* the expression or call the instruction can fail in */
} spx_site_kind_t;

/* Spans of instructions, sorted by pc, as byte ranges of the function's
 * source: looked up (and given line and column) only when a run stops. */
typedef struct spx_site_t {
    uint32_t pc;
    uint32_t kind; /* spx_site_kind_t */
    uint32_t start;
    uint32_t end;
} spx_site_t;

typedef struct spx_vm_function_t {
    const char *name;          /* "module.function" */
    const char *path;          /* the module's source */
    const unsigned char *text; /* its bytes, retained by the project */
    apr_size_t text_length;
    const spx_instr_t *code;
    uint32_t code_length;
    uint32_t int_registers, str_registers; /* frame size in each file */
    uint32_t int_params, str_params;
    uint32_t int_const_base, str_const_base;
    uint32_t int_const_count, str_const_count;
    const int64_t *int_consts;
    spx_string_t *const *str_consts;
    const spx_site_t *sites;
    uint32_t site_count;
    int returns_int; /* the entry and tests must */
    int too_large;   /* over a bytecode limit: not compiled, no run may reach it */
    uint32_t param_count;
    spx_span_t span; /* the function's name: where its first step is charged */
} spx_vm_function_t;

struct spx_program_t {
    spx_vm_function_t *functions;
    apr_size_t function_count;
    apr_hash_t *by_name; /* "module.function" -> index + 1 */
};

#endif /* SPX_VM_INTERNAL_H */
