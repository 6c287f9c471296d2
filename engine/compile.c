/*
 * compile.c: the checked HIR into the register bytecode of vm_internal.h,
 * one module at a time while Phase A still holds the module's bodies. This is the only file of the
 * execution engine that reads the syntax tree (spx_ast.h); the interpreter and the envelope work on
 * spx_program_t alone.
 *
 * Steps (language.md, Fuel) are attached to instructions: a statement's,
 * a loop check's or a call's step is added to the charge of the next
 * instruction emitted, which is the first thing that statement, check or
 * call does, so charging it there is charging it "before it runs". A
 * jump target never inherits a pending charge (a NOP carries it instead),
 * so a charge is paid exactly once per execution of its construct.
 *
 * Holders (language v2, Execution): a block register that holds a value is
 * one of its holders. Reading a variable as an operand takes no holder of
 * its own unless a later operand of the same operation could write the
 * variable (a pop or push in it): then the read is copied into a
 * temporary first, so the write sees two holders and copies. Variables of
 * a block drop their holders at the block's end (and on break, continue
 * and return), a for loop's snapshot and variable at the loop's end. A
 * read the checker marked as a move (checker_moves.c, in a transfer
 * position) hands the variable's holder to its consumer, which takes it
 * with the same flag that takes a temporary's and empties the variable
 * (dropping an empty register does nothing); a later operand that moves
 * counts as one that writes.
 *
 * Registers of variables (place_slots): each scope's take those above
 * the scopes around it, so scopes never open at once (match arms, sibling
 * blocks) share them and a return releases fewer.
 *
 * A function is walked twice: once to collect (the registers of its
 * variables and constants, and each statement's nodes for its charge),
 * then to emit.
 *
 * Like the checker, the compiler walks chains of left operands and unary
 * operators without C recursion; right operands, v2 postfix operators and
 * nested blocks recurse, which the parse depth limit bounds.
 */
#include "spx_array.h"
#include "spx_assert.h"
#include "spx_leb128.h"
#include "spx_library.h"
#include "spx_limits.h"
#include "spx_name_table.h"
#include "spx_program.h"
#include "vm_internal.h"

#include <apr_strings.h>
#include <stdlib.h>
#include <string.h>

enum { FILE_INT = 0, FILE_BLOCK = 1, FILE_NONE = 2 };

/* Where a value is: a register of one file; temp when it is a temporary
 * that the consumer frees, or MOVED_VARIABLE when it is a variable whose
 * read moves (the checker's name.moves): the consumer takes its holder as
 * a temporary's and leaves the variable empty, but the register stays the
 * variable's. */
typedef struct reg_t {
    int file;
    int32_t index;
    int temp;
} reg_t;

enum { MOVED_VARIABLE = 2 };

/* A function's string literals are found again by comparing them in turn
 * while it has at most this many (most have a few: no hash to make); past
 * it, through a hash of their bytes. */
enum { LITERAL_SCAN = 16 };

/* The int constants 0 <= value < SMALL_INTS (most of a function's) are
 * numbered through an array indexed by value, the others through a table. */
enum { SMALL_INTS = 64 };

static const reg_t no_reg = {FILE_NONE, -1, 0};

/* A jump target. The jumps waiting for it are chained through their a
 * operands, each holding the pc of the one before (-1 ends the chain),
 * until it is bound: a label is a value on the C stack, with no list of
 * its own. */
typedef struct label_t {
    int32_t pc;      /* -1 until bound */
    int32_t waiting; /* the last jump waiting for it, or -1 */
} label_t;

#define UNBOUND_LABEL                                                                              \
    {                                                                                              \
        -1, -1                                                                                     \
    }

/* The innermost loops being compiled: where break and continue go, and
 * the block variables they leave behind. */
typedef struct loop_t {
    label_t *exit, *next;
    int scope_mark; /* c->scope's length when the body began */
} loop_t;

/* A read of a const, filled in once every const is evaluated
 * (spx_program_finish): an int constant register or a literal. */
typedef struct const_patch_t {
    const spx_const_t *constant;
    spx_vm_function_t *function; /* its int_consts[number], or its literals[number] */
    uint32_t number;
    int literal; /* a str const: the function's literal number */
} const_patch_t;

/* The program being built, one module at a time (spx_program_builder_t),
 * and the state of the function being compiled. */
struct spx_program_builder_t {
    apr_pool_t *pool;                     /* the program's tables */
    spx_arena_t *arena;                   /* the program's code, constants and sites */
    apr_pool_t *scratch;                  /* per function, cleared */
    apr_pool_t *work;                     /* the function's arrays, emptied for each function */
    apr_array_header_t *functions;        /* spx_vm_function_t * (in the arena), by index */
    apr_array_header_t *shapes;           /* const spx_struct_shape_t *, by number */
    apr_hash_t *shape_numbers;            /* const spx_struct_t * -> number + 1 */
    apr_array_header_t *variant_shapes;   /* v3: const spx_variant_shape_t *, by number */
    apr_hash_t *variant_numbers;          /* v3: const spx_variant_t * -> number + 1 */
    apr_array_header_t *patches;          /* const_patch_t */
    apr_array_header_t *code;             /* spx_instr_t */
    apr_array_header_t *sites;            /* spx_site_t */
    apr_array_header_t *pending;          /* spx_span_t of the pending charge */
    apr_array_header_t *spine;            /* const spx_expr_t * */
    apr_array_header_t *statement_nodes;  /* uint64_t: each statement's nodes (collect_block) */
    int next_statement;                   /* the next one compile_stmt takes */
    apr_array_header_t *aux;              /* int32_t */
    apr_array_header_t *scope;            /* int32_t: block registers of variables in open blocks */
    apr_array_header_t *loops;            /* loop_t */
    apr_array_header_t *function_patches; /* const_patch_t of this function's consts */
    uint32_t charge;
    const spx_vm_source_t *source; /* the module of the function being compiled */
    int *slot_file;
    int32_t *slot_index;
    uint32_t locals[2];            /* registers of variables in each file: the most open at once */
    uint32_t open_locals[2];       /* while assigning them (place_slots): those of open scopes */
    spx_word_table_t *int_numbers; /* int64_t value -> number + 1; cleared per function */
    uint32_t small_int_numbers[SMALL_INTS]; /* the same for 0 <= value < SMALL_INTS */
    spx_word_table_t *const_numbers;        /* a const's (or data entry's) address -> number + 1 */
    apr_hash_t *literal_numbers;       /* bytes -> literal number + 1, once past LITERAL_SCAN */
    apr_array_header_t *byte_literals; /* int32_t: the byte literals' numbers, in order */
    apr_array_header_t *int_consts, *literals;
    int consts_closed;         /* the collecting pass is over: every constant has its register */
    int array_loops;           /* the function has a for loop over an array (or a map's keys) */
    spx_word_table_t *carried; /* compound assignments' right operands carried (addresses) */
    uint32_t top[2], max[2];
    apr_array_header_t *render_types; /* v3: const spx_render_type_t *, this function's */
    apr_hash_t *render_memo;          /* v3: the program's struct render types */
};
typedef spx_program_builder_t compiler_t;

/* The index of function in the program, given on first use: a call may
 * name a function of a module compiled later (an import cycle). */
static int32_t function_index(compiler_t *c, spx_function_t *function)
{
    if (function->code_index)
        return (int32_t)(function->code_index - 1);
    spx_vm_function_t *entry = SPX_ARENA_NEW(c->arena, spx_vm_function_t);
    /* "module.name", measured and written once (apr_pstrcat's walk of a
     * list of parts costs more than the copy) */
    apr_size_t module_length = strlen(function->module->name);
    apr_size_t name_length = strlen(function->name.text);
    char *name = apr_palloc(c->pool, module_length + 1 + name_length + 1);
    memcpy(name, function->module->name, module_length);
    name[module_length] = '.';
    memcpy(name + module_length + 1, function->name.text, name_length + 1);
    entry->name = name;
    SPX_ARRAY_PUSH(c->functions, spx_vm_function_t *) = entry;
    function->code_index = (uint32_t)c->functions->nelts;
    return (int32_t)(function->code_index - 1);
}

static int file_of(spx_type_t type)
{
    switch (type) {
    case SPX_TYPE_STR:
    case SPX_TYPE_ARRAY:
    case SPX_TYPE_STRUCT:
    case SPX_TYPE_ENUM:
    case SPX_TYPE_MAP:
        return FILE_BLOCK;
    case SPX_TYPE_UNIT:
        return FILE_NONE;
    default:
        return FILE_INT;
    }
}

/* The file of a value declared with a type as written (syntax non-NULL
 * for arrays and structs). */
static int declared_file(spx_type_t basic, const spx_type_syntax_t *syntax)
{
    return syntax ? FILE_BLOCK : file_of(basic);
}

/* The number of a struct's shape in the program, made on first use. */
static int32_t shape_number(compiler_t *c, const spx_struct_t *structure)
{
    uintptr_t number = (uintptr_t)apr_hash_get(c->shape_numbers, &structure, sizeof(structure));
    if (!number) {
        spx_struct_shape_t *shape = SPX_ARENA_NEW(c->arena, spx_struct_shape_t);
        unsigned char *is_block = spx_arena_calloc(c->arena, structure->field_count, 1);
        for (apr_size_t i = 0; i < structure->field_count; i++)
            is_block[i] = declared_file(structure->fields[i].type,
                                        structure->fields[i].type_syntax) == FILE_BLOCK;
        shape->field_count = (uint32_t)structure->field_count;
        shape->field_is_block = is_block;
        SPX_ARRAY_PUSH(c->shapes, const spx_struct_shape_t *) = shape;
        number = (uintptr_t)c->shapes->nelts;
        const spx_struct_t **key = apr_pmemdup(c->pool, &structure, sizeof(structure));
        apr_hash_set(c->shape_numbers, key, sizeof(*key), (void *)number);
    }
    return (int32_t)(number - 1);
}

/* v3: the number of the shape of variant number index of enumeration (one
 * with payloads) in the program, made on first use. */
static int32_t variant_shape_number(compiler_t *c, const spx_enum_t *enumeration, uint32_t index)
{
    const spx_variant_t *variant = &enumeration->variants[index];
    uintptr_t number = (uintptr_t)apr_hash_get(c->variant_numbers, &variant, sizeof(variant));
    if (!number) {
        spx_variant_shape_t *shape = SPX_ARENA_NEW(c->arena, spx_variant_shape_t);
        unsigned char *is_block = spx_arena_calloc(c->arena, variant->payload_count, 1);
        for (apr_size_t i = 0; i < variant->payload_count; i++)
            is_block[i] = declared_file(variant->payloads[i].type,
                                        variant->payloads[i].type_syntax) == FILE_BLOCK;
        shape->variant = index;
        shape->payload_count = (uint32_t)variant->payload_count;
        shape->name = apr_pstrcat(c->pool, enumeration->module->name, ".", enumeration->name.text,
                                  ".", variant->name.text, NULL);
        shape->payload_is_block = is_block;
        SPX_ARRAY_PUSH(c->variant_shapes, const spx_variant_shape_t *) = shape;
        number = (uintptr_t)c->variant_shapes->nelts;
        const spx_variant_t **key = apr_pmemdup(c->pool, &variant, sizeof(variant));
        apr_hash_set(c->variant_numbers, key, sizeof(*key), (void *)number);
    }
    return (int32_t)(number - 1);
}

/* The field number (declaration order) of name in structure. */
static int32_t field_number(const spx_struct_t *structure, const char *name)
{
    for (apr_size_t i = 0; i < structure->field_count; i++)
        if (strcmp(structure->fields[i].name.text, name) == 0)
            return (int32_t)i;
    SPX_ASSERT(!"the checker admitted an unknown field");
    return 0;
}

/* --- constants and slots ------------------------------------------------ */

/* The register of an int constant: the collecting pass (collect_expr)
 * adds each one the first time it meets it; the compiling pass finds them
 * all there. */
static int32_t int_const(compiler_t *c, int64_t value)
{
    int small = value >= 0 && value < SMALL_INTS;
    uintptr_t number = small ? c->small_int_numbers[value]
                             : (uintptr_t)spx_word_table_get(c->int_numbers, (uint64_t)value);
    if (!number) {
        /* a new one now would take a temporary's register */
        SPX_ASSERT(!c->consts_closed);
        SPX_ARRAY_PUSH(c->int_consts, int64_t) = value;
        number = (uintptr_t)c->int_consts->nelts;
        if (small)
            c->small_int_numbers[value] = (uint32_t)number;
        else
            spx_word_table_put(c->int_numbers, (uint64_t)value, (void *)number);
    }
    return (int32_t)(c->locals[FILE_INT] + number - 1);
}

/* The register of an int or bool const: its value is filled in by
 * spx_program_finish (consts are evaluated when every module is checked). */
static int32_t const_register(compiler_t *c, const spx_const_t *constant)
{
    uintptr_t number = (uintptr_t)spx_word_table_get(c->const_numbers, SPX_WORD_OF(constant));
    if (!number) {
        SPX_ARRAY_PUSH(c->int_consts, int64_t) = 0;
        number = (uintptr_t)c->int_consts->nelts;
        spx_word_table_put(c->const_numbers, SPX_WORD_OF(constant), (void *)number);
        const_patch_t *patch = &SPX_ARRAY_PUSH(c->function_patches, const_patch_t);
        *patch = (const_patch_t){constant, NULL, (uint32_t)(number - 1), 0};
    }
    return (int32_t)(c->locals[FILE_INT] + number - 1);
}

/* The number of a string literal's bytes in the function's literal table.
 * span is where the literal is written: when its bytes are the ones
 * between its quotes (no escape), the literal reads them from the module's
 * retained text; otherwise the decoded bytes are copied into the arena. */
static int32_t literal_number(compiler_t *c, const char *bytes, apr_size_t length, spx_span_t span)
{
    const char *key = length ? bytes : "";
    uintptr_t number = 0;
    if (c->literal_numbers) {
        number = (uintptr_t)apr_hash_get(c->literal_numbers, key, (apr_ssize_t)length);
    } else {
        const int32_t *numbers = (const int32_t *)c->byte_literals->elts;
        const spx_literal_t *literals = (const spx_literal_t *)c->literals->elts;
        for (int i = 0; i < c->byte_literals->nelts && !number; i++) {
            const spx_literal_t *literal = &literals[numbers[i]];
            if (literal->length == length && memcmp(literal->bytes, key, length) == 0)
                number = (uintptr_t)numbers[i] + 1;
        }
    }
    if (!number) {
        spx_literal_t *literal = &SPX_ARRAY_PUSH(c->literals, spx_literal_t);
        const unsigned char *copy = NULL;
        if (span.end.offset - span.start.offset == length + 2 &&
            span.end.offset <= c->source->text_length &&
            memcmp(c->source->text + span.start.offset + 1, bytes, length) == 0) {
            copy = c->source->text + span.start.offset + 1;
        } else {
            unsigned char *decoded = spx_arena_alloc(c->arena, length + 1, 1);
            if (length)
                memcpy(decoded, bytes, length);
            copy = decoded;
        }
        literal->bytes = copy;
        literal->length = length;
        number = (uintptr_t)c->literals->nelts;
        if (c->literal_numbers) {
            apr_hash_set(c->literal_numbers, copy, (apr_ssize_t)length, (void *)number);
        } else {
            SPX_ARRAY_PUSH(c->byte_literals, int32_t) = (int32_t)(number - 1);
            if (c->byte_literals->nelts > LITERAL_SCAN) { /* many: look them up by hash */
                c->literal_numbers = apr_hash_make(c->scratch);
                const int32_t *numbers = (const int32_t *)c->byte_literals->elts;
                const spx_literal_t *literals = (const spx_literal_t *)c->literals->elts;
                for (int i = 0; i < c->byte_literals->nelts; i++)
                    apr_hash_set(c->literal_numbers, literals[numbers[i]].bytes,
                                 (apr_ssize_t)literals[numbers[i]].length,
                                 (void *)((uintptr_t)numbers[i] + 1));
            }
        }
    }
    return (int32_t)(number - 1);
}

/* The literal number of a str const (its bytes filled in by
 * spx_program_finish); keyed by the const's address, which no bytes are. */
static int32_t const_literal_number(compiler_t *c, const spx_const_t *constant)
{
    uintptr_t number = (uintptr_t)spx_word_table_get(c->const_numbers, SPX_WORD_OF(constant));
    if (!number) {
        spx_literal_t *literal = &SPX_ARRAY_PUSH(c->literals, spx_literal_t);
        literal->bytes = NULL;
        literal->length = 0;
        number = (uintptr_t)c->literals->nelts;
        spx_word_table_put(c->const_numbers, SPX_WORD_OF(constant), (void *)number);
        SPX_ARRAY_PUSH(c->function_patches, const_patch_t) =
            (const_patch_t){constant, NULL, (uint32_t)(number - 1), 1};
    }
    return (int32_t)(number - 1);
}

/* The const an expression reads (a NAME of the module's, or m.X), or NULL. */
static const spx_const_t *const_read(const spx_expr_t *e)
{
    if (e->kind == SPX_EXPR_NAME)
        return e->as.name.constant;
    if (e->kind == SPX_EXPR_FIELD)
        return e->as.field.constant;
    return NULL;
}

/* The register of an int or bool literal, an int or bool const, or a
 * local; no code. no_reg for anything else. */
static reg_t leaf_reg(compiler_t *c, const spx_expr_t *e)
{
    const spx_const_t *constant = const_read(e);
    if (constant)
        return file_of(constant->type) == FILE_INT
                   ? (reg_t){FILE_INT, const_register(c, constant), 0}
                   : no_reg;
    switch (e->kind) {
    case SPX_EXPR_INT:
        return (reg_t){FILE_INT, int_const(c, e->as.integer), 0};
    case SPX_EXPR_BOOL:
        return (reg_t){FILE_INT, int_const(c, e->as.boolean ? 1 : 0), 0};
    case SPX_EXPR_NAME:
        return (reg_t){c->slot_file[e->as.name.slot], c->slot_index[e->as.name.slot], 0};
    default:
        return no_reg;
    }
}

/* The int literal K that binary operator e carries as an immediate (the
 * _K instructions, vm_internal.h): e is x + K, x - K, or x compared with K
 * (==, !=, <, <=, >, >=), x an int, 0 <= K < INT32_MAX (so that x <= K can
 * be x < K + 1). -1 when its right operand takes a register. The collecting
 * pass gives such a K no register, so compile_expr and compile_branch carry
 * it wherever e is compiled (place_slots marks a compound assignment's
 * right operand, which the collecting pass meets alone, in c->carried). */
static int64_t immediate_of(const spx_expr_t *e)
{
    if (e->kind != SPX_EXPR_BINARY)
        return -1;
    spx_operator_t op = e->as.binary.op;
    const spx_expr_t *right = e->as.binary.right;
    if (op != SPX_OP_ADD && op != SPX_OP_SUB && !(op >= SPX_OP_EQ && op <= SPX_OP_GE))
        return -1;
    if (right->kind != SPX_EXPR_INT || right->as.integer < 0 || right->as.integer >= INT32_MAX ||
        e->as.binary.left->type != SPX_TYPE_INT)
        return -1;
    return right->as.integer;
}

/* --- the collecting pass: constants and a statement's nodes ---------------- */

/* The nodes of an expression that a statement's charge counts
 * (docs/execution.md, "A statement's nodes"): each operator (unary or
 * binary), call, index, slice and field (".f", and a module's "m.X"), and
 * each element, field, entry or payload of a constructor that has fewer than
 * SPX_LIMIT_STATEMENT_NODES_PER_STEP of them (one with more pays a size
 * charge for them already); literals and names count nothing. */
static uint64_t small_constructor(apr_size_t count)
{
    return count < SPX_LIMIT_STATEMENT_NODES_PER_STEP ? (uint64_t)count : 0;
}

static uint64_t node_count(const spx_expr_t *e)
{
    switch (e->kind) {
    case SPX_EXPR_INT:
    case SPX_EXPR_STRING:
    case SPX_EXPR_BOOL:
    case SPX_EXPR_NAME:
        return 0;
    case SPX_EXPR_CALL:
    case SPX_EXPR_UNARY:
    case SPX_EXPR_BINARY:
    case SPX_EXPR_INDEX:
    case SPX_EXPR_SLICE:
    case SPX_EXPR_FIELD:
        return 1;
    case SPX_EXPR_ARRAY:
        return small_constructor(e->as.array.count);
    case SPX_EXPR_STRUCT_LITERAL:
        return small_constructor(e->as.literal->field_count);
    case SPX_EXPR_VARIANT:
        return small_constructor(e->as.variant.count);
    case SPX_EXPR_MAP:
        return small_constructor(e->as.map.count);
    }
    return 0;
}

/* Pre-pass over one expression: every int literal and int const gets its
 * register now, so the constants' registers are known before the first
 * temporary is. Returns the expression's nodes (node_count), counted on
 * the way: every node that counts is met (an immediate K, which is not
 * met, is a literal). The chain of left and unary operands is a loop. */
static uint64_t collect_expr(compiler_t *c, const spx_expr_t *e)
{
    uint64_t nodes = 0;
    while (e->kind == SPX_EXPR_UNARY || e->kind == SPX_EXPR_BINARY) {
        nodes++;
        if (e->kind == SPX_EXPR_UNARY) {
            e = e->as.unary.operand;
        } else {
            if (immediate_of(e) < 0)
                nodes += collect_expr(c, e->as.binary.right);
            e = e->as.binary.left;
        }
    }
    nodes += node_count(e);
    switch (e->kind) {
    case SPX_EXPR_CALL:
        if (e->as.call->receiver)
            nodes += collect_expr(c, e->as.call->receiver);
        for (apr_size_t i = 0; i < e->as.call->argument_count; i++)
            nodes += collect_expr(c, e->as.call->arguments[i]);
        break;
    case SPX_EXPR_INDEX:
    case SPX_EXPR_SLICE:
        nodes += collect_expr(c, e->as.index.base);
        nodes += collect_expr(c, e->as.index.index);
        if (e->as.index.to)
            nodes += collect_expr(c, e->as.index.to);
        break;
    case SPX_EXPR_FIELD:
        if (e->as.field.constant) /* m.X: m names a module, no node */
            leaf_reg(c, e);
        else
            nodes += collect_expr(c, e->as.field.base);
        break;
    case SPX_EXPR_ARRAY:
        for (apr_size_t i = 0; i < e->as.array.count; i++)
            nodes += collect_expr(c, e->as.array.elements[i]);
        break;
    case SPX_EXPR_STRUCT_LITERAL:
        for (apr_size_t i = 0; i < e->as.literal->field_count; i++)
            nodes += collect_expr(c, e->as.literal->fields[i].value);
        break;
    case SPX_EXPR_VARIANT:
        for (apr_size_t i = 0; i < e->as.variant.count; i++)
            nodes += collect_expr(c, e->as.variant.payloads[i]);
        break;
    case SPX_EXPR_MAP:
        for (apr_size_t i = 0; i < e->as.map.count; i++) {
            nodes += collect_expr(c, e->as.map.keys[i]);
            nodes += collect_expr(c, e->as.map.values[i]);
        }
        break;
    case SPX_EXPR_NAME:
        if (e->as.name.constant)
            leaf_reg(c, e);
        break;
    default:
        if (e->kind == SPX_EXPR_INT && spx_word_table_get(c->carried, SPX_WORD_OF(e)))
            break; /* carried by its compound assignment's instruction */
        leaf_reg(c, e);
        break;
    }
    return nodes;
}

/* The nodes a statement evaluates itself, kept in the order compile_stmt
 * meets the statements (c->statement_nodes): a binding's or a return's
 * value, an assignment's place and value, an expression statement, an
 * if's condition, a for loop's range or array, a match's scrutinee; not
 * its blocks (their statements count their own). A while loop's entry
 * holds its condition's, which its check counts each time (the statement
 * itself counts none). */
static void statement_nodes(compiler_t *c, uint64_t nodes)
{
    SPX_ARRAY_PUSH(c->statement_nodes, uint64_t) = nodes;
}

/* The collecting pass over a block, nested blocks included: each
 * statement's expressions in source order (the order the constants are
 * numbered in), each statement's nodes in the order compile_stmt meets the
 * statements (an else-if is a statement of its own). */
static void collect_block(compiler_t *c, const spx_block_t *block)
{
    for (apr_size_t i = 0; i < block->count; i++) {
        const spx_stmt_t *s = block->statements[i];
        uint64_t nodes = 0;
        switch (s->kind) {
        case SPX_STMT_LET:
        case SPX_STMT_VAR:
            statement_nodes(c, collect_expr(c, s->as.binding.value));
            break;
        case SPX_STMT_ASSIGN:
            if (s->as.assign.place)
                nodes = collect_expr(c, s->as.assign.place);
            statement_nodes(c, nodes + collect_expr(c, s->as.assign.value));
            break;
        case SPX_STMT_IF:
            /* An "else if" chain is walked by this loop, not by recursion. */
            for (; s; s = s->as.if_stmt.else_if) {
                statement_nodes(c, collect_expr(c, s->as.if_stmt.condition));
                collect_block(c, &s->as.if_stmt.then_block);
                if (s->as.if_stmt.else_block)
                    collect_block(c, s->as.if_stmt.else_block);
            }
            break;
        case SPX_STMT_WHILE:
            statement_nodes(c, collect_expr(c, s->as.while_stmt.condition));
            collect_block(c, &s->as.while_stmt.body);
            break;
        case SPX_STMT_RETURN:
            statement_nodes(c,
                            s->as.return_stmt.value ? collect_expr(c, s->as.return_stmt.value) : 0);
            break;
        case SPX_STMT_EXPR:
            statement_nodes(c, collect_expr(c, s->as.expr_stmt.expression));
            break;
        case SPX_STMT_FOR:
            nodes = collect_expr(c, s->as.for_stmt.from);
            if (s->as.for_stmt.to)
                nodes += collect_expr(c, s->as.for_stmt.to);
            statement_nodes(c, nodes);
            collect_block(c, &s->as.for_stmt.body);
            break;
        case SPX_STMT_BREAK:
        case SPX_STMT_CONTINUE:
            statement_nodes(c, 0);
            break;
        case SPX_STMT_MATCH:
            statement_nodes(c, collect_expr(c, s->as.match_stmt.scrutinee));
            for (apr_size_t j = 0; j < s->as.match_stmt.arm_count; j++)
                collect_block(c, &s->as.match_stmt.arms[j].body);
            break;
        }
    }
}

/* A variable's register: the next one above the variables of the scopes
 * open where it is declared. */
static void place_slot(compiler_t *c, int slot)
{
    int file = c->slot_file[slot];
    SPX_ASSERT(file == FILE_INT || file == FILE_BLOCK);
    c->slot_index[slot] = (int32_t)c->open_locals[file]++;
    if (c->open_locals[file] > c->locals[file])
        c->locals[file] = c->open_locals[file];
}

/* Slot files and registers: parameters first (placed by compile_function),
 * then every let/var, match binder and for variable (the checker's
 * numbering gives the slots). Scopes that are never open at once share
 * registers: a block's variables (an arm's binders, a for's variable with
 * its body) take the registers above those of the enclosing scopes, which
 * the next sibling scope takes again. Sharing keeps every value apart: a
 * block's block variables are dropped at its end (and by break, continue
 * and return), a for's variable after the loop, so a register is empty
 * when a later scope's variable takes it, and a variable is written by its
 * declaration before any read. */
static void place_slots(compiler_t *c, const spx_block_t *block)
{
    uint32_t mark[2] = {c->open_locals[FILE_INT], c->open_locals[FILE_BLOCK]};
    for (apr_size_t i = 0; i < block->count; i++) {
        const spx_stmt_t *s = block->statements[i];
        for (; s; s = s->kind == SPX_STMT_IF ? s->as.if_stmt.else_if : NULL) {
            if (s->kind == SPX_STMT_LET || s->kind == SPX_STMT_VAR) {
                c->slot_file[s->as.binding.slot] =
                    s->as.binding.has_type
                        ? declared_file(s->as.binding.declared, s->as.binding.type_syntax)
                        : file_of(s->as.binding.value->type);
                place_slot(c, s->as.binding.slot);
            } else if (s->kind == SPX_STMT_ASSIGN && s->as.assign.compound &&
                       immediate_of(s->as.assign.compound) >= 0) {
                spx_word_table_put(c->carried, SPX_WORD_OF(s->as.assign.value),
                                   (void *)s->as.assign.value);
            } else if (s->kind == SPX_STMT_IF) {
                place_slots(c, &s->as.if_stmt.then_block);
                if (s->as.if_stmt.else_block)
                    place_slots(c, s->as.if_stmt.else_block);
            } else if (s->kind == SPX_STMT_WHILE) {
                place_slots(c, &s->as.while_stmt.body);
            } else if (s->kind == SPX_STMT_MATCH) {
                const spx_enum_t *enumeration = s->as.match_stmt.enumeration;
                for (apr_size_t a = 0; a < s->as.match_stmt.arm_count; a++) {
                    const spx_match_arm_t *arm = &s->as.match_stmt.arms[a];
                    uint32_t arm_mark[2] = {c->open_locals[FILE_INT], c->open_locals[FILE_BLOCK]};
                    for (apr_size_t j = 0; j < arm->binder_count; j++)
                        if (arm->binders[j].slot >= 0) {
                            const spx_param_t *payload =
                                &enumeration->variants[arm->variant].payloads[j];
                            c->slot_file[arm->binders[j].slot] =
                                declared_file(payload->type, payload->type_syntax);
                            place_slot(c, arm->binders[j].slot);
                        }
                    place_slots(c, &arm->body);
                    c->open_locals[FILE_INT] = arm_mark[FILE_INT];
                    c->open_locals[FILE_BLOCK] = arm_mark[FILE_BLOCK];
                }
            } else if (s->kind == SPX_STMT_FOR) {
                const spx_expr_t *from = s->as.for_stmt.from;
                uint32_t for_mark[2] = {c->open_locals[FILE_INT], c->open_locals[FILE_BLOCK]};
                if (!s->as.for_stmt.to)
                    c->array_loops = 1; /* its counter starts at the constant 0 */
                c->slot_file[s->as.for_stmt.slot] = s->as.for_stmt.to ? FILE_INT
                                                    : from->type == SPX_TYPE_MAP
                                                        ? file_of(from->vtype->key->kind)
                                                        : file_of(from->vtype->element->kind);
                place_slot(c, s->as.for_stmt.slot);
                place_slots(c, &s->as.for_stmt.body);
                c->open_locals[FILE_INT] = for_mark[FILE_INT];
                c->open_locals[FILE_BLOCK] = for_mark[FILE_BLOCK];
            }
        }
    }
    c->open_locals[FILE_INT] = mark[FILE_INT];
    c->open_locals[FILE_BLOCK] = mark[FILE_BLOCK];
}

/* --- emitting ------------------------------------------------------------- */

static void charge(compiler_t *c, spx_span_t span)
{
    c->charge++;
    SPX_ARRAY_PUSH(c->pending, spx_span_t) = span;
}

static int32_t emit(compiler_t *c, spx_opcode_t op, unsigned flags, int32_t a, int32_t b,
                    int32_t cc)
{
    int32_t pc = c->code->nelts;
    spx_instr_t *ins = &SPX_ARRAY_PUSH(c->code, spx_instr_t);
    ins->op = (uint8_t)op;
    ins->flags = (uint8_t)flags;
    SPX_ASSERT(c->charge <= UINT16_MAX); /* flush_charge keeps it there */
    ins->charge = (uint16_t)c->charge;
    ins->a = a;
    ins->b = b;
    ins->c = cc;
    for (int i = 0; i < c->pending->nelts; i++) {
        spx_site_t *site = &SPX_ARRAY_PUSH(c->sites, spx_site_t);
        site->pc = (uint32_t)pc;
        site->kind = SPX_SITE_CHARGE;
        site->start = APR_ARRAY_IDX(c->pending, i, spx_span_t).start.offset;
        site->end = APR_ARRAY_IDX(c->pending, i, spx_span_t).end.offset;
    }
    c->charge = 0;
    c->pending->nelts = 0;
    return pc;
}

/* The span an instruction reports when it fails, or when its size charge
 * cannot be paid (after its charge sites). */
static void failure_site(compiler_t *c, int32_t pc, spx_span_t span)
{
    spx_site_t *site = &SPX_ARRAY_PUSH(c->sites, spx_site_t);
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

static void bind_label(compiler_t *c, label_t *label)
{
    flush_charge(c); /* a jump here must not pay the charge again */
    label->pc = c->code->nelts;
    for (int32_t pc = label->waiting; pc >= 0;) {
        spx_instr_t *waiting = &APR_ARRAY_IDX(c->code, pc, spx_instr_t);
        pc = waiting->a;
        waiting->a = label->pc;
    }
    label->waiting = -1;
}

static void jump(compiler_t *c, spx_opcode_t op, label_t *label, int32_t b, int32_t cc)
{
    int32_t pc = emit(c, op, 0, label->pc >= 0 ? label->pc : label->waiting, b, cc);
    if (label->pc < 0)
        label->waiting = pc;
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
    if (r.temp && r.temp != MOVED_VARIABLE && r.file != FILE_NONE)
        c->top[r.file]--;
}

/* The flag that releases r after its last read (or takes its holder), when
 * r is a block temporary or a variable read that moves. */
static unsigned dying(reg_t r, unsigned flag)
{
    return r.temp && r.file == FILE_BLOCK ? flag : 0;
}

/* The destination of a new value: the hint, or a new temporary. */
static reg_t destination(compiler_t *c, int file, int32_t hint)
{
    if (hint >= 0)
        return (reg_t){file, hint, 0};
    return (reg_t){file, alloc_temp(c, file), 1};
}

/* Release the block registers of the variables declared since mark. */
static void drop_scope(compiler_t *c, int mark)
{
    for (int i = c->scope->nelts; i-- > mark;)
        emit(c, SPX_I_DROP_B, 0, APR_ARRAY_IDX(c->scope, i, int32_t), 0, 0);
}

/* --- expressions ---------------------------------------------------------- */

static reg_t compile_expr(compiler_t *c, const spx_expr_t *e, int32_t hint);

/* e's value into register target of its file. */
static void compile_into(compiler_t *c, const spx_expr_t *e, int32_t target)
{
    reg_t r = compile_expr(c, e, target);
    if (r.index != target && r.file != FILE_NONE)
        emit(c, r.file == FILE_BLOCK ? SPX_I_MOVE_B : SPX_I_MOVE_I, dying(r, SPX_FLAG_FREE_B),
             target, r.index, 0);
    free_reg(c, r);
}

/* e's value in a new temporary of its file. */
static reg_t compile_temp(compiler_t *c, const spx_expr_t *e)
{
    int file = file_of(e->type);
    reg_t r = {file, alloc_temp(c, file), 1};
    compile_into(c, e, r.index);
    return r;
}

/* Whether evaluating e can write a variable (a push or pop in it) or empty
 * one (a read that moves). Deeper than the parser allows, the answer is
 * yes. */
static int may_write(const spx_expr_t *e, unsigned depth)
{
    if (!e)
        return 0;
    if (depth > SPX_LIMIT_PARSE_DEPTH)
        return 1;
    switch (e->kind) {
    case SPX_EXPR_UNARY:
        return may_write(e->as.unary.operand, depth + 1);
    case SPX_EXPR_BINARY:
        return may_write(e->as.binary.left, depth + 1) || may_write(e->as.binary.right, depth + 1);
    case SPX_EXPR_CALL:
        if (e->as.call->builtin == SPX_BUILTIN_PUSH || e->as.call->builtin == SPX_BUILTIN_POP ||
            (e->as.call->builtin != SPX_BUILTIN_NONE && spx_library_writes(e->as.call->builtin)))
            return 1;
        for (apr_size_t i = 0; i < e->as.call->argument_count; i++)
            if (may_write(e->as.call->arguments[i], depth + 1))
                return 1;
        return may_write(e->as.call->receiver, depth + 1);
    case SPX_EXPR_INDEX:
    case SPX_EXPR_SLICE:
        return may_write(e->as.index.base, depth + 1) || may_write(e->as.index.index, depth + 1) ||
               may_write(e->as.index.to, depth + 1);
    case SPX_EXPR_FIELD:
        return !e->as.field.constant && may_write(e->as.field.base, depth + 1);
    case SPX_EXPR_ARRAY:
        for (apr_size_t i = 0; i < e->as.array.count; i++)
            if (may_write(e->as.array.elements[i], depth + 1))
                return 1;
        return 0;
    case SPX_EXPR_STRUCT_LITERAL:
        for (apr_size_t i = 0; i < e->as.literal->field_count; i++)
            if (may_write(e->as.literal->fields[i].value, depth + 1))
                return 1;
        return 0;
    case SPX_EXPR_NAME:
        return e->as.name.moves;
    case SPX_EXPR_VARIANT:
        for (apr_size_t i = 0; i < e->as.variant.count; i++)
            if (may_write(e->as.variant.payloads[i], depth + 1))
                return 1;
        return 0;
    case SPX_EXPR_MAP:
        for (apr_size_t i = 0; i < e->as.map.count; i++)
            if (may_write(e->as.map.keys[i], depth + 1) ||
                may_write(e->as.map.values[i], depth + 1))
                return 1;
        return 0;
    default:
        return 0;
    }
}

/* r, an evaluated operand, when later operands (later) are still to be
 * evaluated: a variable's block is given a holder of its own (a
 * temporary) when they could write the variable. */
static reg_t hold_operand(compiler_t *c, reg_t r, const spx_expr_t *later1,
                          const spx_expr_t *later2)
{
    if (r.temp || r.file != FILE_BLOCK || (!may_write(later1, 0) && !may_write(later2, 0)))
        return r;
    reg_t held = {FILE_BLOCK, alloc_temp(c, FILE_BLOCK), 1};
    emit(c, SPX_I_MOVE_B, 0, held.index, r.index, 0);
    return held;
}

/* The aux record of a place (its root, then a step for each "[i]" or ".f"
 * from the root out), after evaluating the indexes into temporaries in
 * source order. place is the INDEX/FIELD chain (NULL: the root alone).
 * Returns the record's offset; *temps counts the index temporaries, which
 * the caller frees after the instruction (language v3: and block_temps the
 * str map keys', which the instruction releases). */
static int32_t compile_place(compiler_t *c, int root_slot, const spx_expr_t *place,
                             apr_size_t *temps, apr_size_t *block_temps)
{
    apr_array_header_t *chain = apr_array_make(c->scratch, 4, sizeof(const spx_expr_t *));
    for (const spx_expr_t *step = place; step && step->kind != SPX_EXPR_NAME;
         step = step->kind == SPX_EXPR_INDEX ? step->as.index.base : step->as.field.base)
        SPX_ARRAY_PUSH(chain, const spx_expr_t *) = step;
    int32_t *steps = apr_palloc(c->scratch, (chain->nelts + 1) * sizeof(*steps));
    *temps = 0;
    *block_temps = 0;
    for (int i = chain->nelts; i-- > 0;) { /* from the root out: source order */
        const spx_expr_t *step = APR_ARRAY_IDX(chain, i, const spx_expr_t *);
        int k = chain->nelts - 1 - i;
        if (step->kind == SPX_EXPR_INDEX && step->as.index.base->type == SPX_TYPE_MAP) {
            /* language v3: a map's key, read where it is when a leaf */
            reg_t key = leaf_reg(c, step->as.index.index);
            if (key.file == FILE_NONE) {
                key = compile_temp(c, step->as.index.index);
                if (key.file == FILE_BLOCK)
                    (*block_temps)++;
                else
                    (*temps)++;
            }
            int dying = key.temp && key.file == FILE_BLOCK;
            steps[k] = -1 - (4 * key.index + 2 * dying + (key.file == FILE_BLOCK));
        } else if (step->kind == SPX_EXPR_INDEX) {
            /* A literal, const or variable index is read where it is: the
             * value written cannot change an int variable. */
            reg_t index = leaf_reg(c, step->as.index.index);
            if (index.file != FILE_INT) {
                index = compile_temp(c, step->as.index.index);
                (*temps)++;
            }
            steps[k] = 2 * index.index;
        } else {
            const spx_struct_t *structure = step->as.field.base->vtype->structure;
            steps[k] = 2 * field_number(structure, step->as.field.name.text) + 1;
        }
    }
    int32_t offset = c->aux->nelts;
    SPX_ARRAY_PUSH(c->aux, int32_t) = c->slot_index[root_slot];
    SPX_ARRAY_PUSH(c->aux, int32_t) = chain->nelts;
    for (int k = 0; k < chain->nelts; k++)
        SPX_ARRAY_PUSH(c->aux, int32_t) = steps[k];
    return offset;
}

/* The slot a place's chain is rooted at. */
static int place_root_slot(const spx_expr_t *place)
{
    while (place->kind != SPX_EXPR_NAME)
        place = place->kind == SPX_EXPR_INDEX ? place->as.index.base : place->as.field.base;
    return place->as.name.slot;
}

/* e.push(v) and e.pop(): the place's indexes, then the argument, then the
 * call's step and the write. */
static reg_t compile_method(compiler_t *c, const spx_expr_t *e, int32_t hint)
{
    const spx_call_t *call = e->as.call;
    int root = call->receiver ? place_root_slot(call->receiver) : call->receiver_slot;
    apr_size_t temps = 0, block_temps = 0;
    int32_t place = compile_place(c, root, call->receiver, &temps, &block_temps);
    reg_t dst = no_reg;
    if (call->builtin == SPX_BUILTIN_PUSH) {
        reg_t value = compile_expr(c, call->arguments[0], -1);
        free_reg(c, value);
        charge(c, e->span);
        failure_site(c,
                     emit(c, value.file == FILE_BLOCK ? SPX_I_PUSH_B : SPX_I_PUSH_I,
                          dying(value, SPX_FLAG_FREE_A), value.index, place, 0),
                     e->span);
    } else {
        int file = file_of(e->type);
        charge(c, e->span);
        c->top[FILE_INT] -= (uint32_t)temps; /* read by the pop, which writes dst last */
        c->top[FILE_BLOCK] -= (uint32_t)block_temps;
        temps = block_temps = 0;
        dst = destination(c, file, hint);
        failure_site(
            c, emit(c, file == FILE_BLOCK ? SPX_I_POP_B : SPX_I_POP_I, 0, dst.index, place, 0),
            e->span);
    }
    c->top[FILE_INT] -= (uint32_t)temps;
    c->top[FILE_BLOCK] -= (uint32_t)block_temps;
    return dst;
}

/* --- language v3: maps ------------------------------------------------------ */

/* A key operand of the map instructions (vm_internal.h: 2 * register + 1
 * for a str key). */
static int32_t key_operand(reg_t key)
{
    return 2 * key.index + (key.file == FILE_BLOCK);
}

/* The receiver of a map method: the expression, or the local x of x.has(k). */
static reg_t compile_receiver(compiler_t *c, const spx_call_t *call)
{
    if (call->receiver)
        return compile_expr(c, call->receiver, -1);
    return (reg_t){FILE_BLOCK, c->slot_index[call->receiver_slot], 0};
}

/* m.remove(k): the place's keys and indexes, then k, then the call's step
 * and the removal. */
static reg_t compile_map_remove(compiler_t *c, const spx_expr_t *e, int32_t hint)
{
    const spx_call_t *call = e->as.call;
    int root = call->receiver ? place_root_slot(call->receiver) : call->receiver_slot;
    apr_size_t temps = 0, block_temps = 0;
    int32_t place = compile_place(c, root, call->receiver, &temps, &block_temps);
    reg_t key = compile_expr(c, call->arguments[0], -1);
    free_reg(c, key);
    charge(c, e->span);
    c->top[FILE_INT] -= (uint32_t)temps; /* read by the removal, which writes dst last */
    c->top[FILE_BLOCK] -= (uint32_t)block_temps;
    reg_t dst = destination(c, FILE_INT, hint);
    failure_site(
        c,
        emit(c, SPX_I_MAP_REMOVE, dying(key, SPX_FLAG_FREE_C), dst.index, place, key_operand(key)),
        e->span);
    return dst;
}

/* m.has(k), m.get(k, d), m.keys(), m.values(): the receiver, the
 * arguments, then the call's step. */
static reg_t compile_map_method(compiler_t *c, const spx_expr_t *e, int32_t hint)
{
    const spx_call_t *call = e->as.call;
    if (call->builtin == SPX_BUILTIN_REMOVE)
        return compile_map_remove(c, e, hint);
    reg_t map = compile_receiver(c, call);
    map = hold_operand(c, map, call->argument_count > 0 ? call->arguments[0] : NULL,
                       call->argument_count > 1 ? call->arguments[1] : NULL);
    reg_t key = no_reg, fallback = no_reg;
    if (call->argument_count > 0) {
        key = compile_expr(c, call->arguments[0], -1);
        key = hold_operand(c, key, call->argument_count > 1 ? call->arguments[1] : NULL, NULL);
    }
    if (call->argument_count > 1)
        fallback = compile_expr(c, call->arguments[1], -1);
    free_reg(c, fallback);
    free_reg(c, key);
    free_reg(c, map);
    charge(c, e->span);
    unsigned flags = dying(map, SPX_FLAG_FREE_B) | dying(key, SPX_FLAG_FREE_C) |
                     dying(fallback, SPX_FLAG_FREE_D);
    reg_t dst = no_reg;
    int32_t pc = 0;
    switch (call->builtin) {
    case SPX_BUILTIN_HAS:
        dst = destination(c, FILE_INT, hint);
        pc = emit(c, SPX_I_MAP_HAS, flags, dst.index, map.index, key_operand(key));
        break;
    case SPX_BUILTIN_GET: {
        int32_t offset = c->aux->nelts;
        SPX_ARRAY_PUSH(c->aux, int32_t) = key_operand(key);
        SPX_ARRAY_PUSH(c->aux, int32_t) = key_operand(fallback);
        int file = file_of(e->type);
        dst = destination(c, file, hint);
        pc = emit(c, file == FILE_BLOCK ? SPX_I_MAP_GET_OR_B : SPX_I_MAP_GET_OR_I, flags, dst.index,
                  map.index, offset);
        break;
    }
    default: /* keys, values */
        dst = destination(c, FILE_BLOCK, hint);
        pc = emit(c, call->builtin == SPX_BUILTIN_KEYS ? SPX_I_MAP_KEYS : SPX_I_MAP_VALUES, flags,
                  dst.index, map.index, 0);
        break;
    }
    failure_site(c, pc, e->span);
    return dst;
}

/* {k: v, ...}: each key, then its value, into temporaries, taken over. */
static reg_t compile_map(compiler_t *c, const spx_expr_t *e, int32_t hint)
{
    apr_size_t count = e->as.map.count;
    reg_t *temps = apr_palloc(c->scratch, (2 * count + 1) * sizeof(*temps));
    for (apr_size_t i = 0; i < count; i++) {
        temps[2 * i] = compile_temp(c, e->as.map.keys[i]);
        temps[2 * i + 1] = compile_temp(c, e->as.map.values[i]);
    }
    for (apr_size_t i = 2 * count; i-- > 0;)
        free_reg(c, temps[i]);
    int32_t offset = c->aux->nelts;
    spx_type_t key = e->vtype->key->kind;
    SPX_ARRAY_PUSH(c->aux, int32_t) = key == SPX_TYPE_STR    ? SPX_MAP_KEYS_STR
                                      : key == SPX_TYPE_BOOL ? SPX_MAP_KEYS_BOOL
                                                             : SPX_MAP_KEYS_INT;
    SPX_ARRAY_PUSH(c->aux, int32_t) = file_of(e->vtype->element->kind) == FILE_BLOCK;
    for (apr_size_t i = 0; i < 2 * count; i++)
        SPX_ARRAY_PUSH(c->aux, int32_t) = key_operand(temps[i]);
    reg_t dst = destination(c, FILE_BLOCK, hint);
    failure_site(c, emit(c, SPX_I_MAP, 0, dst.index, offset, (int32_t)count), e->span);
    return dst;
}

/* m[k]: R0522 at the index expression. */
static reg_t compile_map_index(compiler_t *c, const spx_expr_t *e, int32_t hint)
{
    reg_t map = compile_expr(c, e->as.index.base, -1);
    map = hold_operand(c, map, e->as.index.index, NULL);
    reg_t key = compile_expr(c, e->as.index.index, -1);
    free_reg(c, key);
    free_reg(c, map);
    int file = file_of(e->type);
    reg_t dst = destination(c, file, hint);
    failure_site(c,
                 emit(c, file == FILE_BLOCK ? SPX_I_MAP_GET_B : SPX_I_MAP_GET_I,
                      dying(map, SPX_FLAG_FREE_B) | dying(key, SPX_FLAG_FREE_C), dst.index,
                      map.index, key_operand(key)),
                 e->span);
    return dst;
}

/* Any other method (spx_library.h): the receiver (a writing method's
 * place: its indexes), then the arguments, then the call's step and one
 * SPX_I_METHOD, which dispatches through the library's table. */
static reg_t compile_library(compiler_t *c, const spx_expr_t *e, int32_t hint)
{
    const spx_call_t *call = e->as.call;
    apr_size_t count = call->argument_count, operand_count = 0, temps = 0, block_temps = 0;
    reg_t *operands = apr_palloc(c->scratch, (count + 1) * sizeof(*operands));
    int32_t place = -1;
    if (spx_library_writes(call->builtin)) {
        int root = call->receiver ? place_root_slot(call->receiver) : call->receiver_slot;
        place = compile_place(c, root, call->receiver, &temps, &block_temps);
    } else {
        int slot = call->receiver_slot;
        reg_t receiver = call->receiver ? compile_expr(c, call->receiver, -1)
                                        : (reg_t){c->slot_file[slot], c->slot_index[slot], 0};
        operands[operand_count++] = hold_operand(c, receiver, count ? call->arguments[0] : NULL,
                                                 count > 1 ? call->arguments[1] : NULL);
    }
    for (apr_size_t i = 0; i < count; i++) {
        reg_t argument = compile_expr(c, call->arguments[i], -1);
        operands[operand_count++] =
            hold_operand(c, argument, i + 1 < count ? call->arguments[i + 1] : NULL, NULL);
    }
    int32_t record = c->aux->nelts;
    int file = file_of(e->type);
    SPX_ARRAY_PUSH(c->aux, int32_t) = place;
    SPX_ARRAY_PUSH(c->aux, int32_t) = file == FILE_INT ? 1 : file == FILE_BLOCK ? 2 : 0;
    SPX_ARRAY_PUSH(c->aux, int32_t) = (int32_t)operand_count;
    for (apr_size_t i = 0; i < operand_count; i++)
        SPX_ARRAY_PUSH(c->aux, int32_t) = 4 * operands[i].index +
                                          (operands[i].file == FILE_BLOCK ? 1 : 0) +
                                          (int32_t)dying(operands[i], 2);
    for (apr_size_t i = operand_count; i-- > 0;)
        free_reg(c, operands[i]);
    c->top[FILE_INT] -= (uint32_t)temps;         /* read before the method writes its result */
    c->top[FILE_BLOCK] -= (uint32_t)block_temps; /* released by the method before it */
    charge(c, e->span);
    reg_t dst = file == FILE_INT || file == FILE_BLOCK ? destination(c, file, hint) : no_reg;
    failure_site(c, emit(c, SPX_I_METHOD, 0, dst.index, record, (int32_t)call->builtin), e->span);
    return dst;
}

/* v3: assert_eq(a, b[, message]): a, b and the message evaluated left to
 * right (each held against writes by the later ones), then the call's step
 * and the comparison, which renders both values when they differ. */
static reg_t compile_assert_eq(compiler_t *c, const spx_expr_t *e)
{
    const spx_call_t *call = e->as.call;
    const spx_expr_t *left = call->arguments[0], *right = call->arguments[1];
    const spx_expr_t *message = call->argument_count == 3 ? call->arguments[2] : NULL;
    reg_t l = hold_operand(c, compile_expr(c, left, -1), right, message);
    reg_t r = hold_operand(c, compile_expr(c, right, -1), message, NULL);
    reg_t m = message ? compile_expr(c, message, -1) : no_reg;
    free_reg(c, m);
    free_reg(c, r);
    free_reg(c, l);
    charge(c, e->span);
    int32_t offset = c->aux->nelts;
    SPX_ARRAY_PUSH(c->aux, int32_t) = message ? m.index : -1;
    SPX_ARRAY_PUSH(c->aux, int32_t) = c->render_types->nelts;
    SPX_ARRAY_PUSH(c->aux, int32_t) = message && m.temp;
    SPX_ARRAY_PUSH(c->render_types, const spx_render_type_t *) =
        spx_render_type_of(left->type, left->vtype, c->render_memo, c->pool);
    int block = l.file == FILE_BLOCK;
    failure_site(c,
                 emit(c, block ? SPX_I_ASSERT_EQ_B : SPX_I_ASSERT_EQ_I,
                      dying(l, SPX_FLAG_FREE_A) | dying(r, SPX_FLAG_FREE_B), l.index, r.index,
                      offset),
                 e->span);
    return no_reg;
}

/* The literal number of a read_data entry: a literal over the entry's
 * retained bytes, not copied; keyed by the entry's address, which neither
 * bytes nor a const are. */
static int32_t data_literal_number(compiler_t *c, const spx_data_entry_t *entry)
{
    uintptr_t number = (uintptr_t)spx_word_table_get(c->const_numbers, SPX_WORD_OF(entry));
    if (!number) {
        spx_literal_t *literal = &SPX_ARRAY_PUSH(c->literals, spx_literal_t);
        literal->bytes = entry->bytes;
        literal->length = entry->length;
        number = (uintptr_t)c->literals->nelts;
        spx_word_table_put(c->const_numbers, SPX_WORD_OF(entry), (void *)number);
    }
    return (int32_t)(number - 1);
}

static reg_t compile_call(compiler_t *c, const spx_expr_t *e, int32_t hint)
{
    const spx_call_t *call = e->as.call;
    apr_size_t count = call->argument_count;
    if (call->builtin == SPX_BUILTIN_READ_DATA || call->builtin == SPX_BUILTIN_ARGS) {
        /* v3: one step as a call; read_data's literal argument, which
         * evaluates to nothing observable, is not evaluated. */
        charge(c, e->span);
        reg_t dst = destination(c, FILE_BLOCK, hint);
        if (call->builtin == SPX_BUILTIN_ARGS)
            failure_site(c, emit(c, SPX_I_ARGS, 0, dst.index, 0, 0), e->span);
        else
            failure_site(
                c, emit(c, SPX_I_LITERAL, 0, dst.index, data_literal_number(c, call->data), 0),
                e->span);
        return dst;
    }
    if (call->on_map)
        return compile_map_method(c, e, hint);
    if (call->builtin == SPX_BUILTIN_PUSH || call->builtin == SPX_BUILTIN_POP)
        return compile_method(c, e, hint);
    if (call->builtin != SPX_BUILTIN_NONE &&
        spx_builtin_info(call->builtin)->form == SPX_BUILTIN_FORM_METHOD)
        return compile_library(c, e, hint);
    if (call->builtin == SPX_BUILTIN_NONE) {
        int32_t bases[2] = {(int32_t)c->top[FILE_INT], (int32_t)c->top[FILE_BLOCK]};
        reg_t *args = apr_palloc(c->scratch, (count + 1) * sizeof(*args));
        for (apr_size_t i = 0; i < count; i++)
            args[i] = compile_temp(c, call->arguments[i]);
        for (apr_size_t i = count; i-- > 0;)
            free_reg(c, args[i]);
        charge(c, e->span);
        int32_t index = function_index(c, call->target);
        failure_site(c, emit(c, SPX_I_CALL, 0, index, bases[FILE_INT], bases[FILE_BLOCK]), e->span);
        int file = declared_file(call->target->result, call->target->result_syntax);
        if (file == FILE_NONE)
            return no_reg;
        return (reg_t){file, alloc_temp(c, file), 1}; /* the first argument's register */
    }
    if (call->builtin == SPX_BUILTIN_ASSERT_EQ)
        return compile_assert_eq(c, e);
    if (call->builtin == SPX_BUILTIN_ASSERT && count == 2) {
        /* the message is always evaluated */
        reg_t condition = compile_expr(c, call->arguments[0], -1);
        reg_t message = compile_expr(c, call->arguments[1], -1);
        free_reg(c, message);
        free_reg(c, condition);
        charge(c, e->span);
        failure_site(c,
                     emit(c, SPX_I_ASSERT_MSG, dying(message, SPX_FLAG_FREE_B), condition.index,
                          message.index, 0),
                     e->span);
        return no_reg;
    }
    reg_t arg = compile_expr(c, call->arguments[0], -1);
    free_reg(c, arg);
    charge(c, e->span);
    reg_t dst = no_reg;
    switch (call->builtin) {
    case SPX_BUILTIN_PRINT:
        emit(c, SPX_I_PRINT, dying(arg, SPX_FLAG_FREE_A), arg.index, 0, 0);
        break;
    case SPX_BUILTIN_ITOS:
        dst = destination(c, FILE_BLOCK, hint);
        failure_site(c, emit(c, SPX_I_ITOS, 0, dst.index, arg.index, 0), e->span);
        break;
    case SPX_BUILTIN_CHR:
        dst = destination(c, FILE_BLOCK, hint);
        failure_site(c, emit(c, SPX_I_CHR, 0, dst.index, arg.index, 0), e->span);
        break;
    case SPX_BUILTIN_STOI:
        dst = destination(c, FILE_INT, hint);
        failure_site(c, emit(c, SPX_I_STOI, dying(arg, SPX_FLAG_FREE_B), dst.index, arg.index, 0),
                     e->span);
        break;
    case SPX_BUILTIN_LEN:
        dst = destination(c, FILE_INT, hint);
        emit(c, SPX_I_LEN, dying(arg, SPX_FLAG_FREE_B), dst.index, arg.index, 0);
        break;
    case SPX_BUILTIN_ASSERT:
        failure_site(c, emit(c, SPX_I_ASSERT, 0, arg.index, 0, 0), e->span);
        break;
    default: /* compiled above: a function's call, or a method's */
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
    if (l.file == FILE_BLOCK) {
        unsigned flags = dying(l, SPX_FLAG_FREE_B) | dying(r, SPX_FLAG_FREE_C);
        if (op == SPX_OP_ADD) {
            reg_t dst = destination(c, FILE_BLOCK, hint);
            failure_site(c, emit(c, SPX_I_CONCAT, flags, dst.index, l.index, r.index), e->span);
            return dst;
        }
        if (op >= SPX_OP_LT && op <= SPX_OP_GE) { /* v3: strings, bytewise */
            int swap = op == SPX_OP_GT || op == SPX_OP_GE;
            unsigned swapped = dying(r, SPX_FLAG_FREE_B) | dying(l, SPX_FLAG_FREE_C);
            reg_t dst = destination(c, FILE_INT, hint);
            spx_opcode_t order = op == SPX_OP_LT || op == SPX_OP_GT ? SPX_I_STR_LT : SPX_I_STR_LE;
            failure_site(c,
                         swap ? emit(c, order, swapped, dst.index, r.index, l.index)
                              : emit(c, order, flags, dst.index, l.index, r.index),
                         e->span);
            return dst;
        }
        reg_t dst = destination(c, FILE_INT, hint);
        failure_site(
            c,
            emit(c, op == SPX_OP_EQ ? SPX_I_EQ_B : SPX_I_NE_B, flags, dst.index, l.index, r.index),
            e->span);
        return dst;
    }
    reg_t dst = destination(c, FILE_INT, hint);
    static const struct {
        spx_opcode_t op;
        int swap;
        int fails;
    } table[] = {
        [SPX_OP_EQ] = {SPX_I_EQ, 0, 0},           [SPX_OP_NE] = {SPX_I_NE, 0, 0},
        [SPX_OP_LT] = {SPX_I_LT, 0, 0},           [SPX_OP_LE] = {SPX_I_LE, 0, 0},
        [SPX_OP_GT] = {SPX_I_LT, 1, 0},           [SPX_OP_GE] = {SPX_I_LE, 1, 0},
        [SPX_OP_ADD] = {SPX_I_ADD, 0, 1},         [SPX_OP_SUB] = {SPX_I_SUB, 0, 1},
        [SPX_OP_MUL] = {SPX_I_MUL, 0, 1},         [SPX_OP_DIV] = {SPX_I_DIV, 0, 1},
        [SPX_OP_REM] = {SPX_I_REM, 0, 1},         [SPX_OP_BIT_OR] = {SPX_I_BIT_OR, 0, 0},
        [SPX_OP_BIT_XOR] = {SPX_I_BIT_XOR, 0, 0}, [SPX_OP_BIT_AND] = {SPX_I_BIT_AND, 0, 0},
        [SPX_OP_SHL] = {SPX_I_SHL, 0, 1},         [SPX_OP_SHR] = {SPX_I_SHR, 0, 1},
    };
    int32_t pc = table[op].swap ? emit(c, table[op].op, 0, dst.index, r.index, l.index)
                                : emit(c, table[op].op, 0, dst.index, l.index, r.index);
    if (table[op].fails)
        failure_site(c, pc, e->span);
    return dst;
}

/* The opcode and immediate of "x op K" (immediate_of) as one of EQ, NE, LT
 * or GE: x <= K is x < K + 1, x > K is x >= K + 1. negate: the opposite
 * test. Returns the index of the test in {EQ, NE, LT, GE}. */
static int immediate_test(spx_operator_t op, int64_t k, int negate, int32_t *immediate)
{
    enum { EQ, NE, LT, GE };
    static const int tests[] = {[SPX_OP_EQ] = EQ, [SPX_OP_NE] = NE, [SPX_OP_LT] = LT,
                                [SPX_OP_LE] = LT, [SPX_OP_GT] = GE, [SPX_OP_GE] = GE};
    *immediate = (int32_t)(op == SPX_OP_LE || op == SPX_OP_GT ? k + 1 : k);
    int test = tests[op];
    return negate ? test ^ 1 : test; /* EQ <-> NE, LT <-> GE */
}

/* x op K (immediate_of(e) is K) on x's register l: one _K instruction. */
static reg_t emit_immediate(compiler_t *c, const spx_expr_t *e, reg_t l, int32_t hint)
{
    int64_t k = immediate_of(e);
    spx_operator_t op = e->as.binary.op;
    free_reg(c, l);
    reg_t dst = destination(c, FILE_INT, hint);
    if (op == SPX_OP_ADD || op == SPX_OP_SUB) {
        failure_site(c,
                     emit(c, op == SPX_OP_ADD ? SPX_I_ADD_K : SPX_I_SUB_K, 0, dst.index, l.index,
                          (int32_t)k),
                     e->span);
        return dst;
    }
    static const spx_opcode_t ops[] = {SPX_I_EQ_K, SPX_I_NE_K, SPX_I_LT_K, SPX_I_GE_K};
    int32_t immediate = 0;
    int test = immediate_test(op, k, 0, &immediate);
    emit(c, ops[test], 0, dst.index, l.index, immediate);
    return dst;
}

/* base[i] and base[i..j]. */
static reg_t compile_index(compiler_t *c, const spx_expr_t *e, int32_t hint)
{
    const spx_expr_t *base = e->as.index.base;
    if (base->type == SPX_TYPE_MAP)
        return compile_map_index(c, e, hint);
    reg_t b = compile_expr(c, base, -1);
    b = hold_operand(c, b, e->as.index.index, e->as.index.to);
    int is_str = base->type == SPX_TYPE_STR;
    if (e->kind == SPX_EXPR_SLICE) {
        reg_t from = compile_temp(c, e->as.index.index);
        reg_t to = compile_temp(c, e->as.index.to);
        free_reg(c, to);
        free_reg(c, from);
        free_reg(c, b);
        reg_t dst = destination(c, FILE_BLOCK, hint);
        failure_site(c,
                     emit(c, is_str ? SPX_I_STR_SLICE : SPX_I_SLICE, dying(b, SPX_FLAG_FREE_B),
                          dst.index, b.index, from.index),
                     e->span);
        return dst;
    }
    int file = is_str ? FILE_INT : file_of(e->type);
    const spx_expr_t *at = e->as.index.index;
    if (!is_str && file == FILE_INT && at->kind == SPX_EXPR_BINARY &&
        (at->as.binary.op == SPX_OP_ADD || at->as.binary.op == SPX_OP_SUB) &&
        leaf_reg(c, at->as.binary.left).file == FILE_INT &&
        at->as.binary.right->kind == SPX_EXPR_INT && at->as.binary.right->as.integer <= INT32_MAX) {
        /* a[x + k], a[x - k] (x a leaf, k a literal): the sum and the read in
         * one instruction, each failing at its own span */
        int32_t offset = c->aux->nelts;
        SPX_ARRAY_PUSH(c->aux, int32_t) = leaf_reg(c, at->as.binary.left).index;
        SPX_ARRAY_PUSH(c->aux, int32_t) = (int32_t)at->as.binary.right->as.integer;
        SPX_ARRAY_PUSH(c->aux, int32_t) = at->as.binary.op == SPX_OP_SUB;
        free_reg(c, b);
        reg_t dst = destination(c, FILE_INT, hint);
        int32_t pc =
            emit(c, SPX_I_INDEX_I_AT, dying(b, SPX_FLAG_FREE_B), dst.index, b.index, offset);
        failure_site(c, pc, at->span);
        failure_site(c, pc, e->span);
        return dst;
    }
    reg_t index = compile_expr(c, e->as.index.index, -1);
    free_reg(c, index);
    free_reg(c, b);
    reg_t dst = destination(c, file, hint);
    spx_opcode_t op = is_str ? SPX_I_STR_INDEX : file == FILE_BLOCK ? SPX_I_INDEX_B : SPX_I_INDEX_I;
    failure_site(c, emit(c, op, dying(b, SPX_FLAG_FREE_B), dst.index, b.index, index.index),
                 e->span);
    return dst;
}

/* [e, ...]: the elements in consecutive temporaries, taken over. */
static reg_t compile_array(compiler_t *c, const spx_expr_t *e, int32_t hint)
{
    int file = file_of(e->vtype->element->kind);
    int32_t first = (int32_t)c->top[file];
    for (apr_size_t i = 0; i < e->as.array.count; i++)
        compile_temp(c, e->as.array.elements[i]);
    c->top[file] -= (uint32_t)e->as.array.count;
    reg_t dst = destination(c, FILE_BLOCK, hint);
    failure_site(c,
                 emit(c, file == FILE_BLOCK ? SPX_I_ARRAY_B : SPX_I_ARRAY_I, 0, dst.index, first,
                      (int32_t)e->as.array.count),
                 e->span);
    return dst;
}

/* S { f: e, ... }: fields evaluated in source order into temporaries, put
 * in declaration order by the aux record. */
static reg_t compile_struct(compiler_t *c, const spx_expr_t *e, int32_t hint)
{
    const spx_struct_literal_t *literal = e->as.literal;
    const spx_struct_t *structure = e->vtype->structure;
    int32_t *registers = apr_palloc(c->scratch, (structure->field_count + 1) * sizeof(*registers));
    reg_t *temps = apr_palloc(c->scratch, (literal->field_count + 1) * sizeof(*temps));
    for (apr_size_t i = 0; i < literal->field_count; i++) {
        temps[i] = compile_temp(c, literal->fields[i].value);
        int32_t field = field_number(structure, literal->fields[i].name.text);
        registers[field] = 2 * temps[i].index + (temps[i].file == FILE_BLOCK);
    }
    for (apr_size_t i = literal->field_count; i-- > 0;)
        free_reg(c, temps[i]);
    int32_t offset = c->aux->nelts;
    for (apr_size_t i = 0; i < structure->field_count; i++)
        SPX_ARRAY_PUSH(c->aux, int32_t) = registers[i];
    reg_t dst = destination(c, FILE_BLOCK, hint);
    failure_site(c, emit(c, SPX_I_STRUCT, 0, dst.index, offset, shape_number(c, structure)),
                 e->span);
    return dst;
}

/* v3: E.V(e, ...): payloads evaluated left to right into temporaries and
 * taken over (no step; the size charge of the payload count); E.V without
 * payloads is a constant, no block. An int or bool payload that is a
 * local, a literal or a const is read from its own register (no copy into
 * a temporary first): no later payload can write it (only assignments
 * write an int local), and VARIANT reads an int register without taking
 * it over. */
static reg_t compile_variant(compiler_t *c, const spx_expr_t *e, int32_t hint)
{
    apr_size_t count = e->as.variant.count;
    if (count == 0) {
        reg_t dst = destination(c, FILE_BLOCK, hint);
        emit(c, SPX_I_VARIANT_CONST, 0, dst.index, (int32_t)e->as.variant.variant, 0);
        return dst;
    }
    reg_t *temps = apr_palloc(c->scratch, count * sizeof(*temps));
    for (apr_size_t i = 0; i < count; i++) {
        const spx_expr_t *payload = e->as.variant.payloads[i];
        reg_t leaf = leaf_reg(c, payload);
        int later_writes = 0;
        for (apr_size_t k = i + 1; k < count && !later_writes; k++)
            later_writes = may_write(e->as.variant.payloads[k], 0);
        temps[i] = leaf.file == FILE_INT && !later_writes ? leaf : compile_temp(c, payload);
    }
    for (apr_size_t i = count; i-- > 0;)
        free_reg(c, temps[i]);
    int32_t offset = c->aux->nelts;
    for (apr_size_t i = 0; i < count; i++)
        SPX_ARRAY_PUSH(c->aux, int32_t) = 2 * temps[i].index + (temps[i].file == FILE_BLOCK);
    reg_t dst = destination(c, FILE_BLOCK, hint);
    failure_site(c,
                 emit(c, SPX_I_VARIANT, 0, dst.index, offset,
                      variant_shape_number(c, e->as.variant.enumeration, e->as.variant.variant)),
                 e->span);
    return dst;
}

/* A leaf or v2 postfix expression that is not a call: its register. */
static reg_t compile_primary(compiler_t *c, const spx_expr_t *e, int32_t hint)
{
    const spx_const_t *constant = const_read(e);
    if (constant && file_of(constant->type) == FILE_BLOCK) {
        reg_t dst = destination(c, FILE_BLOCK, hint);
        /* a literal's block can be over max_memory (R0521) */
        failure_site(c, emit(c, SPX_I_LITERAL, 0, dst.index, const_literal_number(c, constant), 0),
                     e->span);
        return dst;
    }
    switch (constant ? SPX_EXPR_NAME : e->kind) {
    case SPX_EXPR_STRING: {
        reg_t dst = destination(c, FILE_BLOCK, hint);
        failure_site(c,
                     emit(c, SPX_I_LITERAL, 0, dst.index,
                          literal_number(c, e->as.string.bytes, e->as.string.length, e->span), 0),
                     e->span);
        return dst;
    }
    case SPX_EXPR_INDEX:
    case SPX_EXPR_SLICE:
        return compile_index(c, e, hint);
    case SPX_EXPR_FIELD: {
        const spx_struct_t *structure = e->as.field.base->vtype->structure;
        int32_t field = field_number(structure, e->as.field.name.text);
        const spx_expr_t *element = e->as.field.base;
        if (file_of(e->type) == FILE_INT && element->kind == SPX_EXPR_INDEX &&
            leaf_reg(c, element->as.index.base).file == FILE_BLOCK &&
            leaf_reg(c, element->as.index.index).file == FILE_INT) {
            /* a[i].f of a variable a and a leaf i: one instruction, which
             * holds nothing in between (nothing else runs there) */
            int32_t offset = c->aux->nelts;
            SPX_ARRAY_PUSH(c->aux, int32_t) = leaf_reg(c, element->as.index.index).index;
            SPX_ARRAY_PUSH(c->aux, int32_t) = field;
            reg_t dst = destination(c, FILE_INT, hint);
            failure_site(c,
                         emit(c, SPX_I_ELEMENT_FIELD_I, 0, dst.index,
                              leaf_reg(c, element->as.index.base).index, offset),
                         element->span);
            return dst;
        }
        reg_t base = compile_expr(c, e->as.field.base, -1);
        free_reg(c, base);
        int file = file_of(e->type);
        reg_t dst = destination(c, file, hint);
        emit(c, file == FILE_BLOCK ? SPX_I_FIELD_B : SPX_I_FIELD_I, dying(base, SPX_FLAG_FREE_B),
             dst.index, base.index, field);
        return dst;
    }
    case SPX_EXPR_ARRAY:
        return compile_array(c, e, hint);
    case SPX_EXPR_STRUCT_LITERAL:
        return compile_struct(c, e, hint);
    case SPX_EXPR_VARIANT:
        return compile_variant(c, e, hint);
    case SPX_EXPR_MAP:
        return compile_map(c, e, hint);
    case SPX_EXPR_CALL:
        return compile_call(c, e, hint);
    case SPX_EXPR_NAME: {
        reg_t r = leaf_reg(c, e);
        if (!constant && e->as.name.moves)
            r.temp = MOVED_VARIABLE;
        return r;
    }
    default:
        return leaf_reg(c, e);
    }
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
        SPX_ARRAY_PUSH(c->spine, const spx_expr_t *) = node;
        node = node->kind == SPX_EXPR_UNARY ? node->as.unary.operand : node->as.binary.left;
    }
    reg_t r = compile_primary(c, node, node == e ? hint : -1);
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
                emit(c, top->as.unary.op == SPX_OP_NOT ? SPX_I_NOT : SPX_I_BIT_NOT, 0, dst.index,
                     r.index, 0);
            r = dst;
        } else if (top->as.binary.op == SPX_OP_AND || top->as.binary.op == SPX_OP_OR) {
            if (!r.temp) {
                reg_t dst = destination(c, FILE_INT, -1);
                emit(c, SPX_I_MOVE_I, 0, dst.index, r.index, 0);
                r = dst;
            }
            label_t end = UNBOUND_LABEL;
            jump(c, top->as.binary.op == SPX_OP_AND ? SPX_I_JUMP_NOT : SPX_I_JUMP_IF, &end, r.index,
                 0);
            compile_into(c, top->as.binary.right, r.index);
            bind_label(c, &end);
        } else if (immediate_of(top) >= 0) {
            r = emit_immediate(c, top, r, here);
        } else {
            r = hold_operand(c, r, top->as.binary.right, NULL);
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
            label_t own = UNBOUND_LABEL;
            label_t *skip = direct ? label : &own;
            compile_branch(c, e->as.binary.left, direct ? when : !when, skip, depth + 1);
            compile_branch(c, e->as.binary.right, when, label, depth + 1);
            if (!direct)
                bind_label(c, skip);
            return;
        }
        int64_t k = immediate_of(e);
        if (k >= 0 && op >= SPX_OP_EQ && op <= SPX_OP_GE) {
            reg_t l = compile_expr(c, e->as.binary.left, -1);
            free_reg(c, l);
            static const spx_opcode_t ops[] = {SPX_I_JUMP_EQ_K, SPX_I_JUMP_NE_K, SPX_I_JUMP_LT_K,
                                               SPX_I_JUMP_GE_K};
            int32_t immediate = 0;
            int test = immediate_test(op, k, !when, &immediate);
            jump(c, ops[test], label, l.index, immediate);
            return;
        }
        if (op >= SPX_OP_EQ && op <= SPX_OP_GE && file_of(e->as.binary.left->type) == FILE_INT) {
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

static void compile_block(compiler_t *c, const spx_block_t *block, int drops);

/* Two index expressions of places that always read the same value in one
 * statement: the same int literal, the same const, or the same local. */
static int same_index(const spx_expr_t *a, const spx_expr_t *b)
{
    const spx_const_t *constant = const_read(a);
    if (constant || const_read(b))
        return constant == const_read(b);
    if (a->kind == SPX_EXPR_INT && b->kind == SPX_EXPR_INT)
        return a->as.integer == b->as.integer;
    return a->kind == SPX_EXPR_NAME && b->kind == SPX_EXPR_NAME &&
           a->as.name.slot == b->as.name.slot;
}

/* v3: whether read, the left operand of "P = P + e;", is the place P
 * itself: the same variable followed by the same fields and indexes, each
 * index a literal, a const or a variable (language.md, "Compound
 * assignment"). place is the statement's INDEX/FIELD chain, NULL for the
 * variable of slot alone. */
static int same_place(const spx_expr_t *place, int slot, const spx_expr_t *read)
{
    for (;;) {
        if (!place)
            return read->kind == SPX_EXPR_NAME && !read->as.name.constant &&
                   read->as.name.slot == slot;
        if (place->kind == SPX_EXPR_NAME)
            return read->kind == SPX_EXPR_NAME && !read->as.name.constant &&
                   read->as.name.slot == place->as.name.slot;
        if (place->kind != read->kind)
            return 0;
        if (place->kind == SPX_EXPR_FIELD) {
            if (read->as.field.constant ||
                strcmp(place->as.field.name.text, read->as.field.name.text) != 0)
                return 0;
            place = place->as.field.base;
            read = read->as.field.base;
        } else {
            if (place->kind != SPX_EXPR_INDEX ||
                !same_index(place->as.index.index, read->as.index.index))
                return 0;
            place = place->as.index.base;
            read = read->as.index.base;
        }
    }
}

/* The append rule's operation of an assignment, or NULL: "P += e;" on a
 * str or an array, and "P = P + e;" written out where the left operand is
 * P itself (v2: "x = x + e" for a str variable x). */
static const spx_expr_t *append_of(const spx_stmt_t *s)
{
    const spx_expr_t *value = s->as.assign.compound ? s->as.assign.compound : s->as.assign.value;
    if (value->kind != SPX_EXPR_BINARY || value->as.binary.op != SPX_OP_ADD ||
        (value->type != SPX_TYPE_STR && value->type != SPX_TYPE_ARRAY))
        return NULL;
    if (s->as.assign.compound ||
        same_place(s->as.assign.place, s->as.assign.slot, value->as.binary.left))
        return value;
    return NULL;
}

/* The append rule (docs/execution.md, "Append"). A variable whose value
 * the right side cannot write (no push or pop in it) appends by one
 * instruction, as v2 did; any other place reads P first (the indexes, then
 * the read with its range checks), then e, then appends in place or
 * concatenates and writes (spx_place_append). */
static void compile_append(compiler_t *c, const spx_stmt_t *s, const spx_expr_t *operation)
{
    const spx_expr_t *right = operation->as.binary.right;
    int32_t variable = c->slot_index[s->as.assign.slot];
    if (!s->as.assign.place && !may_write(right, 0)) {
        reg_t e = compile_expr(c, right, -1);
        free_reg(c, e);
        failure_site(c, emit(c, SPX_I_APPEND, dying(e, SPX_FLAG_FREE_B), variable, e.index, 0),
                     operation->span);
        return;
    }
    apr_size_t temps = 0, block_temps = 0;
    int32_t place = compile_place(c, s->as.assign.slot, s->as.assign.place, &temps, &block_temps);
    reg_t read = {FILE_BLOCK, alloc_temp(c, FILE_BLOCK), 1};
    if (s->as.assign.place)
        failure_site(c, emit(c, SPX_I_READ_B, 0, read.index, place, 0), s->as.assign.place->span);
    else
        emit(c, SPX_I_MOVE_B, 0, read.index, variable, 0);
    reg_t e = compile_expr(c, right, -1);
    free_reg(c, e);
    free_reg(c, read);
    failure_site(c,
                 emit(c, SPX_I_APPEND_PLACE, dying(e, SPX_FLAG_FREE_C), read.index, place, e.index),
                 operation->span);
    c->top[FILE_INT] -= (uint32_t)temps;
    c->top[FILE_BLOCK] -= (uint32_t)block_temps; /* released by APPEND_PLACE */
}

/* v3: "P op= e;" other than an append: P's indexes, P read (its range
 * checks), e, the operator, then the write resolving P again. */
static void compile_compound(compiler_t *c, const spx_stmt_t *s)
{
    const spx_expr_t *operation = s->as.assign.compound;
    int32_t variable = c->slot_index[s->as.assign.slot];
    if (!s->as.assign.place) {
        compile_into(c, operation, variable);
        return;
    }
    SPX_ASSERT(file_of(operation->type) == FILE_INT);
    const spx_expr_t *target = s->as.assign.place;
    apr_size_t temps = 0, block_temps = 0;
    int32_t place = compile_place(c, s->as.assign.slot, target, &temps, &block_temps);
    reg_t read = {FILE_INT, alloc_temp(c, FILE_INT), 1};
    failure_site(c, emit(c, SPX_I_READ_I, 0, read.index, place, 0), target->span);
    reg_t result = no_reg;
    if (immediate_of(operation) >= 0) {
        result = emit_immediate(c, operation, read, -1);
    } else {
        reg_t e = compile_expr(c, operation->as.binary.right, -1);
        result = emit_binary(c, operation, read, e, -1);
    }
    free_reg(c, result);
    failure_site(c, emit(c, SPX_I_WRITE_I, 0, result.index, place, 0), target->span);
    c->top[FILE_INT] -= (uint32_t)temps;
    c->top[FILE_BLOCK] -= (uint32_t)block_temps; /* released by the write */
}

static void compile_assign(compiler_t *c, const spx_stmt_t *s)
{
    int32_t variable = c->slot_index[s->as.assign.slot];
    const spx_expr_t *append = append_of(s);
    if (append) {
        compile_append(c, s, append);
        return;
    }
    if (s->as.assign.compound) {
        compile_compound(c, s);
        return;
    }
    if (!s->as.assign.place) {
        compile_into(c, s->as.assign.value, variable);
        return;
    }
    const spx_expr_t *target = s->as.assign.place;
    if (target->kind == SPX_EXPR_INDEX && target->as.index.base->kind == SPX_EXPR_NAME &&
        target->as.index.base->type != SPX_TYPE_MAP) {
        /* a[i] = e: the common place, one instruction without an aux record */
        reg_t index = leaf_reg(c, target->as.index.index);
        if (index.file != FILE_INT)
            index = compile_temp(c, target->as.index.index);
        reg_t value = compile_expr(c, s->as.assign.value, -1);
        free_reg(c, value);
        free_reg(c, index);
        failure_site(c,
                     emit(c, value.file == FILE_BLOCK ? SPX_I_SET_B : SPX_I_SET_I,
                          dying(value, SPX_FLAG_FREE_B), variable, value.index, index.index),
                     target->span);
        return;
    }
    apr_size_t temps = 0, block_temps = 0;
    int32_t place = compile_place(c, s->as.assign.slot, s->as.assign.place, &temps, &block_temps);
    reg_t value = compile_expr(c, s->as.assign.value, -1);
    free_reg(c, value);
    failure_site(c,
                 emit(c, value.file == FILE_BLOCK ? SPX_I_WRITE_B : SPX_I_WRITE_I,
                      dying(value, SPX_FLAG_FREE_A), value.index, place, 0),
                 s->as.assign.place->span);
    c->top[FILE_INT] -= (uint32_t)temps;
    c->top[FILE_BLOCK] -= (uint32_t)block_temps;
}

/* The span of a for loop's check: its range or its array. */
static spx_span_t for_header_span(const spx_stmt_t *s)
{
    spx_span_t span = s->as.for_stmt.from->span;
    if (s->as.for_stmt.to)
        span.end = s->as.for_stmt.to->span.end;
    return span;
}

/* for i in a..b { } and for x in xs { }: the check is charged each time
 * control reaches it (before the first round, after each round that ends
 * normally or by continue), never after a break. */
static void compile_for(compiler_t *c, const spx_stmt_t *s)
{
    int32_t variable = c->slot_index[s->as.for_stmt.slot];
    int is_range = s->as.for_stmt.to != NULL;
    reg_t counter, bound, snapshot = no_reg;
    if (is_range) {
        compile_into(c, s->as.for_stmt.from, variable); /* i itself counts: the body cannot */
        counter = (reg_t){FILE_INT, variable, 0};
        bound = compile_temp(c, s->as.for_stmt.to);
    } else {
        snapshot = compile_temp(c, s->as.for_stmt.from);
        counter = (reg_t){FILE_INT, alloc_temp(c, FILE_INT), 1};
        emit(c, SPX_I_MOVE_I, 0, counter.index, int_const(c, 0), 0);
        bound = (reg_t){FILE_INT, alloc_temp(c, FILE_INT), 1};
        emit(c, SPX_I_LEN, 0, bound.index, snapshot.index, 0);
    }
    label_t body = UNBOUND_LABEL, next = UNBOUND_LABEL, check = UNBOUND_LABEL, exit = UNBOUND_LABEL;
    jump(c, SPX_I_JUMP, &check, 0, 0);
    bind_label(c, &body);
    if (!is_range) {
        int file = c->slot_file[s->as.for_stmt.slot];
        int map = s->as.for_stmt.from->type == SPX_TYPE_MAP; /* v3: its keys */
        emit(c,
             map ? (file == FILE_BLOCK ? SPX_I_MAP_KEY_B : SPX_I_MAP_KEY_I)
                 : (file == FILE_BLOCK ? SPX_I_INDEX_B : SPX_I_INDEX_I),
             0, variable, snapshot.index, counter.index);
    }
    loop_t *loop = &SPX_ARRAY_PUSH(c->loops, loop_t);
    *loop = (loop_t){&exit, &next, c->scope->nelts};
    compile_block(c, &s->as.for_stmt.body, 1);
    c->loops->nelts--;
    bind_label(c, &next);
    emit(c, SPX_I_INC, 0, counter.index, 0, 0);
    bind_label(c, &check);
    charge(c, for_header_span(s));
    jump(c, SPX_I_JUMP_LT, &body, counter.index, bound.index);
    bind_label(c, &exit);
    if (!is_range) {
        if (c->slot_file[s->as.for_stmt.slot] == FILE_BLOCK)
            emit(c, SPX_I_DROP_B, 0, variable, 0, 0);
        emit(c, SPX_I_DROP_B, 0, snapshot.index, 0, 0);
    }
    free_reg(c, bound);
    free_reg(c, counter);
    free_reg(c, snapshot);
}

static void compile_stmt(compiler_t *c, const spx_stmt_t *s);

/* v3: match e { ... }. The statement's step is charged before e; MATCH
 * jumps through a table of each variant's arm (a '_' arm takes the
 * variants no arm names) and pays the chosen variant's size charge (its
 * payload count, 0 for '_'). Each arm binds its binders (a holder each),
 * then, when the scrutinee is a temporary (a call's or a constructor's
 * value, or a moved variable's block), takes the block apart when that
 * temporary is its only holder;
 * otherwise the temporary holds it to the statement's end (and is dropped
 * by break, continue and return like a variable). */
static void compile_match(compiler_t *c, const spx_stmt_t *s)
{
    const spx_enum_t *enumeration = s->as.match_stmt.enumeration;
    uint32_t variants = (uint32_t)enumeration->variant_count;
    reg_t scrutinee = compile_expr(c, s->as.match_stmt.scrutinee, -1);
    if (scrutinee.temp == MOVED_VARIABLE) {
        /* a moved variable's holder passes to an operand of the match's
         * own: the only holder, taken apart as a call's value is, and apart
         * from the variable, which an arm may assign again */
        reg_t taken = {FILE_BLOCK, alloc_temp(c, FILE_BLOCK), 1};
        emit(c, SPX_I_MOVE_B, SPX_FLAG_FREE_B, taken.index, scrutinee.index, 0);
        scrutinee = taken;
    }
    int mark = c->scope->nelts;
    if (scrutinee.temp)
        SPX_ARRAY_PUSH(c->scope, int32_t) = scrutinee.index;
    int32_t table = c->aux->nelts;
    for (uint32_t v = 0; v < 2 * variants; v++)
        SPX_ARRAY_PUSH(c->aux, int32_t) = -1;
    failure_site(c, emit(c, SPX_I_MATCH, 0, scrutinee.index, table, (int32_t)variants), s->span);
    label_t end = UNBOUND_LABEL;
    for (apr_size_t a = 0; a < s->as.match_stmt.arm_count; a++) {
        const spx_match_arm_t *arm = &s->as.match_stmt.arms[a];
        flush_charge(c);
        int32_t start = c->code->nelts;
        for (uint32_t v = 0; v < variants; v++) {
            int32_t *entry = &APR_ARRAY_IDX(c->aux, table + 2 * (int32_t)v, int32_t);
            if (entry[0] >= 0 || (!arm->wildcard && arm->variant != (int)v))
                continue;
            entry[0] = start;
            entry[1] = arm->wildcard ? 0 : (int32_t)enumeration->variants[v].payload_count;
        }
        int arm_mark = c->scope->nelts;
        for (apr_size_t j = 0; j < arm->binder_count; j++) {
            int slot = arm->binders[j].slot;
            if (slot < 0)
                continue;
            int file = c->slot_file[slot];
            emit(c, file == FILE_BLOCK ? SPX_I_PAYLOAD_B : SPX_I_PAYLOAD_I, 0, c->slot_index[slot],
                 scrutinee.index, (int32_t)j);
            if (file == FILE_BLOCK)
                SPX_ARRAY_PUSH(c->scope, int32_t) = c->slot_index[slot];
        }
        if (scrutinee.temp)
            emit(c, SPX_I_TAKE_APART, 0, scrutinee.index, 0, 0);
        compile_block(c, &arm->body, 1);
        drop_scope(c, arm_mark);
        c->scope->nelts = arm_mark;
        jump(c, SPX_I_JUMP, &end, 0, 0);
    }
    bind_label(c, &end);
    if (scrutinee.temp)
        emit(c, SPX_I_DROP_B, 0, scrutinee.index, 0, 0);
    c->scope->nelts = mark;
    free_reg(c, scrutinee);
}

/* The step of a statement or a while loop's check, at span, and one more
 * per SPX_LIMIT_STATEMENT_NODES_PER_STEP of its nodes (docs/execution.md,
 * "A statement's nodes"), all paid before it does anything. */
static void charge_statement(compiler_t *c, spx_span_t span, uint64_t nodes)
{
    uint64_t steps = 1 + nodes / SPX_LIMIT_STATEMENT_NODES_PER_STEP;
    for (uint64_t k = 0; k < steps; k++) {
        if (c->charge >= UINT16_MAX - 2)
            flush_charge(c);
        charge(c, span);
    }
}

static void compile_stmt(compiler_t *c, const spx_stmt_t *s)
{
    SPX_ASSERT(c->next_statement < c->statement_nodes->nelts);
    uint64_t nodes = APR_ARRAY_IDX(c->statement_nodes, c->next_statement++, uint64_t);
    charge_statement(c, s->span, s->kind == SPX_STMT_WHILE ? 0 : nodes);
    switch (s->kind) {
    case SPX_STMT_LET:
    case SPX_STMT_VAR:
        compile_into(c, s->as.binding.value, c->slot_index[s->as.binding.slot]);
        if (c->slot_file[s->as.binding.slot] == FILE_BLOCK)
            SPX_ARRAY_PUSH(c->scope, int32_t) = c->slot_index[s->as.binding.slot];
        break;
    case SPX_STMT_ASSIGN:
        compile_assign(c, s);
        break;
    case SPX_STMT_IF: {
        label_t otherwise = UNBOUND_LABEL;
        compile_branch(c, s->as.if_stmt.condition, 0, &otherwise, 0);
        compile_block(c, &s->as.if_stmt.then_block, 1);
        if (s->as.if_stmt.else_block || s->as.if_stmt.else_if) {
            label_t end = UNBOUND_LABEL;
            jump(c, SPX_I_JUMP, &end, 0, 0);
            bind_label(c, &otherwise);
            if (s->as.if_stmt.else_block)
                compile_block(c, s->as.if_stmt.else_block, 1);
            else
                compile_stmt(c, s->as.if_stmt.else_if);
            bind_label(c, &end);
        } else {
            bind_label(c, &otherwise);
        }
        break;
    }
    case SPX_STMT_WHILE: {
        label_t body = UNBOUND_LABEL, condition = UNBOUND_LABEL, exit = UNBOUND_LABEL;
        jump(c, SPX_I_JUMP, &condition, 0, 0); /* carries the while's own step */
        bind_label(c, &body);
        loop_t *loop = &SPX_ARRAY_PUSH(c->loops, loop_t);
        *loop = (loop_t){&exit, &condition, c->scope->nelts};
        compile_block(c, &s->as.while_stmt.body, 1);
        c->loops->nelts--;
        bind_label(c, &condition);
        charge_statement(c, s->as.while_stmt.condition->span, nodes);
        compile_branch(c, s->as.while_stmt.condition, 1, &body, 0);
        bind_label(c, &exit);
        break;
    }
    case SPX_STMT_FOR:
        compile_for(c, s);
        break;
    case SPX_STMT_BREAK:
    case SPX_STMT_CONTINUE: {
        const loop_t *loop = &APR_ARRAY_IDX(c->loops, c->loops->nelts - 1, loop_t);
        drop_scope(c, loop->scope_mark);
        jump(c, SPX_I_JUMP, s->kind == SPX_STMT_BREAK ? loop->exit : loop->next, 0, 0);
        break;
    }
    case SPX_STMT_RETURN:
        if (s->as.return_stmt.value) {
            reg_t r = compile_expr(c, s->as.return_stmt.value, -1);
            free_reg(c, r);
            emit(c, r.file == FILE_BLOCK ? SPX_I_RETURN_B : SPX_I_RETURN_I,
                 dying(r, SPX_FLAG_FREE_A), r.index, 0, 0);
        } else {
            emit(c, SPX_I_RETURN, 0, 0, 0, 0);
        }
        break;
    case SPX_STMT_EXPR: {
        reg_t r = compile_expr(c, s->as.expr_stmt.expression, -1);
        free_reg(c, r);
        if (r.temp && r.file == FILE_BLOCK) /* an unused value: release it now */
            emit(c, SPX_I_DROP_B, 0, r.index, 0, 0);
        else
            flush_charge(c); /* e.g. "x;": the statement still costs its step */
        break;
    }
    case SPX_STMT_MATCH:
        compile_match(c, s);
        break;
    }
}

/* The statements of block; with drops, its block variables are released
 * at its end (a function's body leaves that to its return). */
static void compile_block(compiler_t *c, const spx_block_t *block, int drops)
{
    int mark = c->scope->nelts;
    for (apr_size_t i = 0; i < block->count; i++)
        compile_stmt(c, block->statements[i]);
    if (drops)
        drop_scope(c, mark);
    c->scope->nelts = mark;
}

/* --- functions and the program ------------------------------------------- */

/* The function's sites, packed into the program's arena (vm_internal.h). */
static void pack_sites(compiler_t *c, spx_vm_function_t *out)
{
    const spx_site_t *sites = (const spx_site_t *)c->sites->elts;
    apr_size_t count = (apr_size_t)c->sites->nelts;
    /* At most 5 bytes a number: packed in the scratch pool, then copied. */
    uint8_t *packed = apr_palloc(c->scratch, 15 * count + 1);
    uint8_t *at = packed;
    uint32_t pc = 0, start = 0;
    for (apr_size_t i = 0; i < count; i++) {
        SPX_ASSERT(sites[i].pc >= pc && sites[i].end >= sites[i].start);
        at = spx_leb128_put(at, (sites[i].pc - pc) * 2 + sites[i].kind);
        at = spx_leb128_put(at, sites[i].start >= start ? (sites[i].start - start) * 2
                                                        : (start - sites[i].start) * 2 - 1);
        at = spx_leb128_put(at, sites[i].end - sites[i].start);
        pc = sites[i].pc;
        start = sites[i].start;
    }
    out->sites = SPX_ARENA_COPY(c->arena, uint8_t, packed, (apr_size_t)(at - packed));
    out->site_bytes = (uint32_t)(at - packed);
}

/* Compile f into *out (its name set already); a function over a bytecode
 * limit is compiled as too_large, which stops any run that can reach it. */
static void compile_function(compiler_t *c, const spx_function_t *f, const spx_vm_source_t *source,
                             spx_vm_function_t *out)
{
    apr_pool_clear(c->scratch);
    c->source = source;
    out->source = source; /* a function too large to compile has them too */
    out->name_start = f->name.span.start.offset;
    out->name_end = f->name.span.end.offset;
    apr_array_header_t *const work[] = {c->code,         c->sites,           c->pending,
                                        c->spine,        c->statement_nodes, c->aux,
                                        c->scope,        c->loops,           c->function_patches,
                                        c->int_consts,   c->literals,        c->render_types,
                                        c->byte_literals};
    for (apr_size_t i = 0; i < sizeof(work) / sizeof(work[0]); i++)
        apr_array_clear(work[i]);
    c->next_statement = 0;
    spx_word_table_clear(c->int_numbers);
    memset(c->small_int_numbers, 0, sizeof(c->small_int_numbers));
    spx_word_table_clear(c->carried);
    spx_word_table_clear(c->const_numbers);
    c->literal_numbers = NULL;
    c->charge = 0;
    apr_size_t slots = f->local_count;
    c->slot_file = apr_pcalloc(c->scratch, (slots + 1) * sizeof(int));
    c->slot_index = apr_pcalloc(c->scratch, (slots + 1) * sizeof(int32_t));
    c->locals[FILE_INT] = c->locals[FILE_BLOCK] = 0;
    c->open_locals[FILE_INT] = c->open_locals[FILE_BLOCK] = 0;
    uint32_t params[2] = {0, 0};
    for (apr_size_t i = 0; i < f->param_count; i++) {
        c->slot_file[i] = declared_file(f->params[i].type, f->params[i].type_syntax);
        place_slot(c, (int)i);
        params[c->slot_file[i]]++;
    }
    c->array_loops = 0;
    c->consts_closed = 0;
    place_slots(c, &f->body);
    if (c->array_loops)
        int_const(c, 0); /* where a for loop over an array starts */
    collect_block(c, &f->body);
    c->consts_closed = 1;
    /* Every call copies the constants into its frame a group at a time
     * (enter, vm.c): padded with zeros to a whole group while that stays
     * within the register limit. */
    while (c->int_consts->nelts % SPX_VM_CONST_GROUP != 0 &&
           c->locals[FILE_INT] + (uint32_t)c->int_consts->nelts < SPX_LIMIT_FUNCTION_REGISTERS)
        SPX_ARRAY_PUSH(c->int_consts, int64_t) = 0;
    c->top[FILE_INT] = c->max[FILE_INT] = c->locals[FILE_INT] + (uint32_t)c->int_consts->nelts;
    c->top[FILE_BLOCK] = c->max[FILE_BLOCK] = c->locals[FILE_BLOCK];
    compile_block(c, &f->body, 0);
    int result_file = declared_file(f->result, f->result_syntax);
    emit(c, result_file == FILE_NONE ? SPX_I_RETURN : SPX_I_UNREACHABLE, 0, 0, 0, 0);
    if ((apr_size_t)c->code->nelts > SPX_LIMIT_FUNCTION_INSTRUCTIONS ||
        c->max[FILE_INT] > SPX_LIMIT_FUNCTION_REGISTERS ||
        c->max[FILE_BLOCK] > SPX_LIMIT_FUNCTION_REGISTERS) {
        out->too_large = 1;
        return;
    }

    out->code = SPX_ARENA_COPY(c->arena, spx_instr_t, c->code->elts, c->code->nelts);
    out->code_length = (uint32_t)c->code->nelts;
    out->int_registers = c->max[FILE_INT];
    out->block_registers = c->max[FILE_BLOCK];
    out->int_params = params[FILE_INT];
    out->block_params = params[FILE_BLOCK];
    out->int_const_base = c->locals[FILE_INT];
    out->int_const_count = (uint32_t)c->int_consts->nelts;
    out->int_consts = SPX_ARENA_COPY(c->arena, int64_t, c->int_consts->elts, c->int_consts->nelts);
    /* Most functions have no aux records and no render types: NULL takes
     * no room in the arena. */
    out->literals = c->literals->nelts ? SPX_ARENA_COPY(c->arena, spx_literal_t, c->literals->elts,
                                                        c->literals->nelts)
                                       : NULL;
    out->aux =
        c->aux->nelts ? SPX_ARENA_COPY(c->arena, int32_t, c->aux->elts, c->aux->nelts) : NULL;
    out->render_types = c->render_types->nelts
                            ? SPX_ARENA_COPY(c->arena, const spx_render_type_t *,
                                             c->render_types->elts, c->render_types->nelts)
                            : NULL;
    pack_sites(c, out);
    out->returns_int = result_file == FILE_INT && f->result == SPX_TYPE_INT;
    out->param_count = (uint32_t)f->param_count;
    for (int i = 0; i < c->function_patches->nelts; i++) {
        const_patch_t patch = APR_ARRAY_IDX(c->function_patches, i, const_patch_t);
        patch.function = out;
        SPX_ARRAY_PUSH(c->patches, const_patch_t) = patch;
    }
}

spx_program_builder_t *spx_program_builder_make(apr_pool_t *pool, spx_arena_t *arena)
{
    compiler_t *c = apr_pcalloc(pool, sizeof(*c));
    c->pool = pool;
    c->arena = arena;
    apr_pool_create(&c->scratch, pool);
    apr_pool_create(&c->work, pool);
    c->code = apr_array_make(c->work, 64, sizeof(spx_instr_t));
    c->sites = apr_array_make(c->work, 16, sizeof(spx_site_t));
    c->pending = apr_array_make(c->work, 4, sizeof(spx_span_t));
    c->spine = apr_array_make(c->work, 16, sizeof(const spx_expr_t *));
    c->statement_nodes = apr_array_make(c->work, 32, sizeof(uint64_t));
    c->aux = apr_array_make(c->work, 8, sizeof(int32_t));
    c->scope = apr_array_make(c->work, 8, sizeof(int32_t));
    c->loops = apr_array_make(c->work, 4, sizeof(loop_t));
    c->function_patches = apr_array_make(c->work, 4, sizeof(const_patch_t));
    c->int_consts = apr_array_make(c->work, 8, sizeof(int64_t));
    c->literals = apr_array_make(c->work, 8, sizeof(spx_literal_t));
    c->byte_literals = apr_array_make(c->work, 8, sizeof(int32_t));
    c->render_types = apr_array_make(c->work, 2, sizeof(const spx_render_type_t *));
    c->functions = apr_array_make(pool, 64, sizeof(spx_vm_function_t *));
    c->shapes = apr_array_make(pool, 8, sizeof(const spx_struct_shape_t *));
    c->shape_numbers = apr_hash_make(pool);
    c->variant_shapes = apr_array_make(pool, 8, sizeof(const spx_variant_shape_t *));
    c->variant_numbers = apr_hash_make(pool);
    c->patches = apr_array_make(pool, 8, sizeof(const_patch_t));
    c->render_memo = apr_hash_make(pool);
    c->int_numbers = spx_word_table_make(pool); /* these three cleared for each function */
    c->carried = spx_word_table_make(pool);
    c->const_numbers = spx_word_table_make(pool);
    return c;
}

void spx_program_add_module(spx_program_builder_t *c, const spx_module_t *module)
{
    spx_vm_source_t *source = SPX_ARENA_NEW(c->arena, spx_vm_source_t);
    source->path = module->path;
    source->text = module->text;
    source->text_length = module->length;
    for (apr_size_t f = 0; f < module->function_count; f++) {
        spx_function_t *function = module->functions[f];
        int32_t index = function_index(c, function); /* may grow c->functions */
        compile_function(c, function, source,
                         APR_ARRAY_IDX(c->functions, index, spx_vm_function_t *));
    }
    apr_pool_clear(c->scratch);
}

/* The slot of name in the table (vm_internal.h): its function's, or the
 * empty one where it would go (the name's FNV-1a, spx_name_hash). */
static apr_size_t name_slot(spx_vm_function_t *const *functions, const uint32_t *slots,
                            apr_size_t slot_count, const char *name)
{
    apr_size_t at = spx_name_hash(name) & (slot_count - 1);
    while (slots[at] && strcmp(functions[slots[at] - 1]->name, name) != 0)
        at = (at + 1) & (slot_count - 1);
    return at;
}

/* The table of the program's functions by name, made once they are all
 * known: 4 bytes a slot, instead of a hash entry and a bucket per function.
 * A later function of the same name takes the slot (as a hash's set would). */
static void make_name_table(compiler_t *c, spx_program_t *program)
{
    apr_size_t slot_count = 2;
    while (slot_count < 2 * program->function_count)
        slot_count *= 2;
    uint32_t *slots = apr_pcalloc(c->pool, slot_count * sizeof(*slots));
    for (apr_size_t i = 0; i < program->function_count; i++)
        slots[name_slot(program->functions, slots, slot_count, program->functions[i]->name)] =
            (uint32_t)i + 1;
    program->by_name = slots;
    program->by_name_slots = slot_count;
}

spx_program_t *spx_program_finish(spx_program_builder_t *c)
{
    apr_pool_destroy(c->scratch);
    apr_pool_destroy(c->work);
    spx_program_t *program = apr_pcalloc(c->pool, sizeof(*program));
    program->function_count = (apr_size_t)c->functions->nelts;
    program->functions = (spx_vm_function_t *const *)c->functions->elts;
    make_name_table(c, program);
    program->shapes =
        SPX_ARENA_COPY(c->arena, const spx_struct_shape_t *, c->shapes->elts, c->shapes->nelts);
    program->variant_shapes = SPX_ARENA_COPY(c->arena, const spx_variant_shape_t *,
                                             c->variant_shapes->elts, c->variant_shapes->nelts);
    /* Every const is evaluated now (or the program is not admitted). */
    for (int i = 0; i < c->patches->nelts; i++) {
        const const_patch_t *patch = &APR_ARRAY_IDX(c->patches, i, const_patch_t);
        const spx_const_t *constant = patch->constant;
        if (patch->literal) {
            spx_literal_t *literal = &patch->function->literals[patch->number];
            literal->bytes = (const unsigned char *)(constant->bytes ? constant->bytes : "");
            literal->length = constant->bytes ? constant->length : 0;
        } else {
            patch->function->int_consts[patch->number] =
                constant->value_type == SPX_TYPE_BOOL ? constant->boolean : constant->integer;
        }
    }
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
            SPX_ARRAY_PUSH(queue, int32_t) = (int32_t)index;
        }
    }
    for (int i = 0; i < queue->nelts; i++) {
        const spx_vm_function_t *function = program->functions[APR_ARRAY_IDX(queue, i, int32_t)];
        if (function->too_large) {
            *message = apr_psprintf(pool, "function '%s' is too large to run", function->name);
            return APR_EINVAL;
        }
        for (uint32_t pc = 0; pc < function->code_length; pc++) {
            int32_t callee = function->code[pc].a;
            if (function->code[pc].op == SPX_I_CALL && !seen[callee]) {
                seen[callee] = 1;
                SPX_ARRAY_PUSH(queue, int32_t) = callee;
            }
        }
    }
    return APR_SUCCESS;
}

long spx_program_find(const spx_program_t *program, const char *qualified)
{
    return (long)program->by_name[name_slot(program->functions, program->by_name,
                                            program->by_name_slots, qualified)] -
           1;
}
