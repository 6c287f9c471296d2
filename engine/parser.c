/*
 * parser.c: tokens to the syntax tree of one module (spx_ast.h), for the
 * grammar of language.md.
 *
 * Recursive descent over lexer.c with one token of lookahead beyond the
 * current one (for "x = ..." and "m.f(...)"); binary operators by
 * precedence climbing, one loop per level, so every level is
 * left-associative. Three rules keep it safe and quiet on bad input:
 *
 * - Depth. Every block and every expression node takes one level, and so do
 *   parentheses and "else if"; a level deeper than SPX_LIMIT_PARSE_DEPTH is
 *   E0225, reported once, after which the parser unwinds to the item and
 *   skips the rest of it. Descent is checked before recursing (so the C
 *   stack is bounded). A chain of one level's operators, like 1+1+...+1,
 *   is built by a loop and is not nesting: it takes no levels, and later
 *   passes walk its left spine by loops (only a right operand is a level).
 * - Recovery. A failed statement is reported once and skipped to its ";",
 *   to the "}" that closes its block, or to the next statement keyword; a
 *   failed item to the next "fn", "export" or "import" (which never occur
 *   inside a body). A statement that fails is left out of its block and its
 *   function is marked incomplete; one that only lacks its ";" is kept.
 * - Reports already made are not repeated: an error token from the lexer
 *   fails silently, and a missing "}" is not reported in an item that
 *   already has an error.
 */
#include "spx_ast.h"

#include "spx_lexer.h"
#include "spx_limits.h"

#include <apr_strings.h>
#include <apr_tables.h>
#include <string.h>

typedef struct parser_t {
    spx_lexer_t lexer;
    spx_token_t token; /* the current token */
    spx_token_t ahead; /* the one after it, when has_ahead */
    int has_ahead;
    spx_position_t previous_end; /* the end of the last token consumed */
    spx_arena_t *arena;          /* the module's declarations and interned names */
    spx_arena_t *bodies;         /* the function bodies: blocks, statements, expressions */
    apr_pool_t *scratch;         /* messages and the pending stack; gone after the module */
    /* Items of the lists being read (statements, arguments, parameters), in
     * nesting order: a list records where it starts and takes its items off
     * the top into one exact-size arena array when it ends. */
    char *pending;
    apr_size_t pending_used;
    apr_size_t pending_capacity;
    spx_module_t *module;
    /* Per item: */
    unsigned depth;          /* levels open around what is being parsed */
    int abandon;             /* E0225 reported: unwind to the item */
    int item_error;          /* the parser reported an error in this item */
    apr_size_t item_lexical; /* the lexer's error count when the item began */
    int incomplete;          /* a statement of this item was left out */
} parser_t;

/* Binary precedence levels, lowest first (language.md, Grammar). */
enum {
    LEVEL_OR,
    LEVEL_AND,
    LEVEL_EQUALITY,
    LEVEL_RELATIONAL,
    LEVEL_ADDITIVE,
    LEVEL_MULTIPLICATIVE,
    LEVEL_COUNT
};

static void advance(parser_t *p)
{
    p->previous_end = p->token.span.end;
    if (p->has_ahead) {
        p->token = p->ahead;
        p->has_ahead = 0;
    } else {
        spx_lexer_next(&p->lexer, &p->token);
    }
}

static const spx_token_t *peek(parser_t *p)
{
    if (!p->has_ahead) {
        spx_lexer_next(&p->lexer, &p->ahead);
        p->has_ahead = 1;
    }
    return &p->ahead;
}

static void pending_push(parser_t *p, const void *item, apr_size_t size)
{
    if (p->pending_used + size > p->pending_capacity) {
        apr_size_t capacity = p->pending_capacity ? 2 * p->pending_capacity : 4096;
        while (capacity < p->pending_used + size)
            capacity *= 2;
        char *grown = apr_palloc(p->scratch, capacity);
        if (p->pending_used)
            memcpy(grown, p->pending, p->pending_used);
        p->pending = grown; /* the old buffer stays in scratch until the module ends */
        p->pending_capacity = capacity;
    }
    memcpy(p->pending + p->pending_used, item, size);
    p->pending_used += size;
}

/* The items pushed since base, as one array in arena aligned to alignment
 * (the items' type's); NULL when none. The pending stack is back at base. */
static void *pending_take(parser_t *p, apr_size_t base, spx_arena_t *arena, apr_size_t alignment)
{
    apr_size_t size = p->pending_used - base;
    p->pending_used = base;
    if (!size)
        return NULL;
    return memcpy(spx_arena_alloc(arena, size, alignment), p->pending + base, size);
}

static spx_span_t span_from(const parser_t *p, spx_position_t start)
{
    spx_span_t span = {start, p->previous_end};
    return span;
}

static int item_has_error(const parser_t *p)
{
    return p->item_error || p->lexer.budget.count > p->item_lexical;
}

/* "identifier 'x'", "';'", "end of file" */
static const char *describe(const parser_t *p, const spx_token_t *token)
{
    if (token->kind == SPX_TOKEN_IDENTIFIER)
        return apr_psprintf(p->scratch, "identifier '%s'", token->text);
    return spx_token_kind_text(token->kind);
}

/* E0220 at the current token, unless the lexer already reported it. */
static void expected(parser_t *p, const char *what)
{
    p->item_error = 1;
    if (p->token.kind == SPX_TOKEN_ERROR)
        return;
    spx_lexer_error(&p->lexer, SPX_E0220, p->token.span, "expected %s, found %s", what,
                    describe(p, &p->token));
}

static int consume_if(parser_t *p, spx_token_kind_t kind)
{
    if (p->token.kind != kind)
        return 0;
    advance(p);
    return 1;
}

static int expect(parser_t *p, spx_token_kind_t kind)
{
    if (consume_if(p, kind))
        return 1;
    expected(p, spx_token_kind_text(kind));
    return 0;
}

static int expect_name(parser_t *p, const char *what, spx_name_t *name)
{
    if (p->token.kind != SPX_TOKEN_IDENTIFIER) {
        expected(p, what);
        return 0;
    }
    name->text = p->token.text;
    name->span = p->token.span;
    advance(p);
    return 1;
}

static void too_deep(parser_t *p, spx_span_t span)
{
    p->item_error = 1;
    p->abandon = 1;
    spx_lexer_error(&p->lexer, SPX_E0225, span,
                    "nesting deeper than %u levels (blocks and expressions)",
                    SPX_LIMIT_PARSE_DEPTH);
}

/* Open one level for what starts at the current token. */
static int enter(parser_t *p)
{
    if (p->depth >= SPX_LIMIT_PARSE_DEPTH) {
        too_deep(p, p->token.span);
        return 0;
    }
    p->depth++;
    return 1;
}

static void leave(parser_t *p)
{
    p->depth--;
}

/* "int", "bool" or "str" (not keywords: they are identifiers that name a
 * type here). Another identifier is E0224 and reads as the error type, so
 * the item is still parsed; anything else fails. */
static int parse_type(parser_t *p, spx_type_t *type, spx_span_t *span)
{
    static const struct {
        const char *text;
        spx_type_t type;
    } types[] = {{"int", SPX_TYPE_INT}, {"bool", SPX_TYPE_BOOL}, {"str", SPX_TYPE_STR}};
    *span = p->token.span;
    if (p->token.kind == SPX_TOKEN_IDENTIFIER) {
        *type = SPX_TYPE_ERROR;
        for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
            if (strcmp(p->token.text, types[i].text) == 0)
                *type = types[i].type;
        if (*type == SPX_TYPE_ERROR) {
            p->item_error = 1;
            spx_lexer_error(&p->lexer, SPX_E0224, p->token.span,
                            "expected a type (int, bool or str), found '%s'", p->token.text);
        }
        advance(p);
        return 1;
    }
    p->item_error = 1;
    if (p->token.kind != SPX_TOKEN_ERROR)
        spx_lexer_error(&p->lexer, SPX_E0224, p->token.span,
                        "expected a type (int, bool or str), found %s", describe(p, &p->token));
    return 0;
}

/* ---- expressions ------------------------------------------------------- */

static spx_expr_t *new_expr(parser_t *p, spx_expr_kind_t kind, spx_span_t span)
{
    spx_expr_t *expr = SPX_ARENA_NEW(p->bodies, spx_expr_t);
    expr->kind = kind;
    expr->span = span;
    expr->type = SPX_TYPE_ERROR;
    return expr;
}

static spx_expr_t *parse_binary(parser_t *p, int level);

/* An expression whose root is one level below p->depth. */
static spx_expr_t *parse_expr(parser_t *p)
{
    return parse_binary(p, LEVEL_OR);
}

/* "(" args ")" of a call whose callee is already in call; the call's own
 * level is open. */
static spx_expr_t *parse_arguments(parser_t *p, spx_expr_t *call, spx_position_t start)
{
    apr_size_t base = p->pending_used, count = 0;
    advance(p); /* ( */
    if (p->token.kind != SPX_TOKEN_RPAREN) {
        for (;;) {
            spx_expr_t *argument = parse_expr(p);
            if (!argument) {
                p->pending_used = base;
                return NULL;
            }
            pending_push(p, &argument, sizeof(argument));
            count++;
            if (!consume_if(p, SPX_TOKEN_COMMA))
                break;
        }
    }
    call->as.call->arguments = pending_take(p, base, p->bodies, _Alignof(spx_expr_t *));
    call->as.call->argument_count = count;
    if (!expect(p, SPX_TOKEN_RPAREN))
        return NULL;
    call->span = span_from(p, start);
    return call;
}

/* IDENT, IDENT "(" args ")", or IDENT "." IDENT "(" args ")". */
static spx_expr_t *parse_name_or_call(parser_t *p)
{
    spx_name_t first = {p->token.text, p->token.span};
    advance(p);
    if (p->token.kind != SPX_TOKEN_DOT && p->token.kind != SPX_TOKEN_LPAREN) {
        spx_expr_t *name = new_expr(p, SPX_EXPR_NAME, first.span);
        name->as.name.name = first;
        name->as.name.slot = -1;
        return name;
    }
    spx_expr_t *call = new_expr(p, SPX_EXPR_CALL, first.span);
    call->as.call = SPX_ARENA_NEW(p->bodies, spx_call_t);
    if (consume_if(p, SPX_TOKEN_DOT)) {
        call->as.call->module = first;
        if (!expect_name(p, "a function name after '.'", &call->as.call->function))
            return NULL;
        if (p->token.kind != SPX_TOKEN_LPAREN) {
            expected(p, "'(' (only a call can name a module's function)");
            return NULL;
        }
    } else {
        call->as.call->function = first;
    }
    return parse_arguments(p, call, first.span.start);
}

static spx_expr_t *parse_primary(parser_t *p)
{
    if (!enter(p))
        return NULL;
    spx_expr_t *expr = NULL;
    spx_token_t token = p->token;
    switch (token.kind) {
    case SPX_TOKEN_INTEGER:
        expr = new_expr(p, SPX_EXPR_INT, token.span);
        expr->as.integer = token.integer;
        advance(p);
        break;
    case SPX_TOKEN_STRING:
        expr = new_expr(p, SPX_EXPR_STRING, token.span);
        expr->as.string.bytes = token.bytes;
        expr->as.string.length = token.length;
        advance(p);
        break;
    case SPX_TOKEN_TRUE:
    case SPX_TOKEN_FALSE:
        expr = new_expr(p, SPX_EXPR_BOOL, token.span);
        expr->as.boolean = token.kind == SPX_TOKEN_TRUE;
        advance(p);
        break;
    case SPX_TOKEN_IDENTIFIER:
        expr = parse_name_or_call(p);
        break;
    case SPX_TOKEN_LPAREN: {
        advance(p);
        expr = parse_expr(p);
        if (expr && expect(p, SPX_TOKEN_RPAREN)) {
            expr->span = span_from(p, token.span.start); /* parentheses included */
        } else {
            expr = NULL;
        }
        break;
    }
    default:
        expected(p, "an expression");
        break;
    }
    leave(p);
    return expr;
}

static spx_expr_t *parse_unary(parser_t *p)
{
    spx_token_t op = p->token;
    if (op.kind != SPX_TOKEN_MINUS && op.kind != SPX_TOKEN_BANG)
        return parse_primary(p);
    if (!enter(p))
        return NULL;
    advance(p);
    spx_expr_t *operand = parse_unary(p);
    leave(p);
    if (!operand)
        return NULL;
    spx_expr_t *expr = new_expr(p, SPX_EXPR_UNARY, span_from(p, op.span.start));
    expr->as.unary.op = op.kind == SPX_TOKEN_MINUS ? SPX_OP_NEG : SPX_OP_NOT;
    expr->as.unary.op_span = op.span;
    expr->as.unary.operand = operand;
    return expr;
}

/* The level of a binary operator token (and its operator), or -1. */
static int binary_level(spx_token_kind_t kind, spx_operator_t *op)
{
    static const struct {
        spx_token_kind_t kind;
        spx_operator_t op;
        int level;
    } table[] = {
        {SPX_TOKEN_OR, SPX_OP_OR, LEVEL_OR},
        {SPX_TOKEN_AND, SPX_OP_AND, LEVEL_AND},
        {SPX_TOKEN_EQ, SPX_OP_EQ, LEVEL_EQUALITY},
        {SPX_TOKEN_NE, SPX_OP_NE, LEVEL_EQUALITY},
        {SPX_TOKEN_LT, SPX_OP_LT, LEVEL_RELATIONAL},
        {SPX_TOKEN_LE, SPX_OP_LE, LEVEL_RELATIONAL},
        {SPX_TOKEN_GT, SPX_OP_GT, LEVEL_RELATIONAL},
        {SPX_TOKEN_GE, SPX_OP_GE, LEVEL_RELATIONAL},
        {SPX_TOKEN_PLUS, SPX_OP_ADD, LEVEL_ADDITIVE},
        {SPX_TOKEN_MINUS, SPX_OP_SUB, LEVEL_ADDITIVE},
        {SPX_TOKEN_STAR, SPX_OP_MUL, LEVEL_MULTIPLICATIVE},
        {SPX_TOKEN_SLASH, SPX_OP_DIV, LEVEL_MULTIPLICATIVE},
        {SPX_TOKEN_PERCENT, SPX_OP_REM, LEVEL_MULTIPLICATIVE},
    };
    for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
        if (table[i].kind == kind) {
            *op = table[i].op;
            return table[i].level;
        }
    }
    return -1;
}

/* Operators of one level, left-associative: the loop folds each new
 * operand onto everything to its left. The chain takes no level of its own:
 * it is built by this loop, and every later pass walks its left spine by a
 * loop too; only a right operand is one level down. */
static spx_expr_t *parse_binary(parser_t *p, int level)
{
    if (level == LEVEL_COUNT)
        return parse_unary(p);
    spx_expr_t *left = parse_binary(p, level + 1);
    if (!left)
        return NULL;
    apr_size_t operators = 0;
    spx_operator_t op = SPX_OP_OR; /* set by binary_level before use */
    while (binary_level(p->token.kind, &op) == level) {
        spx_span_t op_span = p->token.span;
        advance(p);
        if (!enter(p))
            return NULL;
        spx_expr_t *right = parse_binary(p, level + 1);
        leave(p);
        if (!right)
            return NULL;
        spx_expr_t *expr = new_expr(p, SPX_EXPR_BINARY, span_from(p, left->span.start));
        expr->as.binary.op = op;
        expr->as.binary.op_span = op_span;
        expr->as.binary.left = left;
        expr->as.binary.right = right;
        left = expr;
        operators++;
    }
    if (operators > 1 && (level == LEVEL_EQUALITY || level == LEVEL_RELATIONAL)) {
        p->item_error = 1;
        if (level == LEVEL_RELATIONAL)
            spx_lexer_error(&p->lexer, SPX_E0221, left->span,
                            "comparisons do not chain: write 'a < b && b < c'");
        else
            spx_lexer_error(&p->lexer, SPX_E0222, left->span,
                            "equality comparisons do not chain: use parentheses");
        return NULL;
    }
    return left;
}

/* ---- statements -------------------------------------------------------- */

static int parse_block(parser_t *p, spx_block_t *block);

static spx_stmt_t *new_stmt(parser_t *p, spx_stmt_kind_t kind, spx_position_t start)
{
    spx_stmt_t *stmt = SPX_ARENA_NEW(p->bodies, spx_stmt_t);
    stmt->kind = kind;
    stmt->span.start = start;
    stmt->span.end = start;
    return stmt;
}

/* The ";" that ends stmt: without it the statement is kept (it is whole)
 * but *ok tells the block to resynchronise. */
static spx_stmt_t *finish(parser_t *p, spx_stmt_t *stmt, int *ok)
{
    *ok = expect(p, SPX_TOKEN_SEMICOLON);
    stmt->span.end = p->previous_end;
    return stmt;
}

static spx_stmt_t *parse_binding(parser_t *p, int *ok)
{
    spx_stmt_t *stmt = new_stmt(p, p->token.kind == SPX_TOKEN_LET ? SPX_STMT_LET : SPX_STMT_VAR,
                                p->token.span.start);
    advance(p);
    if (!expect_name(p, "a name", &stmt->as.binding.name))
        return NULL;
    if (consume_if(p, SPX_TOKEN_COLON)) {
        stmt->as.binding.has_type = 1;
        if (!parse_type(p, &stmt->as.binding.declared, &stmt->as.binding.type_span))
            return NULL;
    }
    if (!expect(p, SPX_TOKEN_ASSIGN))
        return NULL;
    if (!(stmt->as.binding.value = parse_expr(p)))
        return NULL;
    return finish(p, stmt, ok);
}

static spx_stmt_t *parse_if(parser_t *p)
{
    spx_stmt_t *stmt = new_stmt(p, SPX_STMT_IF, p->token.span.start);
    advance(p);
    if (!(stmt->as.if_stmt.condition = parse_expr(p)))
        return NULL;
    if (!parse_block(p, &stmt->as.if_stmt.then_block))
        return NULL;
    if (consume_if(p, SPX_TOKEN_ELSE)) {
        if (p->token.kind == SPX_TOKEN_LBRACE) {
            stmt->as.if_stmt.else_block = SPX_ARENA_NEW(p->bodies, spx_block_t);
            if (!parse_block(p, stmt->as.if_stmt.else_block))
                return NULL;
        } else if (p->token.kind == SPX_TOKEN_IF) {
            /* An "else if" nests like "else { if ... }": one level. */
            if (!enter(p))
                return NULL;
            stmt->as.if_stmt.else_if = parse_if(p);
            leave(p);
            if (!stmt->as.if_stmt.else_if)
                return NULL;
        } else {
            expected(p, "'{' or 'if' after 'else'");
            return NULL;
        }
    }
    stmt->span.end = p->previous_end;
    return stmt;
}

static spx_stmt_t *parse_statement(parser_t *p, int *ok)
{
    spx_stmt_t *stmt;
    *ok = 0;
    switch (p->token.kind) {
    case SPX_TOKEN_LET:
    case SPX_TOKEN_VAR:
        return parse_binding(p, ok);
    case SPX_TOKEN_IF:
        stmt = parse_if(p);
        *ok = stmt != NULL;
        return stmt;
    case SPX_TOKEN_WHILE:
        stmt = new_stmt(p, SPX_STMT_WHILE, p->token.span.start);
        advance(p);
        if (!(stmt->as.while_stmt.condition = parse_expr(p)) ||
            !parse_block(p, &stmt->as.while_stmt.body))
            return NULL;
        stmt->span.end = p->previous_end;
        *ok = 1;
        return stmt;
    case SPX_TOKEN_RETURN:
        stmt = new_stmt(p, SPX_STMT_RETURN, p->token.span.start);
        advance(p);
        if (p->token.kind != SPX_TOKEN_SEMICOLON && !(stmt->as.return_stmt.value = parse_expr(p)))
            return NULL;
        return finish(p, stmt, ok);
    case SPX_TOKEN_IDENTIFIER:
        if (peek(p)->kind == SPX_TOKEN_ASSIGN) {
            stmt = new_stmt(p, SPX_STMT_ASSIGN, p->token.span.start);
            stmt->as.assign.name.text = p->token.text;
            stmt->as.assign.name.span = p->token.span;
            advance(p);
            advance(p); /* = */
            if (!(stmt->as.assign.value = parse_expr(p)))
                return NULL;
            return finish(p, stmt, ok);
        }
        break;
    case SPX_TOKEN_INTEGER:
    case SPX_TOKEN_STRING:
    case SPX_TOKEN_TRUE:
    case SPX_TOKEN_FALSE:
    case SPX_TOKEN_LPAREN:
    case SPX_TOKEN_MINUS:
    case SPX_TOKEN_BANG:
        break;
    default:
        expected(p, "a statement");
        return NULL;
    }
    stmt = new_stmt(p, SPX_STMT_EXPR, p->token.span.start);
    if (!(stmt->as.expr_stmt.expression = parse_expr(p)))
        return NULL;
    return finish(p, stmt, ok);
}

/* The tokens that end any body: they start items, never statements. */
static int ends_item(spx_token_kind_t kind)
{
    return kind == SPX_TOKEN_EOF || kind == SPX_TOKEN_FN || kind == SPX_TOKEN_EXPORT ||
           kind == SPX_TOKEN_IMPORT;
}

/* After a failed statement: past its ";", or up to the "}" of its block
 * or the next statement keyword, whichever comes first outside nested
 * braces. */
static void sync_statement(parser_t *p)
{
    apr_size_t nested = 0;
    while (!ends_item(p->token.kind)) {
        switch (p->token.kind) {
        case SPX_TOKEN_SEMICOLON:
            if (nested == 0) {
                advance(p);
                return;
            }
            break;
        case SPX_TOKEN_LBRACE:
            nested++;
            break;
        case SPX_TOKEN_RBRACE:
            if (nested == 0)
                return;
            nested--;
            break;
        case SPX_TOKEN_LET:
        case SPX_TOKEN_VAR:
        case SPX_TOKEN_IF:
        case SPX_TOKEN_WHILE:
        case SPX_TOKEN_RETURN:
            if (nested == 0)
                return;
            break;
        default:
            break;
        }
        advance(p);
    }
}

/* "{" stmt* "}". Fails only when there is no "{" or on E0225; the block
 * holds the statements read so far either way. A body cut short by the
 * next item or the end reports the missing "}" once and ends every
 * enclosing block there. */
static int parse_block(parser_t *p, spx_block_t *block)
{
    apr_size_t base = p->pending_used, count = 0;
    spx_position_t start = p->token.span.start;
    int result = 1;
    block->span.start = block->span.end = start;
    if (p->token.kind != SPX_TOKEN_LBRACE) {
        expected(p, "'{'");
        return 0;
    }
    if (!enter(p))
        return 0;
    advance(p);
    while (p->token.kind != SPX_TOKEN_RBRACE) {
        if (ends_item(p->token.kind)) {
            if (!item_has_error(p))
                expected(p, "'}'");
            break;
        }
        apr_size_t before = p->token.span.start.offset;
        int ok;
        spx_stmt_t *stmt = parse_statement(p, &ok);
        if (p->abandon) {
            result = 0;
            break;
        }
        if (stmt) {
            pending_push(p, &stmt, sizeof(stmt));
            count++;
        } else
            p->incomplete = 1;
        if (!ok) {
            sync_statement(p);
            if (p->token.span.start.offset == before && !ends_item(p->token.kind))
                advance(p); /* always make progress */
        }
    }
    if (result)
        consume_if(p, SPX_TOKEN_RBRACE);
    leave(p);
    block->statements = pending_take(p, base, p->bodies, _Alignof(spx_stmt_t *));
    block->count = count;
    block->span = span_from(p, start);
    return result;
}

/* ---- items ------------------------------------------------------------- */

/* Up to the next item; returns the end of the last "}" skipped (or
 * fallback), where a cut-short item ends. */
static spx_position_t sync_item(parser_t *p, spx_position_t fallback)
{
    spx_position_t end = fallback;
    while (!ends_item(p->token.kind)) {
        if (p->token.kind == SPX_TOKEN_RBRACE)
            end = p->token.span.end;
        advance(p);
    }
    return end;
}

static void begin_item(parser_t *p)
{
    p->depth = 0;
    p->abandon = 0;
    p->item_error = 0;
    p->item_lexical = p->lexer.budget.count;
    p->incomplete = 0;
}

static int parse_params(parser_t *p, spx_function_t *function)
{
    apr_size_t base = p->pending_used, count = 0;
    if (!expect(p, SPX_TOKEN_LPAREN))
        return 0;
    if (p->token.kind != SPX_TOKEN_RPAREN) {
        do {
            spx_param_t param;
            memset(&param, 0, sizeof(param));
            if (!expect_name(p, "a parameter name", &param.name) || !expect(p, SPX_TOKEN_COLON) ||
                !parse_type(p, &param.type, &param.type_span)) {
                p->pending_used = base;
                return 0;
            }
            pending_push(p, &param, sizeof(param));
            count++;
        } while (consume_if(p, SPX_TOKEN_COMMA));
    }
    function->params = pending_take(p, base, p->arena, _Alignof(spx_param_t));
    function->param_count = count;
    return expect(p, SPX_TOKEN_RPAREN);
}

/* ["export"] "fn" IDENT "(" params ")" ["->" type] block. An item whose
 * header fails is skipped and left out, its name (when read) added to
 * unreadable; one whose body fails is kept with what was read, marked
 * incomplete. */
static void parse_function(parser_t *p, apr_array_header_t *functions,
                           apr_array_header_t *unreadable, int *too_many)
{
    spx_function_t *function = SPX_ARENA_NEW(p->arena, spx_function_t);
    spx_position_t start = p->token.span.start;
    begin_item(p);
    function->module = p->module;
    if (consume_if(p, SPX_TOKEN_EXPORT)) {
        function->exported = 1;
        if (p->token.kind != SPX_TOKEN_FN) {
            expected(p, "'fn' after 'export'");
            sync_item(p, start);
            return;
        }
    }
    advance(p); /* fn */
    if (!expect_name(p, "a function name", &function->name))
        goto unreadable_header;
    if (!parse_params(p, function))
        goto unreadable_header;
    function->result = SPX_TYPE_UNIT;
    function->result_span = function->name.span;
    if (consume_if(p, SPX_TOKEN_ARROW) && !parse_type(p, &function->result, &function->result_span))
        goto unreadable_header;
    if (p->token.kind != SPX_TOKEN_LBRACE) {
        expected(p, "'{'");
        goto unreadable_header;
    }
    function->span.start = start;
    if (parse_block(p, &function->body)) {
        function->span.end = p->previous_end;
    } else {
        function->span.end = sync_item(p, p->previous_end);
        p->incomplete = 1;
    }
    function->incomplete = p->incomplete;
    if ((apr_size_t)functions->nelts >= SPX_LIMIT_FUNCTIONS_PER_MODULE) {
        if (!*too_many)
            spx_lexer_error(&p->lexer, SPX_E0226, function->name.span,
                            "more than %u functions in one module", SPX_LIMIT_FUNCTIONS_PER_MODULE);
        *too_many = 1;
        return;
    }
    APR_ARRAY_PUSH(functions, spx_function_t *) = function;
    return;

unreadable_header:
    if (function->name.text && (apr_size_t)unreadable->nelts < SPX_LIMIT_FUNCTIONS_PER_MODULE)
        APR_ARRAY_PUSH(unreadable, const char *) = function->name.text;
    sync_item(p, start);
}

/* "import" IDENT ";". An import after an item is E0223 but still kept, so
 * the calls through it are not reported again. */
static void parse_import(parser_t *p, apr_array_header_t *imports, int after_item)
{
    spx_import_t import;
    memset(&import, 0, sizeof(import));
    spx_position_t start = p->token.span.start;
    begin_item(p);
    advance(p);
    if (!expect_name(p, "a module name", &import.module)) {
        sync_item(p, start);
        return;
    }
    int closed = expect(p, SPX_TOKEN_SEMICOLON);
    import.span = span_from(p, start);
    if (after_item)
        spx_lexer_error(&p->lexer, SPX_E0223, import.span,
                        "import after a function: imports come first in a file");
    *(spx_import_t *)apr_array_push(imports) = import;
    if (!closed)
        sync_item(p, start);
}

spx_module_t *spx_module_make(const char *name, const char *path, const unsigned char *text,
                              apr_size_t length, spx_arena_t *arena)
{
    spx_module_t *module = SPX_ARENA_NEW(arena, spx_module_t);
    module->name = SPX_ARENA_COPY(arena, char, name, strlen(name) + 1);
    module->path = SPX_ARENA_COPY(arena, char, path, strlen(path) + 1);
    module->text = text;
    module->length = length;
    return module;
}

void spx_parse_module(spx_module_t *module, spx_arena_t *arena, spx_arena_t *bodies,
                      apr_pool_t *pool, spx_diagnostics_t *diagnostics)
{
    const char *path = module->path;
    const unsigned char *text = module->text;
    apr_size_t length = module->length;
    apr_pool_t *scratch;
    apr_pool_create(&scratch, pool);
    apr_array_header_t *imports = apr_array_make(scratch, 4, sizeof(spx_import_t));
    apr_array_header_t *functions = apr_array_make(scratch, 16, sizeof(spx_function_t *));
    apr_array_header_t *unreadable = apr_array_make(scratch, 4, sizeof(const char *));
    if (length > SPX_LIMIT_SOURCE_BYTES) {
        spx_span_t start = {{1, 1, 0}, {1, 1, 0}};
        spx_diagnostics_add(diagnostics, SPX_E0201, path, start,
                            "source file is %" APR_SIZE_T_FMT " bytes; the limit is %u", length,
                            SPX_LIMIT_SOURCE_BYTES);
    } else {
        parser_t *p = apr_pcalloc(scratch, sizeof(*p));
        p->arena = arena;
        p->bodies = bodies;
        p->scratch = scratch;
        p->module = module;
        spx_lexer_init(&p->lexer, text, length, path, arena, bodies, diagnostics);
        spx_lexer_next(&p->lexer, &p->token);
        int too_many = 0, items = 0;
        while (p->token.kind != SPX_TOKEN_EOF) {
            if (p->token.kind == SPX_TOKEN_IMPORT) {
                parse_import(p, imports, items > 0);
            } else if (p->token.kind == SPX_TOKEN_FN || p->token.kind == SPX_TOKEN_EXPORT) {
                items++;
                parse_function(p, functions, unreadable, &too_many);
            } else {
                begin_item(p);
                expected(p, "'fn', 'export' or 'import'");
                advance(p);
                sync_item(p, p->previous_end);
            }
        }
    }
    module->import_count = (apr_size_t)imports->nelts;
    module->imports = SPX_ARENA_COPY(arena, spx_import_t, imports->elts, module->import_count);
    module->function_count = (apr_size_t)functions->nelts;
    module->functions =
        SPX_ARENA_COPY(arena, spx_function_t *, functions->elts, module->function_count);
    module->unreadable_function_count = (apr_size_t)unreadable->nelts;
    module->unreadable_functions =
        SPX_ARENA_COPY(arena, const char *, unreadable->elts, module->unreadable_function_count);
    apr_pool_destroy(scratch);
}

apr_array_header_t *spx_scan_imports(const spx_module_t *module, spx_arena_t *arena,
                                     apr_pool_t *pool)
{
    apr_array_header_t *names = apr_array_make(pool, 4, sizeof(const char *));
    if (module->length > SPX_LIMIT_SOURCE_BYTES)
        return names;
    spx_diagnostics_t *quiet = spx_diagnostics_make(pool); /* the full parse reports */
    spx_lexer_t lexer;
    spx_token_t token;
    spx_lexer_init(&lexer, module->text, module->length, module->path, arena, spx_arena_make(pool),
                   quiet);
    for (spx_lexer_next(&lexer, &token); token.kind == SPX_TOKEN_IMPORT;) {
        spx_lexer_next(&lexer, &token);
        if (token.kind != SPX_TOKEN_IDENTIFIER)
            break;
        APR_ARRAY_PUSH(names, const char *) = token.text;
        spx_lexer_next(&lexer, &token);
        if (token.kind != SPX_TOKEN_SEMICOLON)
            break;
        spx_lexer_next(&lexer, &token);
    }
    return names;
}
