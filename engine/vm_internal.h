/*
 * vm_internal.h: the bytecode shared by the compiler (compile.c) and the
 * interpreter (vm.c). Nothing outside those two files reads it.
 *
 * A function's frame has two register files: int registers (int and bool
 * values) and block registers (strings, arrays and structs: pointers to
 * blocks of spx_values.h, or NULL; a register that holds a block is one of
 * its holders). The static types of Semaprax tell the compiler which file
 * every value lives in, so the interpreter never tests a value's type. The
 * int file is laid out as [parameters][other locals][constants]
 * [temporaries], the constants copied in when the frame is entered (an int
 * literal that an instruction carries as an immediate has none); the
 * block file as [parameters][other locals][temporaries] (a string literal
 * is an instruction: each evaluation makes a block, as the holder rules
 * require).
 *
 * Calls: the caller evaluates the arguments into consecutive temporaries at
 * the top of each file; those become the callee's parameters (the callee's
 * frame starts there), and the result is written back to the first of them.
 */
#ifndef SPX_VM_INTERNAL_H
#define SPX_VM_INTERNAL_H

#include "render.h"
#include "spx_values.h"
#include "spx_vm.h"

#include <apr_hash.h>

/* The bytes of a string literal or a str const, in the program's arena:
 * evaluating it makes a block over them (spx_str_literal). */
typedef struct spx_literal_t {
    const unsigned char *bytes;
    apr_size_t length;
} spx_literal_t;

/* Operand conventions: I = int register, B = block register (str, array,
 * struct), T = target pc, X = the function's aux table (spx_vm_function_t.aux).
 * Flags mark block operands that are temporaries read for the last time:
 * the instruction releases (or takes over) their holder. A place is an aux
 * record [root B register, step count, step...], each step 2 * I register
 * for an index or 2 * field + 1 for a field. */
typedef enum spx_opcode_t {
    SPX_I_NOP,        /* only carries a charge */
    SPX_I_MOVE_I,     /* I[a] = I[b] */
    SPX_I_MOVE_B,     /* B[a] = B[b] (a new holder, or B[b]'s taken over: FREE_B) */
    SPX_I_DROP_B,     /* release B[a], leave it empty */
    SPX_I_LITERAL,    /* B[a] = a new block over literal b of the function */
    SPX_I_ADD,        /* I[a] = I[b] + I[c], R0501 on overflow */
    SPX_I_SUB,        /* I[a] = I[b] - I[c] */
    SPX_I_MUL,        /* I[a] = I[b] * I[c] */
    SPX_I_DIV,        /* I[a] = I[b] / I[c], R0503, R0505 */
    SPX_I_REM,        /* I[a] = I[b] % I[c], R0504 */
    SPX_I_NEG,        /* I[a] = -I[b], R0502 */
    SPX_I_NOT,        /* I[a] = !I[b] */
    SPX_I_BIT_AND,    /* I[a] = I[b] & I[c] */
    SPX_I_BIT_OR,     /* I[a] = I[b] | I[c] */
    SPX_I_BIT_XOR,    /* I[a] = I[b] ^ I[c] */
    SPX_I_BIT_NOT,    /* I[a] = ~I[b] */
    SPX_I_SHL,        /* I[a] = I[b] << I[c], R0517, R0518 */
    SPX_I_SHR,        /* I[a] = I[b] >> I[c] (floor), R0517 */
    SPX_I_INC,        /* I[a] = I[a] + 1, never past a bound the loop checked */
    SPX_I_EQ,         /* I[a] = I[b] == I[c] */
    SPX_I_NE,         /* I[a] = I[b] != I[c] */
    SPX_I_LT,         /* I[a] = I[b] <  I[c] */
    SPX_I_LE,         /* I[a] = I[b] <= I[c] */
    SPX_I_EQ_B,       /* I[a] = B[b] == B[c], size charge */
    SPX_I_NE_B,       /* I[a] = B[b] != B[c], size charge */
    SPX_I_CONCAT,     /* B[a] = B[b] + B[c] (strs, v3: arrays), R0506, R0519, R0521 */
    SPX_I_APPEND,     /* B[a] = B[a] + B[b] where B[a] is a variable: in place when only it holds */
    SPX_I_JUMP,       /* pc = a */
    SPX_I_JUMP_IF,    /* if I[b]: pc = a */
    SPX_I_JUMP_NOT,   /* if !I[b]: pc = a */
    SPX_I_JUMP_EQ,    /* if I[b] == I[c]: pc = a */
    SPX_I_JUMP_NE,    /* if I[b] != I[c]: pc = a */
    SPX_I_JUMP_LT,    /* if I[b] <  I[c]: pc = a */
    SPX_I_JUMP_LE,    /* if I[b] <= I[c]: pc = a */
    SPX_I_CALL,       /* call function a with frames at I[b] and B[c] */
    SPX_I_RETURN_I,   /* return I[a] */
    SPX_I_RETURN_B,   /* return B[a] */
    SPX_I_RETURN,     /* return from a unit function */
    SPX_I_PRINT,      /* print(B[a]) */
    SPX_I_ITOS,       /* B[a] = itos(I[b]) */
    SPX_I_CHR,        /* B[a] = chr(I[b]), R0515 */
    SPX_I_STOI,       /* I[a] = stoi(B[b]), R0516, R0520 */
    SPX_I_LEN,        /* I[a] = len(B[b]) */
    SPX_I_ASSERT,     /* assert(I[a]), R0508 */
    SPX_I_ASSERT_MSG, /* assert(I[a], B[b]), R0508 */
    SPX_I_STR_INDEX,  /* I[a] = B[b][I[c]] (a byte), R0511 */
    SPX_I_INDEX_I,    /* I[a] = B[b][I[c]], R0511 */
    SPX_I_INDEX_I_AT, /* I[a] = B[b][I[X[c]] + X[c+1]] (X[c+2]: - instead of +), R0501, R0511 */
    SPX_I_INDEX_B,    /* B[a] = B[b][I[c]], R0511 */
    SPX_I_STR_SLICE,  /* B[a] = B[b][I[c]..I[c+1]], R0512, R0513 */
    SPX_I_SLICE,      /* B[a] = B[b][I[c]..I[c+1]], R0512 */
    SPX_I_FIELD_I,    /* I[a] = B[b].field c */
    SPX_I_ELEMENT_FIELD_I, /* I[a] = B[b][I[X[c]]].field X[c+1] (a[i].f fused), R0511 */
    SPX_I_FIELD_B,         /* B[a] = B[b].field c */
    SPX_I_ARRAY_I,         /* B[a] = [I[b], ..., I[b+c-1]], R0519, R0521 */
    SPX_I_ARRAY_B,         /* B[a] = [B[b], ..., B[b+c-1]] (taken over) */
    SPX_I_STRUCT,  /* B[a] = struct of shape c; X[b..]: each field's 2 * I or 2 * B + 1 register */
    SPX_I_SET_I,   /* B[a][I[c]] = I[b]: a one-index place (a[i] = e), R0511 */
    SPX_I_SET_B,   /* B[a][I[c]] = B[b] (taken over when FREE_B) */
    SPX_I_WRITE_I, /* place X[b] = I[a] */
    SPX_I_WRITE_B, /* place X[b] = B[a] (taken over when FREE_A) */
    SPX_I_PUSH_I,  /* place X[b] .push(I[a]) */
    SPX_I_PUSH_B,  /* place X[b] .push(B[a]) */
    SPX_I_POP_I,   /* I[a] = place X[b] .pop(), R0514 */
    SPX_I_POP_B,   /* B[a] = place X[b] .pop() */
    SPX_I_UNREACHABLE, /* the end of a function that must have returned */
    SPX_I_METHOD,      /* a library method c (spx_builtin_t) on the operands of X[b]: the
                          record [place or -1, result file (0 none, 1 I, 2 B), operand count,
                          operand...], each operand 4 * register + 1 for B + 2 when dying;
                          the result into I[a] or B[a] (spx_library_call) */
    /* language v3 (syntax): compound assignment, the append rule, str order */
    SPX_I_READ_I,       /* I[a] = place X[b], R0511 (a compound assignment's read) */
    SPX_I_READ_B,       /* B[a] = place X[b], R0511 */
    SPX_I_APPEND_PLACE, /* place X[b] += B[c], B[a] the block read from it (taken): the append */
    SPX_I_STR_LT,       /* I[a] = B[b] < B[c] (strings, bytewise), size charge */
    SPX_I_STR_LE,       /* I[a] = B[b] <= B[c] */
    SPX_I_ASSERT_EQ_I,  /* assert_eq(I[a], I[b]); X[c]: message B register or -1, render type,
                           message dying; R0508 */
    SPX_I_ASSERT_EQ_B,  /* assert_eq(B[a], B[b]), size charge; X[c] as above */
    /* v3: enums and match */
    SPX_I_VARIANT,       /* B[a] = variant shape c; X[b..]: each payload's 2 * I or 2 * B + 1 */
    SPX_I_VARIANT_CONST, /* B[a] = the constant of variant b (no payloads, no block) */
    SPX_I_MATCH,         /* on B[a]'s variant v: charge X[b+2v+1] / 64, pc = X[b+2v]; c variants */
    SPX_I_PAYLOAD_I,     /* I[a] = B[b].payload c */
    SPX_I_PAYLOAD_B,     /* B[a] = B[b].payload c (a new holder) */
    SPX_I_TAKE_APART,    /* release B[a] when it is its block's only holder (a match's operand) */
    /* language v3, maps. A key operand K is 2 * register + 1 for a str key
     * (a B register), 2 * register for an int or bool key (an I register).
     * A map step of a place is -1 - (4 * register + 2 * dying + str): its
     * key, released after the instruction when dying (a temporary). */
    SPX_I_MAP,          /* B[a] = map literal of c entries; X[b]: keys' SPX_MAP_KEYS_*, values are
                           blocks, then each key's and value's 2 * I or 2 * B + 1 (taken over) */
    SPX_I_MAP_GET_I,    /* I[a] = B[b][K c], R0522 */
    SPX_I_MAP_GET_B,    /* B[a] = B[b][K c], R0522 */
    SPX_I_MAP_KEY_I,    /* I[a] = the key at position I[c] of B[b] (for k in m) */
    SPX_I_MAP_KEY_B,    /* B[a] = the key at position I[c] of B[b] */
    SPX_I_MAP_HAS,      /* I[a] = B[b].has(K c) */
    SPX_I_MAP_GET_OR_I, /* I[a] = B[b].get(K X[c], X[c + 1] as 2 * I or 2 * B + 1) */
    SPX_I_MAP_GET_OR_B, /* B[a] = B[b].get(K X[c], ...) */
    SPX_I_MAP_KEYS,     /* B[a] = B[b].keys() */
    SPX_I_MAP_VALUES,   /* B[a] = B[b].values() */
    SPX_I_MAP_REMOVE,   /* I[a] = place X[b] .remove(K c) */
    SPX_I_ARGS,         /* v3: B[a] = args(), an array over the run's arguments; n = k */
    /* An int literal K as the right operand, carried in c (0 <= K < INT32_MAX):
     * no constant register. x <= K is LT_K K + 1, x > K is GE_K K + 1. */
    SPX_I_ADD_K,     /* I[a] = I[b] + c, R0501 on overflow */
    SPX_I_SUB_K,     /* I[a] = I[b] - c, R0501 on overflow */
    SPX_I_EQ_K,      /* I[a] = I[b] == c */
    SPX_I_NE_K,      /* I[a] = I[b] != c */
    SPX_I_LT_K,      /* I[a] = I[b] <  c */
    SPX_I_GE_K,      /* I[a] = I[b] >= c */
    SPX_I_JUMP_EQ_K, /* if I[b] == c: pc = a */
    SPX_I_JUMP_NE_K, /* if I[b] != c: pc = a */
    SPX_I_JUMP_LT_K, /* if I[b] <  c: pc = a */
    SPX_I_JUMP_GE_K  /* if I[b] >= c: pc = a */
} spx_opcode_t;

#define SPX_FLAG_FREE_B 1u /* B[b] is a dying temporary */
#define SPX_FLAG_FREE_C 2u /* B[c] is a dying temporary */
#define SPX_FLAG_FREE_A 4u /* B[a] is a dying temporary (PRINT, RETURN_B, WRITE_B, PUSH_B) */
#define SPX_FLAG_FREE_D 8u /* MAP_GET_OR_*: the default is a dying temporary */

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
 * source: looked up (and given line and column) only when a run stops. The
 * compiler collects them as records and keeps them packed
 * (spx_vm_function_t.sites): for each site in order, three LEB128 numbers,
 * (pc - the previous site's pc) * 2 + kind, the start's distance from the
 * previous site's start (zigzag: 2d for d >= 0, -2d - 1 below), and
 * end - start; the first site's previous pc and start are 0. A site
 * takes 3 to 6 bytes instead of 16. */
typedef struct spx_site_t {
    uint32_t pc;
    uint32_t kind; /* spx_site_kind_t */
    uint32_t start;
    uint32_t end;
} spx_site_t;

/* A frame's int constants are copied in groups of this many (enter, vm.c);
 * the compiler pads them with zeros to a whole group. */
#define SPX_VM_CONST_GROUP 4u

/* A module's source, shared by its functions. */
typedef struct spx_vm_source_t {
    const char *path;
    const unsigned char *text; /* its bytes, retained by the project */
    apr_size_t text_length;
} spx_vm_source_t;

/* One function of the program. Phase A keeps one per function of the
 * project, so the record is packed: no padding, the source shared. */
typedef struct spx_vm_function_t {
    const char *name;              /* "module.function" */
    const spx_vm_source_t *source; /* the module's */
    const spx_instr_t *code;
    uint32_t code_length;
    uint32_t int_registers, block_registers; /* frame size in each file */
    uint32_t int_params, block_params;
    uint32_t int_const_base;
    uint32_t int_const_count; /* a multiple of SPX_VM_CONST_GROUP unless at the register limit */
    uint32_t site_bytes;      /* of sites */
    int64_t *int_consts;      /* const reads are filled in by spx_program_finish */
    /* str literals and str consts, by number (the consts' filled in by
     * spx_program_finish); places and struct literals' registers; v3:
     * assert_eq's values' types, by number. NULL when none. */
    spx_literal_t *literals;
    const int32_t *aux;
    const spx_render_type_t *const *render_types;
    const uint8_t *sites; /* packed spx_site_t records (above) */
    uint32_t param_count;
    uint8_t returns_int; /* the entry and tests must */
    uint8_t too_large;   /* over a bytecode limit: not compiled, no run may reach it */
    /* The function's name in the source (where its first step is charged),
     * as a byte range: its line and column are found when a run stops. */
    uint32_t name_start, name_end;
} spx_vm_function_t;

struct spx_program_t {
    spx_vm_function_t *const *functions; /* each made once, where the compiler made it */
    apr_size_t function_count;
    const spx_struct_shape_t *const *shapes;          /* every struct of the program, by number */
    const spx_variant_shape_t *const *variant_shapes; /* v3: every variant with payloads */
    /* The functions by "module.function": open addressing (linear probing,
     * FNV-1a of the name) over index + 1, 0 for an empty slot; at most half
     * full, a power of two slots (spx_program_find). */
    const uint32_t *by_name;
    apr_size_t by_name_slots;
};

#endif /* SPX_VM_INTERNAL_H */
