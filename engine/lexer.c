/*
 * lexer.c: bytes to tokens for Semaprax (spx_lexer.h), language v2, with
 * language v3's byte literals and compound assignment operators.
 *
 * One pass, one token at a time, pulled by the parser. Every byte is
 * classified once: in code, in a comment and in a string alike, a NUL, a CR
 * that is not followed by LF, a control byte, invalid UTF-8 or a U+FEFF is
 * an error (a run of equal offenders is one diagnostic). A line ends with LF
 * or CR LF; the CR of a CR LF is a blank that ends comments and strings like
 * the LF. A byte order mark at the very start is skipped, its three bytes
 * still counted (the first token is at column 4). No token spans a line, so
 * a position is the current line plus the distance from its start.
 *
 * Most of a source is printable ASCII, blanks and line feeds: spx_lexer_next
 * reads those by a table (byte_kinds) on a fast path that reports nothing,
 * and leaves every other byte to the general path (lex_general, classify).
 * A short name is interned by its bytes read in place as one word.
 */
#include "spx_lexer.h"

#include "spx_assert.h"
#include "spx_hex.h"
#include "spx_limits.h"
#include "spx_utf8.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* What one byte (or UTF-8 sequence) at an offset is, as far as every
 * context agrees: the context decides what the plain ones mean. */
typedef enum byte_class_t {
    BYTE_PLAIN,   /* printable ASCII, or tab */
    BYTE_LF,      /* line feed */
    BYTE_UTF8,    /* a valid multi-byte UTF-8 sequence */
    BYTE_NUL,     /* E0202 */
    BYTE_INVALID, /* E0203: not the start of a valid UTF-8 sequence */
    BYTE_CR,      /* E0204: a CR not followed by LF */
    BYTE_CRLF,    /* the CR of a CR LF, which ends its line as the LF does */
    BYTE_BOM,     /* E0215: U+FEFF (EF BB BF), except a leading byte order mark */
    BYTE_CONTROL  /* E0205: 0x01..0x1f except tab, LF, CR; and 0x7f */
} byte_class_t;

/* What a byte is to the fast path of spx_lexer_next, by a table: blanks,
 * line feeds and the bytes that start tokens. KIND_OTHER (NUL, control
 * bytes, CR, DEL and every byte from 0x80) and KIND_TEXT (printable bytes
 * that start no token) take the general path, which classifies them.
 * Ordered so that a range test answers the two questions asked most: a
 * byte of a name (from KIND_DIGIT) and a byte a comment holds without a
 * closer look (from KIND_BLANK). */
enum {
    KIND_OTHER = 0,
    KIND_LF,     /* \n */
    KIND_BLANK,  /* space, tab */
    KIND_SLASH,  /* / (a comment, or an operator) */
    KIND_QUOTE,  /* " and ' */
    KIND_TEXT,   /* printable, starts no token: # $ ? @ \ ` */
    KIND_SINGLE, /* a token of one byte whatever follows (single_punctuation()) */
    KIND_PUNCT,  /* starts other punctuation (punctuation()) */
    KIND_DIGIT,  /* 0-9 */
    KIND_WORD    /* A-Z a-z _ */
};

#define O KIND_OTHER
#define L KIND_LF
#define B KIND_BLANK
#define S KIND_SLASH
#define Q KIND_QUOTE
#define T KIND_TEXT
#define P KIND_PUNCT
#define I KIND_SINGLE
#define D KIND_DIGIT
#define W KIND_WORD
static const unsigned char byte_kinds[256] = {
    /* 0x00 */ O, O, O, O, O, O, O, O, O, B, L, O, O, O, O, O,
    /* 0x10 */ O, O, O, O, O, O, O, O, O, O, O, O, O, O, O, O,
    /* 0x20 */ B, P, Q, T, T, P, P, Q, I, I, P, P, I, P, P, S,
    /* 0x30 */ D, D, D, D, D, D, D, D, D, D, I, I, P, P, P, T,
    /* 0x40 */ T, W, W, W, W, W, W, W, W, W, W, W, W, W, W, W,
    /* 0x50 */ W, W, W, W, W, W, W, W, W, W, W, I, T, I, P, W,
    /* 0x60 */ T, W, W, W, W, W, W, W, W, W, W, W, W, W, W, W,
    /* 0x70 */ W, W, W, W, W, W, W, W, W, W, W, I, P, I, I, O,
    /* 0x80 to 0xff: KIND_OTHER */
};
#undef O
#undef L
#undef B
#undef S
#undef Q
#undef T
#undef P
#undef I
#undef D
#undef W

/* Every keyword is 2 to 8 bytes long: spx_keyword_kind has a case for each
 * size in between. */
#define KEYWORD_FITS(token, spelled)                                                               \
    _Static_assert(sizeof(spelled) - 1 >= 2 && sizeof(spelled) - 1 <= 8,                           \
                   "the keyword " spelled " needs a case in spx_keyword_kind");
SPX_KEYWORDS_V1(KEYWORD_FITS)
SPX_KEYWORDS_V2(KEYWORD_FITS)
SPX_KEYWORDS_V3(KEYWORD_FITS)
#undef KEYWORD_FITS

/* spx_keyword_kind, inline where the lexer reads a name. */
static inline spx_token_kind_t keyword_kind(const char *word, apr_size_t size)
{
    /* One case per size: in each, the compiler keeps only the keywords of
     * that size (the size test is a constant), each compared as a few
     * loads. A name costs one switch and a compare or two. */
#define KEYWORD_KIND(token, spelled)                                                               \
    if (sizeof(spelled) - 1 == keyword_size && memcmp(word, spelled, sizeof(spelled) - 1) == 0)    \
        return SPX_TOKEN_##token;
#define KEYWORDS_OF_SIZE(size)                                                                     \
    case size: {                                                                                   \
        enum { keyword_size = size };                                                              \
        SPX_KEYWORDS_V1(KEYWORD_KIND)                                                              \
        SPX_KEYWORDS_V2(KEYWORD_KIND)                                                              \
        SPX_KEYWORDS_V3(KEYWORD_KIND)                                                              \
        break;                                                                                     \
    }
    switch (size) {
        KEYWORDS_OF_SIZE(2)
        KEYWORDS_OF_SIZE(3)
        KEYWORDS_OF_SIZE(4)
        KEYWORDS_OF_SIZE(5)
        KEYWORDS_OF_SIZE(6)
        KEYWORDS_OF_SIZE(7)
        KEYWORDS_OF_SIZE(8)
    default:
        break;
    }
#undef KEYWORDS_OF_SIZE
#undef KEYWORD_KIND
    return SPX_TOKEN_IDENTIFIER;
}

spx_token_kind_t spx_keyword_kind(const char *word, apr_size_t size)
{
    return keyword_kind(word, size);
}

void spx_lexer_init(spx_lexer_t *lexer, const unsigned char *text, apr_size_t length,
                    const char *path, spx_arena_t *names, spx_arena_t *literals,
                    spx_diagnostics_t *diagnostics)
{
    memset(lexer, 0, sizeof(*lexer));
    lexer->text = text;
    lexer->length = length;
    lexer->fast_end = length;
    lexer->line = 1;
    lexer->offset = spx_byte_order_mark_length((const char *)text, length);
    lexer->names = names;
    lexer->literals = literals;
    spx_diagnostic_budget_init(&lexer->budget, diagnostics, path, SPX_LIMIT_SYNTAX_DIAGNOSTICS,
                               SPX_E0227,
                               "too many syntax errors (%u); the rest of the file is not read");
}

void spx_lexer_set_literals(spx_lexer_t *lexer, spx_arena_t *literals)
{
    lexer->literals = literals;
}

spx_diagnostic_t *spx_lexer_error(spx_lexer_t *lexer, spx_diagnostic_code_t code, spx_span_t span,
                                  const char *format, ...)
{
    va_list arguments;
    va_start(arguments, format);
    spx_diagnostic_t *item =
        spx_diagnostic_budget_addv(&lexer->budget, code, span, format, arguments);
    va_end(arguments);
    if (lexer->budget.stopped)
        lexer->fast_end = 0;
    return item;
}

/* Valid only for offsets on the current line (see the file comment). */
static spx_position_t position(const spx_lexer_t *lexer, apr_size_t offset)
{
    spx_position_t at = {(uint32_t)lexer->line, (uint32_t)(offset - lexer->line_start + 1),
                         (uint32_t)offset};
    return at;
}

static spx_span_t span_of(const spx_lexer_t *lexer, apr_size_t start, apr_size_t end)
{
    spx_span_t span = {position(lexer, start), position(lexer, end)};
    return span;
}

static byte_class_t classify(const spx_lexer_t *lexer, apr_size_t offset, apr_size_t *size)
{
    unsigned char c = lexer->text[offset];
    *size = 1;
    if (c == '\n')
        return BYTE_LF;
    if (c == '\t' || (c >= 0x20 && c < 0x7f))
        return BYTE_PLAIN;
    if (c == 0)
        return BYTE_NUL;
    if (c == '\r')
        return offset + 1 < lexer->length && lexer->text[offset + 1] == '\n' ? BYTE_CRLF : BYTE_CR;
    if (c < 0x80)
        return BYTE_CONTROL;
    *size = spx_utf8_length(lexer->text + offset, lexer->length - offset);
    if (*size == 0) {
        *size = 1;
        return BYTE_INVALID;
    }
    if (spx_byte_order_mark_length((const char *)lexer->text + offset, *size))
        return BYTE_BOM; /* a leading one was skipped by spx_lexer_init */
    return BYTE_UTF8;
}

/* Report the run of offending bytes of one class starting at offset as one
 * diagnostic; returns the offset after the run. */
static apr_size_t report_run(spx_lexer_t *lexer, apr_size_t offset, byte_class_t kind)
{
    apr_size_t end = offset, size = 1;
    unsigned char first = lexer->text[offset];
    while (end < lexer->length && classify(lexer, end, &size) == kind)
        end += size;
    spx_span_t span = span_of(lexer, offset, end);
    switch (kind) {
    case BYTE_NUL:
        spx_lexer_error(lexer, SPX_E0202, span, "NUL byte in source");
        break;
    case BYTE_INVALID:
        spx_lexer_error(lexer, SPX_E0203, span, "invalid UTF-8 (byte 0x%02x)", first);
        break;
    case BYTE_CR:
        spx_lexer_error(lexer, SPX_E0204, span,
                        "carriage return (CR) not followed by LF in source; lines end with LF or "
                        "CR LF");
        break;
    case BYTE_BOM:
        spx_lexer_error(lexer, SPX_E0215, span,
                        "U+FEFF (byte order mark) in source; only the very start of a file may "
                        "hold one");
        break;
    default:
        spx_lexer_error(lexer, SPX_E0205, span, "control character 0x%02x in source", first);
        break;
    }
    return end;
}

static void newline(spx_lexer_t *lexer, apr_size_t offset_of_lf)
{
    lexer->line++;
    lexer->line_start = offset_of_lf + 1;
}

/* From just after "//" to the line end (LF or CR LF, not consumed) or the
 * end. */
static void skip_comment(spx_lexer_t *lexer)
{
    /* Printable ASCII and tabs by the table; the rest classified. */
    apr_size_t offset = lexer->offset;
    while (offset < lexer->length && byte_kinds[lexer->text[offset]] >= KIND_BLANK)
        offset++;
    lexer->offset = offset;
    while (lexer->offset < lexer->length) {
        apr_size_t size;
        byte_class_t kind = classify(lexer, lexer->offset, &size);
        if (kind == BYTE_LF || kind == BYTE_CRLF)
            return;
        if (kind == BYTE_PLAIN || kind == BYTE_UTF8)
            lexer->offset += size;
        else
            lexer->offset = report_run(lexer, lexer->offset, kind);
    }
}

static int is_identifier_start(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

/* The line ends at offset: an LF, or the CR of a CR LF. */
static int is_line_end(const spx_lexer_t *lexer, apr_size_t offset)
{
    unsigned char c = lexer->text[offset];
    return c == '\n' ||
           (c == '\r' && offset + 1 < lexer->length && lexer->text[offset + 1] == '\n');
}

static int is_digit(unsigned char c)
{
    return c >= '0' && c <= '9';
}

/* A name or a keyword. A name of at most SPX_INTERN_WORD_BYTES whose word
 * can be read in place (the source goes on for that many bytes) is
 * interned by that word: no hash or copy of its own. */
static void lex_identifier(spx_lexer_t *lexer, spx_token_t *token, apr_size_t start)
{
    const unsigned char *text = lexer->text;
    apr_size_t end = start + 1, length = lexer->length;
    while (end < length && byte_kinds[text[end]] >= KIND_DIGIT)
        end++;
    lexer->offset = end;
    apr_size_t size = end - start;
    const char *name = (const char *)text + start;
    token->span = span_of(lexer, start, end);
    token->kind = keyword_kind(name, size);
    if (token->kind != SPX_TOKEN_IDENTIFIER)
        return;
    if (size <= SPX_INTERN_WORD_BYTES && length - start >= SPX_INTERN_WORD_BYTES) {
        token->text = spx_arena_intern_word(lexer->names, name, size, spx_intern_word(name, size));
        return;
    }
    token->text = spx_arena_intern(lexer->names, name, size);
    if (size > SPX_LIMIT_IDENTIFIER_BYTES)
        spx_lexer_error(lexer, SPX_E0207, token->span,
                        "identifier is %" APR_SIZE_T_FMT " bytes long; the limit is %u", size,
                        SPX_LIMIT_IDENTIFIER_BYTES);
}

static int is_word_byte(unsigned char c)
{
    return is_identifier_start(c) || is_digit(c);
}

/* The value of the digits between begin and end, in base 10 or 16, with
 * single underscores between digits: 1 and *value set (*too_large when over
 * 2^63-1), or 0 when the spelling breaks the rule. */
static int integer_value(const unsigned char *begin, const unsigned char *end, unsigned base,
                         uint64_t *value, int *too_large)
{
    *value = 0;
    *too_large = 0;
    if (begin == end || *begin == '_' || end[-1] == '_')
        return 0;
    for (const unsigned char *at = begin; at < end; at++) {
        if (*at == '_') {
            if (at[1] == '_')
                return 0;
            continue;
        }
        int digit = base == 16 ? spx_hex_digit_value(*at) : is_digit(*at) ? *at - '0' : -1;
        if (digit < 0)
            return 0;
        if (*value > ((uint64_t)INT64_MAX - (unsigned)digit) / base)
            *too_large = 1;
        else if (!*too_large)
            *value = *value * base + (unsigned)digit;
    }
    return 1;
}

/* An integer literal: the whole run of [A-Za-z0-9_] from start is one
 * token, so "12ab", "0x1g" and "1__0" are one diagnostic each. */
static void lex_integer(spx_lexer_t *lexer, spx_token_t *token, apr_size_t start)
{
    /* The common case first: up to 18 digits and no leading zero, no "_"
     * or letter after them, a value that cannot be too large. */
    const unsigned char *digits = lexer->text;
    apr_size_t end = start;
    uint64_t quick = 0; /* wraps harmlessly past 18 digits: not used then */
    while (end < lexer->length && byte_kinds[digits[end]] == KIND_DIGIT) {
        quick = quick * 10 + (unsigned)(digits[end] - '0');
        end++;
    }
    if ((end == lexer->length || byte_kinds[digits[end]] < KIND_DIGIT) && end - start <= 18 &&
        (digits[start] != '0' || end - start == 1)) {
        lexer->offset = end;
        token->kind = SPX_TOKEN_INTEGER;
        token->span = span_of(lexer, start, end);
        token->integer = (int64_t)quick;
        return;
    }
    while (end < lexer->length && is_word_byte(lexer->text[end]))
        end++;
    lexer->offset = end;
    token->kind = SPX_TOKEN_INTEGER;
    token->span = span_of(lexer, start, end);
    const unsigned char *text = lexer->text + start;
    apr_size_t size = end - start;
    uint64_t value = 0;
    int too_large = 0, hex = size >= 2 && text[0] == '0' && text[1] == 'x';
    if (!hex && text[0] == '0' && size > 1 && is_digit(text[1])) {
        spx_lexer_error(lexer, SPX_E0208, token->span,
                        "integer literal with a leading zero (write 0, or start with 1..9)");
        value = 0;
    } else if (!integer_value(text + (hex ? 2 : 0), text + size, hex ? 16 : 10, &value,
                              &too_large) ||
               (!hex && text[0] == '0' && size > 1)) {
        spx_lexer_error(lexer, SPX_E0216, token->span,
                        hex ? "malformed hexadecimal literal '%.*s' (write 0x and hex digits, "
                              "single '_' between digits)"
                            : "malformed integer literal '%.*s' (digits, single '_' between "
                              "digits, and no letter or '_' right after)",
                        (int)size, (const char *)text);
        value = 0;
    } else if (too_large) {
        spx_lexer_error(lexer, SPX_E0209, token->span,
                        "integer literal is larger than 9223372036854775807");
        value = 0;
    }
    token->integer = (int64_t)value;
}

/* "\u{H..H}" at offset (the backslash), the literal's content ending at end.
 * Appends the encoded scalar to out (*used bytes) and returns the offset
 * after the escape. */
static apr_size_t lex_unicode_escape(spx_lexer_t *lexer, apr_size_t offset, apr_size_t end,
                                     char *out, apr_size_t *used)
{
    apr_size_t at = offset + 2, digits = 0;
    unsigned long value = 0;
    if (at >= end || lexer->text[at] != '{') {
        spx_lexer_error(lexer, SPX_E0213, span_of(lexer, offset, at),
                        "'\\u' must be followed by '{', 1 to 6 hex digits and '}'");
        return at;
    }
    at++;
    while (at < end && spx_hex_digit_value(lexer->text[at]) >= 0) {
        if (digits < 6)
            value = value * 16 + (unsigned long)spx_hex_digit_value(lexer->text[at]);
        digits++;
        at++;
    }
    int closed = at < end && lexer->text[at] == '}';
    if (closed)
        at++;
    if (!closed || digits == 0 || digits > 6) {
        spx_lexer_error(lexer, SPX_E0213, span_of(lexer, offset, at),
                        "'\\u' must be followed by '{', 1 to 6 hex digits and '}'");
        return at;
    }
    if (value > 0x10ffff || (value >= 0xd800 && value <= 0xdfff)) {
        spx_lexer_error(lexer, SPX_E0214, span_of(lexer, offset, at),
                        "'\\u{%lX}' is not a Unicode scalar value", value);
        return at;
    }
    *used += spx_utf8_encode(value, out + *used);
    return at;
}

/* A string literal from its opening quote at start. The first pass finds
 * where it ends (so the decoded bytes, never longer than the written ones,
 * fit one allocation); the second checks and decodes. */
static void lex_string(spx_lexer_t *lexer, spx_token_t *token, apr_size_t start)
{
    apr_size_t end = start + 1;
    while (end < lexer->length && lexer->text[end] != '"' && !is_line_end(lexer, end)) {
        if (lexer->text[end] == '\\' && end + 1 < lexer->length && !is_line_end(lexer, end + 1))
            end++;
        end++;
    }
    char *out = SPX_ARENA_ARRAY(lexer->literals, char, end - start);
    apr_size_t used = 0, at = start + 1;
    while (at < end) {
        unsigned char c = lexer->text[at];
        apr_size_t size;
        byte_class_t kind = classify(lexer, at, &size);
        if (c == '\\') {
            unsigned char next = at + 1 < end ? lexer->text[at + 1] : 0;
            if (at + 1 >= end) {
                at++; /* a lone backslash before the end: E0210 or E0211 says it */
                continue;
            }
            switch (next) {
            case 'n':
                out[used++] = '\n';
                at += 2;
                continue;
            case 't':
                out[used++] = '\t';
                at += 2;
                continue;
            case '\\':
            case '"':
                out[used++] = (char)next;
                at += 2;
                continue;
            case 'u':
                at = lex_unicode_escape(lexer, at, end, out, &used);
                continue;
            default: {
                /* Cover the whole escaped character when it is one. */
                apr_size_t escaped = 1;
                if (next >= 0x80) {
                    escaped = spx_utf8_length(lexer->text + at + 1, end - at - 1);
                    if (spx_byte_order_mark_length((const char *)lexer->text + at + 1, escaped))
                        escaped = 0; /* U+FEFF is reported on its own below (E0215) */
                } else if (next != '\t' && (next < 0x20 || next == 0x7f)) {
                    escaped = 0; /* the byte is reported on its own below */
                }
                spx_lexer_error(lexer, SPX_E0212, span_of(lexer, at, at + 1 + escaped),
                                "unknown escape sequence (use \\n \\t \\\\ \\\" or \\u{...})");
                at += 1 + escaped;
                continue;
            }
            }
        }
        if (kind == BYTE_PLAIN || kind == BYTE_UTF8) {
            memcpy(out + used, lexer->text + at, size);
            used += size;
            at += size;
        } else {
            at = report_run(lexer, at, kind);
            if (at > end)
                at = end;
        }
    }
    SPX_ASSERT(used < end - start); /* what the allocation holds */
    token->kind = SPX_TOKEN_STRING;
    token->bytes = out;
    token->length = used;
    if (end < lexer->length && lexer->text[end] == '"') {
        lexer->offset = end + 1;
        token->span = span_of(lexer, start, end + 1);
        return;
    }
    /* Unclosed: an error token, so the parser does not also miss the ";"
     * that the literal swallowed. */
    lexer->offset = end;
    token->kind = SPX_TOKEN_ERROR;
    token->span = span_of(lexer, start, end);
    if (end < lexer->length)
        spx_lexer_error(lexer, SPX_E0211, token->span,
                        "string literal not closed on its line (a raw newline is not allowed)");
    else
        spx_lexer_error(lexer, SPX_E0210, token->span,
                        "string literal not closed before the end of the file");
}

/* The escapes a byte literal takes, as messages list them. */
#define BYTE_ESCAPES "\\n \\t \\r \\0 \\\\ \\' \\\" \\xHH"

/* One character of a byte literal's content at at (before end, the
 * closing quote): its value in *value, the offset after it in *next; 0 when
 * it is no character a byte literal may hold, with the message in why
 * (empty for a valid character that is not one ASCII byte: the caller words
 * that). */
static int byte_literal_character(spx_lexer_t *lexer, apr_size_t at, apr_size_t end, int64_t *value,
                                  apr_size_t *next, char *why, size_t why_size)
{
    const unsigned char *text = lexer->text;
    unsigned char c = text[at];
    why[0] = '\0';
    *next = at + 1;
    if (c != '\\') {
        apr_size_t size = 1;
        byte_class_t kind = classify(lexer, at, &size);
        *next = at + size;
        if (kind == BYTE_PLAIN && c != '\t') {
            *value = c;
            return 1;
        }
        if (kind == BYTE_UTF8)
            return 0; /* not one ASCII byte */
        if (kind == BYTE_INVALID) {
            snprintf(why, why_size, "invalid UTF-8 (byte 0x%02x) in a byte literal", c);
            return 0;
        }
        if (kind == BYTE_BOM) {
            snprintf(why, why_size, "U+FEFF (byte order mark) in a byte literal");
            return 0;
        }
        *next = at + 1;
        if (c == '\t')
            snprintf(why, why_size, "a raw tab in a byte literal; write '\\t'");
        else
            snprintf(why, why_size, "control character 0x%02x in a byte literal; write '\\x%02x'",
                     c, c);
        return 0;
    }
    unsigned char e = at + 1 < end ? text[at + 1] : 0;
    *next = at + 2;
    switch (e) {
    case 'n':
        *value = 10;
        return 1;
    case 't':
        *value = 9;
        return 1;
    case 'r':
        *value = 13;
        return 1;
    case '0':
        *value = 0;
        return 1;
    case '\\':
    case '\'':
    case '"':
        *value = e;
        return 1;
    case 'x': {
        int high = at + 2 < end ? spx_hex_digit_value(text[at + 2]) : -1;
        int low = at + 3 < end ? spx_hex_digit_value(text[at + 3]) : -1;
        if (high >= 0 && low >= 0) {
            *value = high * 16 + low;
            *next = at + 4;
            return 1;
        }
        apr_size_t shown = at + 2 + (high >= 0);
        *next = shown;
        snprintf(why, why_size, "escape '%.*s' needs exactly two hex digits (\\x00 to \\xff)",
                 (int)(shown - at), (const char *)text + at);
        return 0;
    }
    default: {
        apr_size_t size = 1;
        if (at + 1 < end) {
            byte_class_t kind = classify(lexer, at + 1, &size);
            if (kind != BYTE_PLAIN && kind != BYTE_UTF8)
                size = 0; /* a byte a message cannot show */
        } else {
            size = 0;
        }
        *next = at + 1 + size;
        snprintf(why, why_size, "unknown escape '%.*s' (only %s)", (int)(1 + size),
                 (const char *)text + at, BYTE_ESCAPES);
        return 0;
    }
    }
}

/* A byte literal from its opening quote at start (language.md, "Byte
 * literals"): one character or escape between quotes, of type int. Every
 * malformed literal is one E0231 spanning it, from the opening quote to the
 * closing one, or to the end of its line when it is not closed there; the
 * literal then reads as 0 (an unclosed one is an error token, since it took
 * the rest of the line). */
static void lex_byte(spx_lexer_t *lexer, spx_token_t *token, apr_size_t start)
{
    const unsigned char *text = lexer->text;
    apr_size_t end = start + 1;
    while (end < lexer->length && text[end] != '\'' && !is_line_end(lexer, end)) {
        if (text[end] == '\\' && end + 1 < lexer->length && !is_line_end(lexer, end + 1))
            end++;
        end++;
    }
    token->kind = SPX_TOKEN_BYTE;
    token->integer = 0;
    if (end >= lexer->length || text[end] != '\'') {
        lexer->offset = end;
        token->kind = SPX_TOKEN_ERROR;
        token->span = span_of(lexer, start, end);
        spx_lexer_error(lexer, SPX_E0231, token->span, "byte literal not closed on its line");
        return;
    }
    lexer->offset = end + 1;
    token->span = span_of(lexer, start, end + 1);
    if (end == start + 1) {
        spx_lexer_error(lexer, SPX_E0231, token->span, "empty byte literal");
        return;
    }
    apr_size_t at = start + 1, characters = 0;
    int64_t value = 0;
    int ascii = 1;
    while (at < end) {
        char why[160];
        apr_size_t next = at;
        if (!byte_literal_character(lexer, at, end, &value, &next, why, sizeof(why))) {
            if (why[0]) {
                spx_lexer_error(lexer, SPX_E0231, token->span, "%s", why);
                return;
            }
            ascii = 0;
        }
        characters++;
        at = next;
    }
    int length = (int)(end + 1 - start);
    if (characters > 1)
        spx_lexer_error(lexer, SPX_E0231, token->span,
                        "%.*s holds %" APR_SIZE_T_FMT " characters; a byte literal holds one",
                        length, (const char *)text + start, characters);
    else if (!ascii)
        spx_lexer_error(lexer, SPX_E0231, token->span, "%.*s is not one ASCII byte", length,
                        (const char *)text + start);
    else
        token->integer = value;
}

/* Characters that are no token: a run of them is one error token. */
static void lex_unexpected(spx_lexer_t *lexer, spx_token_t *token, apr_size_t start)
{
    static const char tokens[] = "(){},;:.=!<>+-*/%\"_[]&|^~'";
    apr_size_t end = start, size = 1;
    while (end < lexer->length) {
        byte_class_t kind = classify(lexer, end, &size);
        unsigned char c = lexer->text[end];
        int starts_token = kind == BYTE_PLAIN && (c == ' ' || c == '\t' || is_identifier_start(c) ||
                                                  is_digit(c) || strchr(tokens, c) != NULL);
        if ((kind != BYTE_PLAIN && kind != BYTE_UTF8) || starts_token)
            break;
        end += size;
    }
    if (end == start)
        end = start + 1; /* defensive: the caller saw no token here */
    apr_size_t first = 1;
    if (lexer->text[start] >= 0x80)
        first = spx_utf8_length(lexer->text + start, lexer->length - start);
    token->kind = SPX_TOKEN_ERROR;
    token->span = span_of(lexer, start, end);
    lexer->offset = end;
    spx_lexer_error(lexer, SPX_E0206, token->span, "unexpected character '%.*s'", (int)first,
                    (const char *)lexer->text + start);
}

/* The token of a byte that is one whatever follows it ("(", ";", "~"...);
 * SPX_TOKEN_EOF (0) for any other byte. */
static const unsigned char single_tokens[256] = {
    ['('] = SPX_TOKEN_LPAREN, [')'] = SPX_TOKEN_RPAREN,   ['{'] = SPX_TOKEN_LBRACE,
    ['}'] = SPX_TOKEN_RBRACE, [','] = SPX_TOKEN_COMMA,    [';'] = SPX_TOKEN_SEMICOLON,
    [':'] = SPX_TOKEN_COLON,  ['['] = SPX_TOKEN_LBRACKET, [']'] = SPX_TOKEN_RBRACKET,
    ['~'] = SPX_TOKEN_TILDE,
};

static spx_token_kind_t single_punctuation(unsigned char c)
{
    return (spx_token_kind_t)single_tokens[c];
}

/* Punctuation at start (its size in *size), or SPX_TOKEN_EOF. */
static spx_token_kind_t punctuation(const spx_lexer_t *lexer, apr_size_t start, apr_size_t *size)
{
    unsigned char c = lexer->text[start];
    unsigned char next = start + 1 < lexer->length ? lexer->text[start + 1] : 0;
    *size = 1;
    spx_token_kind_t single = single_punctuation(c);
    if (single != SPX_TOKEN_EOF)
        return single;
        /* c, or c= as a compound assignment. */
#define WITH_ASSIGN(plain, assign)                                                                 \
    if (next == '=') {                                                                             \
        *size = 2;                                                                                 \
        return assign;                                                                             \
    }                                                                                              \
    return plain
        /* c, or c followed by second. */
#define WITH_SECOND(second, pair)                                                                  \
    if (next == (second)) {                                                                        \
        *size = 2;                                                                                 \
        return pair;                                                                               \
    }
    switch (c) {
    case '.':
        WITH_SECOND('.', SPX_TOKEN_DOTDOT)
        return SPX_TOKEN_DOT;
    case '=':
        WITH_SECOND('=', SPX_TOKEN_EQ)
        WITH_SECOND('>', SPX_TOKEN_FAT_ARROW)
        return SPX_TOKEN_ASSIGN;
    case '!':
        WITH_SECOND('=', SPX_TOKEN_NE)
        return SPX_TOKEN_BANG;
    case '<':
    case '>': {
        int less = c == '<';
        if (next == c) {
            unsigned char third = start + 2 < lexer->length ? lexer->text[start + 2] : 0;
            *size = third == '=' ? 3 : 2;
            if (third == '=')
                return less ? SPX_TOKEN_SHL_ASSIGN : SPX_TOKEN_SHR_ASSIGN;
            return less ? SPX_TOKEN_SHL : SPX_TOKEN_SHR;
        }
        WITH_ASSIGN(less ? SPX_TOKEN_LT : SPX_TOKEN_GT, less ? SPX_TOKEN_LE : SPX_TOKEN_GE);
    }
    case '+':
        WITH_ASSIGN(SPX_TOKEN_PLUS, SPX_TOKEN_ADD_ASSIGN);
    case '-':
        WITH_SECOND('>', SPX_TOKEN_ARROW)
        WITH_ASSIGN(SPX_TOKEN_MINUS, SPX_TOKEN_SUB_ASSIGN);
    case '*':
        WITH_ASSIGN(SPX_TOKEN_STAR, SPX_TOKEN_MUL_ASSIGN);
    case '/':
        WITH_ASSIGN(SPX_TOKEN_SLASH, SPX_TOKEN_DIV_ASSIGN);
    case '%':
        WITH_ASSIGN(SPX_TOKEN_PERCENT, SPX_TOKEN_REM_ASSIGN);
    case '^':
        WITH_ASSIGN(SPX_TOKEN_CARET, SPX_TOKEN_XOR_ASSIGN);
    case '&':
        WITH_SECOND('&', SPX_TOKEN_AND)
        WITH_ASSIGN(SPX_TOKEN_AMPERSAND, SPX_TOKEN_AND_ASSIGN);
    case '|':
        WITH_SECOND('|', SPX_TOKEN_OR)
        WITH_ASSIGN(SPX_TOKEN_PIPE, SPX_TOKEN_OR_ASSIGN);
    default:
        return SPX_TOKEN_EOF;
    }
#undef WITH_ASSIGN
#undef WITH_SECOND
}

/* Punctuation at start (a byte of KIND_SINGLE, KIND_PUNCT or KIND_SLASH,
 * not a comment): every such byte starts a token. */
static void lex_punctuation(spx_lexer_t *lexer, spx_token_t *token, apr_size_t start)
{
    apr_size_t size;
    token->kind = punctuation(lexer, start, &size);
    SPX_ASSERT(token->kind != SPX_TOKEN_EOF);
    lexer->offset = start + size;
    token->span = span_of(lexer, start, start + size);
}

/* The general path of spx_lexer_next, for every byte its fast path leaves:
 * from lexer->offset (inside a comment when in_comment), whitespace,
 * comments and reported bytes up to the next token, then that token. */
static void lex_general(spx_lexer_t *lexer, spx_token_t *token, int in_comment)
{
    if (in_comment)
        skip_comment(lexer);
    while (!lexer->budget.stopped && lexer->offset < lexer->length) {
        apr_size_t start = lexer->offset, size;
        unsigned char c = lexer->text[start];
        if (c == ' ') { /* the common case first */
            lexer->offset++;
            continue;
        }
        byte_class_t kind = classify(lexer, start, &size);
        if (kind == BYTE_LF) {
            newline(lexer, start);
            lexer->offset++;
        } else if (c == ' ' || c == '\t' || kind == BYTE_CRLF) {
            lexer->offset++;
        } else if (c == '/' && start + 1 < lexer->length && lexer->text[start + 1] == '/') {
            lexer->offset += 2;
            skip_comment(lexer);
        } else if (kind == BYTE_NUL || kind == BYTE_CR || kind == BYTE_CONTROL ||
                   kind == BYTE_BOM) {
            lexer->offset = report_run(lexer, start, kind); /* then read on as if blank */
        } else if (kind == BYTE_INVALID) {
            lexer->offset = report_run(lexer, start, kind);
            token->kind = SPX_TOKEN_ERROR;
            token->span = span_of(lexer, start, lexer->offset);
            return;
        } else {
            break;
        }
    }
    if (lexer->budget.stopped || lexer->offset >= lexer->length) {
        token->kind = SPX_TOKEN_EOF;
        token->span = span_of(lexer, lexer->length, lexer->length);
        if (lexer->budget.stopped)
            token->span = span_of(lexer, lexer->offset, lexer->offset);
        return;
    }
    apr_size_t start = lexer->offset;
    unsigned char c = lexer->text[start];
    if (is_identifier_start(c)) {
        lex_identifier(lexer, token, start);
    } else if (is_digit(c)) {
        lex_integer(lexer, token, start);
    } else if (c == '"') {
        lex_string(lexer, token, start);
    } else if (c == '\'') {
        lex_byte(lexer, token, start);
    } else if (byte_kinds[c] == KIND_SINGLE || byte_kinds[c] == KIND_PUNCT ||
               byte_kinds[c] == KIND_SLASH) {
        lex_punctuation(lexer, token, start);
    } else {
        lex_unexpected(lexer, token, start);
    }
}

/* The fast path: by the table, blanks, line feeds and comments of
 * printable ASCII, then a name, a number, a literal or punctuation. Every
 * other byte (and the end, and a stopped budget) is the general path's,
 * from where this one stopped: nothing is reported here. Each token goes
 * on to its own function as the last thing done, so this one keeps little
 * in registers. */
void spx_lexer_next(spx_lexer_t *lexer, spx_token_t *token)
{
    /* fast_end is the length, or 0 once the budget has stopped: one test
     * sends the end and the stop to the general path. */
    const unsigned char *text = lexer->text;
    apr_size_t offset = lexer->offset, length = lexer->fast_end;
    unsigned kind;
    for (;;) {
        if (offset >= length) {
            lexer->offset = offset;
            lex_general(lexer, token, 0);
            return;
        }
        kind = byte_kinds[text[offset]];
        if (kind == KIND_BLANK) {
            /* Indentation and the space between tokens: a run of spaces
             * by a loop of its own. */
            do
                offset++;
            while (offset < length && text[offset] == ' ');
        } else if (kind == KIND_LF) {
            newline(lexer, offset);
            offset++;
        } else if (kind == KIND_SLASH && offset + 1 < length && text[offset + 1] == '/') {
            offset += 2;
            while (offset < length && byte_kinds[text[offset]] >= KIND_BLANK)
                offset++;
            if (offset < length && byte_kinds[text[offset]] != KIND_LF) {
                lexer->offset = offset; /* the rest of the comment, classified */
                lex_general(lexer, token, 1);
                return;
            }
        } else {
            break;
        }
    }
    lexer->offset = offset;
    if (kind == KIND_SINGLE) {
        lexer->offset = offset + 1;
        token->kind = single_punctuation(text[offset]);
        token->span = span_of(lexer, offset, offset + 1);
        return;
    }
    /* The kinds by how often they come, not by a jump table. */
    if (kind == KIND_WORD) {
        lex_identifier(lexer, token, offset);
    } else if (kind == KIND_PUNCT || kind == KIND_SLASH) {
        lex_punctuation(lexer, token, offset);
    } else if (kind == KIND_DIGIT) {
        lex_integer(lexer, token, offset);
    } else if (kind == KIND_QUOTE && text[offset] == '"') {
        lex_string(lexer, token, offset);
    } else if (kind == KIND_QUOTE) {
        lex_byte(lexer, token, offset);
    } else {
        lex_general(lexer, token, 0);
    }
}

const char *spx_token_kind_text(spx_token_kind_t kind)
{
    static const char *const texts[] = {
        "end of file",
        "invalid input",
        "identifier",
        "integer literal",
        "string literal",
#define KEYWORD_TEXT(token, word) "'" word "'",
        SPX_KEYWORDS_V1(KEYWORD_TEXT)
        /* punctuation */
        "'('",
        "')'",
        "'{'",
        "'}'",
        "','",
        "';'",
        "':'",
        "'.'",
        "'->'",
        "'='",
        "'=='",
        "'!='",
        "'<'",
        "'<='",
        "'>'",
        "'>='",
        "'+'",
        "'-'",
        "'*'",
        "'/'",
        "'%'",
        "'!'",
        "'&&'",
        "'||'",
        SPX_KEYWORDS_V2(KEYWORD_TEXT)
        /* language v2 punctuation */
        "'['",
        "']'",
        "'..'",
        "'&'",
        "'|'",
        "'^'",
        "'~'",
        "'<<'",
        "'>>'",
        /* language v3 */
        "byte literal",
        "'+='",
        "'-='",
        "'*='",
        "'/='",
        "'%='",
        "'&='",
        "'|='",
        "'^='",
        "'<<='",
        "'>>='",
        SPX_KEYWORDS_V3(KEYWORD_TEXT)
#undef KEYWORD_TEXT
            "'=>'",
    };
    if ((size_t)kind < sizeof(texts) / sizeof(texts[0]))
        return texts[kind];
    return "token";
}

const char *spx_token_v2_keyword(spx_token_kind_t kind)
{
    switch (kind) {
#define V2_KEYWORD_WORD(token, word)                                                               \
    case SPX_TOKEN_##token:                                                                        \
        return word;
        SPX_KEYWORDS_V2(V2_KEYWORD_WORD)
#undef V2_KEYWORD_WORD
    default:
        return NULL;
    }
}

const char *spx_token_v3_keyword(spx_token_kind_t kind)
{
    switch (kind) {
#define V3_KEYWORD_WORD(token, word)                                                               \
    case SPX_TOKEN_##token:                                                                        \
        return word;
        SPX_KEYWORDS_V3(V3_KEYWORD_WORD)
#undef V3_KEYWORD_WORD
    default:
        return NULL;
    }
}
