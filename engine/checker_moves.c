/*
 * checker_moves.c: move on last use (docs/language.md, "Move on last use"):
 * after a function's body is checked, one backward liveness pass over its
 * structured tree marks each read of a local variable of a block type that
 * is the whole expression in a transfer position and a last use, by setting
 * the NAME node's moves field; the compiler then passes the variable's
 * holder on instead of adding one (docs/execution.md, "Holders and moves").
 *
 * A read of x is a last use when no path from the end of the read reaches a
 * use of x before the end of an assignment "x = e;" to all of x or the end
 * of x's scope. The paths are the structured control flow with no
 * condition's value known: the rest of the statement in evaluation order
 * (an && or || right operand taken or skipped), either branch of an if, a
 * loop body zero or more times with the while condition or for check before
 * each round, break past its loop, continue to its check, return ending
 * the path. A place is used when it is resolved, after its value and
 * arguments are evaluated, so the x in "x[0] = f(x)" or "x.push(f(x))" is
 * not a last use; neither is it in "x = x + f(x)", which is the same
 * statement as "x += f(x)".
 *
 * Live sets are bit sets of 32 variables: a function with at most 32
 * locals gives each its own bit and is walked once for marking, every read
 * of a local then deciding its move; one with more first finds its
 * candidates (the locals with a read in a transfer position) and is walked
 * once per 32 of them. A loop has one entry and one exit (break and
 * continue name the innermost loop), so the set live at its check is a
 * function of the set live after it of the form G | (E & P), and the least
 * solution of the loop's equation is reached with the body walked once
 * with nothing live at the check: each loop's G and G | P are computed
 * together, by one walk of its body that carries both sets in the two
 * halves of one word (inner loops through their own summaries), and the
 * marking walk visits every statement once. So the pass is linear in the
 * body's size per 32 variables, and recurses only as deep as the parser
 * allowed (SPX_LIMIT_PARSE_DEPTH): chains of left operands and else-if
 * chains are walked by loops.
 *
 * The constructs language v3 adds beyond v2's fit as follows (the
 * switches below name every kind, so a new one must be placed): a map
 * literal's keys and values, a variant's payloads and insert's value are
 * transfer positions (operand_transfers); the writing methods (insert,
 * remove, sort, reverse) resolve their place last (call_writes_place); maps
 * and enums with payloads are block types (is_block_type); a compound
 * assignment "P op= e" is not "x = e": P's indexes, P's value read (a use),
 * e (no transfer position), then P resolved again (a use), killing nothing;
 * a match evaluates its scrutinee (a transfer position) and then one arm
 * (a branch, like an if's), whose binders are bound at its start (as a let
 * binds) and go out of scope at its end.
 */
#include "checker_internal.h"
#include "spx_library.h"
#include "spx_limits.h"

#include <apr_strings.h>
#include <stdint.h>
#include <string.h>

/* A chunk is 32 variables: a live set is 32 bits, and a walk carries two
 * of them in one word, from the end back: bits 0..31 (a) and 32..63 (b).
 * Marking, they are the same set; a loop's summary, the sets live when
 * nothing (a) and everything (b) is live after the loop. */
enum { CHUNK = 32 };
typedef uint64_t live_t;
typedef uint64_t bits_t; /* variables of the chunk, each in both halves */

static const live_t half_a = UINT64_C(0xFFFFFFFF);

/* set, a chunk's variables in bits 0..31, in both halves. */
static bits_t both_halves(bits_t set)
{
    return set | set << CHUNK;
}

typedef enum walk_mode_t {
    WALK_COLLECT, /* find the candidates; sets mean nothing */
    WALK_SUMMARY, /* compute a loop's summary: no marks, inner loops by their summaries */
    WALK_MARK     /* decide the moves of the chunk's variables */
} walk_mode_t;

/* Where break and continue of the innermost loop lead. */
typedef struct loop_targets_t {
    live_t exit;  /* live after the loop */
    live_t check; /* live at its condition or check */
} loop_targets_t;

/* The set live at a loop's check as a function of the set E live after the
 * loop: none | (E & all), from E = nothing and E = everything, each in both
 * halves. loop is NULL in an empty entry of the table of summaries. */
typedef struct loop_summary_t {
    const spx_stmt_t *loop;
    bits_t none, all;
} loop_summary_t;

typedef struct moves_t {
    const spx_function_t *function;
    apr_pool_t *pool;
    apr_size_t *candidate;     /* per slot: 1 + its number among the candidates, or 0 */
    bits_t *mask;              /* per slot: its bit in the chunk being walked, or 0 */
    walk_mode_t mode;          /* what the walk does */
    loop_summary_t *summaries; /* the chunk's, open addressing by the loop's address */
    apr_size_t summary_slots;  /* a power of two, or 0 before the first loop */
    apr_size_t summary_count;  /* at most half the slots are taken */
    apr_array_header_t *chain; /* spx_stmt_t *: else-if chains being walked */
} moves_t;

static live_t live_with(live_t live, bits_t mask)
{
    return live | mask;
}

static live_t live_without(live_t live, bits_t mask)
{
    return live & ~mask;
}

static live_t live_join(live_t x, live_t y)
{
    return x | y;
}

static const live_t live_none = 0;

/* ---- what moves: the types and the transfer positions ------------------- */

/* Whether a value of type is a block (a holder count, a copy on write).
 * An enum's variant without payloads is a constant, not a block; moving it
 * hands on nothing and costs nothing, so every enum value counts. */
static int is_block_type(spx_type_t type)
{
    switch (type) {
    case SPX_TYPE_STR:
    case SPX_TYPE_ARRAY:
    case SPX_TYPE_STRUCT:
    case SPX_TYPE_ENUM:
    case SPX_TYPE_MAP:
        return 1;
    case SPX_TYPE_ERROR:
    case SPX_TYPE_INT:
    case SPX_TYPE_BOOL:
    case SPX_TYPE_UNIT:
        return 0;
    }
    return 0;
}

/* Whether the value a statement holds directly (its value, or returned
 * value) is in a transfer position: passed on whole, never only read. */
static int statement_transfers(const spx_stmt_t *s)
{
    switch (s->kind) {
    case SPX_STMT_LET:    /* the value of a let */
    case SPX_STMT_VAR:    /* and of a var */
    case SPX_STMT_RETURN: /* the value of return */
    case SPX_STMT_MATCH:  /* the scrutinee of match */
        return 1;
    case SPX_STMT_ASSIGN: /* the right side of "place = e;", not of "P op= e;" */
        return s->as.assign.compound == NULL;
    case SPX_STMT_IF:
    case SPX_STMT_WHILE:
    case SPX_STMT_EXPR:
    case SPX_STMT_FOR:
    case SPX_STMT_BREAK:
    case SPX_STMT_CONTINUE:
        return 0;
    }
    return 0;
}

/* Whether operand number operand of parent (its argument, element or field
 * value, as written) is in a transfer position. */
static int operand_transfers(const spx_expr_t *parent, apr_size_t operand)
{
    switch (parent->kind) {
    case SPX_EXPR_CALL: /* an argument of a user function; the value of push or insert */
        switch (parent->as.call->builtin) {
        case SPX_BUILTIN_NONE:
            return 1;
        case SPX_BUILTIN_PUSH:
            return operand == 0;
        case SPX_BUILTIN_INSERT:
            return operand == 1;
        default:
            return 0;
        }
    case SPX_EXPR_ARRAY:          /* an element of an array literal */
    case SPX_EXPR_STRUCT_LITERAL: /* a field value of a struct literal */
    case SPX_EXPR_VARIANT:        /* a payload of a variant */
    case SPX_EXPR_MAP:            /* a key or value of a map literal */
        return 1;
    case SPX_EXPR_INT:
    case SPX_EXPR_STRING:
    case SPX_EXPR_BOOL:
    case SPX_EXPR_NAME:
    case SPX_EXPR_UNARY: /* operators never move */
    case SPX_EXPR_BINARY:
    case SPX_EXPR_INDEX: /* nor do bases, indexes and fields */
    case SPX_EXPR_SLICE:
    case SPX_EXPR_FIELD:
        return 0;
    }
    return 0;
}

/* Whether a builtin call changes the place it is called on (push, pop and
 * the library's writing methods: insert, remove, sort, reverse): its
 * place's indexes, then its arguments are evaluated, then the place is
 * resolved. */
static int call_writes_place(const spx_call_t *call)
{
    return call->builtin == SPX_BUILTIN_PUSH || call->builtin == SPX_BUILTIN_POP ||
           (call->builtin != SPX_BUILTIN_NONE && spx_library_writes(call->builtin));
}

/* "x = x + e;": the append form, the same statement as "x += e", whose x is
 * resolved after e. */
static int is_append_form(const spx_stmt_t *s)
{
    const spx_expr_t *value = s->as.assign.value;
    return !s->as.assign.place && value && value->kind == SPX_EXPR_BINARY &&
           value->as.binary.op == SPX_OP_ADD && value->as.binary.left &&
           value->as.binary.left->kind == SPX_EXPR_NAME &&
           !value->as.binary.left->as.name.constant &&
           value->as.binary.left->as.name.slot == s->as.assign.slot;
}

/* ---- the walk ------------------------------------------------------------ */

/* The bit of slot in the chunk being walked, or 0. */
static bits_t bit(const moves_t *m, int slot)
{
    if (slot < 0 || (apr_size_t)slot >= m->function->local_count)
        return 0;
    return m->mask[slot];
}

static live_t walk_expr(moves_t *m, spx_expr_t *e, live_t live, int transfers);

/* Whether e reads no local: a literal, or an empty slot (spared the call
 * of walk_expr, which would return the set it is given). */
static inline int reads_nothing(const spx_expr_t *e)
{
    return !e || e->kind == SPX_EXPR_INT || e->kind == SPX_EXPR_STRING || e->kind == SPX_EXPR_BOOL;
}

/* A read of a local (or a const, which holds nothing). A marking walk
 * decides every read of the chunk's variables: a move only when it is in
 * a transfer position and nothing after it reads the variable. */
static inline live_t walk_name(moves_t *m, spx_expr_t *e, live_t live, int transfers)
{
    int slot = e->as.name.slot;
    if (e->as.name.constant || slot < 0 || (apr_size_t)slot >= m->function->local_count)
        return live;
    transfers = transfers && is_block_type(e->type);
    if (m->mode == WALK_COLLECT) {
        e->as.name.moves = 0;
        if (transfers)
            m->candidate[slot] = 1;
        return live;
    }
    bits_t mine = m->mask[slot];
    if (m->mode == WALK_MARK && mine)
        e->as.name.moves = transfers && (live & mine & half_a) == 0;
    return live_with(live, mine);
}

/* An operand: a literal and a name without the call of walk_expr (most
 * operands and arguments are one or the other). */
static inline live_t walk_operand(moves_t *m, spx_expr_t *e, live_t live, int transfers)
{
    if (reads_nothing(e))
        return live;
    if (e->kind == SPX_EXPR_NAME)
        return walk_name(m, e, live, transfers);
    return walk_expr(m, e, live, transfers);
}

/* The indexes of a place (an INDEX and FIELD chain, or NULL), evaluated
 * from the root out before the value; walked backward, so from the end. */
static live_t walk_place_indexes(moves_t *m, spx_expr_t *place, live_t live)
{
    for (spx_expr_t *step = place; step;) {
        if (step->kind == SPX_EXPR_INDEX) {
            live = walk_expr(m, step->as.index.index, live, 0);
            step = step->as.index.base;
        } else if (step->kind == SPX_EXPR_FIELD) {
            step = step->as.field.base;
        } else {
            break;
        }
    }
    return live;
}

static live_t walk_call(moves_t *m, spx_expr_t *e, live_t live)
{
    spx_call_t *call = e->as.call;
    int writes = call_writes_place(call);
    if (writes) /* the place, resolved last */
        live = live_with(live, bit(m, call->receiver_slot));
    for (apr_size_t i = call->argument_count; i-- > 0;)
        live = walk_operand(m, call->arguments[i], live, operand_transfers(e, i));
    if (writes)
        return walk_place_indexes(m, call->receiver, live);
    if (!call->receiver && call->builtin != SPX_BUILTIN_NONE &&
        spx_builtin_info(call->builtin)->form == SPX_BUILTIN_FORM_METHOD)
        return live_with(live,
                         bit(m, call->receiver_slot)); /* x.method(...) on a local x: read first */
    return walk_expr(m, call->receiver, live, 0);
}

/* An expression that is neither a unary nor a binary operator. */
static live_t walk_primary(moves_t *m, spx_expr_t *e, live_t live, int transfers)
{
    switch (e->kind) {
    case SPX_EXPR_NAME:
        return walk_name(m, e, live, transfers);
    case SPX_EXPR_CALL:
        return walk_call(m, e, live);
    case SPX_EXPR_INDEX:
    case SPX_EXPR_SLICE:
        live = walk_expr(m, e->as.index.to, live, 0);
        live = walk_expr(m, e->as.index.index, live, 0);
        return walk_expr(m, e->as.index.base, live, 0);
    case SPX_EXPR_FIELD:
        return e->as.field.constant ? live : walk_expr(m, e->as.field.base, live, 0);
    case SPX_EXPR_ARRAY:
        for (apr_size_t i = e->as.array.count; i-- > 0;)
            live = walk_expr(m, e->as.array.elements[i], live, operand_transfers(e, i));
        return live;
    case SPX_EXPR_STRUCT_LITERAL:
        for (apr_size_t i = e->as.literal->field_count; i-- > 0;)
            live = walk_expr(m, e->as.literal->fields[i].value, live, operand_transfers(e, i));
        return live;
    case SPX_EXPR_VARIANT:
        for (apr_size_t i = e->as.variant.count; i-- > 0;)
            live = walk_expr(m, e->as.variant.payloads[i], live, operand_transfers(e, i));
        return live;
    case SPX_EXPR_MAP: /* k1, v1, k2, v2, ...: walked from the last value back */
        for (apr_size_t i = e->as.map.count; i-- > 0;) {
            live = walk_expr(m, e->as.map.values[i], live, operand_transfers(e, 2 * i + 1));
            live = walk_expr(m, e->as.map.keys[i], live, operand_transfers(e, 2 * i));
        }
        return live;
    case SPX_EXPR_INT:
    case SPX_EXPR_STRING:
    case SPX_EXPR_BOOL:
    case SPX_EXPR_UNARY: /* walk_expr's */
    case SPX_EXPR_BINARY:
        return live;
    }
    return live;
}

/* The set live before e, given the set live after it; marks the reads in
 * it. transfers: e stands in a transfer position. The chain of left and
 * unary operands is a loop: the right operands are evaluated after it, the
 * outermost last, so they are walked as the chain is descended, outermost
 * first. */
static live_t walk_expr(moves_t *m, spx_expr_t *e, live_t live, int transfers)
{
    int whole = 1;
    while (e && (e->kind == SPX_EXPR_UNARY || e->kind == SPX_EXPR_BINARY)) {
        whole = 0;
        if (e->kind == SPX_EXPR_UNARY) {
            e = e->as.unary.operand;
            continue;
        }
        if (!reads_nothing(e->as.binary.right)) {
            live_t taken = walk_operand(m, e->as.binary.right, live, 0);
            int skippable = e->as.binary.op == SPX_OP_AND || e->as.binary.op == SPX_OP_OR;
            live = skippable ? live_join(live, taken) : taken;
        }
        e = e->as.binary.left;
    }
    return e ? walk_primary(m, e, live, transfers && whole) : live;
}

static live_t walk_block(moves_t *m, spx_block_t *block, live_t live, const loop_targets_t *loop);

/* The walk of one round of a loop: its body with check live at the
 * condition or check (after the round, and at a continue) and exit after the
 * loop (at a break). Returns the set this makes live at the check: for a
 * while, before its condition; for a for, at the check (its variable
 * bound anew by each round). */
static live_t walk_round(moves_t *m, spx_stmt_t *s, live_t exit, live_t check)
{
    int is_for = s->kind == SPX_STMT_FOR;
    bits_t variable = is_for ? bit(m, s->as.for_stmt.slot) : 0; /* its scope ends each round */
    loop_targets_t targets = {exit, live_without(check, variable)};
    spx_block_t *body = is_for ? &s->as.for_stmt.body : &s->as.while_stmt.body;
    live_t body_in = walk_block(m, body, targets.check, &targets);
    if (is_for)
        return live_join(exit, live_without(body_in, variable));
    return walk_expr(m, s->as.while_stmt.condition, live_join(exit, body_in), 0);
}

/* The hash of a loop's address in the table of summaries. */
static apr_size_t summary_hash(const spx_stmt_t *loop)
{
    uint64_t key = (uint64_t)(uintptr_t)loop;
    return (apr_size_t)((key >> 4) * UINT64_C(0x9E3779B97F4A7C15) >> 32);
}

/* The entry of loop in the table of summaries, or the empty one where it
 * would go. */
static loop_summary_t *summary_entry(const moves_t *m, const spx_stmt_t *loop)
{
    apr_size_t last = m->summary_slots - 1;
    apr_size_t at = summary_hash(loop) & last;
    while (m->summaries[at].loop && m->summaries[at].loop != loop)
        at = (at + 1) & last;
    return &m->summaries[at];
}

/* Room for one more summary: the table doubled when it would be more than
 * half full (the old one stays in the pool, cleared after the function). */
static void summary_room(moves_t *m)
{
    if (2 * (m->summary_count + 1) <= m->summary_slots)
        return;
    loop_summary_t *old = m->summaries;
    apr_size_t old_slots = m->summary_slots;
    m->summary_slots = old_slots ? 2 * old_slots : 16;
    m->summaries = apr_pcalloc(m->pool, m->summary_slots * sizeof(*m->summaries));
    for (apr_size_t i = 0; i < old_slots; i++)
        if (old[i].loop)
            *summary_entry(m, old[i].loop) = old[i];
}

/* A loop's summary, computed the first time the chunk's walk meets it: one
 * walk of a round carries both sets, from nothing and from everything live
 * after the loop, with nothing live at the check. */
static loop_summary_t loop_summary(moves_t *m, spx_stmt_t *s)
{
    if (m->summary_slots) {
        const loop_summary_t *found = summary_entry(m, s);
        if (found->loop)
            return *found;
    }
    walk_mode_t mode = m->mode;
    m->mode = WALK_SUMMARY;
    live_t sets = walk_round(m, s, ~half_a, live_none);
    m->mode = mode;
    loop_summary_t summary = {s, both_halves(sets & half_a), both_halves(sets >> CHUNK)};
    summary_room(m); /* after the walk, which may have added inner loops' */
    *summary_entry(m, s) = summary;
    m->summary_count++;
    return summary;
}

/* A while or for statement, with exit live after it: the set live before. */
static live_t walk_loop(moves_t *m, spx_stmt_t *s, live_t exit)
{
    live_t check = live_none;
    if (m->mode != WALK_COLLECT) {
        loop_summary_t summary = loop_summary(m, s);
        check = summary.none | (exit & summary.all);
    }
    if (m->mode != WALK_SUMMARY)
        walk_round(m, s, exit,
                   check); /* marks the body (and condition) with the set at the check */
    if (s->kind == SPX_STMT_WHILE)
        return check;
    /* a for header's expressions, evaluated once before the loop: from, then to */
    live_t live = walk_expr(m, s->as.for_stmt.to, check, 0);
    return walk_expr(m, s->as.for_stmt.from, live, 0);
}

/* An if and its else-if chain, walked without recursion along the chain. */
static live_t walk_if(moves_t *m, spx_stmt_t *s, live_t live, const loop_targets_t *loop)
{
    if (!s->as.if_stmt.else_if) { /* most ifs: no chain to keep */
        live_t otherwise =
            s->as.if_stmt.else_block ? walk_block(m, s->as.if_stmt.else_block, live, loop) : live;
        live_t then = walk_block(m, &s->as.if_stmt.then_block, live, loop);
        return walk_expr(m, s->as.if_stmt.condition, live_join(then, otherwise), 0);
    }
    int base = m->chain->nelts;
    for (spx_stmt_t *link = s; link; link = link->as.if_stmt.else_if) {
        APR_ARRAY_PUSH(m->chain, spx_stmt_t *) = link;
    }
    spx_stmt_t *last = APR_ARRAY_IDX(m->chain, m->chain->nelts - 1, spx_stmt_t *);
    live_t otherwise =
        last->as.if_stmt.else_block ? walk_block(m, last->as.if_stmt.else_block, live, loop) : live;
    for (int i = m->chain->nelts; i-- > base;) {
        spx_stmt_t *link = APR_ARRAY_IDX(m->chain, i, spx_stmt_t *);
        live_t then = walk_block(m, &link->as.if_stmt.then_block, live, loop);
        otherwise = walk_expr(m, link->as.if_stmt.condition, live_join(then, otherwise), 0);
    }
    m->chain->nelts = base;
    return otherwise;
}

/* A match: its scrutinee, then one of its arms, each an alternative (as
 * an if's branches) whose binders are bound at its start and go out of
 * scope at its end. */
static live_t walk_match(moves_t *m, spx_stmt_t *s, live_t live, const loop_targets_t *loop)
{
    live_t arms = live_none;
    for (apr_size_t a = 0; a < s->as.match_stmt.arm_count; a++) {
        spx_match_arm_t *arm = &s->as.match_stmt.arms[a];
        bits_t binders = 0;
        for (apr_size_t j = 0; j < arm->binder_count; j++)
            binders |= bit(m, arm->binders[j].slot);
        live_t body = walk_block(m, &arm->body, live_without(live, binders), loop);
        arms = live_join(arms, live_without(body, binders));
    }
    return walk_expr(m, s->as.match_stmt.scrutinee, arms, statement_transfers(s));
}

/* The set live before s, given the set live after it. */
static live_t walk_stmt(moves_t *m, spx_stmt_t *s, live_t live, const loop_targets_t *loop)
{
    switch (s->kind) {
    case SPX_STMT_LET:
    case SPX_STMT_VAR:
        live = live_without(live, bit(m, s->as.binding.slot)); /* bound here: not live before */
        return walk_expr(m, s->as.binding.value, live, statement_transfers(s));
    case SPX_STMT_ASSIGN: {
        bits_t target = bit(m, s->as.assign.slot);
        if (!s->as.assign.place && !s->as.assign.compound) {
            live = live_without(live, target); /* all of x is assigned at the end */
            if (is_append_form(s))
                live = live_with(live, target); /* x is resolved after its value, as in "x += e" */
            return walk_expr(m, s->as.assign.value, live, statement_transfers(s));
        }
        /* the place is resolved after its value (for "P op= e", also read
         * before e: the same bit), and its indexes evaluated first */
        live = live_with(live, target);
        live = walk_expr(m, s->as.assign.value, live, statement_transfers(s));
        return walk_place_indexes(m, s->as.assign.place, live);
    }
    case SPX_STMT_MATCH:
        return walk_match(m, s, live, loop);
    case SPX_STMT_IF:
        return walk_if(m, s, live, loop);
    case SPX_STMT_WHILE:
    case SPX_STMT_FOR:
        return walk_loop(m, s, live);
    case SPX_STMT_RETURN: /* the path ends: every local goes */
        return walk_expr(m, s->as.return_stmt.value, live_none, statement_transfers(s));
    case SPX_STMT_EXPR:
        return walk_expr(m, s->as.expr_stmt.expression, live, statement_transfers(s));
    case SPX_STMT_BREAK:
        return loop ? loop->exit : live;
    case SPX_STMT_CONTINUE:
        return loop ? loop->check : live;
    }
    return live;
}

/* The set live at the start of block, given the set live after it. The
 * locals declared in it are bound by their statements, so none of them is
 * live before it. */
static live_t walk_block(moves_t *m, spx_block_t *block, live_t live, const loop_targets_t *loop)
{
    for (apr_size_t i = block->count; i-- > 0;)
        if (block->statements[i])
            live = walk_stmt(m, block->statements[i], live, loop);
    return live;
}

void spx_checker_mark_moves(spx_function_t *function, apr_pool_t *pool)
{
    if (function->incomplete)
        return;
    moves_t m = {0};
    m.function = function;
    m.pool = pool;
    m.mask = apr_pcalloc(pool, (function->local_count + 1) * sizeof(*m.mask));
    m.chain = apr_array_make(pool, 8, sizeof(spx_stmt_t *));
    if (function->local_count <= CHUNK) {
        /* A bit for every local: one marking walk decides every read. */
        for (apr_size_t slot = 0; slot < function->local_count; slot++)
            m.mask[slot] = both_halves((bits_t)1 << slot);
        m.mode = WALK_MARK;
        walk_block(&m, &function->body, live_none, NULL);
        return;
    }
    m.candidate = apr_pcalloc(pool, (function->local_count + 1) * sizeof(*m.candidate));
    m.mode = WALK_COLLECT;
    walk_block(&m, &function->body, live_none, NULL);
    apr_size_t count = 0;
    for (apr_size_t slot = 0; slot < function->local_count; slot++)
        if (m.candidate[slot])
            m.candidate[slot] = ++count;
    /* More block variables than a function's registers: it cannot run
     * (compile.c), so nothing needs deciding. */
    if (count == 0 || count > SPX_LIMIT_FUNCTION_REGISTERS)
        return;
    m.mode = WALK_MARK;
    for (apr_size_t chunk = 0; chunk * CHUNK < count; chunk++) {
        for (apr_size_t slot = 0; slot < function->local_count; slot++) {
            apr_size_t number = m.candidate[slot] - 1;
            m.mask[slot] = m.candidate[slot] && number / CHUNK == chunk
                               ? both_halves((bits_t)1 << (number % CHUNK))
                               : 0;
        }
        if (m.summary_slots)
            memset(m.summaries, 0, m.summary_slots * sizeof(*m.summaries));
        m.summary_count = 0;
        walk_block(&m, &function->body, live_none, NULL);
    }
}
