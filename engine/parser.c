/*
 * parser.c: tokens to the syntax tree of one module (spx_ast.h), for the
 * grammar of language.md (language v2).
 *
 * Recursive descent over lexer.c with one token of lookahead beyond the
 * current one; binary operators by precedence climbing, one loop per level,
 * so every level is left-associative; postfix operators (index, slice,
 * field, method call) by a loop over a primary. An assignment is read as an
 * expression and turned into a place when "=" follows it. In an if or while
 * condition and a for header, "Name {" and "m.Name {" start no struct
 * literal unless inside ( ), [ ] or call arguments (no_struct_literal).
 * Three rules keep it safe and quiet on bad input:
 *
 * - Depth. Every block and every expression node takes one level, and so do
 *   parentheses, each postfix operator, each "[" of a type and "else if"; a
 *   level deeper than SPX_LIMIT_PARSE_DEPTH is
 *   E0225, reported once, after which the parser unwinds to the item and
 *   skips the rest of it. Descent is checked before recursing (so the C
 *   stack is bounded). A chain of one level's operators, like 1+1+...+1,
 *   is built by a loop and is not nesting: it takes no levels, and later
 *   passes walk its left spine by loops (only a right operand is a level).
 * - Recovery. A failed statement is reported once and skipped to its ";",
 *   to the "}" that closes its block, or to the next statement keyword; a
 *   failed item to the next "fn", "struct", "const", "export" or "import"
 *   (which never occur inside a body, except "struct" and "const" as the
 *   names v1 programs may have given: those are read as names, E0228).
 *   A statement that fails is left out of its block and its function is
 *   marked incomplete; one that only lacks its ";" is kept.
 * - Reports already made are not repeated: an error token from the lexer
 *   fails silently, and a missing "}" is not reported in an item that
 *   already has an error.
 */
#include "spx_ast.h"

#include "spx_lexer.h"
#include "spx_limits.h"
#include "spx_suggest.h"

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
    int no_struct_literal;   /* in an if/while condition or a for header, outside ( ) [ ] */
    int after_header;        /* the block about to open is the body of such a header */
    int header_body;         /* the statement being read is the first of such a body */
    int header_literal;      /* ... and it showed the body to be a struct literal's braces */
    /* Per module: the v2 keywords already reported as names (E0228), one bit
     * per keyword from SPX_TOKEN_STRUCT on. */
    unsigned keywords_named;
    /* Per module: the same for the v3 keywords, one bit from SPX_TOKEN_ENUM on. */
    unsigned v3_keywords_named;
    /* A quiet list and arena for looking ahead past "match" (match_starts). */
    spx_diagnostics_t *quiet;
    spx_arena_t *quiet_literals;
    /* Per module: the lowercase names already reported as no type (E0224). */
    apr_hash_t *bad_type_names;
} parser_t;

/* Binary precedence levels, lowest first (language.md, Grammar). */
enum {
    LEVEL_OR,
    LEVEL_AND,
    LEVEL_EQUALITY,
    LEVEL_RELATIONAL,
    LEVEL_BIT_OR,
    LEVEL_BIT_XOR,
    LEVEL_BIT_AND,
    LEVEL_SHIFT,
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
    /* Most items are one pointer (a statement, an argument): a copy of a
     * known size is one move, where one of a variable size starts a string
     * instruction (3% of a large check). */
    if (size == sizeof(void *))
        memcpy(p->pending + p->pending_used, item, sizeof(void *));
    else
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
static spx_diagnostic_t *expected(parser_t *p, const char *what)
{
    p->item_error = 1;
    if (p->token.kind == SPX_TOKEN_ERROR)
        return NULL;
    return spx_lexer_error(&p->lexer, SPX_E0220, p->token.span, "expected %s, found %s", what,
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

/* A keyword that language v2 or v3 added, where a name stands (a v1
 * program may have named something "in", a v2 program "match"): E0228, and
 * read on as that name. A declaration is always reported; a use only when
 * its word has not been reported in this module yet, so an old name gets
 * one diagnostic where it is declared. 0 (nothing consumed) for any other
 * token. */
static int keyword_as_name(parser_t *p, spx_name_t *name, int declaration)
{
    const char *word = spx_token_v2_keyword(p->token.kind);
    int version = 2;
    unsigned *named = &p->keywords_named;
    int first = SPX_TOKEN_STRUCT;
    if (!word && (word = spx_token_v3_keyword(p->token.kind)) != NULL) {
        version = 3;
        named = &p->v3_keywords_named;
        first = SPX_TOKEN_ENUM;
    }
    if (!word)
        return 0;
    unsigned bit = 1u << (unsigned)((int)p->token.kind - first); /* a keyword's only */
    if (declaration || !(*named & bit))
        spx_lexer_error(&p->lexer, SPX_E0228, p->token.span,
                        "'%s' is a keyword since language v%d; it cannot name anything", word,
                        version);
    *named |= bit;
    name->text = spx_arena_intern(p->arena, word, strlen(word));
    name->span = p->token.span;
    advance(p);
    return 1;
}

/* An identifier that starts with an ASCII capital letter (a struct's name). */
static int is_typename(const char *text)
{
    return text[0] >= 'A' && text[0] <= 'Z';
}

static int expect_name(parser_t *p, const char *what, spx_name_t *name)
{
    if (keyword_as_name(p, name, 1))
        return 1;
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

static spx_type_syntax_t *new_type_syntax(spx_arena_t *arena, spx_type_syntax_kind_t kind,
                                          spx_span_t span)
{
    spx_type_syntax_t *syntax = SPX_ARENA_NEW(arena, spx_type_syntax_t);
    syntax->kind = kind;
    syntax->span = span;
    syntax->basic = SPX_TYPE_ERROR;
    return syntax;
}

static spx_diagnostic_t *bad_type(parser_t *p, const char *found)
{
    p->item_error = 1;
    return spx_lexer_error(&p->lexer, SPX_E0224, p->token.span,
                           "expected a type (int, bool, str, [T] or a struct name), found %s",
                           found);
}

/* The type a lowercase name that is none was probably meant to be: the
 * names other languages give int, bool and str, else the nearest of those
 * three (spx_suggest.h); NULL when none is near. */
static const char *meant_type(const char *name)
{
    static const struct {
        const char *name;
        const char *type;
    } others[] = {{"string", "str"},   {"text", "str"},     {"char", "str"},  {"integer", "int"},
                  {"i64", "int"},      {"i32", "int"},      {"long", "int"},  {"number", "int"},
                  {"isize", "int"},    {"usize", "int"},    {"uint", "int"},  {"u64", "int"},
                  {"boolean", "bool"}, {"logical", "bool"}, {"truth", "bool"}};
    for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++)
        if (strcmp(name, others[i].name) == 0)
            return others[i].type;
    static const char *const types[] = {"int", "bool", "str"};
    const char *nearest[1];
    return spx_suggest_nearest(name, types, 3, 1, nearest) ? nearest[0] : NULL;
}

static int parse_type(parser_t *p, spx_arena_t *arena, spx_type_t *type, spx_span_t *span,
                      const spx_type_syntax_t **syntax);

/* A type as a syntax node always (int, bool, str get a BASIC node): the
 * element of [T], the key and value of {K: V}. */
static const spx_type_syntax_t *parse_inner_type(parser_t *p, spx_arena_t *arena)
{
    spx_type_t type;
    spx_span_t span;
    const spx_type_syntax_t *syntax;
    if (!parse_type(p, arena, &type, &span, &syntax))
        return NULL;
    if (!syntax) {
        spx_type_syntax_t *basic = new_type_syntax(arena, SPX_TYPE_SYNTAX_BASIC, span);
        basic->basic = type;
        syntax = basic;
    }
    return syntax;
}

/* v3: "{" type ":" type "}", one level. Whether the key type may key a map
 * is the checker's (E0434). */
static int parse_map_type(parser_t *p, spx_arena_t *arena, spx_span_t *span,
                          const spx_type_syntax_t **syntax)
{
    spx_position_t start = p->token.span.start;
    if (!enter(p))
        return 0;
    advance(p); /* { */
    const spx_type_syntax_t *key = parse_inner_type(p, arena), *value = NULL;
    int ok = key && expect(p, SPX_TOKEN_COLON) && (value = parse_inner_type(p, arena)) &&
             expect(p, SPX_TOKEN_RBRACE);
    leave(p);
    if (!ok)
        return 0;
    *span = span_from(p, start);
    spx_type_syntax_t *map = new_type_syntax(arena, SPX_TYPE_SYNTAX_MAP, *span);
    map->key = key;
    map->element = value;
    *syntax = map;
    return 1;
}

/* type := "int" | "bool" | "str" | "[" type "]" | TYPENAME | IDENT "." TYPENAME.
 * int, bool and str are not keywords: they are identifiers that name a type
 * here. A v1 type sets *type and leaves *syntax NULL; a v2 one ([T], a
 * struct) is described by *syntax (in arena) and *type is SPX_TYPE_ERROR.
 * Another lowercase identifier is E0224 (once per name in a module) and reads
 * as the error type, so the item is still parsed; anything else fails. Each "[" is one level. */
static int parse_type(parser_t *p, spx_arena_t *arena, spx_type_t *type, spx_span_t *span,
                      const spx_type_syntax_t **syntax)
{
    static const struct {
        const char *text;
        spx_type_t type;
    } types[] = {{"int", SPX_TYPE_INT}, {"bool", SPX_TYPE_BOOL}, {"str", SPX_TYPE_STR}};
    spx_position_t start = p->token.span.start;
    *span = p->token.span;
    *type = SPX_TYPE_ERROR;
    *syntax = NULL;
    if (p->token.kind == SPX_TOKEN_LBRACKET) {
        if (!enter(p))
            return 0;
        advance(p);
        spx_type_t element;
        spx_span_t element_span;
        const spx_type_syntax_t *element_syntax;
        int ok = parse_type(p, arena, &element, &element_span, &element_syntax) &&
                 expect(p, SPX_TOKEN_RBRACKET);
        leave(p);
        if (!ok)
            return 0;
        if (!element_syntax) {
            spx_type_syntax_t *basic = new_type_syntax(arena, SPX_TYPE_SYNTAX_BASIC, element_span);
            basic->basic = element;
            element_syntax = basic;
        }
        *span = span_from(p, start);
        spx_type_syntax_t *array = new_type_syntax(arena, SPX_TYPE_SYNTAX_ARRAY, *span);
        array->element = element_syntax;
        *syntax = array;
        return 1;
    }
    if (p->token.kind == SPX_TOKEN_LBRACE)
        return parse_map_type(p, arena, span, syntax);
    if (p->token.kind == SPX_TOKEN_IDENTIFIER) {
        spx_name_t first = {p->token.text, p->token.span};
        for (size_t i = 0; i < sizeof(types) / sizeof(types[0]); i++)
            if (first.text[0] == types[i].text[0] && strcmp(first.text, types[i].text) == 0)
                *type = types[i].type;
        if (*type != SPX_TYPE_ERROR) {
            advance(p);
            return 1;
        }
        if (is_typename(first.text)) {
            advance(p);
            spx_type_syntax_t *named = new_type_syntax(arena, SPX_TYPE_SYNTAX_STRUCT, first.span);
            named->name = first;
            *syntax = named;
            return 1;
        }
        if (peek(p)->kind == SPX_TOKEN_DOT) {
            advance(p);
            advance(p); /* . */
            if (p->token.kind != SPX_TOKEN_IDENTIFIER || !is_typename(p->token.text)) {
                p->item_error = 1;
                if (p->token.kind != SPX_TOKEN_ERROR)
                    spx_lexer_error(&p->lexer, SPX_E0224, p->token.span,
                                    "expected a struct name (it starts with a capital letter) "
                                    "after '%s.', found %s",
                                    first.text, describe(p, &p->token));
                return 0;
            }
            spx_name_t name = {p->token.text, p->token.span};
            advance(p);
            *span = span_from(p, start);
            spx_type_syntax_t *named = new_type_syntax(arena, SPX_TYPE_SYNTAX_STRUCT, *span);
            named->module = first;
            named->name = name;
            *syntax = named;
            return 1;
        }
        /* One diagnostic per unknown type name in a module, not one per use. */
        if (!p->bad_type_names)
            p->bad_type_names = apr_hash_make(p->scratch);
        if (apr_hash_get(p->bad_type_names, first.text, APR_HASH_KEY_STRING))
            p->item_error = 1;
        else {
            const char *meant = meant_type(first.text);
            spx_diagnostic_suggest(p->lexer.budget.list,
                                   bad_type(p, apr_psprintf(p->scratch, "'%s'", first.text)),
                                   &meant, meant ? 1 : 0);
        }
        apr_hash_set(p->bad_type_names, first.text, APR_HASH_KEY_STRING, "");
        advance(p);
        return 1;
    }
    p->item_error = 1;
    if (p->token.kind != SPX_TOKEN_ERROR)
        bad_type(p, describe(p, &p->token));
    return 0;
}

/* ---- expressions ------------------------------------------------------- */

/* A node's memory, not yet written: each field of a common node is
 * written once (start_expr, and names and binary nodes by hand), where a
 * zeroed node whose fields are then written again stores most of its bytes
 * twice. */
static spx_expr_t *alloc_expr(parser_t *p)
{
    return spx_arena_alloc(p->bodies, sizeof(spx_expr_t), _Alignof(spx_expr_t));
}

/* A node of kind over span whose union the caller writes in full (the
 * fields of kind's member, the checker's included): no reader looks past a
 * node's kind's fields, so the rest is left unwritten rather than zeroed. */
static spx_expr_t *start_expr(parser_t *p, spx_expr_kind_t kind, spx_span_t span)
{
    spx_expr_t *expr = alloc_expr(p);
    expr->kind = kind;
    expr->span = span;
    expr->type = SPX_TYPE_ERROR;
    expr->vtype = NULL;
    return expr;
}

/* A zeroed node of kind over span (type SPX_TYPE_ERROR, which is 0), for
 * the rarer nodes; the caller fills in the rest. */
static spx_expr_t *new_expr(parser_t *p, spx_expr_kind_t kind, spx_span_t span)
{
    spx_expr_t *expr = alloc_expr(p);
    *expr = (spx_expr_t){.kind = kind, .span = span};
    return expr;
}

static spx_expr_t *parse_binary(parser_t *p, int level);

/* An expression whose root is one level below p->depth. */
static spx_expr_t *parse_expr(parser_t *p)
{
    return parse_binary(p, LEVEL_OR);
}

/* The items pushed since base, as an exact-size array of expressions. */
static spx_expr_t **take_expressions(parser_t *p, apr_size_t base)
{
    return pending_take(p, base, p->bodies, _Alignof(spx_expr_t *));
}

/* An expression where "Name {" starts a struct literal (literals 1) or
 * not (0: an if or while condition, a for header). */
static spx_expr_t *parse_expr_where(parser_t *p, int literals)
{
    int saved = p->no_struct_literal;
    p->no_struct_literal = !literals;
    spx_expr_t *expr = parse_expr(p);
    p->no_struct_literal = saved;
    return expr;
}

/* What is inside ( ), [ ] or call arguments: struct literals are allowed
 * there even in a header. */
static spx_expr_t *parse_enclosed_expr(parser_t *p)
{
    return parse_expr_where(p, 1);
}

/* "(" args ")" of a call whose callee is already in call; the call's own
 * level is open. */
static spx_expr_t *parse_arguments(parser_t *p, spx_expr_t *call, spx_position_t start)
{
    apr_size_t base = p->pending_used, count = 0;
    advance(p); /* ( */
    if (p->token.kind != SPX_TOKEN_RPAREN) {
        for (;;) {
            spx_expr_t *argument = parse_enclosed_expr(p);
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
    call->as.call->arguments = take_expressions(p, base);
    call->as.call->argument_count = count;
    if (!expect(p, SPX_TOKEN_RPAREN))
        return NULL;
    call->span = span_from(p, start);
    return call;
}

static int ends_item(spx_token_kind_t kind);

/* After an error inside a struct literal's braces: past its "}", so that
 * the statement's recovery does not take it for its block's. Stops before
 * a ";" or an item (no literal holds one: the "}" is missing). */
static void skip_literal(parser_t *p)
{
    apr_size_t nested = 0;
    while (!ends_item(p->token.kind) && p->token.kind != SPX_TOKEN_SEMICOLON) {
        if (p->token.kind == SPX_TOKEN_LBRACE) {
            nested++;
        } else if (p->token.kind == SPX_TOKEN_RBRACE) {
            if (nested == 0) {
                advance(p);
                return;
            }
            nested--;
        }
        advance(p);
    }
}

/* A struct literal's "{" field: expr, ... "}" (at least one field, a
 * trailing comma allowed) after [module "."] name; its level is open. */
static spx_expr_t *parse_struct_literal(parser_t *p, spx_name_t module, spx_name_t name,
                                        spx_position_t start)
{
    apr_size_t base = p->pending_used, count = 0;
    int saved = p->no_struct_literal;
    p->no_struct_literal = 0;
    advance(p); /* { */
    do {
        if (count > 0 && p->token.kind == SPX_TOKEN_RBRACE)
            break; /* a trailing comma */
        spx_field_init_t field;
        memset(&field, 0, sizeof(field));
        if (!expect_name(p, "a field name", &field.name) || !expect(p, SPX_TOKEN_COLON) ||
            !(field.value = parse_expr(p))) {
            p->pending_used = base;
            p->no_struct_literal = saved;
            skip_literal(p);
            return NULL;
        }
        pending_push(p, &field, sizeof(field));
        count++;
    } while (consume_if(p, SPX_TOKEN_COMMA));
    p->no_struct_literal = saved;
    spx_struct_literal_t *literal = SPX_ARENA_NEW(p->bodies, spx_struct_literal_t);
    literal->module = module;
    literal->name = name;
    literal->fields = pending_take(p, base, p->bodies, _Alignof(spx_field_init_t));
    literal->field_count = count;
    if (!expect(p, SPX_TOKEN_RBRACE)) {
        skip_literal(p);
        return NULL;
    }
    spx_expr_t *expr = new_expr(p, SPX_EXPR_STRUCT_LITERAL, span_from(p, start));
    expr->as.literal = literal;
    return expr;
}

/* "Name {" starts a struct literal here: not in a header (see the file
 * comment). */
static int starts_struct_literal(parser_t *p, const char *name)
{
    return p->token.kind == SPX_TOKEN_LBRACE && !p->no_struct_literal && is_typename(name);
}

/* IDENT, IDENT "(" args ")", or TYPENAME "{" ... "}"; the first name is
 * read (first). "m.f(...)" and "m.Name { ... }" are postfix forms
 * (parse_member). */
static spx_expr_t *parse_name_or_call(parser_t *p, const spx_name_t *first)
{
    if (starts_struct_literal(p, first->text)) {
        spx_name_t none = {NULL, {{0, 0, 0}, {0, 0, 0}}};
        return parse_struct_literal(p, none, *first, first->span.start);
    }
    if (p->token.kind != SPX_TOKEN_LPAREN) {
        /* The most common node: every field of a name written, and no
         * byte of the union beyond them (no reader looks past a node's
         * kind's fields), so no run of zeroing stores. */
        spx_expr_t *name = start_expr(p, SPX_EXPR_NAME, first->span);
        name->as.name.name = *first;
        name->as.name.slot = -1;
        name->as.name.constant = NULL;
        name->as.name.moves = 0;
        return name;
    }
    spx_expr_t *call = start_expr(p, SPX_EXPR_CALL, first->span);
    call->as.call = SPX_ARENA_NEW(p->bodies, spx_call_t);
    call->as.call->function = *first;
    return parse_arguments(p, call, first->span.start);
}

/* "[" [expr ("," expr)* [","]] "]"; its level is open. */
static spx_expr_t *parse_array_literal(parser_t *p)
{
    spx_position_t start = p->token.span.start;
    apr_size_t base = p->pending_used, count = 0;
    int saved = p->no_struct_literal;
    p->no_struct_literal = 0;
    advance(p); /* [ */
    while (p->token.kind != SPX_TOKEN_RBRACKET) {
        spx_expr_t *element = parse_expr(p);
        if (!element) {
            p->pending_used = base;
            p->no_struct_literal = saved;
            return NULL;
        }
        pending_push(p, &element, sizeof(element));
        count++;
        if (!consume_if(p, SPX_TOKEN_COMMA))
            break;
    }
    p->no_struct_literal = saved;
    spx_expr_t **elements = take_expressions(p, base);
    if (!expect(p, SPX_TOKEN_RBRACKET))
        return NULL;
    spx_expr_t *expr = new_expr(p, SPX_EXPR_ARRAY, span_from(p, start));
    expr->as.array.elements = elements;
    expr->as.array.count = count;
    return expr;
}

/* v3: "{" [expr ":" expr ("," expr ":" expr)* [","]] "}", a map literal;
 * its level is open. Inside, struct and map literals start again. */
static spx_expr_t *parse_map_literal(parser_t *p)
{
    spx_position_t start = p->token.span.start;
    apr_size_t base = p->pending_used, count = 0;
    int saved = p->no_struct_literal;
    p->no_struct_literal = 0;
    advance(p); /* { */
    while (p->token.kind != SPX_TOKEN_RBRACE) {
        spx_expr_t *entry[2] = {NULL, NULL};
        if (!(entry[0] = parse_expr(p)) || !expect(p, SPX_TOKEN_COLON) ||
            !(entry[1] = parse_expr(p))) {
            p->pending_used = base;
            p->no_struct_literal = saved;
            skip_literal(p);
            return NULL;
        }
        pending_push(p, entry, sizeof(entry));
        count++;
        if (!consume_if(p, SPX_TOKEN_COMMA))
            break;
    }
    p->no_struct_literal = saved;
    spx_expr_t **pairs = take_expressions(p, base);
    if (!expect(p, SPX_TOKEN_RBRACE)) {
        skip_literal(p);
        return NULL;
    }
    spx_expr_t *expr = new_expr(p, SPX_EXPR_MAP, span_from(p, start));
    expr->as.map.keys = SPX_ARENA_ARRAY(p->bodies, spx_expr_t *, count + 1);
    expr->as.map.values = SPX_ARENA_ARRAY(p->bodies, spx_expr_t *, count + 1);
    for (apr_size_t i = 0; i < count; i++) {
        expr->as.map.keys[i] = pairs[2 * i];
        expr->as.map.values[i] = pairs[2 * i + 1];
    }
    expr->as.map.count = count;
    return expr;
}

static spx_expr_t *parse_primary(parser_t *p)
{
    if (!enter(p))
        return NULL;
    spx_expr_t *expr = NULL;
    const spx_token_t *token = &p->token; /* read before advance() replaces it */
    spx_name_t name;
    switch (token->kind) {
    case SPX_TOKEN_INTEGER:
    case SPX_TOKEN_BYTE: /* v3: a byte literal is an int literal */
        expr = start_expr(p, SPX_EXPR_INT, token->span);
        expr->as.integer = token->integer;
        advance(p);
        break;
    case SPX_TOKEN_STRING:
        expr = start_expr(p, SPX_EXPR_STRING, token->span);
        expr->as.string.bytes = token->bytes;
        expr->as.string.length = token->length;
        advance(p);
        break;
    case SPX_TOKEN_TRUE:
    case SPX_TOKEN_FALSE:
        expr = start_expr(p, SPX_EXPR_BOOL, token->span);
        expr->as.boolean = token->kind == SPX_TOKEN_TRUE;
        advance(p);
        break;
    case SPX_TOKEN_IDENTIFIER:
        name.text = token->text;
        name.span = token->span;
        advance(p);
        expr = parse_name_or_call(p, &name);
        break;
    case SPX_TOKEN_LPAREN: {
        spx_position_t start = token->span.start;
        advance(p);
        expr = parse_enclosed_expr(p);
        if (expr && expect(p, SPX_TOKEN_RPAREN)) {
            expr->span = span_from(p, start); /* parentheses included */
        } else {
            expr = NULL;
        }
        break;
    }
    case SPX_TOKEN_LBRACKET:
        expr = parse_array_literal(p);
        break;
    case SPX_TOKEN_LBRACE: /* v3: a map literal, but not in a header (the "{" is the body's) */
        if (p->no_struct_literal)
            expected(p, "an expression");
        else
            expr = parse_map_literal(p);
        break;
    default:
        if (keyword_as_name(p, &name, 0))
            expr = parse_name_or_call(p, &name);
        else
            expected(p, "an expression");
        break;
    }
    leave(p);
    return expr;
}

/* A plain name as written, not parenthesized: the root of a place, or the
 * module of m.f(...) and m.Name { ... }. */
static int is_bare_name(const spx_expr_t *expr)
{
    return expr->kind == SPX_EXPR_NAME &&
           expr->span.start.offset == expr->as.name.name.span.start.offset &&
           expr->span.end.offset == expr->as.name.name.span.end.offset;
}

/* base "[" expr "]" or base "[" expr ".." expr "]". */
static spx_expr_t *parse_index(parser_t *p, spx_expr_t *base)
{
    advance(p); /* [ */
    spx_expr_t *index = parse_enclosed_expr(p), *to = NULL;
    if (!index)
        return NULL;
    if (consume_if(p, SPX_TOKEN_DOTDOT) && !(to = parse_enclosed_expr(p)))
        return NULL;
    if (!expect(p, SPX_TOKEN_RBRACKET))
        return NULL;
    spx_expr_t *expr =
        start_expr(p, to ? SPX_EXPR_SLICE : SPX_EXPR_INDEX, span_from(p, base->span.start));
    expr->as.index.base = base;
    expr->as.index.index = index;
    expr->as.index.to = to;
    return expr;
}

/* base "." IDENT: a field (or a module's const), a call m.f(args) when base
 * is a plain name, a method call e.push(x) on any other base, or a struct
 * literal m.Name { ... }. */
static spx_expr_t *parse_member(parser_t *p, spx_expr_t *base)
{
    spx_name_t name;
    advance(p); /* . */
    if (!expect_name(p, "a field or function name after '.'", &name))
        return NULL;
    /* "X.Y {" never starts a literal: X.Y is a variant (v3) */
    if (is_bare_name(base) && !is_typename(base->as.name.name.text) &&
        starts_struct_literal(p, name.text))
        return parse_struct_literal(p, base->as.name.name, name, base->span.start);
    if (p->token.kind == SPX_TOKEN_LPAREN) {
        spx_expr_t *call = new_expr(p, SPX_EXPR_CALL, base->span);
        call->as.call = SPX_ARENA_NEW(p->bodies, spx_call_t);
        call->as.call->function = name;
        if (is_bare_name(base))
            call->as.call->module = base->as.name.name;
        else
            call->as.call->receiver = base;
        return parse_arguments(p, call, base->span.start);
    }
    spx_expr_t *expr = start_expr(p, SPX_EXPR_FIELD, span_from(p, base->span.start));
    expr->as.field.base = base;
    expr->as.field.name = name;
    expr->as.field.constant = NULL;
    return expr;
}

/* A primary and its postfix operators, each one level deeper than the
 * last (a[0][1] nests like a call in a call). */
static spx_expr_t *parse_postfix(parser_t *p)
{
    spx_expr_t *expr = parse_primary(p);
    unsigned opened = 0;
    while (expr && (p->token.kind == SPX_TOKEN_LBRACKET || p->token.kind == SPX_TOKEN_DOT)) {
        if (!enter(p)) {
            expr = NULL;
            break;
        }
        opened++;
        expr = p->token.kind == SPX_TOKEN_LBRACKET ? parse_index(p, expr) : parse_member(p, expr);
    }
    p->depth -= opened;
    return expr;
}

/* Unary operators bind looser than postfix ones: -a[0] is -(a[0]). */
static spx_expr_t *parse_unary(parser_t *p)
{
    spx_token_kind_t kind = p->token.kind;
    if (kind != SPX_TOKEN_MINUS && kind != SPX_TOKEN_BANG && kind != SPX_TOKEN_TILDE)
        return parse_postfix(p);
    spx_span_t op_span = p->token.span;
    if (!enter(p))
        return NULL;
    advance(p);
    spx_expr_t *operand = parse_unary(p);
    leave(p);
    if (!operand)
        return NULL;
    spx_expr_t *expr = start_expr(p, SPX_EXPR_UNARY, span_from(p, op_span.start));
    expr->as.unary.op = kind == SPX_TOKEN_MINUS  ? SPX_OP_NEG
                        : kind == SPX_TOKEN_BANG ? SPX_OP_NOT
                                                 : SPX_OP_BIT_NOT;
    expr->as.unary.op_span = op_span;
    expr->as.unary.operand = operand;
    return expr;
}

/* Per token kind: 1 + the level of a binary operator token, 0 for any
 * other token, and the operator; one load where a switch jumped. */
static const struct {
    unsigned char level;
    unsigned char op;
} binary_operators[SPX_TOKEN_FAT_ARROW + 1] = {
#define LEVEL_OF(token, operator, level) [token] = {(level) + 1, operator}
    LEVEL_OF(SPX_TOKEN_OR, SPX_OP_OR, LEVEL_OR),
    LEVEL_OF(SPX_TOKEN_AND, SPX_OP_AND, LEVEL_AND),
    LEVEL_OF(SPX_TOKEN_EQ, SPX_OP_EQ, LEVEL_EQUALITY),
    LEVEL_OF(SPX_TOKEN_NE, SPX_OP_NE, LEVEL_EQUALITY),
    LEVEL_OF(SPX_TOKEN_LT, SPX_OP_LT, LEVEL_RELATIONAL),
    LEVEL_OF(SPX_TOKEN_LE, SPX_OP_LE, LEVEL_RELATIONAL),
    LEVEL_OF(SPX_TOKEN_GT, SPX_OP_GT, LEVEL_RELATIONAL),
    LEVEL_OF(SPX_TOKEN_GE, SPX_OP_GE, LEVEL_RELATIONAL),
    LEVEL_OF(SPX_TOKEN_PIPE, SPX_OP_BIT_OR, LEVEL_BIT_OR),
    LEVEL_OF(SPX_TOKEN_CARET, SPX_OP_BIT_XOR, LEVEL_BIT_XOR),
    LEVEL_OF(SPX_TOKEN_AMPERSAND, SPX_OP_BIT_AND, LEVEL_BIT_AND),
    LEVEL_OF(SPX_TOKEN_SHL, SPX_OP_SHL, LEVEL_SHIFT),
    LEVEL_OF(SPX_TOKEN_SHR, SPX_OP_SHR, LEVEL_SHIFT),
    LEVEL_OF(SPX_TOKEN_PLUS, SPX_OP_ADD, LEVEL_ADDITIVE),
    LEVEL_OF(SPX_TOKEN_MINUS, SPX_OP_SUB, LEVEL_ADDITIVE),
    LEVEL_OF(SPX_TOKEN_STAR, SPX_OP_MUL, LEVEL_MULTIPLICATIVE),
    LEVEL_OF(SPX_TOKEN_SLASH, SPX_OP_DIV, LEVEL_MULTIPLICATIVE),
    LEVEL_OF(SPX_TOKEN_PERCENT, SPX_OP_REM, LEVEL_MULTIPLICATIVE),
#undef LEVEL_OF
};

/* The level of a binary operator token (and its operator), or -1. */
static int binary_level(spx_token_kind_t kind, spx_operator_t *op)
{
    /* a token kind past the table (none now: SPX_TOKEN_FAT_ARROW is the
     * last) is no operator */
    if ((size_t)kind >= sizeof(binary_operators) / sizeof(binary_operators[0]))
        return -1;
    *op = (spx_operator_t)binary_operators[kind].op;
    return (int)binary_operators[kind].level - 1;
}

/* A chain of comparisons (two operators of one comparison level in a row)
 * is an error, reported at the whole chain. */
static spx_expr_t *refuse_chain(parser_t *p, int level, const spx_expr_t *chain)
{
    p->item_error = 1;
    if (level == LEVEL_RELATIONAL)
        spx_lexer_error(&p->lexer, SPX_E0221, chain->span,
                        "comparisons do not chain: write 'a < b && b < c'");
    else
        spx_lexer_error(&p->lexer, SPX_E0222, chain->span,
                        "equality comparisons do not chain: use parentheses");
    return NULL;
}

/* Binary operators of min_level and tighter, by precedence climbing: the
 * loop folds each new operand onto everything to its left, and a right
 * operand takes only the operators that bind tighter than its own (one call
 * for the operand, whatever the number of levels). The chain takes no level
 * of the depth limit: every later pass walks its left spine by a loop too;
 * only a right operand is one level down. Folds in one loop go from tighter
 * to looser levels, so the operators of one level form one run. */
static spx_expr_t *parse_binary(parser_t *p, int min_level)
{
    spx_expr_t *left = parse_unary(p);
    if (!left)
        return NULL;
    int previous = -1;             /* the level of the last fold */
    int chained = -1;              /* a comparison level that chained, reported at the run's end */
    spx_operator_t op = SPX_OP_OR; /* set by binary_level before use */
    for (;;) {
        int level = binary_level(p->token.kind, &op);
        if (chained >= 0 && level != chained)
            return refuse_chain(p, chained, left);
        if (level < min_level)
            return left;
        if (level == previous && (level == LEVEL_EQUALITY || level == LEVEL_RELATIONAL))
            chained = level;
        spx_span_t op_span = p->token.span;
        advance(p);
        if (!enter(p))
            return NULL;
        spx_expr_t *right = parse_binary(p, level + 1);
        leave(p);
        if (!right)
            return NULL;
        spx_expr_t *expr = start_expr(p, SPX_EXPR_BINARY, span_from(p, left->span.start));
        expr->as.binary.op = op;
        expr->as.binary.op_span = op_span;
        expr->as.binary.left = left;
        expr->as.binary.right = right;
        left = expr;
        previous = level;
    }
}

/* ---- statements -------------------------------------------------------- */

static int parse_block(parser_t *p, spx_block_t *block);
static int parse_header_body(parser_t *p, spx_block_t *block);

static spx_stmt_t *new_stmt(parser_t *p, spx_stmt_kind_t kind, spx_position_t start)
{
    spx_stmt_t *stmt = SPX_ARENA_NEW(p->bodies, spx_stmt_t);
    stmt->kind = kind;
    stmt->span.start = start;
    stmt->span.end = start;
    return stmt;
}

/* The ";" that ends stmt: without it the statement is kept (it is whole)
 * but *ok tells the block to resynchronise. v3: when the token found is on
 * a later line, the missing ";" is reported where the statement ends (an
 * empty span at the end of its last token), not at that token; on the
 * same line, at the token, as before. */
static spx_stmt_t *finish(parser_t *p, spx_stmt_t *stmt, int *ok)
{
    *ok = consume_if(p, SPX_TOKEN_SEMICOLON);
    if (!*ok && p->token.span.start.line > p->previous_end.line) {
        p->item_error = 1;
        if (p->token.kind != SPX_TOKEN_ERROR) {
            spx_span_t end = {p->previous_end, p->previous_end};
            spx_lexer_error(&p->lexer, SPX_E0220, end,
                            "expected ';' at the end of this statement (found %s on line %u)",
                            describe(p, &p->token), (unsigned)p->token.span.start.line);
        }
    } else if (!*ok) {
        expected(p, "';'");
    }
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
        if (!parse_type(p, p->bodies, &stmt->as.binding.declared, &stmt->as.binding.type_span,
                        &stmt->as.binding.type_syntax))
            return NULL;
    }
    if (!expect(p, SPX_TOKEN_ASSIGN))
        return NULL;
    if (!(stmt->as.binding.value = parse_expr(p)))
        return NULL;
    return finish(p, stmt, ok);
}

/* An expression of an if or while condition or a for header, where
 * "Name {" starts no struct literal (the "{" is the body's). */
static spx_expr_t *parse_header_expr(parser_t *p)
{
    return parse_expr_where(p, 0);
}

static spx_stmt_t *parse_if(parser_t *p)
{
    spx_stmt_t *stmt = new_stmt(p, SPX_STMT_IF, p->token.span.start);
    advance(p);
    if (!(stmt->as.if_stmt.condition = parse_header_expr(p)))
        return NULL;
    if (!parse_header_body(p, &stmt->as.if_stmt.then_block))
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

/* The body after an if, while or for header. When its first statement
 * shows it to be the braces of a struct literal ("if p == P { x: 1 } { }":
 * one E0220 that says to use parentheses), the block after it is the body. */
static int parse_header_body(parser_t *p, spx_block_t *block)
{
    p->after_header = 1;
    int ok = parse_block(p, block);
    p->after_header = 0;
    if (ok && p->header_literal) {
        p->header_literal = 0;
        if (p->token.kind == SPX_TOKEN_LBRACE)
            ok = parse_block(p, block);
    }
    return ok;
}

/* "for" IDENT "in" expr [".." expr] block. */
static spx_stmt_t *parse_for(parser_t *p)
{
    spx_stmt_t *stmt = new_stmt(p, SPX_STMT_FOR, p->token.span.start);
    advance(p);
    if (p->token.kind == SPX_TOKEN_IN) { /* "for in xs": the variable is missing */
        expected(p, "a loop variable after 'for'");
        return NULL;
    }
    if (!expect_name(p, "a loop variable after 'for'", &stmt->as.for_stmt.variable) ||
        !expect(p, SPX_TOKEN_IN))
        return NULL;
    if (!(stmt->as.for_stmt.from = parse_header_expr(p)))
        return NULL;
    if (consume_if(p, SPX_TOKEN_DOTDOT) && !(stmt->as.for_stmt.to = parse_header_expr(p)))
        return NULL;
    if (!parse_header_body(p, &stmt->as.for_stmt.body))
        return NULL;
    stmt->span.end = p->previous_end;
    return stmt;
}

/* v3: the operator of a compound assignment token ("+=" gives +): 1 and
 * *op set, or 0 for any other token. */
static int compound_operator(spx_token_kind_t kind, spx_operator_t *op)
{
    static const spx_operator_t operators[] = {
        SPX_OP_ADD,     SPX_OP_SUB,    SPX_OP_MUL,     SPX_OP_DIV, SPX_OP_REM,
        SPX_OP_BIT_AND, SPX_OP_BIT_OR, SPX_OP_BIT_XOR, SPX_OP_SHL, SPX_OP_SHR,
    };
    if (kind < SPX_TOKEN_ADD_ASSIGN || kind > SPX_TOKEN_SHR_ASSIGN)
        return 0;
    *op = operators[kind - SPX_TOKEN_ADD_ASSIGN];
    return 1;
}

/* After a name, a token that continues an expression or an assignment:
 * how "for", "break" and "continue" at the start of a statement are told
 * from v1 names spelled so ("break = 1;"). */
static int continues_name(spx_token_kind_t kind)
{
    spx_operator_t op;
    return kind == SPX_TOKEN_ASSIGN || kind == SPX_TOKEN_LPAREN || kind == SPX_TOKEN_DOT ||
           kind == SPX_TOKEN_LBRACKET || binary_level(kind, &op) >= 0 ||
           compound_operator(kind, &op);
}

/* A place (language.md): IDENT ("[" expr "]" | "." IDENT)*, as written
 * (no parentheses). *root is its name. */
static int is_place(const parser_t *p, const spx_expr_t *expr, const spx_expr_t **root)
{
    for (;;) {
        if (expr->kind == SPX_EXPR_INDEX) {
            if (p->lexer.text[expr->span.end.offset - 1] != ']')
                return 0; /* parenthesized */
            expr = expr->as.index.base;
        } else if (expr->kind == SPX_EXPR_FIELD) {
            if (expr->span.end.offset != expr->as.field.name.span.end.offset)
                return 0;
            expr = expr->as.field.base;
        } else {
            *root = expr;
            return is_bare_name(expr);
        }
    }
}

/* An expression statement, or, when "=" (v3: or a compound operator such
 * as "+=") follows the expression, an assignment to it as a place. */
static spx_stmt_t *parse_expression_statement(parser_t *p, int *ok)
{
    spx_stmt_t *stmt = new_stmt(p, SPX_STMT_EXPR, p->token.span.start);
    spx_expr_t *expr = parse_expr(p);
    if (!expr)
        return NULL;
    spx_operator_t op = SPX_OP_ADD;
    int compound = compound_operator(p->token.kind, &op);
    if (p->token.kind != SPX_TOKEN_ASSIGN && !compound) {
        stmt->as.expr_stmt.expression = expr;
        return finish(p, stmt, ok);
    }
    const spx_expr_t *root = NULL;
    if (!is_place(p, expr, &root)) {
        p->item_error = 1;
        if (compound)
            spx_lexer_error(&p->lexer, SPX_E0229, expr->span,
                            "only a variable, an element a[i] or a field p.f can take %s",
                            spx_token_kind_text(p->token.kind));
        else
            spx_lexer_error(&p->lexer, SPX_E0229, expr->span,
                            "only a variable, an element a[i] or a field p.f can be assigned to");
        return NULL;
    }
    spx_span_t op_span = p->token.span;
    advance(p); /* = or op= */
    stmt->kind = SPX_STMT_ASSIGN;
    stmt->as.assign.name = root->as.name.name;
    stmt->as.assign.place = expr == root ? NULL : expr;
    if (!(stmt->as.assign.value = parse_expr(p)))
        return NULL;
    if (compound) {
        spx_expr_t *operation = new_expr(p, SPX_EXPR_BINARY, span_from(p, expr->span.start));
        operation->as.binary.op = op;
        operation->as.binary.op_span = op_span;
        operation->as.binary.left = expr;
        operation->as.binary.right = stmt->as.assign.value;
        stmt->as.assign.compound = operation;
    }
    return finish(p, stmt, ok);
}

/* "match" at the start of a statement starts a match when an expression
 * and then "{" follow it (docs/language.md, "Enums and match"); otherwise
 * it is a name a v2 program gave (E0228), as in "match(x);". Looks ahead
 * with a copy of the lexer that reports nothing, up to the first "{", ";",
 * "}", "=" or statement keyword outside brackets: no further than the
 * statement's own recovery would skip. */
static int match_starts(parser_t *p)
{
    if (!p->quiet) {
        p->quiet = spx_diagnostics_make(p->scratch);
        p->quiet_literals = spx_arena_make(p->scratch);
    }
    spx_lexer_t copy = p->lexer;
    copy.budget.list = p->quiet;
    copy.literals = p->quiet_literals;
    spx_token_t token;
    if (p->has_ahead)
        token = p->ahead;
    else
        spx_lexer_next(&copy, &token);
    if (token.kind == SPX_TOKEN_LBRACE)
        return 1; /* "match {": a match without its scrutinee */
    long depth = 0;
    for (apr_size_t seen = 0;; seen++) {
        switch (token.kind) {
        case SPX_TOKEN_LPAREN:
        case SPX_TOKEN_LBRACKET:
            depth++;
            break;
        case SPX_TOKEN_RPAREN:
        case SPX_TOKEN_RBRACKET:
            if (--depth < 0)
                return 0;
            break;
        case SPX_TOKEN_LBRACE:
            if (depth == 0)
                return seen > 0;
            depth++; /* a struct literal inside ( ) or [ ] */
            break;
        case SPX_TOKEN_RBRACE:
            if (--depth < 0)
                return 0;
            break;
        case SPX_TOKEN_SEMICOLON:
        case SPX_TOKEN_ASSIGN:
        case SPX_TOKEN_EOF:
        case SPX_TOKEN_ERROR:
        case SPX_TOKEN_LET:
        case SPX_TOKEN_VAR:
        case SPX_TOKEN_IF:
        case SPX_TOKEN_WHILE:
        case SPX_TOKEN_RETURN:
        case SPX_TOKEN_FOR:
        case SPX_TOKEN_FN:
        case SPX_TOKEN_EXPORT:
        case SPX_TOKEN_IMPORT:
            return 0;
        default:
            break;
        }
        spx_lexer_next(&copy, &token);
    }
}

/* pattern := "_" | TYPENAME ["(" binder ("," binder)* ")"], into arm. */
static int parse_pattern(parser_t *p, spx_match_arm_t *arm)
{
    spx_position_t start = p->token.span.start;
    if (!expect_name(p, "a variant name or '_'", &arm->pattern))
        return 0;
    arm->wildcard = strcmp(arm->pattern.text, "_") == 0;
    arm->variant = -1;
    if (p->token.kind == SPX_TOKEN_LPAREN) {
        apr_size_t base = p->pending_used, count = 0;
        arm->has_parens = 1;
        advance(p); /* ( */
        do {
            spx_binder_t binder;
            memset(&binder, 0, sizeof(binder));
            binder.slot = -1;
            if (!expect_name(p, "a name to bind", &binder.name)) {
                p->pending_used = base;
                return 0;
            }
            pending_push(p, &binder, sizeof(binder));
            count++;
        } while (consume_if(p, SPX_TOKEN_COMMA));
        arm->binders = pending_take(p, base, p->bodies, _Alignof(spx_binder_t));
        arm->binder_count = count;
        if (!expect(p, SPX_TOKEN_RPAREN))
            return 0;
    }
    arm->span = span_from(p, start);
    return 1;
}

/* "match" expr "{" arm* "}", arm := pattern "=>" block [","]. The
 * scrutinee is a header (no struct literal starts in it outside ( ), [ ]
 * and call arguments); each arm is one level of nesting, its block another. */
static int ends_body(parser_t *p);

/* After an arm that failed before its block: past the "}" that closes the
 * match (braces nested in between skipped whole), so that the statement
 * ends where it ends; 0 when an item or the end comes first. */
static int skip_arms(parser_t *p)
{
    apr_size_t nested = 0;
    while (!ends_body(p)) {
        if (p->token.kind == SPX_TOKEN_LBRACE) {
            nested++;
        } else if (p->token.kind == SPX_TOKEN_RBRACE) {
            if (nested == 0) {
                advance(p);
                return 1;
            }
            nested--;
        }
        advance(p);
    }
    return 0;
}

/* *ok as parse_statement's: 1 also when the match failed but was skipped
 * to its end (it is then left out, and nothing more is skipped). */
static spx_stmt_t *parse_match(parser_t *p, int *ok)
{
    *ok = 0;
    spx_stmt_t *stmt = new_stmt(p, SPX_STMT_MATCH, p->token.span.start);
    advance(p); /* match */
    if (!(stmt->as.match_stmt.scrutinee = parse_header_expr(p)))
        return NULL;
    if (!expect(p, SPX_TOKEN_LBRACE))
        return NULL;
    int literal = 0;
    if (p->token.kind == SPX_TOKEN_IDENTIFIER && peek(p)->kind == SPX_TOKEN_COLON) {
        /* "match P { x: 1 } { ... }": the literal's "{" was read as the
         * arms'; one E0220, the literal skipped, the arms still read (and
         * the statement left out) */
        p->item_error = 1;
        spx_span_t span = {p->token.span.start, peek(p)->span.end};
        spx_lexer_error(&p->lexer, SPX_E0220, span,
                        "expected a variant name or '_', found '%s:'; a struct literal in a "
                        "match scrutinee needs parentheses",
                        p->token.text);
        skip_literal(p);
        if (!expect(p, SPX_TOKEN_LBRACE))
            return NULL;
        literal = 1;
    }
    apr_size_t base = p->pending_used, count = 0;
    while (p->token.kind != SPX_TOKEN_RBRACE) {
        spx_match_arm_t arm;
        memset(&arm, 0, sizeof(arm));
        if (!enter(p)) {
            p->pending_used = base;
            return NULL;
        }
        int read =
            parse_pattern(p, &arm) && expect(p, SPX_TOKEN_FAT_ARROW) && parse_block(p, &arm.body);
        leave(p);
        if (!read) {
            p->pending_used = base;
            if (!p->abandon)
                *ok = skip_arms(p);
            return NULL;
        }
        pending_push(p, &arm, sizeof(arm));
        count++;
        consume_if(p, SPX_TOKEN_COMMA);
    }
    stmt->as.match_stmt.arms = pending_take(p, base, p->bodies, _Alignof(spx_match_arm_t));
    stmt->as.match_stmt.arm_count = count;
    advance(p); /* } */
    stmt->span.end = p->previous_end;
    if (literal) {
        *ok = 1; /* read to its end, left out */
        return NULL;
    }
    return stmt;
}

static spx_stmt_t *parse_statement(parser_t *p, int *ok)
{
    spx_stmt_t *stmt;
    *ok = 0;
    switch (p->token.kind) {
    case SPX_TOKEN_FOR: {
        spx_token_kind_t next = peek(p)->kind;
        if (next != SPX_TOKEN_IDENTIFIER && !spx_token_v2_keyword(next) &&
            (continues_name(next) || next == SPX_TOKEN_SEMICOLON))
            break; /* "for" as a v1 name: E0228 */
        stmt = parse_for(p);
        *ok = stmt != NULL;
        return stmt;
    }
    case SPX_TOKEN_BREAK:
    case SPX_TOKEN_CONTINUE:
        if (continues_name(peek(p)->kind))
            break; /* "break" as a v1 name: E0228 */
        stmt = new_stmt(p, p->token.kind == SPX_TOKEN_BREAK ? SPX_STMT_BREAK : SPX_STMT_CONTINUE,
                        p->token.span.start);
        advance(p);
        return finish(p, stmt, ok);
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
        if (!(stmt->as.while_stmt.condition = parse_header_expr(p)) ||
            !parse_header_body(p, &stmt->as.while_stmt.body))
            return NULL;
        stmt->span.end = p->previous_end;
        *ok = 1;
        return stmt;
    case SPX_TOKEN_MATCH:
        if (!match_starts(p))
            break; /* "match" as a v2 name: E0228 */
        stmt = parse_match(p, ok);
        if (stmt)
            *ok = 1;
        return stmt;
    case SPX_TOKEN_RETURN:
        stmt = new_stmt(p, SPX_STMT_RETURN, p->token.span.start);
        advance(p);
        if (p->token.kind != SPX_TOKEN_SEMICOLON && !(stmt->as.return_stmt.value = parse_expr(p)))
            return NULL;
        return finish(p, stmt, ok);
    case SPX_TOKEN_IDENTIFIER:
        if (p->header_body && peek(p)->kind == SPX_TOKEN_COLON) {
            /* "if p == P { x: 1 } { }": the literal's "{" was read as the
             * body; the real body follows (see parse_header_body). */
            p->item_error = 1;
            p->header_literal = 1;
            spx_span_t span = {p->token.span.start, peek(p)->span.end};
            spx_lexer_error(&p->lexer, SPX_E0220, span,
                            "expected a statement, found '%s:'; a struct literal in an if, while "
                            "or for header needs parentheses",
                            p->token.text);
            return NULL;
        }
        break;
    case SPX_TOKEN_STRUCT:
    case SPX_TOKEN_CONST:
    case SPX_TOKEN_IN:
    case SPX_TOKEN_ENUM:
    case SPX_TOKEN_LBRACKET:
    case SPX_TOKEN_TILDE:
    case SPX_TOKEN_INTEGER:
    case SPX_TOKEN_BYTE:
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
    return parse_expression_statement(p, ok);
}

/* The tokens that start items, never statements. */
static int ends_item(spx_token_kind_t kind)
{
    return kind == SPX_TOKEN_EOF || kind == SPX_TOKEN_FN || kind == SPX_TOKEN_EXPORT ||
           kind == SPX_TOKEN_IMPORT || kind == SPX_TOKEN_STRUCT || kind == SPX_TOKEN_CONST ||
           kind == SPX_TOKEN_ENUM;
}

/* The current token ends a body: it starts an item. "struct", "const" and
 * "enum" do only when a name follows; else they are old names (E0228). */
static int ends_body(parser_t *p)
{
    if (p->token.kind == SPX_TOKEN_STRUCT || p->token.kind == SPX_TOKEN_CONST ||
        p->token.kind == SPX_TOKEN_ENUM)
        return peek(p)->kind == SPX_TOKEN_IDENTIFIER;
    return ends_item(p->token.kind);
}

/* After a failed statement: past its ";", or up to the "}" of its block
 * or the next statement keyword, whichever comes first outside nested
 * braces. */
static void sync_statement(parser_t *p)
{
    apr_size_t nested = 0;
    while (!ends_body(p)) {
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
        case SPX_TOKEN_FOR:
        case SPX_TOKEN_BREAK:
        case SPX_TOKEN_CONTINUE:
        case SPX_TOKEN_MATCH:
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
 * next item or the end reports the missing "}" once (with a note at the
 * "{" left open), ends every enclosing block there and makes the item
 * incomplete. */
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
    int header = p->after_header;
    p->after_header = 0;
    if (!enter(p))
        return 0;
    spx_span_t opening = p->token.span;
    advance(p);
    while (p->token.kind != SPX_TOKEN_RBRACE) {
        if (ends_body(p)) {
            /* The innermost block still open is the one named: an inner
             * block that took this one's "}" is closed by then. */
            if (!item_has_error(p))
                spx_diagnostic_note(p->lexer.budget.list, expected(p, "'}'"), p->lexer.budget.path,
                                    opening, "this '{' is not closed");
            p->incomplete = 1; /* the body was cut short: its returns may be lost */
            break;
        }
        apr_size_t before = p->token.span.start.offset;
        int ok;
        p->header_body = header;
        header = 0;
        spx_stmt_t *stmt = parse_statement(p, &ok);
        p->header_body = 0;
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
            if (p->token.span.start.offset == before && !ends_body(p))
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
    while (!ends_body(p)) {
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

/* IDENT ":" type, a parameter or a field, pushed on the pending stack. */
static int parse_typed_name(parser_t *p, const char *what)
{
    spx_param_t param;
    memset(&param, 0, sizeof(param));
    if (!expect_name(p, what, &param.name) || !expect(p, SPX_TOKEN_COLON) ||
        !parse_type(p, p->arena, &param.type, &param.type_span, &param.type_syntax))
        return 0;
    pending_push(p, &param, sizeof(param));
    return 1;
}

static int parse_params(parser_t *p, spx_function_t *function)
{
    apr_size_t base = p->pending_used, count = 0;
    if (!expect(p, SPX_TOKEN_LPAREN))
        return 0;
    if (p->token.kind != SPX_TOKEN_RPAREN) {
        do {
            if (!parse_typed_name(p, "a parameter name")) {
                p->pending_used = base;
                return 0;
            }
            count++;
        } while (consume_if(p, SPX_TOKEN_COMMA));
    }
    function->params = pending_take(p, base, p->arena, _Alignof(spx_param_t));
    function->param_count = count;
    return expect(p, SPX_TOKEN_RPAREN);
}

/* What the items of one module gather into. */
typedef struct items_t {
    apr_array_header_t *functions;  /* spx_function_t * */
    apr_array_header_t *unreadable; /* const char *: see spx_module_t */
    apr_array_header_t *structs;    /* spx_struct_t * */
    apr_array_header_t *consts;     /* spx_const_t * */
    apr_array_header_t *left_out;   /* const char *: structs, consts and enums that failed */
    apr_array_header_t *enums;      /* spx_enum_t * (v3) */
    int too_many;                   /* E0226 reported */
} items_t;

/* "fn" IDENT "(" params ")" ["->" type] block, after ["export"] from start.
 * An item whose header fails is skipped and left out, its name (when read)
 * added to unreadable; one whose body fails is kept with what was read,
 * marked incomplete. */
static void parse_function(parser_t *p, items_t *items, spx_position_t start, int exported)
{
    apr_array_header_t *functions = items->functions, *unreadable = items->unreadable;
    int *too_many = &items->too_many;
    spx_function_t *function = SPX_ARENA_NEW(p->arena, spx_function_t);
    function->module = p->module;
    function->exported = exported;
    advance(p); /* fn */
    if (!expect_name(p, "a function name", &function->name))
        goto unreadable_header;
    if (!parse_params(p, function))
        goto unreadable_header;
    function->result = SPX_TYPE_UNIT;
    function->result_span = function->name.span;
    if (consume_if(p, SPX_TOKEN_ARROW) &&
        !parse_type(p, p->arena, &function->result, &function->result_span,
                    &function->result_syntax))
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

/* A struct or const named name (NULL when not read) failed: skip it. */
static void leave_out(parser_t *p, items_t *items, const char *name, spx_position_t start)
{
    if (name && (apr_size_t)items->left_out->nelts < SPX_LIMIT_FUNCTIONS_PER_MODULE)
        APR_ARRAY_PUSH(items->left_out, const char *) = name;
    sync_item(p, start);
}

/* The opening of a struct or an enum, after ["export"] from start: its
 * keyword, its name (what says which: "a struct name"; a name that is no
 * TYPENAME is E0230 and still read) and "{". 0 when the item was skipped. */
static int parse_type_item_opening(parser_t *p, items_t *items, spx_position_t start,
                                   const char *what, spx_name_t *name)
{
    advance(p); /* struct or enum */
    if (!expect_name(p, what, name)) {
        sync_item(p, start);
        return 0;
    }
    if (!is_typename(name->text))
        spx_lexer_error(&p->lexer, SPX_E0230, name->span,
                        "%s '%s' must start with a capital letter (A-Z)", strchr(what, ' ') + 1,
                        name->text);
    if (!expect(p, SPX_TOKEN_LBRACE)) {
        leave_out(p, items, name->text, start);
        return 0;
    }
    return 1;
}

/* element ("," element)* [","] "}" after a type item's "{", each element
 * read by read_element onto the pending stack: the elements (alignment
 * alignment) and their count, or NULL when one fails or "}" is missing
 * (the pending stack restored). */
static void *parse_braced_elements(parser_t *p, int (*read_element)(parser_t *p),
                                   apr_size_t alignment, apr_size_t *count)
{
    apr_size_t base = p->pending_used;
    *count = 0;
    do {
        if (*count > 0 && p->token.kind == SPX_TOKEN_RBRACE)
            break; /* a trailing comma */
        if (!read_element(p)) {
            p->pending_used = base;
            return NULL;
        }
        (*count)++;
    } while (consume_if(p, SPX_TOKEN_COMMA));
    void *elements = pending_take(p, base, p->arena, alignment);
    return expect(p, SPX_TOKEN_RBRACE) ? elements : NULL;
}

/* field := IDENT ":" type, onto the pending stack. */
static int parse_field(parser_t *p)
{
    return parse_typed_name(p, "a field name");
}

/* "struct" TYPENAME "{" field ("," field)* [","] "}", after ["export"]
 * from start. A name that is no TYPENAME is E0230 and the item is still
 * read; an item that fails otherwise is skipped and left out. */
static void parse_struct(parser_t *p, items_t *items, spx_position_t start, int exported)
{
    spx_struct_t *item = SPX_ARENA_NEW(p->arena, spx_struct_t);
    item->module = p->module;
    item->exported = exported;
    if (!parse_type_item_opening(p, items, start, "a struct name", &item->name))
        return;
    item->fields = parse_braced_elements(p, parse_field, _Alignof(spx_param_t), &item->field_count);
    if (!item->fields) {
        leave_out(p, items, item->name.text, start);
        return;
    }
    item->span = span_from(p, start);
    APR_ARRAY_PUSH(items->structs, spx_struct_t *) = item;
}

/* variant := TYPENAME ["(" type ("," type)* ")"], onto the pending stack.
 * A lowercase name is E0230 and still read. */
static int parse_variant(parser_t *p)
{
    spx_variant_t variant;
    memset(&variant, 0, sizeof(variant));
    if (!expect_name(p, "a variant name", &variant.name))
        return 0;
    if (!is_typename(variant.name.text))
        spx_lexer_error(&p->lexer, SPX_E0230, variant.name.span,
                        "variant name '%s' must start with a capital letter (A-Z)",
                        variant.name.text);
    if (consume_if(p, SPX_TOKEN_LPAREN)) {
        apr_size_t payload_base = p->pending_used, payloads = 0;
        do {
            spx_param_t payload;
            memset(&payload, 0, sizeof(payload));
            if (!parse_type(p, p->arena, &payload.type, &payload.type_span, &payload.type_syntax)) {
                p->pending_used = payload_base;
                return 0;
            }
            pending_push(p, &payload, sizeof(payload));
            payloads++;
        } while (consume_if(p, SPX_TOKEN_COMMA));
        variant.payloads = pending_take(p, payload_base, p->arena, _Alignof(spx_param_t));
        variant.payload_count = payloads;
        if (!expect(p, SPX_TOKEN_RPAREN))
            return 0;
    }
    pending_push(p, &variant, sizeof(variant));
    return 1;
}

/* "enum" TYPENAME "{" variant ("," variant)* [","] "}", after ["export"]
 * from start. A lowercase enum or variant name is E0230 and still read; an
 * item that fails otherwise (no variant: E0220) is skipped and left out. */
static void parse_enum(parser_t *p, items_t *items, spx_position_t start, int exported)
{
    spx_enum_t *item = SPX_ARENA_NEW(p->arena, spx_enum_t);
    item->module = p->module;
    item->exported = exported;
    if (!parse_type_item_opening(p, items, start, "an enum name", &item->name))
        return;
    item->variants =
        parse_braced_elements(p, parse_variant, _Alignof(spx_variant_t), &item->variant_count);
    if (!item->variants) {
        leave_out(p, items, item->name.text, start);
        return;
    }
    item->span = span_from(p, start);
    APR_ARRAY_PUSH(items->enums, spx_enum_t *) = item;
}

/* "const" IDENT ":" type "=" expr ";", after ["export"] from start. The
 * value (and its string literals) goes with the declarations. An item that
 * fails is skipped and left out. */
static void parse_const(parser_t *p, items_t *items, spx_position_t start, int exported)
{
    spx_const_t *item = SPX_ARENA_NEW(p->arena, spx_const_t);
    item->module = p->module;
    item->exported = exported;
    advance(p); /* const */
    if (!expect_name(p, "a constant name", &item->name) || !expect(p, SPX_TOKEN_COLON) ||
        !parse_type(p, p->arena, &item->type, &item->type_span, &item->type_syntax) ||
        p->token.kind != SPX_TOKEN_ASSIGN) {
        if (!item_has_error(p))
            expected(p, "'='");
        leave_out(p, items, item->name.text, start);
        return;
    }
    /* The token after "=" is read with the declarations' arena. */
    spx_arena_t *bodies = p->bodies;
    p->bodies = p->arena;
    spx_lexer_set_literals(&p->lexer, p->arena);
    advance(p); /* = */
    item->value = parse_expr(p);
    p->bodies = bodies;
    spx_lexer_set_literals(&p->lexer, bodies);
    if (!item->value || !expect(p, SPX_TOKEN_SEMICOLON)) {
        leave_out(p, items, item->name.text, start);
        return;
    }
    item->span = span_from(p, start);
    APR_ARRAY_PUSH(items->consts, spx_const_t *) = item;
}

/* ["export"] ("fn" | "struct" | "const") ... */
static void parse_item(parser_t *p, items_t *items)
{
    spx_position_t start = p->token.span.start;
    begin_item(p);
    int exported = consume_if(p, SPX_TOKEN_EXPORT);
    switch (p->token.kind) {
    case SPX_TOKEN_FN:
        parse_function(p, items, start, exported);
        break;
    case SPX_TOKEN_STRUCT:
        parse_struct(p, items, start, exported);
        break;
    case SPX_TOKEN_CONST:
        parse_const(p, items, start, exported);
        break;
    case SPX_TOKEN_ENUM:
        parse_enum(p, items, start, exported);
        break;
    default:
        expected(p, "'fn', 'struct' or 'const' after 'export'");
        sync_item(p, start);
        break;
    }
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
        spx_lexer_error(
            &p->lexer, SPX_E0223, import.span,
            "import after an item (a function, struct or const): imports come first in a file");
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
    items_t items = {functions,
                     unreadable,
                     apr_array_make(scratch, 4, sizeof(spx_struct_t *)),
                     apr_array_make(scratch, 4, sizeof(spx_const_t *)),
                     apr_array_make(scratch, 4, sizeof(const char *)),
                     apr_array_make(scratch, 4, sizeof(spx_enum_t *)),
                     0};
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
        int item_count = 0;
        while (p->token.kind != SPX_TOKEN_EOF) {
            if (p->token.kind == SPX_TOKEN_IMPORT) {
                parse_import(p, imports, item_count > 0);
            } else if (ends_item(p->token.kind)) {
                item_count++;
                parse_item(p, &items);
            } else {
                begin_item(p);
                expected(p, "'fn', 'struct', 'const', 'export' or 'import'");
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
    module->struct_count = (apr_size_t)items.structs->nelts;
    module->structs =
        SPX_ARENA_COPY(arena, spx_struct_t *, items.structs->elts, module->struct_count);
    module->const_count = (apr_size_t)items.consts->nelts;
    module->consts = SPX_ARENA_COPY(arena, spx_const_t *, items.consts->elts, module->const_count);
    module->enum_count = (apr_size_t)items.enums->nelts;
    module->enums = SPX_ARENA_COPY(arena, spx_enum_t *, items.enums->elts, module->enum_count);
    module->unreadable_item_count = (apr_size_t)items.left_out->nelts;
    module->unreadable_items =
        SPX_ARENA_COPY(arena, const char *, items.left_out->elts, module->unreadable_item_count);
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
