/*
 * format.c: the canonical layout of a Semaprax source (spx_format.h,
 * docs/fmt.md), for `semaprax fmt`.
 *
 * A source is formatted only when it parses without a diagnostic. Its
 * tokens are then read again by the lexer, and the bytes between two tokens
 * (white space and `//` comments only, since it lexed cleanly) are scanned
 * for comments and blank lines. The layout is written from that token list
 * by a small recursive reader that follows the grammar's statement shape
 * (items, blocks, `if`/`while`/`for` headers, statements up to `;`); within
 * a statement, the space between two tokens depends on those two tokens
 * only. Recursion follows blocks, which the parser has already bounded by
 * SPX_LIMIT_PARSE_DEPTH. Before returning, the result is lexed again and
 * compared with the source, token by token and comment by comment, and
 * parsed again: it must parse as cleanly as the source did.
 *
 * Memory stays below what `check` takes on the same source (docs/fmt.md):
 * each stage's data goes once the next has what it needs (the source's tree
 * once it parsed cleanly, the token lists once compared, the second tree once
 * it parsed), the token lists are counted before they are filled, so they
 * are allocated once at their exact size, with offsets of 32 bits (a source
 * is at most SPX_LIMIT_SOURCE_BYTES), and the layout stops growing once it
 * is over that limit: it is then refused without being checked.
 */
#include "spx_format.h"

#include "spx_arena.h"
#include "spx_ast.h"
#include "spx_lexer.h"
#include "spx_limits.h"
#include "spx_utf8.h"

#include <stdint.h>
#include <string.h>

/* Offsets into a source or its layout fit 32 bits. */
_Static_assert(SPX_LIMIT_SOURCE_BYTES < UINT32_MAX, "format.c keeps offsets in 32 bits");

/* Spaces per block level. */
#define INDENT_WIDTH 4

/* One `//` comment: its bytes (without the line end), and where it stands. */
typedef struct comment_t {
    uint32_t start, end;
    unsigned char trailing;     /* on the line of the token before it */
    unsigned char blank_before; /* a blank line between it and what comes before */
} comment_t;

/* One token, with the comments that come before it. */
typedef struct layout_token_t {
    uint32_t start, end;
    uint32_t first_comment, comment_count;
    unsigned char kind;         /* a spx_token_kind_t */
    unsigned char blank_before; /* a blank line between the last comment (or token) and it */
} layout_token_t;

/* The source read as tokens and comments. While counting, tokens and
 * comments are NULL and only the counts grow. */
typedef struct token_list_t {
    layout_token_t *tokens;
    apr_size_t count;
    comment_t *comments;
    apr_size_t comment_total;
} token_list_t;

/* The growing output: in a pool of its own (a child of the caller's), which
 * a larger buffer replaces, so no outgrown copy stays; it stops growing once
 * over SPX_LIMIT_SOURCE_BYTES (over is set, and nothing more is written). */
typedef struct output_t {
    char *bytes;
    apr_size_t length, capacity;
    apr_pool_t *parent;
    apr_pool_t *pool;
    int over;
} output_t;

typedef struct emitter_t {
    const unsigned char *text;
    const token_list_t *list;
    apr_size_t at; /* the next token */
    output_t out;
    apr_size_t content_start; /* after a byte order mark kept at the start */
    const char *line_end;     /* "\n", or "\r\n" for a source whose first line ends so */
    unsigned level;           /* block depth */
    int line_empty;           /* nothing written on the current line */
    int line_commented;       /* the current line ends in a comment: nothing more goes on it */
    int pending_break;        /* the next token starts a new line */
    int pending_blank;        /* and a blank line comes before it (between items) */
    int blank_ok;             /* the source's blank line before the next token may stay */
    spx_token_kind_t last;    /* the last token written */
    int last_unary;           /* it was a unary operator */
    /* language v3: per open brace of the current run, 1 when it is a map's
     * (a literal or a type: written tight, {"a": 1}, {str: int}), 0 a
     * struct literal's (P { x: 1 }) */
    unsigned char map_brace[SPX_LIMIT_PARSE_DEPTH + 2];
    int last_map_open; /* the last token written opened a map */
} emitter_t;

/* --- reading ---------------------------------------------------------------- */

/* Scan the bytes between two tokens for comments; fill the token's fields
 * and add the comments to list (only count them while counting). */
static void scan_gap(const unsigned char *text, apr_size_t from, apr_size_t to, int after_token,
                     layout_token_t *token, token_list_t *list)
{
    unsigned newlines = 0;
    int any_comment = 0;
    token->first_comment = (uint32_t)list->comment_total;
    token->comment_count = 0;
    for (apr_size_t i = from; i < to;) {
        if (text[i] == '\n') {
            newlines++;
            i++;
        } else if (text[i] == '/' && i + 1 < to && text[i + 1] == '/') {
            comment_t comment;
            comment.start = (uint32_t)i;
            while (i < to && text[i] != '\n' && text[i] != '\r')
                i++;
            comment.end = (uint32_t)i;
            while (comment.end > comment.start &&
                   (text[comment.end - 1] == ' ' || text[comment.end - 1] == '\t'))
                comment.end--;
            comment.trailing = after_token && !any_comment && newlines == 0;
            comment.blank_before = newlines >= 2;
            if (list->comments)
                list->comments[list->comment_total] = comment;
            list->comment_total++;
            token->comment_count++;
            any_comment = 1;
            newlines = 0;
        } else {
            i++;
        }
    }
    token->blank_before = newlines >= 2;
}

/* Lex text into list: count its tokens and comments while list's arrays
 * are NULL, else fill them (counted before). 0 when the lexer reported
 * anything. The lexer's names and literals go with a pool of their own. */
static int lex_into(const unsigned char *text, apr_size_t length, token_list_t *list,
                    apr_pool_t *pool)
{
    apr_pool_t *lexing = NULL;
    apr_pool_create(&lexing, pool);
    spx_diagnostics_t *diagnostics = spx_diagnostics_make(lexing);
    spx_arena_t *arena = spx_arena_make(lexing);
    spx_lexer_t lexer;
    spx_lexer_init(&lexer, text, length, "", arena, arena, diagnostics);
    list->count = 0;
    list->comment_total = 0;
    apr_size_t previous_end = lexer.offset; /* after a byte order mark */
    int clean = 1;
    for (;;) {
        spx_token_t token;
        spx_lexer_next(&lexer, &token);
        if (token.kind == SPX_TOKEN_ERROR) {
            clean = 0;
            break;
        }
        layout_token_t entry;
        entry.kind = (unsigned char)token.kind;
        entry.start = (uint32_t)token.span.start.offset;
        entry.end = (uint32_t)token.span.end.offset;
        scan_gap(text, previous_end, entry.start, list->count > 0, &entry, list);
        if (list->tokens)
            list->tokens[list->count] = entry;
        list->count++;
        previous_end = entry.end;
        if (token.kind == SPX_TOKEN_EOF)
            break;
    }
    clean = clean && spx_diagnostics_count(diagnostics) == 0;
    apr_pool_destroy(lexing);
    return clean;
}

/* Lex text into tokens and comments, in pool: counted first, then filled,
 * so each list is allocated once at its exact size. 0 when the lexer
 * reported anything. */
static int read_tokens(const unsigned char *text, apr_size_t length, token_list_t *list,
                       apr_pool_t *pool)
{
    memset(list, 0, sizeof(*list));
    if (!lex_into(text, length, list, pool))
        return 0;
    list->tokens = apr_palloc(pool, list->count * sizeof(layout_token_t));
    list->comments = apr_palloc(pool, (list->comment_total + 1) * sizeof(comment_t));
    return lex_into(text, length, list, pool);
}

/* --- writing ---------------------------------------------------------------- */

/* Make room for capacity bytes (at most the limit and a NUL) in a new pool
 * of the output's own, letting the smaller buffer go. */
static void output_reserve(output_t *out, apr_size_t capacity)
{
    if (capacity > SPX_LIMIT_SOURCE_BYTES + 1)
        capacity = SPX_LIMIT_SOURCE_BYTES + 1;
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, out->parent);
    char *bytes = apr_palloc(pool, capacity);
    if (out->length)
        memcpy(bytes, out->bytes, out->length);
    if (out->pool)
        apr_pool_destroy(out->pool);
    out->pool = pool;
    out->bytes = bytes;
    out->capacity = capacity;
}

static void put(emitter_t *e, const char *bytes, apr_size_t length)
{
    output_t *out = &e->out;
    e->line_empty = 0;
    if (out->over || out->length + length > SPX_LIMIT_SOURCE_BYTES) {
        out->over = 1; /* refused: nothing more is kept */
        return;
    }
    if (out->length + length + 1 > out->capacity) {
        apr_size_t capacity = out->capacity * 2;
        while (capacity < out->length + length + 1)
            capacity *= 2;
        output_reserve(out, capacity);
    }
    memcpy(out->bytes + out->length, bytes, length);
    out->length += length;
}

static void end_line(emitter_t *e)
{
    put(e, e->line_end, strlen(e->line_end));
    e->line_empty = 1;
    e->line_commented = 0;
}

static void indent(emitter_t *e, unsigned levels)
{
    for (unsigned i = 0; i < levels; i++)
        put(e, "    ", INDENT_WIDTH);
    e->line_empty = 0;
}

static int at_file_start(const emitter_t *e)
{
    return e->out.length == e->content_start;
}

static const layout_token_t *current(const emitter_t *e)
{
    return &e->list->tokens[e->at];
}

static spx_token_kind_t current_kind(const emitter_t *e)
{
    return e->list->tokens[e->at].kind;
}

/* A line break now, with a blank line before what follows when asked for. */
static void break_line(emitter_t *e, int blank)
{
    if (!e->line_empty)
        end_line(e);
    if (blank && !at_file_start(e))
        end_line(e);
    e->line_empty = 1;
}

/* Write the current token's comments, then (when write is set) the token:
 * on a new line at token_indent when a break is due, else after a space
 * when space is set. Own-line comments stand at comment_indent. */
static void emit(emitter_t *e, int space, unsigned comment_indent, unsigned token_indent, int write)
{
    const layout_token_t *token = current(e);
    int blank_ok = e->blank_ok;
    for (apr_size_t c = 0; c < token->comment_count; c++) {
        const comment_t *comment = &e->list->comments[token->first_comment + c];
        /* A trailing comment stays after its code, unless a comment already
         * ends that line (the comma between them was dropped): then it
         * stands on a line of its own, and the two are never merged. */
        if (comment->trailing && !e->line_empty && !e->line_commented) {
            put(e, " ", 1);
            put(e, (const char *)e->text + comment->start, comment->end - comment->start);
            e->pending_break = 1;
            e->line_commented = 1;
            continue;
        }
        break_line(e, e->pending_blank || (comment->blank_before && blank_ok));
        e->pending_blank = 0;
        indent(e, comment_indent);
        put(e, (const char *)e->text + comment->start, comment->end - comment->start);
        end_line(e);
    }
    e->at++;
    if (!write)
        return;
    if (token->kind == SPX_TOKEN_EOF) {
        if (!e->line_empty)
            end_line(e);
        return;
    }
    if (e->line_empty || e->pending_break) {
        int blank = e->pending_blank ||
                    (token->blank_before && blank_ok && token->kind != SPX_TOKEN_RBRACE);
        break_line(e, blank);
        indent(e, token_indent);
    } else if (space) {
        put(e, " ", 1);
    }
    put(e, (const char *)e->text + token->start, token->end - token->start);
    e->pending_break = 0;
    e->pending_blank = 0;
    e->blank_ok = 0;
    e->last_unary = 0;
    e->last = token->kind;
}

/* A token after which a binary operator, an index or a call may follow. */
static int ends_operand(spx_token_kind_t kind)
{
    switch (kind) {
    case SPX_TOKEN_IDENTIFIER:
    case SPX_TOKEN_INTEGER:
    case SPX_TOKEN_BYTE:
    case SPX_TOKEN_STRING:
    case SPX_TOKEN_TRUE:
    case SPX_TOKEN_FALSE:
    case SPX_TOKEN_RPAREN:
    case SPX_TOKEN_RBRACKET:
    case SPX_TOKEN_RBRACE:
        return 1;
    default:
        return 0;
    }
}

/* Whether a space goes between the last token written and kind, within a
 * statement. */
static int space_before(const emitter_t *e, spx_token_kind_t kind)
{
    spx_token_kind_t last = e->last;
    if (e->last_unary)
        return 0;
    switch (kind) {
    case SPX_TOKEN_COMMA:
    case SPX_TOKEN_SEMICOLON:
    case SPX_TOKEN_COLON:
    case SPX_TOKEN_RPAREN:
    case SPX_TOKEN_RBRACKET:
    case SPX_TOKEN_DOT:
    case SPX_TOKEN_DOTDOT:
        return 0;
    case SPX_TOKEN_LPAREN:
        if (last == SPX_TOKEN_IDENTIFIER)
            return 0;
        break;
    case SPX_TOKEN_LBRACKET:
        if (ends_operand(last))
            return 0;
        break;
    default:
        break;
    }
    return !(last == SPX_TOKEN_LPAREN || last == SPX_TOKEN_LBRACKET || last == SPX_TOKEN_DOT ||
             last == SPX_TOKEN_DOTDOT);
}

static int is_unary(const emitter_t *e, spx_token_kind_t kind)
{
    return kind == SPX_TOKEN_BANG || kind == SPX_TOKEN_TILDE ||
           (kind == SPX_TOKEN_MINUS && !ends_operand(e->last));
}

/* Write tokens on one line (breaking only after a comment) until, outside
 * brackets, the current token is stop or other_stop (not written). The
 * first token goes after a space when first_space is set (or on its own
 * line when a break is due); a comma just before a closing bracket is
 * dropped. */
static void emit_run(emitter_t *e, spx_token_kind_t stop, spx_token_kind_t other_stop,
                     int first_space)
{
    unsigned depth = 0;
    int first = 1;
    for (;;) {
        spx_token_kind_t kind = current_kind(e);
        if (kind == SPX_TOKEN_EOF)
            return;
        if (depth == 0 && (kind == stop || kind == other_stop))
            return;
        if (kind == SPX_TOKEN_RPAREN || kind == SPX_TOKEN_RBRACKET || kind == SPX_TOKEN_RBRACE) {
            if (depth == 0)
                return;
            depth--;
        }
        int space = first ? first_space : space_before(e, kind);
        /* language v3: a map's braces hug what they hold, as an array's
         * brackets do ({}, {"a": 1}, {str: [int]}); a struct literal's "{"
         * follows its name */
        int map_open = kind == SPX_TOKEN_LBRACE && e->last != SPX_TOKEN_IDENTIFIER;
        if (e->last_map_open ||
            (kind == SPX_TOKEN_RBRACE && depth <= SPX_LIMIT_PARSE_DEPTH && e->map_brace[depth]))
            space = 0;
        int unary = is_unary(e, kind);
        unsigned indent_of_token = first ? e->level : e->level + 1;
        if (kind == SPX_TOKEN_COMMA) {
            spx_token_kind_t next = e->list->tokens[e->at + 1].kind;
            if (next == SPX_TOKEN_RBRACKET || next == SPX_TOKEN_RBRACE) {
                emit(e, 0, e->level + 1, e->level + 1, 0);
                continue;
            }
        }
        emit(e, space, indent_of_token, indent_of_token, 1);
        e->last_unary = unary;
        e->last_map_open = map_open;
        if (kind == SPX_TOKEN_LPAREN || kind == SPX_TOKEN_LBRACKET || kind == SPX_TOKEN_LBRACE) {
            if (depth <= SPX_LIMIT_PARSE_DEPTH)
                e->map_brace[depth] = (unsigned char)map_open;
            depth++;
        }
        first = 0;
    }
}

static void emit_block(emitter_t *e);

/* v3: whether the "match" at the current token starts a match statement:
 * an expression and then "{" follow it (the parser's rule, parser.c
 * match_starts), else it is a v2 program's name ("match(x);"). */
static int match_statement(const emitter_t *e)
{
    long depth = 0;
    for (apr_size_t i = e->at + 1; i < e->list->count; i++) {
        switch (e->list->tokens[i].kind) {
        case SPX_TOKEN_LPAREN:
        case SPX_TOKEN_LBRACKET:
            depth++;
            break;
        case SPX_TOKEN_LBRACE:
            if (depth == 0)
                return i > e->at + 1;
            depth++;
            break;
        case SPX_TOKEN_RPAREN:
        case SPX_TOKEN_RBRACKET:
        case SPX_TOKEN_RBRACE:
            if (--depth < 0)
                return 0;
            break;
        case SPX_TOKEN_SEMICOLON:
        case SPX_TOKEN_ASSIGN:
        case SPX_TOKEN_EOF:
            return 0;
        default:
            break;
        }
    }
    return 0;
}

/* v3: a match's arms, one level in: each "pattern => {" on its own line,
 * its block as any block, no comma after it (rustfmt's layout of arms whose
 * bodies are blocks); "}" of the match on its own line. */
static void emit_arms(emitter_t *e)
{
    emit(e, 1, e->level + 1, e->level + 1, 1); /* { */
    e->level++;
    e->blank_ok = 0;
    while (current_kind(e) != SPX_TOKEN_RBRACE && current_kind(e) != SPX_TOKEN_EOF) {
        e->pending_break = 1;
        e->last = SPX_TOKEN_SEMICOLON;
        e->last_unary = 0;
        apr_size_t before = e->at;
        emit_run(e, SPX_TOKEN_LBRACE, SPX_TOKEN_LBRACE, 1);
        emit_block(e);
        if (current_kind(e) == SPX_TOKEN_COMMA)
            emit(e, 0, e->level + 1, e->level + 1, 0); /* dropped */
        e->blank_ok = 1;
        if (e->at == before) /* cannot happen after a clean parse; never loop */
            emit(e, 1, e->level, e->level, 1);
    }
    e->level--;
    e->pending_break = 1;
    e->blank_ok = 1;
    emit(e, 0, e->level + 1, e->level, 1);
}

/* One statement of a block, starting on its own line. */
static void emit_statement(emitter_t *e)
{
    e->pending_break = 1;
    e->last = SPX_TOKEN_SEMICOLON;
    e->last_unary = 0;
    switch (current_kind(e)) {
    case SPX_TOKEN_IF:
        for (;;) {
            emit_run(e, SPX_TOKEN_LBRACE, SPX_TOKEN_LBRACE, 1);
            emit_block(e);
            if (current_kind(e) != SPX_TOKEN_ELSE)
                break;
            emit(e, 1, e->level, e->level, 1);
            if (current_kind(e) != SPX_TOKEN_IF) {
                emit_block(e);
                break;
            }
        }
        break;
    case SPX_TOKEN_WHILE:
    case SPX_TOKEN_FOR:
        emit_run(e, SPX_TOKEN_LBRACE, SPX_TOKEN_LBRACE, 1);
        emit_block(e);
        break;
    case SPX_TOKEN_MATCH:
        if (!match_statement(e))
            goto expression;
        emit_run(e, SPX_TOKEN_LBRACE, SPX_TOKEN_LBRACE, 1);
        if (current_kind(e) == SPX_TOKEN_LBRACE)
            emit_arms(e);
        break;
    default:
    expression:
        emit_run(e, SPX_TOKEN_SEMICOLON, SPX_TOKEN_SEMICOLON, 1);
        if (current_kind(e) == SPX_TOKEN_SEMICOLON)
            emit(e, 0, e->level + 1, e->level + 1, 1);
        break;
    }
}

/* `{`, the statements one per line one level in, `}` on its own line; `{}`
 * when there is nothing inside. */
static void emit_block(emitter_t *e)
{
    if (current_kind(e) != SPX_TOKEN_LBRACE)
        return;
    emit(e, 1, e->level + 1, e->level + 1, 1);
    if (current_kind(e) == SPX_TOKEN_RBRACE && current(e)->comment_count == 0) {
        emit(e, 0, e->level, e->level, 1);
        return;
    }
    e->level++;
    e->blank_ok = 0;
    while (current_kind(e) != SPX_TOKEN_RBRACE && current_kind(e) != SPX_TOKEN_EOF) {
        apr_size_t before = e->at;
        emit_statement(e);
        e->blank_ok = 1;
        if (e->at == before) /* cannot happen after a clean parse; never loop */
            emit(e, 1, e->level, e->level, 1);
    }
    e->level--;
    e->pending_break = 1;
    e->blank_ok = 1;
    emit(e, 0, e->level + 1, e->level, 1);
}

/* A struct declaration's body: one field per line, each ended by a comma;
 * and (v3) an enum's: one variant per line, each ended by a comma. */
static void emit_fields(emitter_t *e)
{
    emit(e, 1, e->level + 1, e->level + 1, 1); /* { */
    e->level++;
    e->blank_ok = 0;
    while (current_kind(e) != SPX_TOKEN_RBRACE && current_kind(e) != SPX_TOKEN_EOF) {
        e->pending_break = 1;
        e->last = SPX_TOKEN_SEMICOLON;
        apr_size_t before = e->at;
        emit_run(e, SPX_TOKEN_COMMA, SPX_TOKEN_RBRACE, 1);
        if (current_kind(e) == SPX_TOKEN_COMMA)
            emit(e, 0, e->level + 1, e->level + 1, 1);
        else
            put(e, ",", 1);
        e->blank_ok = 1;
        if (e->at == before)
            emit(e, 1, e->level, e->level, 1);
    }
    e->level--;
    e->pending_break = 1;
    emit(e, 0, e->level + 1, e->level, 1);
}

/* What the current item is: its keyword after any `export`. */
static spx_token_kind_t item_kind(const emitter_t *e)
{
    apr_size_t at = e->at;
    if (e->list->tokens[at].kind == SPX_TOKEN_EXPORT)
        at++;
    return e->list->tokens[at].kind;
}

/* One import or item, starting on its own line. */
static void emit_item(emitter_t *e)
{
    e->pending_break = 1;
    e->last = SPX_TOKEN_SEMICOLON;
    e->last_unary = 0;
    switch (item_kind(e)) {
    case SPX_TOKEN_FN:
        emit_run(e, SPX_TOKEN_LBRACE, SPX_TOKEN_LBRACE, 1);
        if (e->last == SPX_TOKEN_ARROW && current_kind(e) == SPX_TOKEN_LBRACE) {
            /* language v3: "-> {K: V}", a map result type, before the body */
            emit(e, 1, e->level + 1, e->level + 1, 1);
            e->last_map_open = 1;
            e->map_brace[0] = 1;
            emit_run(e, SPX_TOKEN_RBRACE, SPX_TOKEN_RBRACE, 0);
            emit(e, 0, e->level + 1, e->level + 1, 1);
            e->last_map_open = 0;
        }
        emit_block(e);
        break;
    case SPX_TOKEN_STRUCT:
    case SPX_TOKEN_ENUM:
        emit_run(e, SPX_TOKEN_LBRACE, SPX_TOKEN_LBRACE, 1);
        if (current_kind(e) == SPX_TOKEN_LBRACE)
            emit_fields(e);
        break;
    default: /* import, const */
        emit_run(e, SPX_TOKEN_SEMICOLON, SPX_TOKEN_SEMICOLON, 1);
        if (current_kind(e) == SPX_TOKEN_SEMICOLON)
            emit(e, 0, e->level + 1, e->level + 1, 1);
        break;
    }
}

static void emit_file(emitter_t *e)
{
    spx_token_kind_t previous = SPX_TOKEN_EOF;
    int any = 0;
    while (current_kind(e) != SPX_TOKEN_EOF) {
        spx_token_kind_t kind = item_kind(e);
        /* One blank line between items; a run of imports, or of consts,
         * keeps the source's (at most one). */
        e->pending_blank =
            any && !(kind == previous && (kind == SPX_TOKEN_IMPORT || kind == SPX_TOKEN_CONST));
        e->blank_ok = 1;
        apr_size_t before = e->at;
        emit_item(e);
        if (e->at == before)
            emit(e, 1, 0, 0, 1);
        previous = kind;
        any = 1;
    }
    e->pending_break = 1;
    e->blank_ok = 1;
    emit(e, 0, 0, 0, 1); /* the comments at the end, and the last line end */
}

/* --- the self-check ----------------------------------------------------------- */

/* v3: whether the tokens from i on start a match arm: IDENT ["(" IDENT
 * ("," IDENT)* ")"] "=>". */
static int starts_arm(const token_list_t *list, apr_size_t i)
{
    if (i >= list->count || list->tokens[i].kind != SPX_TOKEN_IDENTIFIER)
        return 0;
    i++;
    if (i < list->count && list->tokens[i].kind == SPX_TOKEN_LPAREN) {
        for (i++; i < list->count && (list->tokens[i].kind == SPX_TOKEN_IDENTIFIER ||
                                      list->tokens[i].kind == SPX_TOKEN_COMMA);
             i++)
            ;
        if (i >= list->count || list->tokens[i].kind != SPX_TOKEN_RPAREN)
            return 0;
        i++;
    }
    return i < list->count && list->tokens[i].kind == SPX_TOKEN_FAT_ARROW;
}

/* Whether the token at i is a comma the layout may drop or add: one right
 * before a closing bracket or brace, or (v3) one between a match arm's
 * block and the next arm. */
static int optional_comma(const token_list_t *list, apr_size_t i)
{
    if (list->tokens[i].kind != SPX_TOKEN_COMMA || i + 1 >= list->count)
        return 0;
    return list->tokens[i + 1].kind == SPX_TOKEN_RBRACE ||
           list->tokens[i + 1].kind == SPX_TOKEN_RBRACKET ||
           (i > 0 && list->tokens[i - 1].kind == SPX_TOKEN_RBRACE && starts_arm(list, i + 1));
}

/* Same tokens (apart from optional commas) with the same bytes, and the
 * same comments in the same order. */
static int same_program(const unsigned char *a_text, const token_list_t *a,
                        const unsigned char *b_text, const token_list_t *b)
{
    apr_size_t i = 0, j = 0;
    for (;;) {
        while (i < a->count && optional_comma(a, i))
            i++;
        while (j < b->count && optional_comma(b, j))
            j++;
        if (i == a->count || j == b->count)
            break;
        const layout_token_t *x = &a->tokens[i++], *y = &b->tokens[j++];
        if (x->kind != y->kind || x->end - x->start != y->end - y->start ||
            memcmp(a_text + x->start, b_text + y->start, x->end - x->start) != 0)
            return 0;
    }
    if (i != a->count || j != b->count || a->comment_total != b->comment_total)
        return 0;
    for (apr_size_t c = 0; c < a->comment_total; c++) {
        const comment_t *x = &a->comments[c], *y = &b->comments[c];
        if (x->end - x->start != y->end - y->start ||
            memcmp(a_text + x->start, b_text + y->start, x->end - x->start) != 0)
            return 0;
    }
    return 1;
}

/* Whether text parses without a diagnostic (the layout must, as its source did). */
static int parses_cleanly(const unsigned char *text, apr_size_t length, const char *path,
                          apr_pool_t *pool)
{
    spx_diagnostics_t *diagnostics = spx_diagnostics_make(pool);
    spx_arena_t *arena = spx_arena_make(pool);
    spx_parse_module(spx_module_make("fmt", path, text, length, arena), arena, arena, pool,
                     diagnostics);
    return spx_diagnostics_count(diagnostics) == 0;
}

/* --- the entry points ------------------------------------------------------- */

static const char *first_line_end(const unsigned char *text, apr_size_t length)
{
    const unsigned char *lf = memchr(text, '\n', length);
    return lf && lf > text && lf[-1] == '\r' ? "\r\n" : "\n";
}

spx_format_outcome_t spx_format_source(const unsigned char *text, apr_size_t length,
                                       const char *path, char **formatted,
                                       apr_size_t *formatted_length, spx_diagnostics_t *diagnostics,
                                       apr_pool_t *pool)
{
    *formatted = NULL;
    *formatted_length = 0;
    if (length > SPX_LIMIT_SOURCE_BYTES)
        return SPX_FORMAT_TOO_LARGE; /* no source is that large: refused before any work */

    /* Only a source that parses cleanly is formatted; its tree goes as soon
     * as it has said so (a syntax error's diagnostics may point into it, so
     * then it stays with pool). */
    apr_size_t reported = spx_diagnostics_count(diagnostics);
    apr_pool_t *parsing = NULL;
    apr_pool_create(&parsing, pool);
    spx_arena_t *arena = spx_arena_make(parsing);
    spx_module_t *module = spx_module_make("fmt", path, text, length, arena);
    spx_parse_module(module, arena, arena, parsing, diagnostics);
    if (spx_diagnostics_count(diagnostics) > reported)
        return SPX_FORMAT_SYNTAX;
    apr_pool_destroy(parsing);

    apr_pool_t *scratch = NULL;
    apr_pool_create(&scratch, pool);
    token_list_t source;
    if (!read_tokens(text, length, &source, scratch)) {
        apr_pool_destroy(scratch);
        return SPX_FORMAT_SYNTAX;
    }

    emitter_t e;
    memset(&e, 0, sizeof(e));
    e.text = text;
    e.list = &source;
    e.out.parent = pool;
    output_reserve(&e.out, length + length / 4 + 64);
    e.line_end = first_line_end(text, length);
    e.line_empty = 1;
    e.last = SPX_TOKEN_SEMICOLON;
    apr_size_t mark = spx_byte_order_mark_length((const char *)text, length);
    if (mark)
        put(&e, (const char *)text, mark);
    e.content_start = e.out.length;
    e.line_empty = 1;
    emit_file(&e);
    if (e.out.over) {
        apr_pool_destroy(scratch);
        apr_pool_destroy(e.out.pool);
        return SPX_FORMAT_TOO_LARGE;
    }
    e.out.bytes[e.out.length] = '\0';

    /* The self-check: the same tokens and comments (the two lists go once
     * compared), then a clean parse of the layout (its tree goes after). */
    spx_format_outcome_t outcome = SPX_FORMAT_DONE;
    token_list_t result;
    if (!read_tokens((const unsigned char *)e.out.bytes, e.out.length, &result, scratch) ||
        !same_program(text, &source, (const unsigned char *)e.out.bytes, &result))
        outcome = SPX_FORMAT_SELF_CHECK;
    apr_pool_destroy(scratch);
    if (outcome == SPX_FORMAT_DONE) {
        apr_pool_create(&parsing, pool);
        if (!parses_cleanly((const unsigned char *)e.out.bytes, e.out.length, path, parsing))
            outcome = SPX_FORMAT_SELF_CHECK;
        apr_pool_destroy(parsing);
    }
    if (outcome != SPX_FORMAT_DONE) {
        apr_pool_destroy(e.out.pool);
        return outcome;
    }
    *formatted = e.out.bytes;
    *formatted_length = e.out.length;
    return SPX_FORMAT_DONE;
}

/* The probe at point, when there is one. */
static apr_status_t probe_write(const spx_format_probe_t *probe, spx_commit_point_t point,
                                const char **message, apr_pool_t *pool)
{
    if (!probe)
        return APR_SUCCESS;
    return spx_commit_probe_at(probe->probe, probe->context, point, probe->file, probe->files,
                               message, pool);
}

apr_status_t spx_format_replace(spx_dir_t *dir, const char *name, spx_file_t *like,
                                const char *bytes, apr_size_t length, const unsigned char *read,
                                apr_size_t read_length, const spx_format_probe_t *probe,
                                apr_pool_t *pool, const char **message)
{
    spx_swap_t swap = {.expected = read,
                       .expected_length = read_length,
                       .retry = {SPX_LIMIT_REPLACE_ATTEMPTS, SPX_LIMIT_REPLACE_FIRST_PAUSE_MS}};
    spx_temp_t *temp = NULL;
    apr_status_t status = probe_write(probe, SPX_COMMIT_CREATE, message, pool);
    if (status == APR_SUCCESS)
        status = spx_temp_create(&temp, dir, name, like, SPX_LIMIT_TEMP_ATTEMPTS, pool, message);
    if (status == APR_SUCCESS)
        status = probe_write(probe, SPX_COMMIT_WRITE, message, pool);
    if (status == APR_SUCCESS)
        status = spx_temp_write(temp, bytes, length, pool, message);
    if (status == APR_SUCCESS)
        status = probe_write(probe, SPX_COMMIT_FLUSH, message, pool);
    if (status == APR_SUCCESS)
        status = spx_temp_flush(temp, pool, message);
    if (status == APR_SUCCESS && spx_replace_needs_release())
        spx_release_for_replace(dir, like);
    if (status == APR_SUCCESS)
        status = probe_write(probe, SPX_COMMIT_REPLACE, message, pool);
    if (status == APR_SUCCESS)
        status = spx_temp_swap_in(temp, name, &swap, pool, message);
    if (status == APR_SUCCESS)
        status = probe_write(probe, SPX_COMMIT_SYNC, message, pool);
    if (status == APR_SUCCESS)
        status = spx_dir_flush(dir, pool, message);
    if (temp)
        spx_temp_discard(temp, pool, NULL);
    return status;
}
