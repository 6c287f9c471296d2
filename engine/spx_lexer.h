/*
 * spx_lexer.h: the tokens of Semaprax (language v2: v1's and the keywords
 * and punctuation v2 adds) and the lexer that produces them (language.md,
 * "Files and modules" and "Lexical").
 *
 * The parser (parser.c) pulls one token at a time; nothing else uses the
 * lexer. The lexer checks every byte of the source (NUL, a CR not followed by
 * LF, control bytes, UTF-8 validity, U+FEFF, also inside comments and
 * strings), skips a leading byte order mark, decodes literals, and reports
 * lexical errors itself (E0202..E0215, docs/diagnostics-syntax.md).
 * Bytes it has reported and cannot turn into a token come back as one
 * SPX_TOKEN_ERROR token, so the parser recovers without a second report.
 * Line and column are tracked as the lexer goes: no token costs more than
 * its own bytes.
 *
 * The lexer also owns the per-source error budget: every lexical and syntax
 * diagnostic goes through spx_lexer_error(), and after
 * SPX_LIMIT_SYNTAX_DIAGNOSTICS of them the lexer reports E0227 once and
 * returns only SPX_TOKEN_EOF, so a hostile file cannot produce unbounded
 * diagnostics.
 */
#ifndef SPX_LEXER_H
#define SPX_LEXER_H

#include "spx_arena.h"
#include "spx_compiler.h"
#include "spx_diagnostics.h"

#include <apr_pools.h>
#include <stdint.h>

/* The keywords of Semaprax, each once (language.md, "Lexical"):
 * X(TOKEN, "word") for the token SPX_TOKEN_<TOKEN> spelled word. Language
 * v1's, then the ones v2 added, which v1 programs may have used as names.
 * The lexer recognizes them from here (spx_keyword_kind), messages spell
 * them from here (spx_token_kind_text), and rename refuses them from here. */
#define SPX_KEYWORDS_V1(X)                                                                         \
    X(FN, "fn")                                                                                    \
    X(EXPORT, "export")                                                                            \
    X(IMPORT, "import")                                                                            \
    X(LET, "let")                                                                                  \
    X(VAR, "var")                                                                                  \
    X(IF, "if")                                                                                    \
    X(ELSE, "else")                                                                                \
    X(WHILE, "while")                                                                              \
    X(RETURN, "return")                                                                            \
    X(TRUE, "true")                                                                                \
    X(FALSE, "false")
#define SPX_KEYWORDS_V2(X)                                                                         \
    X(STRUCT, "struct")                                                                            \
    X(CONST, "const")                                                                              \
    X(FOR, "for")                                                                                  \
    X(IN, "in")                                                                                    \
    X(BREAK, "break")                                                                              \
    X(CONTINUE, "continue")
#define SPX_KEYWORDS_V3(X)                                                                         \
    X(ENUM, "enum")                                                                                \
    X(MATCH, "match")
#define SPX_KEYWORD_TOKEN(token, word) SPX_TOKEN_##token,

typedef enum spx_token_kind_t {
    SPX_TOKEN_EOF = 0,
    SPX_TOKEN_ERROR, /* bytes already reported by the lexer */
    SPX_TOKEN_IDENTIFIER,
    SPX_TOKEN_INTEGER,
    SPX_TOKEN_STRING,
    /* keywords */
    SPX_KEYWORDS_V1(SPX_KEYWORD_TOKEN)
    /* punctuation */
    SPX_TOKEN_LPAREN,    /* ( */
    SPX_TOKEN_RPAREN,    /* ) */
    SPX_TOKEN_LBRACE,    /* { */
    SPX_TOKEN_RBRACE,    /* } */
    SPX_TOKEN_COMMA,     /* , */
    SPX_TOKEN_SEMICOLON, /* ; */
    SPX_TOKEN_COLON,     /* : */
    SPX_TOKEN_DOT,       /* . */
    SPX_TOKEN_ARROW,     /* -> */
    SPX_TOKEN_ASSIGN,    /* = */
    SPX_TOKEN_EQ,        /* == */
    SPX_TOKEN_NE,        /* != */
    SPX_TOKEN_LT,        /* < */
    SPX_TOKEN_LE,        /* <= */
    SPX_TOKEN_GT,        /* > */
    SPX_TOKEN_GE,        /* >= */
    SPX_TOKEN_PLUS,      /* + */
    SPX_TOKEN_MINUS,     /* - */
    SPX_TOKEN_STAR,      /* * */
    SPX_TOKEN_SLASH,     /* / */
    SPX_TOKEN_PERCENT,   /* % */
    SPX_TOKEN_BANG,      /* ! */
    SPX_TOKEN_AND,       /* && */
    SPX_TOKEN_OR,        /* || */
    /* language v2 keywords */
    SPX_KEYWORDS_V2(SPX_KEYWORD_TOKEN)
    /* language v2 punctuation */
    SPX_TOKEN_LBRACKET,  /* [ */
    SPX_TOKEN_RBRACKET,  /* ] */
    SPX_TOKEN_DOTDOT,    /* .. */
    SPX_TOKEN_AMPERSAND, /* & */
    SPX_TOKEN_PIPE,      /* | */
    SPX_TOKEN_CARET,     /* ^ */
    SPX_TOKEN_TILDE,     /* ~ */
    SPX_TOKEN_SHL,       /* << */
    SPX_TOKEN_SHR,       /* >> */
    /* language v3: byte literals and the compound assignment operators */
    SPX_TOKEN_BYTE,       /* 'a': its value in integer (0 after an error) */
    SPX_TOKEN_ADD_ASSIGN, /* += */
    SPX_TOKEN_SUB_ASSIGN, /* -= */
    SPX_TOKEN_MUL_ASSIGN, /* *= */
    SPX_TOKEN_DIV_ASSIGN, /* /= */
    SPX_TOKEN_REM_ASSIGN, /* %= */
    SPX_TOKEN_AND_ASSIGN, /* &= */
    SPX_TOKEN_OR_ASSIGN,  /* |= */
    SPX_TOKEN_XOR_ASSIGN, /* ^= */
    SPX_TOKEN_SHL_ASSIGN, /* <<= */
    SPX_TOKEN_SHR_ASSIGN /* >>= */,
    /* language v3 keywords and punctuation (enums and match) */
    SPX_KEYWORDS_V3(SPX_KEYWORD_TOKEN) SPX_TOKEN_FAT_ARROW /* => */
} spx_token_kind_t;

/* A token: its kind and span, and the fields of its kind (spx_lexer_next
 * sets only those; the others hold whatever they held). */
typedef struct spx_token_t {
    spx_token_kind_t kind;
    spx_span_t span;
    const char *text;  /* IDENTIFIER: the name, NUL-terminated, interned in the arena */
    int64_t integer;   /* INTEGER, BYTE: the value (0 after an error) */
    const char *bytes; /* STRING: the decoded bytes (may contain NUL) */
    apr_size_t length; /* STRING: their count */
} spx_token_t;

/* One source being lexed. Fields are the lexer's; read them, never write. */
typedef struct spx_lexer_t {
    const unsigned char *text;
    apr_size_t length;
    apr_size_t offset;     /* next byte to read */
    apr_size_t line;       /* 1-based line of offset */
    apr_size_t line_start; /* offset of the first byte of that line */
    apr_size_t fast_end;   /* length, or 0 once budget.stopped (spx_lexer_next's fast path) */
    spx_arena_t *names;    /* interned identifiers */
    spx_arena_t *literals; /* decoded string literals */
    /* This source's diagnostics, at most SPX_LIMIT_SYNTAX_DIAGNOSTICS; once
     * budget.stopped, only EOF from now on. */
    spx_diagnostic_budget_t budget;
} spx_lexer_t;

/* Start lexing text (length bytes, at most SPX_LIMIT_SOURCE_BYTES: the parser
 * checks that first). Identifiers are interned in names, string literals
 * decoded into literals; diagnostics go to diagnostics. */
void spx_lexer_init(spx_lexer_t *lexer, const unsigned char *text, apr_size_t length,
                    const char *path, spx_arena_t *names, spx_arena_t *literals,
                    spx_diagnostics_t *diagnostics);

/* The next token; SPX_TOKEN_EOF (an empty span at the end) from the end on. */
void spx_lexer_next(spx_lexer_t *lexer, spx_token_t *token);

/* Report one lexical or syntax error for this source, within its budget
 * (see above); message is a printf format. Returns the diagnostic (to give it
 * a note), or NULL when the budget left it out. */
spx_diagnostic_t *spx_lexer_error(spx_lexer_t *lexer, spx_diagnostic_code_t code, spx_span_t span,
                                  const char *format, ...) SPX_PRINTF_FORMAT(4, 5);

/* The keyword token that the size bytes at word spell, or
 * SPX_TOKEN_IDENTIFIER when they spell none. */
spx_token_kind_t spx_keyword_kind(const char *word, apr_size_t size);

/* How a token kind reads in a message: "';'", "'fn'", "identifier",
 * "end of file". */
const char *spx_token_kind_text(spx_token_kind_t kind);

/* The word of a keyword that language v2 added ("struct", "in", ...), or
 * NULL for any other kind: v1 programs may have used it as a name. */
const char *spx_token_v2_keyword(spx_token_kind_t kind);

/* The word of a keyword that language v3 added ("enum", "match"), or NULL
 * for any other kind: v1 and v2 programs may have used it as a name. */
const char *spx_token_v3_keyword(spx_token_kind_t kind);

/* From now on, decode string literals into literals (the parser keeps a
 * const's value with the declarations, not with the bodies). The token
 * already read ahead, if any, keeps its bytes where they are. */
void spx_lexer_set_literals(spx_lexer_t *lexer, spx_arena_t *literals);

#endif /* SPX_LEXER_H */
