/*
 * compile.c: the checked HIR into the register bytecode of vm_internal.h,
 * one module at a time while Phase A still holds the module's bodies. This is the only file of the
 * execution engine that reads the syntax tree (spx_ast.h); the interpreter and the envelope work on
 * spx_program_t alone.
 *
 * Steps (language.md, Fuel) are attached to instructions: a statement's,
 * a while condition's or a call's step is added to the charge of the next
 * instruction emitted, which is the first thing that statement, condition
 * or call does, so charging it there is charging it "before it runs". A
 * jump target never inherits a pending charge (a NOP carries it instead),
 * so a charge is paid exactly once per execution of its construct.
 *
 * Like the checker, the compiler walks chains of left operands and unary
 * operators without C recursion; right operands and nested blocks recurse,
 * which the parse depth limit bounds.
 */
#include "spx_assert.h"
#include "spx_limits.h"
#include "spx_program.h"
#include "vm_internal.h"

#include <apr_strings.h>
#include <stdlib.h>
#include <string.h>

enum { FILE_INT = 0, FILE_STR = 1, FILE_NONE = 2 };

/* Where a value is: a register of one file; temp when it is a temporary
 * that the consumer frees. */
typedef struct reg_t {
    int file;
    int32_t index;
    int temp;
} reg_t;

static const reg_t no_reg = {FILE_NONE, -1, 0};

/* Forward jumps waiting for their target. */
typedef struct label_t {
    apr_array_header_t *uses; /* int32_t pcs */
    int32_t pc;               /* -1 until bound */
} label_t;

/* The program being built, one module at a time (spx_program_builder_t),
 * and the state of the function being compiled. */
struct spx_program_builder_t {
    apr_pool_t *pool;              /* the program's tables */
    spx_arena_t *arena;            /* the program's code, constants and sites */
    apr_pool_t *scratch;           /* per function, cleared */
    apr_array_header_t *functions; /* spx_vm_function_t * (in the arena), by index */
    apr_hash_t *by_name;           /* "module.function" -> index + 1 */
    apr_array_header_t *code;      /* spx_instr_t */
    apr_array_header_t *sites;     /* spx_site_t */
    apr_array_header_t *pending;   /* spx_span_t of the pending charge */
    apr_array_header_t *spine;     /* const spx_expr_t * */
    uint32_t charge;
    int *slot_file;
    int32_t *slot_index;
    uint32_t locals[2];
    apr_hash_t *consts[2]; /* value bytes -> index + 1 */
    apr_array_header_t *int_consts, *str_consts;
    uint32_t top[2], max[2];
};
typedef spx_program_builder_t compiler_t;

/* The index of function in the program, given on first use: a call may
 * name a function of a module compiled later (an import cycle). */
static int32_t function_index(compiler_t *c, spx_function_t *function)
{
    if (function->code_index)
        return (int32_t)(function->code_index - 1);
    spx_vm_function_t *entry = SPX_ARENA_NEW(c->arena, spx_vm_function_t);
    entry->name = apr_pstrcat(c->pool, function->module->name, ".", function->name.text, NULL);
    APR_ARRAY_PUSH(c->functions, spx_vm_function_t *) = entry;
    function->code_index = (uint32_t)c->functions->nelts;
    apr_hash_set(c->by_name, entry->name, APR_HASH_KEY_STRING,
                 (void *)(uintptr_t)function->code_index);
    return (int32_t)(function->code_index - 1);
}

static int file_of(spx_type_t type)
{
    return type == SPX_TYPE_STR ? FILE_STR : type == SPX_TYPE_UNIT ? FILE_NONE : FILE_INT;
}

/* --- constants and slots ------------------------------------------------ */

/* The register of a constant: the collecting pass (collect_expr) adds each
 * one the first time it meets it, numbered from 1 in the hash; the
 * compiling pass finds them all there. */
static int32_t int_const(compiler_t *c, int64_t value)
{
    uintptr_t number = (uintptr_t)apr_hash_get(c->consts[FILE_INT], &value, sizeof(value));
    if (!number) {
        int64_t *key = apr_pmemdup(c->scratch, &value, sizeof(value));
        APR_ARRAY_PUSH(c->int_consts, int64_t) = value;
        number = (uintptr_t)c->int_consts->nelts;
        apr_hash_set(c->consts[FILE_INT], key, sizeof(*key), (void *)number);
    }
    return c->locals[FILE_INT] + (int32_t)(number - 1);
}

static int32_t str_const(compiler_t *c, const char *bytes, apr_size_t length)
{
    const char *key = length ? bytes : "";
    uintptr_t number = (uintptr_t)apr_hash_get(c->consts[FILE_STR], key, (apr_ssize_t)length);
    if (!number) {
        spx_string_t *s =
            spx_arena_alloc(c->arena, sizeof(*s) + length + 1, _Alignof(spx_string_t));
        s->refs = 0; /* a constant */
        s->length = s->capacity = length;
        if (length)
            memcpy(s->bytes, bytes, length);
        APR_ARRAY_PUSH(c->str_consts, spx_string_t *) = s;
        number = (uintptr_t)c->str_consts->nelts;
        apr_hash_set(c->consts[FILE_STR], s->bytes, (apr_ssize_t)length, (void *)number);
    }
    return c->locals[FILE_STR] + (int32_t)(number - 1);
}

/* The register of a literal or a local; no code. */
static reg_t leaf_reg(compiler_t *c, const spx_expr_t *e)
{
    switch (e->kind) {
    case SPX_EXPR_INT:
        return (reg_t){FILE_INT, int_const(c, e->as.integer), 0};
    case SPX_EXPR_BOOL:
        return (reg_t){FILE_INT, int_const(c, e->as.boolean ? 1 : 0), 0};
    case SPX_EXPR_STRING:
        return (reg_t){FILE_STR, str_const(c, e->as.string.bytes, e->as.string.length), 0};
    case SPX_EXPR_NAME:
        return (reg_t){c->slot_file[e->as.name.slot], c->slot_index[e->as.name.slot], 0};
    default:
        return no_reg;
    }
}

/* Pre-pass over one expression: every literal gets its constant now, so the
 * constants' registers are known before the first temporary is. */
static void collect_expr(void *context, const spx_expr_t *e)
{
    compiler_t *c = context;
    while (e->kind == SPX_EXPR_UNARY || e->kind == SPX_EXPR_BINARY) {
        if (e->kind == SPX_EXPR_UNARY) {
            e = e->as.unary.operand;
        } else {
            collect_expr(c, e->as.binary.right);
            e = e->as.binary.left;
        }
    }
    if (e->kind == SPX_EXPR_CALL) {
        for (apr_size_t i = 0; i < e->as.call->argument_count; i++)
            collect_expr(c, e->as.call->arguments[i]);
    } else if (e->kind != SPX_EXPR_NAME) {
        leaf_reg(c, e);
    }
}

/* Slot types: parameters first, then every let/var (the checker's numbering). */
static void type_slots(compiler_t *c, const spx_block_t *block)
{
    for (apr_size_t i = 0; i < block->count; i++) {
        const spx_stmt_t *s = block->statements[i];
        for (; s; s = s->kind == SPX_STMT_IF ? s->as.if_stmt.else_if : NULL) {
            if (s->kind == SPX_STMT_LET || s->kind == SPX_STMT_VAR) {
                spx_type_t type =
                    s->as.binding.has_type ? s->as.binding.declared : s->as.binding.value->type;
                c->slot_file[s->as.binding.slot] = file_of(type);
            } else if (s->kind == SPX_STMT_IF) {
                type_slots(c, &s->as.if_stmt.then_block);
                if (s->as.if_stmt.else_block)
                    type_slots(c, s->as.if_stmt.else_block);
            } else if (s->kind == SPX_STMT_WHILE) {
                type_slots(c, &s->as.while_stmt.body);
            }
        }
    }
}

/* --- emitting ------------------------------------------------------------- */

static void charge(compiler_t *c, spx_span_t span)
{
    c->charge++;
    APR_ARRAY_PUSH(c->pending, spx_span_t) = span;
}

static int32_t emit(compiler_t *c, spx_opcode_t op, unsigned flags, int32_t a, int32_t b,
                    int32_t cc)
{
    int32_t pc = c->code->nelts;
    spx_instr_t *ins = &APR_ARRAY_PUSH(c->code, spx_instr_t);
    ins->op = (uint8_t)op;
    ins->flags = (uint8_t)flags;
    SPX_ASSERT(c->charge <= UINT16_MAX); /* flush_charge keeps it there */
    ins->charge = (uint16_t)c->charge;
    ins->a = a;
    ins->b = b;
    ins->c = cc;
    for (int i = 0; i < c->pending->nelts; i++) {
        spx_site_t *site = &APR_ARRAY_PUSH(c->sites, spx_site_t);
        site->pc = (uint32_t)pc;
        site->kind = SPX_SITE_CHARGE;
        site->start = APR_ARRAY_IDX(c->pending, i, spx_span_t).start.offset;
        site->end = APR_ARRAY_IDX(c->pending, i, spx_span_t).end.offset;
    }
    c->charge = 0;
    apr_array_clear(c->pending);
    return pc;
}

/* The span an instruction reports when it fails (after its charge sites). */
static void failure_site(compiler_t *c, int32_t pc, spx_span_t span)
{
    spx_site_t *site = &APR_ARRAY_PUSH(c->sites, spx_site_t);
    site->pc = (uint32_t)pc;
    site->kind = SPX_SITE_FAILURE;
    site->start = span.start.offset;
    site->end = span.end.offset;
}

/* A charge may never grow past what an instruction holds. */
static void flush_charge(compiler_t *c)
{
    if (c->charge)
        emit(c, SPX_I_NOP, 0, 0, 0, 0);
}

static label_t *new_label(compiler_t *c)
{
    label_t *label = apr_palloc(c->scratch, sizeof(*label));
    label->uses = apr_array_make(c->scratch, 2, sizeof(int32_t));
    label->pc = -1;
    return label;
}

static void bind_label(compiler_t *c, label_t *label)
{
    flush_charge(c); /* a jump here must not pay the charge again */
    label->pc = c->code->nelts;
    for (int i = 0; i < label->uses->nelts; i++)
        APR_ARRAY_IDX(c->code, APR_ARRAY_IDX(label->uses, i, int32_t), spx_instr_t).a = label->pc;
}

static void jump(compiler_t *c, spx_opcode_t op, label_t *label, int32_t b, int32_t cc)
{
    int32_t pc = emit(c, op, 0, label->pc, b, cc);
    if (label->pc < 0)
        APR_ARRAY_PUSH(label->uses, int32_t) = pc;
}

static int32_t alloc_temp(compiler_t *c, int file)
{
    int32_t index = (int32_t)c->top[file]++;
    if (c->top[file] > c->max[file])
        c->max[file] = c->top[file];
    return index;
}

static void free_reg(compiler_t *c, reg_t r)
{
    if (r.temp && r.file != FILE_NONE)
        c->top[r.file]--;
}

/* The flag that releases r after its last read, when r is a str temporary. */
static unsigned dying(reg_t r, unsigned flag)
{
    return r.temp && r.file == FILE_STR ? flag : 0;
}

/* The destination of a new value: the hint, or a new temporary. */
static reg_t destination(compiler_t *c, int file, int32_t hint)
{
    if (hint >= 0)
        return (reg_t){file, hint, 0};
    return (reg_t){file, alloc_temp(c, file), 1};
}

/* --- expressions ---------------------------------------------------------- */

static reg_t compile_expr(compiler_t *c, const spx_expr_t *e, int32_t hint);

/* e's value into register target of its file. */
static void compile_into(compiler_t *c, const spx_expr_t *e, int32_t target)
{
    reg_t r = compile_expr(c, e, target);
    if (r.index != target && r.file != FILE_NONE)
        emit(c, r.file == FILE_STR ? SPX_I_MOVE_S : SPX_I_MOVE_I, dying(r, SPX_FLAG_FREE_B), target,
             r.index, 0);
    free_reg(c, r);
}

static reg_t compile_call(compiler_t *c, const spx_expr_t *e, int32_t hint)
{
    apr_size_t count = e->as.call->argument_count;
    if (e->as.call->builtin == SPX_BUILTIN_NONE) {
        int32_t bases[2] = {(int32_t)c->top[FILE_INT], (int32_t)c->top[FILE_STR]};
        reg_t *args = apr_palloc(c->scratch, (count + 1) * sizeof(*args));
        for (apr_size_t i = 0; i < count; i++) {
            int file = file_of(e->as.call->arguments[i]->type);
            args[i] = (reg_t){file, alloc_temp(c, file), 1};
            compile_into(c, e->as.call->arguments[i], args[i].index);
        }
        for (apr_size_t i = count; i-- > 0;)
            free_reg(c, args[i]);
        charge(c, e->span);
        spx_function_t *target = e->as.call->target;
        int32_t index = function_index(c, target);
        failure_site(c, emit(c, SPX_I_CALL, 0, index, bases[FILE_INT], bases[FILE_STR]), e->span);
        int file = file_of(target->result);
        if (file == FILE_NONE)
            return no_reg;
        return (reg_t){file, alloc_temp(c, file), 1}; /* the first argument's register */
    }
    reg_t arg = compile_expr(c, e->as.call->arguments[0], -1);
    free_reg(c, arg);
    charge(c, e->span);
    reg_t dst = no_reg;
    switch (e->as.call->builtin) {
    case SPX_BUILTIN_PRINT:
        emit(c, SPX_I_PRINT, dying(arg, SPX_FLAG_FREE_A), arg.index, 0, 0);
        break;
    case SPX_BUILTIN_ITOS:
        dst = destination(c, FILE_STR, hint);
        emit(c, SPX_I_ITOS, 0, dst.index, arg.index, 0);
        break;
    case SPX_BUILTIN_LEN:
        dst = destination(c, FILE_INT, hint);
        emit(c, SPX_I_LEN, dying(arg, SPX_FLAG_FREE_B), dst.index, arg.index, 0);
        break;
    default: /* assert */
        failure_site(c, emit(c, SPX_I_ASSERT, 0, arg.index, 0, 0), e->span);
        break;
    }
    return dst;
}

/* One binary operator (not && or ||) on registers already computed. */
static reg_t emit_binary(compiler_t *c, const spx_expr_t *e, reg_t l, reg_t r, int32_t hint)
{
    free_reg(c, r);
    free_reg(c, l);
    spx_operator_t op = e->as.binary.op;
    if (l.file == FILE_STR) {
        unsigned flags = dying(l, SPX_FLAG_FREE_B) | dying(r, SPX_FLAG_FREE_C);
        if (op == SPX_OP_ADD) {
            reg_t dst = destination(c, FILE_STR, hint);
            failure_site(c, emit(c, SPX_I_CONCAT, flags, dst.index, l.index, r.index), e->span);
            return dst;
        }
        reg_t dst = destination(c, FILE_INT, hint);
        emit(c, op == SPX_OP_EQ ? SPX_I_EQ_S : SPX_I_NE_S, flags, dst.index, l.index, r.index);
        return dst;
    }
    reg_t dst = destination(c, FILE_INT, hint);
    static const struct {
        spx_opcode_t op;
        int swap;
    } table[] = {
        [SPX_OP_EQ] = {SPX_I_EQ, 0},   [SPX_OP_NE] = {SPX_I_NE, 0},   [SPX_OP_LT] = {SPX_I_LT, 0},
        [SPX_OP_LE] = {SPX_I_LE, 0},   [SPX_OP_GT] = {SPX_I_LT, 1},   [SPX_OP_GE] = {SPX_I_LE, 1},
        [SPX_OP_ADD] = {SPX_I_ADD, 0}, [SPX_OP_SUB] = {SPX_I_SUB, 0}, [SPX_OP_MUL] = {SPX_I_MUL, 0},
        [SPX_OP_DIV] = {SPX_I_DIV, 0}, [SPX_OP_REM] = {SPX_I_REM, 0},
    };
    int32_t pc = table[op].swap ? emit(c, table[op].op, 0, dst.index, r.index, l.index)
                                : emit(c, table[op].op, 0, dst.index, l.index, r.index);
    if (op >= SPX_OP_ADD)
        failure_site(c, pc, e->span);
    return dst;
}

/* e's value: a register of its file. The chain of left operands and unary
 * operands is unrolled onto c->spine; only right operands recurse. hint, when
 * not -1, is a register the outermost operator may write (never && or ||:
 * their right operand could still read it). */
static reg_t compile_expr(compiler_t *c, const spx_expr_t *e, int32_t hint)
{
    int base = c->spine->nelts;
    const spx_expr_t *node = e;
    while (node->kind == SPX_EXPR_UNARY || node->kind == SPX_EXPR_BINARY) {
        APR_ARRAY_PUSH(c->spine, const spx_expr_t *) = node;
        node = node->kind == SPX_EXPR_UNARY ? node->as.unary.operand : node->as.binary.left;
    }
    reg_t r = node->kind == SPX_EXPR_CALL ? compile_call(c, node, node == e ? hint : -1)
                                          : leaf_reg(c, node);
    while (c->spine->nelts > base) {
        const spx_expr_t *top = APR_ARRAY_IDX(c->spine, c->spine->nelts - 1, const spx_expr_t *);
        c->spine->nelts--;
        int32_t here = top == e ? hint : -1;
        if (top->kind == SPX_EXPR_UNARY) {
            free_reg(c, r);
            reg_t dst = destination(c, FILE_INT, here);
            if (top->as.unary.op == SPX_OP_NEG)
                failure_site(c, emit(c, SPX_I_NEG, 0, dst.index, r.index, 0), top->span);
            else
                emit(c, SPX_I_NOT, 0, dst.index, r.index, 0);
            r = dst;
        } else if (top->as.binary.op == SPX_OP_AND || top->as.binary.op == SPX_OP_OR) {
            if (!r.temp) {
                reg_t dst = destination(c, FILE_INT, -1);
                emit(c, SPX_I_MOVE_I, 0, dst.index, r.index, 0);
                r = dst;
            }
            label_t *end = new_label(c);
            jump(c, top->as.binary.op == SPX_OP_AND ? SPX_I_JUMP_NOT : SPX_I_JUMP_IF, end, r.index,
                 0);
            compile_into(c, top->as.binary.right, r.index);
            bind_label(c, end);
        } else {
            reg_t right = compile_expr(c, top->as.binary.right, -1);
            r = emit_binary(c, top, r, right, here);
        }
    }
    return r;
}

/* Jump to label when e is when (true or false); fall through otherwise.
 * The parser already bounds how deep operators nest; depth makes the bound
 * local: past SPX_LIMIT_PARSE_DEPTH, e is computed as a value (which unrolls
 * its left chain) and tested. */
static void compile_branch(compiler_t *c, const spx_expr_t *e, int when, label_t *label,
                           unsigned depth)
{
    if (depth < SPX_LIMIT_PARSE_DEPTH && e->kind == SPX_EXPR_UNARY &&
        e->as.unary.op == SPX_OP_NOT) {
        compile_branch(c, e->as.unary.operand, !when, label, depth + 1);
        return;
    }
    if (depth < SPX_LIMIT_PARSE_DEPTH && e->kind == SPX_EXPR_BOOL) {
        if (e->as.boolean == when)
            jump(c, SPX_I_JUMP, label, 0, 0);
        return;
    }
    if (depth < SPX_LIMIT_PARSE_DEPTH && e->kind == SPX_EXPR_BINARY) {
        spx_operator_t op = e->as.binary.op;
        if (op == SPX_OP_AND || op == SPX_OP_OR) {
            /* "a && b" jumps on false when either does, "a || b" on true. */
            int direct = (op == SPX_OP_AND) != when;
            label_t *skip = direct ? label : new_label(c);
            compile_branch(c, e->as.binary.left, direct ? when : !when, skip, depth + 1);
            compile_branch(c, e->as.binary.right, when, label, depth + 1);
            if (!direct)
                bind_label(c, skip);
            return;
        }
        if (op >= SPX_OP_EQ && op <= SPX_OP_GE && e->as.binary.left->type != SPX_TYPE_STR) {
            reg_t l = compile_expr(c, e->as.binary.left, -1);
            reg_t r = compile_expr(c, e->as.binary.right, -1);
            free_reg(c, r);
            free_reg(c, l);
            /* (opcode, swap operands) to jump when false [0] and when true [1] */
            static const struct {
                spx_opcode_t op;
                int swap;
            } table[][2] = {
                [SPX_OP_EQ] = {{SPX_I_JUMP_NE, 0}, {SPX_I_JUMP_EQ, 0}},
                [SPX_OP_NE] = {{SPX_I_JUMP_EQ, 0}, {SPX_I_JUMP_NE, 0}},
                [SPX_OP_LT] = {{SPX_I_JUMP_LE, 1}, {SPX_I_JUMP_LT, 0}},
                [SPX_OP_LE] = {{SPX_I_JUMP_LT, 1}, {SPX_I_JUMP_LE, 0}},
                [SPX_OP_GT] = {{SPX_I_JUMP_LE, 0}, {SPX_I_JUMP_LT, 1}},
                [SPX_OP_GE] = {{SPX_I_JUMP_LT, 0}, {SPX_I_JUMP_LE, 1}},
            };
            int w = when ? 1 : 0;
            jump(c, table[op][w].op, label, table[op][w].swap ? r.index : l.index,
                 table[op][w].swap ? l.index : r.index);
            return;
        }
    }
    reg_t r = compile_expr(c, e, -1);
    free_reg(c, r);
    jump(c, when ? SPX_I_JUMP_IF : SPX_I_JUMP_NOT, label, r.index, 0);
}

/* --- statements ----------------------------------------------------------- */

static void compile_block(compiler_t *c, const spx_block_t *block);

static void compile_stmt(compiler_t *c, const spx_stmt_t *s)
{
    if (c->charge >= UINT16_MAX - 2)
        flush_charge(c);
    charge(c, s->span);
    switch (s->kind) {
    case SPX_STMT_LET:
    case SPX_STMT_VAR:
        compile_into(c, s->as.binding.value, c->slot_index[s->as.binding.slot]);
        break;
    case SPX_STMT_ASSIGN:
        compile_into(c, s->as.assign.value, c->slot_index[s->as.assign.slot]);
        break;
    case SPX_STMT_IF: {
        label_t *otherwise = new_label(c);
        compile_branch(c, s->as.if_stmt.condition, 0, otherwise, 0);
        compile_block(c, &s->as.if_stmt.then_block);
        if (s->as.if_stmt.else_block || s->as.if_stmt.else_if) {
            label_t *end = new_label(c);
            jump(c, SPX_I_JUMP, end, 0, 0);
            bind_label(c, otherwise);
            if (s->as.if_stmt.else_block)
                compile_block(c, s->as.if_stmt.else_block);
            else
                compile_stmt(c, s->as.if_stmt.else_if);
            bind_label(c, end);
        } else {
            bind_label(c, otherwise);
        }
        break;
    }
    case SPX_STMT_WHILE: {
        label_t *body = new_label(c), *condition = new_label(c);
        jump(c, SPX_I_JUMP, condition, 0, 0); /* carries the while's own step */
        bind_label(c, body);
        compile_block(c, &s->as.while_stmt.body);
        bind_label(c, condition);
        charge(c, s->as.while_stmt.condition->span);
        compile_branch(c, s->as.while_stmt.condition, 1, body, 0);
        break;
    }
    case SPX_STMT_RETURN:
        if (s->as.return_stmt.value) {
            reg_t r = compile_expr(c, s->as.return_stmt.value, -1);
            free_reg(c, r);
            emit(c, r.file == FILE_STR ? SPX_I_RETURN_S : SPX_I_RETURN_I, dying(r, SPX_FLAG_FREE_A),
                 r.index, 0, 0);
        } else {
            emit(c, SPX_I_RETURN, 0, 0, 0, 0);
        }
        break;
    case SPX_STMT_EXPR: {
        reg_t r = compile_expr(c, s->as.expr_stmt.expression, -1);
        free_reg(c, r);
        if (r.temp && r.file == FILE_STR) /* an unused string: release it now */
            emit(c, SPX_I_MOVE_S, SPX_FLAG_FREE_B, r.index, r.index, 0);
        else
            flush_charge(c); /* e.g. "x;": the statement still costs its step */
        break;
    }
    case SPX_STMT_FOR:
    case SPX_STMT_BREAK:
    case SPX_STMT_CONTINUE:
        break; /* language v2: the checker rejects these for now (E0499), never compiled */
    }
}

static void compile_block(compiler_t *c, const spx_block_t *block)
{
    for (apr_size_t i = 0; i < block->count; i++)
        compile_stmt(c, block->statements[i]);
}

/* --- functions and the program ------------------------------------------- */

/* Compile f into *out (its name set already); a function over a bytecode
 * limit is compiled as too_large, which stops any run that can reach it. */
static void compile_function(compiler_t *c, const spx_function_t *f, spx_vm_function_t *out)
{
    apr_pool_clear(c->scratch);
    c->code = apr_array_make(c->scratch, 64, sizeof(spx_instr_t));
    c->sites = apr_array_make(c->scratch, 16, sizeof(spx_site_t));
    c->pending = apr_array_make(c->scratch, 4, sizeof(spx_span_t));
    c->spine = apr_array_make(c->scratch, 16, sizeof(const spx_expr_t *));
    c->int_consts = apr_array_make(c->scratch, 8, sizeof(int64_t));
    c->str_consts = apr_array_make(c->scratch, 8, sizeof(spx_string_t *));
    c->consts[FILE_INT] = apr_hash_make(c->scratch);
    c->consts[FILE_STR] = apr_hash_make(c->scratch);
    c->charge = 0;
    apr_size_t slots = f->local_count;
    c->slot_file = apr_pcalloc(c->scratch, (slots + 1) * sizeof(int));
    c->slot_index = apr_pcalloc(c->scratch, (slots + 1) * sizeof(int32_t));
    for (apr_size_t i = 0; i < f->param_count; i++)
        c->slot_file[i] = file_of(f->params[i].type);
    type_slots(c, &f->body);
    c->locals[FILE_INT] = c->locals[FILE_STR] = 0;
    uint32_t params[2] = {0, 0};
    for (apr_size_t i = 0; i < slots; i++) {
        int file = c->slot_file[i];
        c->slot_index[i] = (int32_t)c->locals[file]++;
        if (i < f->param_count)
            params[file]++;
    }
    spx_block_visit_expressions(&f->body, collect_expr, c);
    for (int file = 0; file < 2; file++) {
        apr_size_t consts =
            file == FILE_INT ? (apr_size_t)c->int_consts->nelts : (apr_size_t)c->str_consts->nelts;
        c->top[file] = c->max[file] = c->locals[file] + (uint32_t)consts;
    }
    compile_block(c, &f->body);
    emit(c, f->result == SPX_TYPE_UNIT ? SPX_I_RETURN : SPX_I_UNREACHABLE, 0, 0, 0, 0);
    if ((apr_size_t)c->code->nelts > SPX_LIMIT_FUNCTION_INSTRUCTIONS ||
        c->max[FILE_INT] > SPX_LIMIT_FUNCTION_REGISTERS ||
        c->max[FILE_STR] > SPX_LIMIT_FUNCTION_REGISTERS) {
        out->too_large = 1;
        return;
    }

    out->path = f->module->path;
    out->text = f->module->text;
    out->text_length = f->module->length;
    out->code = SPX_ARENA_COPY(c->arena, spx_instr_t, c->code->elts, c->code->nelts);
    out->code_length = (uint32_t)c->code->nelts;
    out->int_registers = c->max[FILE_INT];
    out->str_registers = c->max[FILE_STR];
    out->int_params = params[FILE_INT];
    out->str_params = params[FILE_STR];
    out->int_const_base = c->locals[FILE_INT];
    out->str_const_base = c->locals[FILE_STR];
    out->int_const_count = (uint32_t)c->int_consts->nelts;
    out->str_const_count = (uint32_t)c->str_consts->nelts;
    out->int_consts = SPX_ARENA_COPY(c->arena, int64_t, c->int_consts->elts, c->int_consts->nelts);
    out->str_consts =
        SPX_ARENA_COPY(c->arena, spx_string_t *, c->str_consts->elts, c->str_consts->nelts);
    out->sites = SPX_ARENA_COPY(c->arena, spx_site_t, c->sites->elts, c->sites->nelts);
    out->site_count = (uint32_t)c->sites->nelts;
    out->returns_int = f->result == SPX_TYPE_INT;
    out->param_count = (uint32_t)f->param_count;
    out->span = f->name.span;
}

spx_program_builder_t *spx_program_builder_make(apr_pool_t *pool, spx_arena_t *arena)
{
    compiler_t *c = apr_pcalloc(pool, sizeof(*c));
    c->pool = pool;
    c->arena = arena;
    apr_pool_create(&c->scratch, pool);
    c->functions = apr_array_make(pool, 64, sizeof(spx_vm_function_t *));
    c->by_name = apr_hash_make(pool);
    return c;
}

void spx_program_add_module(spx_program_builder_t *c, const spx_module_t *module)
{
    for (apr_size_t f = 0; f < module->function_count; f++) {
        spx_function_t *function = module->functions[f];
        int32_t index = function_index(c, function); /* may grow c->functions */
        compile_function(c, function, APR_ARRAY_IDX(c->functions, index, spx_vm_function_t *));
    }
    apr_pool_clear(c->scratch);
}

spx_program_t *spx_program_finish(spx_program_builder_t *c)
{
    apr_pool_destroy(c->scratch);
    spx_program_t *program = apr_pcalloc(c->pool, sizeof(*program));
    program->function_count = (apr_size_t)c->functions->nelts;
    program->functions = SPX_ARENA_ARRAY(c->arena, spx_vm_function_t, program->function_count + 1);
    for (apr_size_t i = 0; i < program->function_count; i++)
        program->functions[i] = *APR_ARRAY_IDX(c->functions, i, spx_vm_function_t *);
    program->by_name = c->by_name;
    return program;
}

apr_status_t spx_program_check_roots(const spx_program_t *program, const char *const *roots,
                                     apr_pool_t *pool, const char **message)
{
    char *seen = apr_pcalloc(pool, program->function_count + 1);
    apr_array_header_t *queue = apr_array_make(pool, 16, sizeof(int32_t));
    for (const char *const *root = roots; *root; root++) {
        long index = spx_program_find(program, *root);
        if (index >= 0 && !seen[index]) {
            seen[index] = 1;
            APR_ARRAY_PUSH(queue, int32_t) = (int32_t)index;
        }
    }
    for (int i = 0; i < queue->nelts; i++) {
        const spx_vm_function_t *function = &program->functions[APR_ARRAY_IDX(queue, i, int32_t)];
        if (function->too_large) {
            *message = apr_psprintf(pool, "function '%s' is too large to run", function->name);
            return APR_EINVAL;
        }
        for (uint32_t pc = 0; pc < function->code_length; pc++) {
            int32_t callee = function->code[pc].a;
            if (function->code[pc].op == SPX_I_CALL && !seen[callee]) {
                seen[callee] = 1;
                APR_ARRAY_PUSH(queue, int32_t) = callee;
            }
        }
    }
    return APR_SUCCESS;
}

long spx_program_find(const spx_program_t *program, const char *qualified)
{
    return (long)(uintptr_t)apr_hash_get(program->by_name, qualified, APR_HASH_KEY_STRING) - 1;
}
