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

spx_token_kind_t spx_keyword_kind(const char *word, apr_size_t size)
{
    /* Most identifiers differ from every keyword in length or first letter,
     * which is all they cost. */
#define KEYWORD_KIND(token, spelled)                                                               \
    if (size == sizeof(spelled) - 1 && word[0] == spelled[0] && memcmp(word, spelled, size) == 0)  \
        return SPX_TOKEN_##token;
    SPX_KEYWORDS_V1(KEYWORD_KIND)
    SPX_KEYWORDS_V2(KEYWORD_KIND)
    SPX_KEYWORDS_V3(KEYWORD_KIND)
#undef KEYWORD_KIND
    return SPX_TOKEN_IDENTIFIER;
}

void spx_lexer_init(spx_lexer_t *lexer, const unsigned char *text, apr_size_t length,
                    const char *path, spx_arena_t *names, spx_arena_t *literals,
                    spx_diagnostics_t *diagnostics)
{
    memset(lexer, 0, sizeof(*lexer));
    lexer->text = text;
    lexer->length = length;
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

static void lex_identifier(spx_lexer_t *lexer, spx_token_t *token, apr_size_t start)
{
    apr_size_t end = start;
    while (end < lexer->length &&
           (is_identifier_start(lexer->text[end]) || is_digit(lexer->text[end])))
        end++;
    lexer->offset = end;
    apr_size_t size = end - start;
    token->span = span_of(lexer, start, end);
    token->kind = spx_keyword_kind((const char *)lexer->text + start, size);
    if (token->kind != SPX_TOKEN_IDENTIFIER)
        return;
    token->text = spx_arena_intern(lexer->names, (const char *)lexer->text + start, size);
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
    apr_size_t end = start;
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

/* Punctuation at start, or 0. */
static spx_token_kind_t punctuation(const spx_lexer_t *lexer, apr_size_t start, apr_size_t *size)
{
    unsigned char c = lexer->text[start];
    unsigned char next = start + 1 < lexer->length ? lexer->text[start + 1] : 0;
    unsigned char third = start + 2 < lexer->length ? lexer->text[start + 2] : 0;
    *size = 3;
    if (c == '<' && next == '<' && third == '=')
        return SPX_TOKEN_SHL_ASSIGN;
    if (c == '>' && next == '>' && third == '=')
        return SPX_TOKEN_SHR_ASSIGN;
    *size = 2;
    if (next == '=') {
        switch (c) {
        case '+':
            return SPX_TOKEN_ADD_ASSIGN;
        case '-':
            return SPX_TOKEN_SUB_ASSIGN;
        case '*':
            return SPX_TOKEN_MUL_ASSIGN;
        case '/':
            return SPX_TOKEN_DIV_ASSIGN;
        case '%':
            return SPX_TOKEN_REM_ASSIGN;
        case '&':
            return SPX_TOKEN_AND_ASSIGN;
        case '|':
            return SPX_TOKEN_OR_ASSIGN;
        case '^':
            return SPX_TOKEN_XOR_ASSIGN;
        }
    }
    switch (c) {
    case '-':
        if (next == '>')
            return SPX_TOKEN_ARROW;
        break;
    case '=':
        if (next == '=')
            return SPX_TOKEN_EQ;
        if (next == '>')
            return SPX_TOKEN_FAT_ARROW;
        break;
    case '!':
        if (next == '=')
            return SPX_TOKEN_NE;
        break;
    case '<':
        if (next == '=')
            return SPX_TOKEN_LE;
        if (next == '<')
            return SPX_TOKEN_SHL;
        break;
    case '>':
        if (next == '=')
            return SPX_TOKEN_GE;
        if (next == '>')
            return SPX_TOKEN_SHR;
        break;
    case '&':
        if (next == '&')
            return SPX_TOKEN_AND;
        break;
    case '|':
        if (next == '|')
            return SPX_TOKEN_OR;
        break;
    case '.':
        if (next == '.')
            return SPX_TOKEN_DOTDOT;
        break;
    }
    *size = 1;
    switch (c) {
    case '(':
        return SPX_TOKEN_LPAREN;
    case ')':
        return SPX_TOKEN_RPAREN;
    case '{':
        return SPX_TOKEN_LBRACE;
    case '}':
        return SPX_TOKEN_RBRACE;
    case ',':
        return SPX_TOKEN_COMMA;
    case ';':
        return SPX_TOKEN_SEMICOLON;
    case ':':
        return SPX_TOKEN_COLON;
    case '.':
        return SPX_TOKEN_DOT;
    case '=':
        return SPX_TOKEN_ASSIGN;
    case '<':
        return SPX_TOKEN_LT;
    case '>':
        return SPX_TOKEN_GT;
    case '+':
        return SPX_TOKEN_PLUS;
    case '-':
        return SPX_TOKEN_MINUS;
    case '*':
        return SPX_TOKEN_STAR;
    case '/':
        return SPX_TOKEN_SLASH;
    case '%':
        return SPX_TOKEN_PERCENT;
    case '!':
        return SPX_TOKEN_BANG;
    case '[':
        return SPX_TOKEN_LBRACKET;
    case ']':
        return SPX_TOKEN_RBRACKET;
    case '&':
        return SPX_TOKEN_AMPERSAND;
    case '|':
        return SPX_TOKEN_PIPE;
    case '^':
        return SPX_TOKEN_CARET;
    case '~':
        return SPX_TOKEN_TILDE;
    }
    return SPX_TOKEN_EOF;
}

void spx_lexer_next(spx_lexer_t *lexer, spx_token_t *token)
{
    token->text = NULL;
    token->integer = 0;
    token->bytes = NULL;
    token->length = 0;
    /* Whitespace, comments and reported bytes, up to the next token. */
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
    apr_size_t start = lexer->offset, size;
    unsigned char c = lexer->text[start];
    if (is_identifier_start(c)) {
        lex_identifier(lexer, token, start);
    } else if (is_digit(c)) {
        lex_integer(lexer, token, start);
    } else if (c == '"') {
        lex_string(lexer, token, start);
    } else if (c == '\'') {
        lex_byte(lexer, token, start);
    } else if ((token->kind = punctuation(lexer, start, &size)) != SPX_TOKEN_EOF) {
        lexer->offset = start + size;
        token->span = span_of(lexer, start, start + size);
    } else {
        lex_unexpected(lexer, token, start);
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
