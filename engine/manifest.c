/*
 * manifest.c: the Project Manifest parser (manifest.md: v1, and v2 with
 * [limits], [[data]] and a test's limit keys, whose values are TOML decimal
 * integers) and its canonical subject.
 *
 * Three passes over the raw bytes. The first checks the encoding (size, a
 * U+FEFF after the start, a CR not followed by LF, NUL, UTF-8) and stops
 * there on any problem, since nothing after it could be trusted. A line ends
 * with LF or CR LF, and a leading byte order mark is skipped; both are still
 * counted in columns and offsets (language.md, Lexical). The second reads the strict TOML subset
 * one line at a time: each line is blank, a comment, a table header or `key = "string"`; at most
 * one syntax problem is reported per line and the parse goes on with the next one. It files every
 * key and value in its table, with spans. The third checks the meaning: required keys, value
 * syntax, duplicates and cross references. Problems that would only follow from an earlier one (a
 * missing key after an unreadable key, an undeclared module after an invalid
 * module name) are not reported, so one mistake gives one diagnostic.
 *
 * Spans are computed relative to the start of the current line, so the cost
 * of a diagnostic is the length of its line, never of the file.
 */
#include "spx_manifest.h"

#include "spx_assert.h"
#include "spx_compiler.h"
#include "spx_hex.h"
#include "spx_limits.h"
#include "spx_paths.h"
#include "spx_project.h"
#include "spx_suggest.h"
#include "spx_utf8.h"

#include <apr_hash.h>
#include <apr_strings.h>
#include <apr_tables.h>
#include <stdarg.h>
#include <inttypes.h>
#include <string.h>

/* The tables of the manifest; IGNORED collects the keys of a table that is
 * unknown, malformed, a second [project] or over a count limit. */
typedef enum table_kind_t {
    TABLE_TOP,
    TABLE_PROJECT,
    TABLE_SOURCE,
    TABLE_TEST,
    TABLE_LIMITS,
    TABLE_DATA,
    TABLE_IGNORED
} table_kind_t;

#define FIELD_COUNT 5

typedef struct field_t {
    int present;       /* the key was given (even with a broken value) */
    const char *value; /* NULL when the value had a syntax problem; a limit
                        * key's digits, without '_' */
    uint64_t integer;  /* a limit key's value (saturated) */
    spx_span_t key_span, value_span;
} field_t;

typedef struct table_t {
    table_kind_t kind;
    spx_span_t header_span;
    int keys_lost; /* a key could not be read: do not report missing keys */
    field_t fields[FIELD_COUNT];
} table_t;

/* The keys each table allows, NULL-padded; required unless optional[]. */
static const char *const table_keys[][FIELD_COUNT] = {
    {"manifest", NULL, NULL, NULL, NULL},
    {"name", "version", "entry", NULL, NULL},
    {"module", "path", NULL, NULL, NULL},
    {"name", "function", "max_steps", "max_memory", "max_call_depth"},
    {"max_steps", "max_memory", "max_call_depth", NULL, NULL},
    {"name", "path", NULL, NULL, NULL},
};
static const int table_optional[][FIELD_COUNT] = {{0},       {0, 0, 1}, {0}, {0, 0, 1, 1, 1},
                                                  {1, 1, 1}, {0, 0}};
static const char *const table_names[] = {"the top level", "[project]", "[[source]]",
                                          "[[test]]",      "[limits]",  "[[data]]"};
static const char *const table_key_lists[] = {
    "only the key 'manifest' comes before [project]",
    "[project] has name, version and entry",
    "[[source]] has module and path",
    "[[test]] has name, function, max_steps, max_memory and max_call_depth",
    "[limits] has max_steps, max_memory and max_call_depth",
    "[[data]] has name and path",
};
/* A v1 [[test]] knows its first two keys only. */
#define V1_TEST_KEYS 2
#define V1_TEST_KEY_LIST "[[test]] has name and function"

/* Where a table's limit keys start (max_steps, max_memory, max_call_depth, in
 * that order); -1 for a table without them. */
static int limit_base(table_kind_t kind)
{
    return kind == TABLE_TEST ? 2 : kind == TABLE_LIMITS ? 0 : -1;
}

/* The limit keys' ranges, as the CLI's (spx_limits.h). */
static const uint64_t limit_minimum[3] = {0, 0, 1};
static const uint64_t limit_maximum[3] = {SPX_LIMIT_MAX_STEPS_MAXIMUM, SPX_LIMIT_MAX_MEMORY_MAXIMUM,
                                          SPX_LIMIT_CALL_DEPTH_MAXIMUM};

typedef struct parser_t {
    const unsigned char *bytes;
    apr_size_t length;
    apr_pool_t *pool;
    /* The diagnostics of this parse, at most SPX_LIMIT_MANIFEST_DIAGNOSTICS
     * (budget.count); budget.stopped once the limit was reached. */
    spx_diagnostic_budget_t budget;

    /* The current line: [line_start, line_end), line_end at the LF, the CR of
     * a CR LF, or EOF; its content starts at line_begin (after a leading byte
     * order mark on line 1, which columns still count from line_start). */
    apr_size_t line_start, line_begin, line_end, line_number;

    table_t top, ignored;
    table_t *current;
    table_t *project;
    apr_array_header_t *sources, *tests, *data; /* table_t * */
    apr_size_t sources_seen, tests_seen, data_seen;
    table_t *limits;      /* the first [limits] */
    int version;          /* the manifest key's: 1, 2, or 0 when unknown */
    int saw_array_table;  /* another table came before [project] */
    int structure_lost;   /* a header or construct could not be read */
    int manifest_seen;    /* the manifest key appeared somewhere */
    apr_size_t items;     /* headers and key lines so far */
    spx_span_t item_span; /* the key or header of the current line */
    spx_span_t first_item_span;
    int first_item_reported;
} parser_t;

/* --- diagnostics and spans ------------------------------------------------ */

/* The span [start, end) counted from base, which starts line base_line. */
static spx_span_t span_from(const parser_t *p, apr_size_t base, apr_size_t base_line,
                            apr_size_t start, apr_size_t end)
{
    spx_span_t span = spx_span_between(p->bytes + base, p->length - base, start - base, end - base);
    span.start.line += base_line - 1;
    span.end.line += base_line - 1;
    span.start.offset += base;
    span.end.offset += base;
    return span;
}

/* A span that starts on the current line. */
static spx_span_t span_at(const parser_t *p, apr_size_t start, apr_size_t end)
{
    return span_from(p, p->line_start, p->line_number, start, end);
}

static void report(parser_t *p, spx_diagnostic_code_t code, spx_span_t span, const char *format,
                   ...) SPX_PRINTF_FORMAT(4, 5);

static void report(parser_t *p, spx_diagnostic_code_t code, spx_span_t span, const char *format,
                   ...)
{
    va_list arguments;
    va_start(arguments, format);
    spx_diagnostic_budget_addv(&p->budget, code, span, format, arguments);
    va_end(arguments);
}

/* report() with a note "first declared here" at first. */
static void report_twice(parser_t *p, spx_diagnostic_code_t code, spx_span_t span, spx_span_t first,
                         const char *format, ...) SPX_PRINTF_FORMAT(5, 6);

static void report_twice(parser_t *p, spx_diagnostic_code_t code, spx_span_t span, spx_span_t first,
                         const char *format, ...)
{
    va_list arguments;
    va_start(arguments, format);
    spx_diagnostic_t *item = spx_diagnostic_budget_addv(&p->budget, code, span, format, arguments);
    va_end(arguments);
    spx_diagnostic_note(p->budget.list, item, p->budget.path, first, "first declared here");
}

/* How a value or key is shown in a message: control characters escaped, cut
 * at a UTF-8 boundary after 80 bytes, so a message stays one short line. */
static const char *shown_n(apr_pool_t *pool, const char *text, apr_size_t length)
{
    const apr_size_t keep = 80;
    int cut = 0;
    if (length > keep) {
        length = spx_utf8_cut((const unsigned char *)text, length, keep - 3);
        cut = 1;
    }
    char *out = apr_palloc(pool, length * 4 + 4);
    apr_size_t n = 0;
    for (apr_size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)text[i];
        if (c == '\n') {
            out[n++] = '\\';
            out[n++] = 'n';
        } else if (c == '\t') {
            out[n++] = '\\';
            out[n++] = 't';
        } else if (c < 0x20 || c == 0x7f) {
            apr_snprintf(out + n, 5, "\\x%02x", c);
            n += 4;
        } else {
            out[n++] = (char)c;
        }
    }
    if (cut) {
        memcpy(out + n, "...", 3);
        n += 3;
    }
    out[n] = '\0';
    return out;
}

static const char *shown(apr_pool_t *pool, const char *text)
{
    return shown_n(pool, text, strlen(text));
}

/* "did you mean 'version'? " for the one of candidates[0..count) (NULLs
 * skipped) nearest to name (spx_suggest.h); "" when none is near. */
static const char *nearest_name(apr_pool_t *pool, const char *name, const char *const *candidates,
                                apr_size_t count)
{
    const char **present = apr_palloc(pool, (count + 1) * sizeof(*present));
    apr_size_t filled = 0;
    for (apr_size_t i = 0; i < count; i++)
        if (candidates[i])
            present[filled++] = candidates[i];
    const char *nearest[1];
    if (spx_suggest_nearest(name, present, filled, 1, nearest) == 0)
        return "";
    return apr_psprintf(pool, "did you mean '%s'? ", shown(pool, nearest[0]));
}

/* --- bytes ------------------------------------------------------------------ */

static int is_space(unsigned char c)
{
    return c == ' ' || c == '\t';
}

static int is_bare(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
}

static int is_control(unsigned long c)
{
    return c < 0x20 || c == 0x7f;
}

static apr_size_t skip_space(const parser_t *p, apr_size_t i)
{
    while (i < p->line_end && is_space(p->bytes[i]))
        i++;
    return i;
}

/* The end of the current line without its trailing blanks, not before from. */
static apr_size_t trimmed_end(const parser_t *p, apr_size_t from)
{
    apr_size_t end = p->line_end;
    while (end > from && is_space(p->bytes[end - 1]))
        end--;
    return end;
}

/* The length of the (valid) UTF-8 character at i. */
static apr_size_t char_size(const parser_t *p, apr_size_t i)
{
    apr_size_t size = spx_utf8_length(p->bytes + i, p->length - i);
    return size ? size : 1;
}

/* --- pass 1: encoding ------------------------------------------------------ */

/* Each kind of problem is reported once, at its first occurrence. */
static int check_encoding(parser_t *p)
{
    const unsigned char *b = p->bytes;
    apr_size_t n = p->length;
    if (n > SPX_LIMIT_MANIFEST_BYTES) {
        /* Positions are counted only up to the first byte over the limit. */
        p->length = SPX_LIMIT_MANIFEST_BYTES + 1;
        p->line_start = 0;
        p->line_number = 1;
        report(p, SPX_E0105, span_at(p, SPX_LIMIT_MANIFEST_BYTES, SPX_LIMIT_MANIFEST_BYTES + 1),
               "the manifest is larger than %u bytes", SPX_LIMIT_MANIFEST_BYTES);
        return 0;
    }
    int ok = 1, cr = 0, nul = 0, utf8 = 0, bom = 0;
    p->line_start = 0;
    p->line_number = 1;
    for (apr_size_t i = spx_byte_order_mark_length((const char *)b, n); i < n;) {
        unsigned char c = b[i];
        apr_size_t size = 1;
        if (c == '\n') {
            p->line_start = i + 1;
            p->line_number++;
        } else if (c == '\r' && !cr && !(i + 1 < n && b[i + 1] == '\n')) {
            report(p, SPX_E0102, span_at(p, i, i + 1),
                   "the manifest contains a CR byte (0x0d) not followed by LF; lines end in LF "
                   "or CR LF");
            cr = 1;
            ok = 0;
        } else if (c == '\0' && !nul) {
            report(p, SPX_E0103, span_at(p, i, i + 1), "the manifest contains a NUL byte");
            nul = 1;
            ok = 0;
        } else if (c >= 0x80) {
            apr_size_t bad = spx_utf8_invalid_length(b + i, n - i);
            size = bad ? bad : spx_utf8_length(b + i, n - i);
            if (bad) {
                if (!utf8)
                    report(p, SPX_E0104, span_at(p, i, i + bad),
                           "the manifest is not valid UTF-8: ill-formed sequence starting with "
                           "byte 0x%02x",
                           c);
                utf8 = 1;
                ok = 0;
            } else if (spx_byte_order_mark_length((const char *)b + i, size)) {
                if (!bom)
                    report(p, SPX_E0101, span_at(p, i, i + size),
                           "U+FEFF (byte order mark) in the manifest; only its very start may "
                           "hold one");
                bom = 1;
                ok = 0;
            }
        }
        i += size;
    }
    return ok;
}

/* --- pass 2: lines ----------------------------------------------------------- */

/* A comment from i (at '#') to the end of the line: tab is its only control
 * character. */
static void check_comment(parser_t *p, apr_size_t i)
{
    for (apr_size_t j = i; j < p->line_end; j++) {
        unsigned char c = p->bytes[j];
        if (is_control(c) && c != '\t') {
            report(p, SPX_E0119, span_at(p, j, j + 1), "control character U+%04X in a comment",
                   (unsigned)c);
            return;
        }
    }
}

/* After a value or header ending at i: blanks, then nothing or a comment. */
static void check_line_rest(parser_t *p, apr_size_t i, int *syntax_error)
{
    i = skip_space(p, i);
    if (i == p->line_end)
        return;
    if (p->bytes[i] == '#') {
        check_comment(p, i);
        return;
    }
    apr_size_t end = trimmed_end(p, i);
    report(p, SPX_E0113, span_at(p, i, end),
           "unexpected '%s' after the value; only a comment may follow on the line",
           shown_n(p->pool, (const char *)p->bytes + i, end - i));
    *syntax_error = 1;
}

static table_t *new_table(parser_t *p, table_kind_t kind, spx_span_t header_span)
{
    table_t *table = apr_pcalloc(p->pool, sizeof(*table));
    table->kind = kind;
    table->header_span = header_span;
    return table;
}

static int field_index(table_kind_t kind, const char *key)
{
    for (int i = 0; i < FIELD_COUNT; i++)
        if (table_keys[kind][i] && strcmp(table_keys[kind][i], key) == 0)
            return i;
    return -1;
}

/* File key (and value, NULL when it was broken) in the current table. quiet:
 * the line already has a syntax problem, so only note that the key is there. */
static void file_key(parser_t *p, const char *key, spx_span_t key_span, const char *value,
                     spx_span_t value_span, int quiet)
{
    table_t *table = p->current;
    if (table->kind == TABLE_IGNORED)
        return;
    if (table->kind != TABLE_TOP && strcmp(key, "manifest") == 0 && !p->manifest_seen) {
        p->manifest_seen = 1;
        if (!quiet)
            report(p, SPX_E0120, key_span,
                   "the key 'manifest' must come first in the manifest, before any table");
        return;
    }
    int index = field_index(table->kind, key);
    int v1_test = table->kind == TABLE_TEST && p->version == 1;
    if (v1_test && index >= V1_TEST_KEYS) {
        if (!quiet)
            report(p, SPX_E0145, key_span, "'%s' needs manifest = \"%s\"", key,
                   SPX_MANIFEST_SCHEMA_V2);
        return;
    }
    if (index < 0) {
        /* Most likely the missing key misspelt: one diagnostic, not two. */
        table->keys_lost = 1;
        if (!quiet)
            report(p, SPX_E0126, key_span, "unknown key '%s' in %s; %s%s", shown(p->pool, key),
                   table_names[table->kind],
                   nearest_name(p->pool, key, table_keys[table->kind],
                                v1_test ? V1_TEST_KEYS : FIELD_COUNT),
                   v1_test ? V1_TEST_KEY_LIST : table_key_lists[table->kind]);
        return;
    }
    field_t *field = &table->fields[index];
    if (field->present) {
        if (!quiet)
            report(p, SPX_E0127, key_span,
                   "duplicate key '%s' in %s; it is first set on line %" PRIu32, key,
                   table_names[table->kind], field->key_span.start.line);
        return;
    }
    field->present = 1;
    field->value = quiet ? NULL : value;
    field->key_span = key_span;
    field->value_span = value_span;
    if (table->kind == TABLE_TOP) {
        p->manifest_seen = 1;
        if (field->value && strcmp(field->value, SPX_MANIFEST_SCHEMA) == 0)
            p->version = 1;
        else if (field->value && strcmp(field->value, SPX_MANIFEST_SCHEMA_V2) == 0)
            p->version = 2;
        else if (field->value)
            report(p, SPX_E0121, value_span, "the manifest key must be \"%s\" or \"%s\", not '%s'",
                   SPX_MANIFEST_SCHEMA, SPX_MANIFEST_SCHEMA_V2, shown(p->pool, field->value));
    }
}

/* A basic string opening at open on the current line. Returns its decoded
 * text and sets *close to the closing quote, or reports and returns NULL. */
static const char *read_string(parser_t *p, apr_size_t open, apr_size_t *close)
{
    const unsigned char *b = p->bytes;
    apr_size_t eol = p->line_end;
    /* Decoded text is never longer than the raw bytes between the quotes. */
    char *text = apr_palloc(p->pool, eol - open);
    apr_size_t n = 0;
    for (apr_size_t q = open + 1; q < eol;) {
        unsigned char c = b[q];
        if (c == '"') {
            SPX_ASSERT(n < eol - open); /* room for the NUL too */
            text[n] = '\0';
            *close = q;
            return text;
        }
        if (c != '\\') {
            if (is_control(c)) {
                report(p, SPX_E0112, span_at(p, q, q + 1),
                       "control character U+%04X in a string; write a tab as \\t", (unsigned)c);
                return NULL;
            }
            text[n++] = (char)c;
            q++;
            continue;
        }
        if (q + 1 >= eol)
            break; /* a backslash at the end of the line: unterminated */
        unsigned char e = b[q + 1];
        if (e == '"' || e == '\\') {
            text[n++] = (char)e;
            q += 2;
        } else if (e == 'n') {
            text[n++] = '\n';
            q += 2;
        } else if (e == 't') {
            text[n++] = '\t';
            q += 2;
        } else if (e == 'u') {
            apr_size_t digits = 0;
            unsigned long code = 0;
            while (digits < 4 && q + 2 + digits < eol &&
                   spx_hex_digit_value(b[q + 2 + digits]) >= 0) {
                code = code * 16 + (unsigned)spx_hex_digit_value(b[q + 2 + digits]);
                digits++;
            }
            if (digits < 4) {
                report(p, SPX_E0111, span_at(p, q, q + 2 + digits),
                       "'\\u' must be followed by four hexadecimal digits");
                return NULL;
            }
            if (code >= 0xd800 && code <= 0xdfff) {
                report(p, SPX_E0111, span_at(p, q, q + 6),
                       "'\\u%04lX' is a surrogate, not a character", code);
                return NULL;
            }
            if (is_control(code) || (code >= 0x80 && code <= 0x9f)) {
                report(p, SPX_E0112, span_at(p, q, q + 6),
                       "'\\u%04lX' is a control character; only \\n and \\t may be written", code);
                return NULL;
            }
            n += spx_utf8_encode(code, text + n);
            q += 6;
        } else {
            apr_size_t size = char_size(p, q + 1);
            report(p, SPX_E0111, span_at(p, q, q + 1 + size),
                   "'\\%s' is not an escape of the manifest; use \\\" \\\\ \\n \\t or \\uXXXX",
                   shown_n(p->pool, (const char *)b + q + 1, size));
            return NULL;
        }
    }
    report(p, SPX_E0110, span_at(p, open, eol),
           "unterminated string; a string ends with '\"' on the line it starts");
    return NULL;
}

/* The end of the bracketed value opening at i, which may span lines (arrays
 * may): strings and comments are skipped. When it never closes: the line's
 * end for one_line, else 0. */
static apr_size_t bracket_end(const parser_t *p, apr_size_t i, unsigned char open,
                              unsigned char close, int one_line)
{
    const unsigned char *b = p->bytes;
    apr_size_t limit = one_line ? p->line_end : p->length, depth = 0;
    for (apr_size_t j = i; j < limit; j++) {
        unsigned char c = b[j];
        if (c == open) {
            depth++;
        } else if (c == close) {
            if (--depth == 0)
                return j + 1;
        } else if (c == '"' || c == '\'') {
            for (j++; j < limit && b[j] != c && b[j] != '\n'; j++)
                if (c == '"' && b[j] == '\\' && j + 1 < limit && b[j + 1] != '\n')
                    j++;
            if (j >= limit)
                break;
        } else if (c == '#') {
            while (j + 1 < limit && b[j + 1] != '\n')
                j++;
        }
    }
    return one_line ? limit : 0;
}

/* Where the multi-line string opening at i (three quotes) closes: the offset
 * after its closing quotes, or 0 when it never does. */
static apr_size_t multiline_end(const parser_t *p, apr_size_t i, unsigned char quote)
{
    const unsigned char *b = p->bytes;
    for (apr_size_t j = i + 3; j + 2 < p->length; j++) {
        if (quote == '"' && b[j] == '\\') {
            j++;
            continue;
        }
        if (b[j] == quote && b[j + 1] == quote && b[j + 2] == quote)
            return j + 3;
    }
    return 0;
}

/* Stop reading: everything after offset is inside an unclosed construct. */
static apr_size_t lose_rest(parser_t *p)
{
    p->structure_lost = 1;
    p->current->keys_lost = 1;
    return p->length;
}

/* A limit key's value starting at v: a TOML decimal integer
 * 0|[1-9](_?[0-9])*, within the key's range (limit is its index among the
 * limit keys). Returns 0 when the value is not a bare number or a basic
 * string (an array, table or other string reads as any other key's would). */
static int read_limit_value(parser_t *p, const char *key, spx_span_t key_span, apr_size_t equals,
                            apr_size_t v, int limit)
{
    const unsigned char *b = p->bytes;
    apr_size_t eol = p->line_end;
    unsigned char c = v < eol ? b[v] : '\n';
    spx_span_t none = {{0, 0, 0}, {0, 0, 0}};
    if (p->current->kind == TABLE_TEST && p->version == 1) {
        file_key(p, key, key_span, NULL, none, 0); /* E0145 */
        return 1;
    }
    if (c == '[' || c == '{' || c == '\'')
        return 0;
    spx_span_t value_span;
    const char *digits = NULL;
    uint64_t number = 0;
    if (c == '\n' || c == '#') {
        value_span = span_at(p, equals, equals + 1);
    } else if (c == '"') {
        const unsigned char *q = memchr(b + v + 1, '"', eol - v - 1);
        value_span = span_at(p, v, q ? (apr_size_t)(q - b) + 1 : eol);
    } else {
        const unsigned char *hash = memchr(b + v, '#', eol - v);
        apr_size_t end = hash ? (apr_size_t)(hash - b) : eol;
        while (end > v && is_space(b[end - 1]))
            end--;
        value_span = span_at(p, v, end);
        int ok = end > v && (b[v] != '0' || end == v + 1);
        char *text = apr_palloc(p->pool, end - v + 1);
        apr_size_t n = 0;
        for (apr_size_t i = v; ok && i < end; i++) {
            if (b[i] == '_' && i > v && i + 1 < end && b[i - 1] != '_' && b[i + 1] != '_')
                continue;
            if (!(b[i] >= '0' && b[i] <= '9')) {
                ok = 0;
                break;
            }
            text[n++] = (char)b[i];
            unsigned digit = (unsigned)(b[i] - '0');
            number = number > (UINT64_MAX - digit) / 10 ? UINT64_MAX : number * 10 + digit;
        }
        text[n] = '\0';
        if (ok)
            digits = text;
    }
    if (!digits) {
        report(p, SPX_E0153, value_span, "%s takes an integer such as 5_000_000", key);
        file_key(p, key, key_span, NULL, value_span, 1);
        return 1;
    }
    if (number < limit_minimum[limit] || number > limit_maximum[limit]) {
        int over = number > limit_maximum[limit];
        report(p, SPX_E0154, value_span, "%s %s is %s the %s of %" PRIu64, key, digits,
               over ? "over" : "under", over ? "maximum" : "minimum",
               over ? limit_maximum[limit] : limit_minimum[limit]);
        file_key(p, key, key_span, NULL, value_span, 1);
        return 1;
    }
    file_key(p, key, key_span, digits, value_span, 0);
    int index = field_index(p->current->kind, key);
    if (index >= 0 && p->current->fields[index].value == digits)
        p->current->fields[index].integer = number;
    return 1;
}

/* The value of key starting at v (equals at the '=' sign). Files the key, and
 * returns the offset the next line is searched from. */
static apr_size_t read_value(parser_t *p, const char *key, spx_span_t key_span, apr_size_t equals,
                             apr_size_t v)
{
    int base = limit_base(p->current->kind);
    int index = base >= 0 ? field_index(p->current->kind, key) : -1;
    if (base >= 0 && index >= base && read_limit_value(p, key, key_span, equals, v, index - base))
        return p->line_end;
    const unsigned char *b = p->bytes;
    apr_size_t eol = p->line_end, resume = eol;
    const char *shown_key = shown(p->pool, key);
    spx_span_t value_span = {{0, 0, 0}, {0, 0, 0}};
    const char *value = NULL;
    unsigned char c = v < eol ? b[v] : '\n';
    int multi = v + 2 < eol && (c == '"' || c == '\'') && b[v + 1] == c && b[v + 2] == c;

    if (c == '\n' || c == '#') {
        report(p, SPX_E0114, span_at(p, equals, equals + 1),
               "missing value after '=' for the key '%s'; every value is a \"...\" string",
               shown_key);
    } else if (multi) {
        apr_size_t end = multiline_end(p, v, c);
        report(p, SPX_E0117, span_at(p, v, end ? end : eol),
               "multi-line strings are not allowed; write the value of '%s' as one \"...\" "
               "string",
               shown_key);
        resume = end ? end : lose_rest(p);
    } else if (c == '\'') {
        const unsigned char *q = memchr(b + v + 1, '\'', eol - v - 1);
        report(p, SPX_E0116, span_at(p, v, q ? (apr_size_t)(q - b) + 1 : eol),
               "literal strings are not allowed; write the value of '%s' as a \"...\" string",
               shown_key);
    } else if (c == '{') {
        report(p, SPX_E0115, span_at(p, v, bracket_end(p, v, '{', '}', 1)),
               "inline tables are not allowed; the value of '%s' must be a \"...\" string",
               shown_key);
    } else if (c == '[') {
        apr_size_t end = bracket_end(p, v, '[', ']', 0);
        report(p, SPX_E0114, span_at(p, v, end ? end : eol),
               "the value of '%s' is an array, not a string; every value is a \"...\" string",
               shown_key);
        resume = end ? end : lose_rest(p);
    } else if (c != '"') {
        /* A number, boolean or date: up to a comment or the line's end. */
        const unsigned char *hash = memchr(b + v, '#', eol - v);
        apr_size_t end = hash ? (apr_size_t)(hash - b) : eol;
        while (end > v && is_space(b[end - 1]))
            end--;
        report(p, SPX_E0114, span_at(p, v, end),
               "the value of '%s' is not a string: '%s'; every value is a \"...\" string",
               shown_key, shown_n(p->pool, (const char *)b + v, end - v));
    } else {
        apr_size_t close = 0;
        value = read_string(p, v, &close);
        if (value) {
            value_span = span_at(p, v, close + 1);
            int syntax_error = 0;
            check_line_rest(p, close + 1, &syntax_error);
            if (!syntax_error) {
                file_key(p, key, key_span, value, value_span, 0);
                return resume;
            }
        }
    }
    file_key(p, key, key_span, NULL, value_span, 1);
    return resume;
}

/* A line that starts (after blanks) with a key at i. */
static apr_size_t read_key_line(parser_t *p, apr_size_t i)
{
    const unsigned char *b = p->bytes;
    apr_size_t eol = p->line_end;
    unsigned char c = b[i];
    if (c == '"' || c == '\'') {
        const unsigned char *q = memchr(b + i + 1, c, eol - i - 1);
        apr_size_t end = q ? (apr_size_t)(q - b) + 1 : eol;
        p->item_span = span_at(p, i, end);
        report(p, SPX_E0107, p->item_span,
               "quoted keys are not allowed; write the key bare (A-Z a-z 0-9 _ -)");
        p->current->keys_lost = 1;
        return eol;
    }
    if (c == '=') {
        p->item_span = span_at(p, i, i + 1);
        report(p, SPX_E0106, p->item_span, "expected a key before '='");
        p->current->keys_lost = 1;
        return eol;
    }
    apr_size_t t = i;
    int bare = 1, dots = 0;
    while (t < eol && !is_space(b[t]) && b[t] != '=' && b[t] != '#') {
        if (b[t] == '.')
            dots = 1;
        else if (!is_bare(b[t]))
            bare = 0;
        t++;
    }
    apr_size_t after = skip_space(p, t);
    if (bare && (dots || (after < eol && b[after] == '.'))) {
        /* a.b = or a . b = : the dotted key runs up to '=' (or the line's end) */
        const unsigned char *eq = memchr(b + i, '=', eol - i);
        apr_size_t end = eq ? (apr_size_t)(eq - b) : eol;
        while (end > i && is_space(b[end - 1]))
            end--;
        p->item_span = span_at(p, i, end);
        report(p, SPX_E0108, p->item_span, "dotted keys are not allowed: '%s'",
               shown_n(p->pool, (const char *)b + i, end - i));
        p->current->keys_lost = 1;
        return eol;
    }
    const char *key = apr_pstrndup(p->pool, (const char *)b + i, t - i);
    spx_span_t key_span = span_at(p, i, t);
    p->item_span = key_span;
    if (!bare) {
        report(p, SPX_E0107, key_span, "'%s' is not a bare key; keys are made of A-Z a-z 0-9 _ -",
               shown_n(p->pool, key, t - i));
        p->current->keys_lost = 1;
        return eol;
    }
    if (after == eol || b[after] != '=') {
        report(p, SPX_E0109, key_span, "expected '=' after the key '%s'", key);
        spx_span_t none = {{0, 0, 0}, {0, 0, 0}};
        file_key(p, key, key_span, NULL, none, 1);
        return eol;
    }
    return read_value(p, key, key_span, after, skip_space(p, after + 1));
}

/* A table header line, '[' at i. */
static apr_size_t read_header(parser_t *p, apr_size_t i)
{
    const unsigned char *b = p->bytes;
    apr_size_t eol = p->line_end;
    int array = i + 1 < eol && b[i + 1] == '[';
    apr_size_t name_start = skip_space(p, i + (array ? 2 : 1)), name_end = name_start;
    while (name_end < eol && is_bare(b[name_end]))
        name_end++;
    apr_size_t j = skip_space(p, name_end), close = 0;
    if (name_end > name_start && j < eol && b[j] == ']') {
        if (!array)
            close = j + 1;
        else if (j + 1 < eol && b[j + 1] == ']')
            close = j + 2;
    }
    if (close == 0) {
        /* The header as written: up to its first ']' (or ']]'), else the line. */
        const unsigned char *q = memchr(b + i, ']', eol - i);
        apr_size_t end = q ? (apr_size_t)(q - b) + 1 : trimmed_end(p, i);
        if (q && array && end < eol && b[end] == ']')
            end++;
        int dotted = name_end > name_start && name_end < eol && b[name_end] == '.';
        p->item_span = span_at(p, i, end);
        if (dotted)
            report(p, SPX_E0108, p->item_span, "dotted table names are not allowed: '%s'",
                   shown_n(p->pool, (const char *)b + i, end - i));
        else if (!q)
            report(p, SPX_E0118, p->item_span, "the table header '%s' is not closed with '%s'",
                   shown_n(p->pool, (const char *)b + i, end - i), array ? "]]" : "]");
        else
            report(p, SPX_E0118, p->item_span,
                   "malformed table header '%s'; the manifest has [project], [[source]] and "
                   "[[test]]",
                   shown_n(p->pool, (const char *)b + i, end - i));
        p->structure_lost = 1;
        p->current = &p->ignored;
        return eol;
    }
    spx_span_t header_span = span_at(p, i, close);
    p->item_span = header_span;
    int syntax_error = 0;
    check_line_rest(p, close, &syntax_error);

    const char *name = apr_pstrndup(p->pool, (const char *)b + name_start, name_end - name_start);
    if (!array && strcmp(name, "project") == 0) {
        if (p->project) {
            report(p, SPX_E0123, header_span,
                   "second [project] table; the first is on line %" PRIu32,
                   p->project->header_span.start.line);
            p->current = &p->ignored;
            return eol;
        }
        if (p->saw_array_table)
            report(p, SPX_E0124, header_span, "%s",
                   p->version == 2 ? "[project] must come directly after the manifest key, before "
                                     "any [limits], [[source]], [[data]] or [[test]]"
                                   : "[project] must come directly after the manifest key, before "
                                     "any [[source]] or [[test]]");
        p->project = p->current = new_table(p, TABLE_PROJECT, header_span);
        return eol;
    }
    if (array && (strcmp(name, "source") == 0 || strcmp(name, "test") == 0)) {
        int source = name[0] == 's';
        apr_size_t *seen = source ? &p->sources_seen : &p->tests_seen;
        unsigned limit = source ? SPX_LIMIT_SOURCES : SPX_LIMIT_TESTS;
        p->saw_array_table = 1;
        (*seen)++;
        if (*seen > limit) {
            if (*seen == (apr_size_t)limit + 1)
                report(p, source ? SPX_E0142 : SPX_E0143, header_span,
                       "more than %u [[%s]] tables; the limit is %u", limit, name, limit);
            p->current = &p->ignored;
            return eol;
        }
        p->current = new_table(p, source ? TABLE_SOURCE : TABLE_TEST, header_span);
        APR_ARRAY_PUSH(source ? p->sources : p->tests, table_t *) = p->current;
        return eol;
    }
    int is_limits = !array && strcmp(name, "limits") == 0;
    if (is_limits || (array && strcmp(name, "data") == 0)) {
        /* A table not kept still reads its keys as its kind's, so that its
         * integers give no further diagnostic. */
        table_t *unkept = new_table(p, is_limits ? TABLE_LIMITS : TABLE_DATA, header_span);
        if (p->version == 1) {
            report(p, SPX_E0145, header_span, "'%s' needs manifest = \"%s\"",
                   is_limits ? "[limits]" : "[[data]]", SPX_MANIFEST_SCHEMA_V2);
            p->current = unkept;
            return eol;
        }
        p->saw_array_table = 1;
        if (is_limits) {
            if (p->limits) {
                report(p, SPX_E0156, header_span, "a second [limits] table");
                p->current = unkept;
                return eol;
            }
            p->limits = p->current = new_table(p, TABLE_LIMITS, header_span);
            return eol;
        }
        if (++p->data_seen > SPX_LIMIT_DATA_ENTRIES) {
            if (p->data_seen == (apr_size_t)SPX_LIMIT_DATA_ENTRIES + 1)
                report(p, SPX_E0152, header_span, "more than %u [[data]] tables",
                       SPX_LIMIT_DATA_ENTRIES);
            p->current = &p->ignored;
            return eol;
        }
        p->current = new_table(p, TABLE_DATA, header_span);
        APR_ARRAY_PUSH(p->data, table_t *) = p->current;
        return eol;
    }
    const char *written = shown_n(p->pool, (const char *)b + i, close - i);
    const char *tables = p->version == 2 ? "[project], [limits], [[source]], [[data]] and [[test]]"
                                         : "[project], [[source]] and [[test]]";
    if (!array && (strcmp(name, "source") == 0 || strcmp(name, "test") == 0))
        report(p, SPX_E0125, header_span,
               "unknown table %s; each %s is an array table, written [[%s]]", written, name, name);
    else if (array && strcmp(name, "project") == 0)
        report(p, SPX_E0125, header_span,
               "unknown table %s; the project is one table, written [project]", written);
    else if (array && strcmp(name, "limits") == 0)
        report(p, SPX_E0125, header_span,
               "unknown table %s; the limits are one table, written [limits]", written);
    else if (!array && strcmp(name, "data") == 0)
        report(p, SPX_E0125, header_span,
               "unknown table %s; each data entry is an array table, written [[data]]", written);
    else
        report(p, SPX_E0125, header_span, "unknown table %s; the manifest has %s", written, tables);
    p->structure_lost = 1;
    p->current = &p->ignored;
    return eol;
}

/* One line; returns the offset from which the next line is searched (later
 * than the line's end when a construct spans lines). */
static apr_size_t read_line(parser_t *p)
{
    apr_size_t i = skip_space(p, p->line_begin);
    if (i == p->line_end)
        return i;
    if (p->bytes[i] == '#') {
        check_comment(p, i);
        return p->line_end;
    }
    apr_size_t before = p->budget.count;
    int lost = p->current->keys_lost;
    apr_size_t resume = p->bytes[i] == '[' ? read_header(p, i) : read_key_line(p, i);
    if (p->items == 0) {
        p->first_item_span = p->item_span;
        p->first_item_reported = p->budget.count != before || (!lost && p->current->keys_lost);
    }
    p->items++;
    return resume;
}

static void read_lines(parser_t *p)
{
    const unsigned char *b = p->bytes;
    apr_size_t start = spx_byte_order_mark_length((const char *)b, p->length), line = 1;
    /* start grows every round, so the loop ends within length rounds */
    while (start < p->length && !p->budget.stopped) {
        const unsigned char *lf = memchr(b + start, '\n', p->length - start);
        p->line_start = line == 1 ? 0 : start;
        p->line_begin = start;
        p->line_number = line;
        p->line_end = lf ? (apr_size_t)(lf - b) : p->length;
        if (lf && p->line_end > start && b[p->line_end - 1] == '\r')
            p->line_end--; /* a CR LF: pass 1 let no other CR through */
        apr_size_t resume = read_line(p);
        if (resume >= p->length)
            break;
        lf = memchr(b + resume, '\n', p->length - resume);
        apr_size_t next = lf ? (apr_size_t)(lf - b) + 1 : p->length;
        for (apr_size_t j = start; j < next; j++)
            if (b[j] == '\n')
                line++;
        start = next;
    }
}

/* --- pass 3: meaning ----------------------------------------------------- */

/* What is wrong with a project, test (dash allowed) or module name; NULL if
 * nothing. */
static const char *name_problem(apr_pool_t *pool, const char *name, int dash)
{
    apr_size_t length = strlen(name);
    if (length == 0)
        return "is empty";
    if (length > SPX_LIMIT_IDENTIFIER_BYTES)
        return apr_psprintf(pool, "is longer than %u bytes", SPX_LIMIT_IDENTIFIER_BYTES);
    if (!(name[0] >= 'a' && name[0] <= 'z'))
        return "must start with a lowercase letter a-z";
    for (apr_size_t i = 1; i < length; i++) {
        unsigned char c = (unsigned char)name[i];
        if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || (dash && c == '-'))
            continue;
        const char *allowed = dash ? "a-z 0-9 _ -" : "a-z 0-9 _";
        return apr_psprintf(pool, "contains %s; only %s are allowed",
                            spx_refused_byte_text(c, pool), allowed);
    }
    return NULL;
}

/* A data name is [a-z][a-z0-9_-]{0,63}. */
static int data_name_valid(const char *name)
{
    apr_size_t length = strlen(name);
    if (length == 0 || length > SPX_LIMIT_DATA_NAME_BYTES || !(name[0] >= 'a' && name[0] <= 'z'))
        return 0;
    for (apr_size_t i = 1; i < length; i++) {
        char c = name[i];
        if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
            return 0;
    }
    return 1;
}

const char *spx_module_name_problem(const char *name, apr_pool_t *pool)
{
    return name_problem(pool, name, 0);
}

const char *spx_project_name_problem(const char *name, apr_pool_t *pool)
{
    return name_problem(pool, name, 1);
}

/* What is wrong with a MODULE.FUNCTION reference; NULL if nothing. */
static const char *reference_problem(apr_pool_t *pool, const char *reference)
{
    const char *dot = strchr(reference, '.');
    if (!dot)
        return "has no '.'; write MODULE.FUNCTION";
    if (strchr(dot + 1, '.'))
        return "has more than one '.'; write MODULE.FUNCTION";
    const char *module = apr_pstrndup(pool, reference, (apr_size_t)(dot - reference));
    const char *problem = name_problem(pool, module, 0);
    if (problem)
        return apr_psprintf(pool, "has the module name '%s', which %s", shown(pool, module),
                            problem);
    const char *function = dot + 1;
    apr_size_t length = strlen(function);
    if (length == 0)
        return "has no function name after '.'";
    if (length > SPX_LIMIT_IDENTIFIER_BYTES)
        return apr_psprintf(pool, "has a function name longer than %u bytes",
                            SPX_LIMIT_IDENTIFIER_BYTES);
    for (apr_size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)function[i];
        int letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
        if (letter || (i > 0 && c >= '0' && c <= '9'))
            continue;
        if (i == 0)
            return "has a function name that does not start with a letter or '_'";
        return apr_psprintf(pool,
                            "has a function name containing %s; only A-Z a-z 0-9 _ are allowed",
                            spx_refused_byte_text(c, pool));
    }
    return NULL;
}

/* What is wrong with a version; NULL if nothing. */
static const char *version_problem(apr_pool_t *pool, const char *version)
{
    apr_size_t length = strlen(version), parts = 1;
    if (length > SPX_LIMIT_VERSION_BYTES)
        return apr_psprintf(pool, "is longer than %u bytes", SPX_LIMIT_VERSION_BYTES);
    for (apr_size_t i = 0; i < length; i++) {
        unsigned char c = (unsigned char)version[i];
        if (c == '.') {
            parts++;
        } else if (!(c >= '0' && c <= '9')) {
            return apr_psprintf(pool, "contains %s; only digits and '.' are allowed",
                                spx_refused_byte_text(c, pool));
        }
    }
    if (parts != 3)
        return "is not MAJOR.MINOR.PATCH: three numbers separated by '.'";
    for (apr_size_t i = 0; i < length; i++) {
        int starts = i == 0 || version[i - 1] == '.';
        int ends = i + 1 == length || version[i + 1] == '.';
        if (starts && version[i] == '.')
            return "has an empty number";
        if (starts && version[i] == '0' && !ends)
            return "has a number with a leading zero";
    }
    if (length == 0 || version[length - 1] == '.')
        return "has an empty number";
    return NULL;
}

/* Report each required key the table lacks, at its header. */
static void check_required(parser_t *p, const table_t *table)
{
    if (table->keys_lost)
        return;
    for (int i = 0; i < FIELD_COUNT; i++)
        if (table_keys[table->kind][i] && !table_optional[table->kind][i] &&
            !table->fields[i].present)
            report(p, SPX_E0128, table->header_span, "%s is missing the key '%s'",
                   table_names[table->kind], table_keys[table->kind][i]);
}

/* The value of a field when it is present and readable. */
static const char *value_of(const table_t *table, int index)
{
    return table->fields[index].present ? table->fields[index].value : NULL;
}

/* A reference (entry or test function) must name a declared module. */
static void check_reference(parser_t *p, const field_t *field, const char *what,
                            spx_diagnostic_code_t syntax_code, spx_diagnostic_code_t module_code,
                            apr_hash_t *modules, int modules_known)
{
    if (!field->present || !field->value)
        return;
    const char *problem = reference_problem(p->pool, field->value);
    if (problem) {
        report(p, syntax_code, field->value_span, "%s '%s' %s", what, shown(p->pool, field->value),
               problem);
        return;
    }
    const char *dot = strchr(field->value, '.');
    if (modules_known && !apr_hash_get(modules, field->value, (apr_ssize_t)(dot - field->value))) {
        const char *module = apr_pstrndup(p->pool, field->value, (apr_size_t)(dot - field->value));
        apr_size_t count = (apr_size_t)apr_hash_count(modules), filled = 0;
        const char **names = apr_palloc(p->pool, (count + 1) * sizeof(*names));
        for (apr_hash_index_t *entry = apr_hash_first(p->pool, modules); entry && filled < count;
             entry = apr_hash_next(entry))
            names[filled++] = apr_hash_this_key(entry);
        const char *nearest = nearest_name(p->pool, module, names, filled);
        report(p, module_code, field->value_span,
               "%s '%s' names the module '%s', which no [[source]] declares%s%.*s", what,
               field->value, module, *nearest ? "; " : "", *nearest ? (int)strlen(nearest) - 1 : 0,
               nearest);
    }
}

static void check_meaning(parser_t *p)
{
    spx_span_t eof = spx_span_between(p->bytes, p->length, p->length, p->length);
    if (!p->manifest_seen && !p->structure_lost && !p->first_item_reported)
        report(p, SPX_E0120, p->items ? p->first_item_span : eof,
               "the manifest must begin with manifest = \"%s\"", SPX_MANIFEST_SCHEMA);
    if (!p->project && !p->structure_lost)
        report(p, SPX_E0122, eof, "the manifest has no [project] table");
    if (p->sources_seen == 0 && !p->structure_lost)
        report(p, SPX_E0129, eof, "the manifest declares no [[source]]; at least one is required");

    if (p->project) {
        const table_t *project = p->project;
        check_required(p, project);
        const char *name = value_of(project, 0), *version = value_of(project, 1);
        const char *problem = name ? name_problem(p->pool, name, 1) : NULL;
        if (problem)
            report(p, SPX_E0130, project->fields[0].value_span, "project name '%s' %s",
                   shown(p->pool, name), problem);
        problem = version ? version_problem(p->pool, version) : NULL;
        if (problem)
            report(p, SPX_E0131, project->fields[1].value_span, "version '%s' %s",
                   shown(p->pool, version), problem);
    }

    /* Sources: module names and paths, each unique. */
    apr_hash_t *modules = apr_hash_make(p->pool), *paths = apr_hash_make(p->pool);
    int modules_known = p->sources_seen <= SPX_LIMIT_SOURCES;
    for (int i = 0; i < p->sources->nelts; i++) {
        const table_t *source = APR_ARRAY_IDX(p->sources, i, table_t *);
        check_required(p, source);
        const char *module = value_of(source, 0), *path = value_of(source, 1);
        const char *problem = module ? name_problem(p->pool, module, 0) : NULL;
        if (!module || problem)
            modules_known = 0;
        if (problem) {
            report(p, SPX_E0134, source->fields[0].value_span, "module name '%s' %s",
                   shown(p->pool, module), problem);
        } else if (module) {
            const table_t *first = apr_hash_get(modules, module, APR_HASH_KEY_STRING);
            if (first)
                report(p, SPX_E0135, source->fields[0].value_span,
                       "module '%s' is declared twice; first on line %" PRIu32, module,
                       first->fields[0].value_span.start.line);
            else
                apr_hash_set(modules, module, APR_HASH_KEY_STRING, source);
        }
        problem = path ? spx_source_path_problem(path, p->pool) : NULL;
        if (problem) {
            report(p, SPX_E0137, source->fields[1].value_span, "source path '%s' %s",
                   shown(p->pool, path), problem);
        } else if (path) {
            const table_t *first = apr_hash_get(paths, path, APR_HASH_KEY_STRING);
            if (first)
                report(p, SPX_E0136, source->fields[1].value_span,
                       "source path '%s' is declared twice; first on line %" PRIu32, path,
                       first->fields[1].value_span.start.line);
            else
                apr_hash_set(paths, path, APR_HASH_KEY_STRING, source);
        }
    }

    if (p->project)
        check_reference(p, &p->project->fields[2], "entry", SPX_E0132, SPX_E0133, modules,
                        modules_known);

    /* Data (v2): names and paths, each unique; a path no source's nor the
     * manifest's. */
    apr_hash_t *data_names = apr_hash_make(p->pool), *data_paths = apr_hash_make(p->pool);
    for (int i = 0; i < p->data->nelts; i++) {
        const table_t *data = APR_ARRAY_IDX(p->data, i, table_t *);
        check_required(p, data);
        const char *name = value_of(data, 0), *path = value_of(data, 1);
        if (name && !data_name_valid(name)) {
            report(p, SPX_E0146, data->fields[0].value_span,
                   "data name '%s' is not [a-z][a-z0-9_-]{0,63}", shown(p->pool, name));
        } else if (name) {
            const table_t *first = apr_hash_get(data_names, name, APR_HASH_KEY_STRING);
            if (first)
                report_twice(p, SPX_E0147, data->fields[0].value_span, first->fields[0].value_span,
                             "data name '%s' is declared twice", name);
            else
                apr_hash_set(data_names, name, APR_HASH_KEY_STRING, data);
        }
        const char *problem = path ? spx_data_path_problem(path, p->pool) : NULL;
        if (problem) {
            report(p, SPX_E0148, data->fields[1].value_span, "data path '%s' %s",
                   shown(p->pool, path), problem);
        } else if (path) {
            const table_t *first = apr_hash_get(data_paths, path, APR_HASH_KEY_STRING);
            if (apr_hash_get(paths, path, APR_HASH_KEY_STRING))
                report(p, SPX_E0149, data->fields[1].value_span,
                       "data path '%s' is already declared as a source", path);
            else if (strcmp(path, p->budget.path) == 0)
                report(p, SPX_E0149, data->fields[1].value_span, "data path '%s' is the manifest's",
                       path);
            else if (first)
                report_twice(p, SPX_E0149, data->fields[1].value_span, first->fields[1].value_span,
                             "data path '%s' is already declared as data", path);
            else
                apr_hash_set(data_paths, path, APR_HASH_KEY_STRING, data);
        }
    }

    apr_hash_t *names = apr_hash_make(p->pool);
    for (int i = 0; i < p->tests->nelts; i++) {
        const table_t *test = APR_ARRAY_IDX(p->tests, i, table_t *);
        check_required(p, test);
        const char *name = value_of(test, 0);
        const char *problem = name ? name_problem(p->pool, name, 1) : NULL;
        if (problem) {
            report(p, SPX_E0138, test->fields[0].value_span, "test name '%s' %s",
                   shown(p->pool, name), problem);
        } else if (name) {
            const table_t *first = apr_hash_get(names, name, APR_HASH_KEY_STRING);
            if (first)
                report(p, SPX_E0139, test->fields[0].value_span,
                       "test name '%s' is used twice; first on line %" PRIu32, name,
                       first->fields[0].value_span.start.line);
            else
                apr_hash_set(names, name, APR_HASH_KEY_STRING, test);
        }
        check_reference(p, &test->fields[1], "test function", SPX_E0140, SPX_E0141, modules,
                        modules_known);
    }
}

/* --- the result ------------------------------------------------------------ */

/* The limit keys of table from its field base on. */
static spx_manifest_limits_t limits_of(const table_t *table, int base)
{
    spx_manifest_limits_t limits;
    memset(&limits, 0, sizeof(limits));
    if (!table)
        return limits;
    limits.has_max_steps = table->fields[base].present;
    limits.max_steps = table->fields[base].integer;
    limits.has_max_memory = table->fields[base + 1].present;
    limits.max_memory = table->fields[base + 1].integer;
    limits.has_max_call_depth = table->fields[base + 2].present;
    limits.max_call_depth = table->fields[base + 2].integer;
    return limits;
}

static spx_manifest_t *build(const parser_t *p)
{
    spx_manifest_t *manifest = apr_pcalloc(p->pool, sizeof(*manifest));
    manifest->schema_version = p->version;
    manifest->limits = limits_of(p->limits, 0);
    manifest->data_count = (apr_size_t)p->data->nelts;
    manifest->data = apr_pcalloc(p->pool, sizeof(*manifest->data) * (manifest->data_count + 1));
    for (apr_size_t i = 0; i < manifest->data_count; i++) {
        const table_t *data = APR_ARRAY_IDX(p->data, i, table_t *);
        spx_manifest_data_t *out = &manifest->data[i];
        out->name = data->fields[0].value;
        out->path = data->fields[1].value;
        out->name_span = data->fields[0].value_span;
        out->path_span = data->fields[1].value_span;
    }
    const table_t *project = p->project;
    manifest->name = project->fields[0].value;
    manifest->version = project->fields[1].value;
    if (project->fields[2].present) {
        manifest->entry = project->fields[2].value;
        manifest->entry_span = project->fields[2].value_span;
    }
    manifest->source_count = (apr_size_t)p->sources->nelts;
    manifest->sources =
        apr_pcalloc(p->pool, sizeof(*manifest->sources) * (manifest->source_count + 1));
    for (apr_size_t i = 0; i < manifest->source_count; i++) {
        const table_t *source = APR_ARRAY_IDX(p->sources, i, table_t *);
        spx_manifest_source_t *out = &manifest->sources[i];
        out->module = source->fields[0].value;
        out->path = source->fields[1].value;
        out->module_span = source->fields[0].value_span;
        out->path_span = source->fields[1].value_span;
    }
    manifest->test_count = (apr_size_t)p->tests->nelts;
    manifest->tests = apr_pcalloc(p->pool, sizeof(*manifest->tests) * (manifest->test_count + 1));
    for (apr_size_t i = 0; i < manifest->test_count; i++) {
        const table_t *test = APR_ARRAY_IDX(p->tests, i, table_t *);
        spx_manifest_test_t *out = &manifest->tests[i];
        out->name = test->fields[0].value;
        out->function = test->fields[1].value;
        out->name_span = test->fields[0].value_span;
        out->function_span = test->fields[1].value_span;
        out->limits = limits_of(test, 2);
    }
    return manifest;
}

spx_manifest_t *spx_manifest_parse(const unsigned char *bytes, apr_size_t length, const char *path,
                                   apr_pool_t *pool, spx_diagnostics_t *diagnostics)
{
    parser_t *p = apr_pcalloc(pool, sizeof(*p));
    p->bytes = bytes ? bytes : (const unsigned char *)"";
    p->length = bytes ? length : 0;
    p->pool = pool;
    spx_diagnostic_budget_init(&p->budget, diagnostics, path, SPX_LIMIT_MANIFEST_DIAGNOSTICS,
                               SPX_E0144,
                               "more than %u problems in the manifest; the rest are not reported");
    p->top.kind = TABLE_TOP;
    p->ignored.kind = TABLE_IGNORED;
    p->current = &p->top;
    p->sources = apr_array_make(pool, 8, sizeof(table_t *));
    p->tests = apr_array_make(pool, 8, sizeof(table_t *));
    p->data = apr_array_make(pool, 8, sizeof(table_t *));
    if (!check_encoding(p))
        return NULL;
    read_lines(p);
    if (!p->budget.stopped)
        check_meaning(p);
    return p->budget.count ? NULL : build(p);
}

/* --- the canonical subject ------------------------------------------------ */

/* Insert entry into array, kept sorted by its "path" (paths are unique):
 * binary insertion. */
static void insert_by_path(json_t *array, json_t *entry)
{
    const char *path = json_string_value(json_object_get(entry, "path"));
    size_t low = 0, high = json_array_size(array);
    while (low < high) {
        size_t middle = low + (high - low) / 2;
        const char *other =
            json_string_value(json_object_get(json_array_get(array, middle), "path"));
        if (strcmp(other, path) < 0)
            low = middle + 1;
        else
            high = middle;
    }
    json_array_insert_new(array, low, entry);
}

/* The limit keys given, as a JSON object. */
static json_t *limits_subject(const spx_manifest_limits_t *limits)
{
    json_t *object = json_object();
    if (limits->has_max_steps)
        json_object_set_new(object, "max_steps", json_integer((json_int_t)limits->max_steps));
    if (limits->has_max_memory)
        json_object_set_new(object, "max_memory", json_integer((json_int_t)limits->max_memory));
    if (limits->has_max_call_depth)
        json_object_set_new(object, "max_call_depth",
                            json_integer((json_int_t)limits->max_call_depth));
    return object;
}

const spx_manifest_data_t *spx_manifest_find_data(const spx_manifest_t *manifest, const char *name)
{
    for (apr_size_t i = 0; i < manifest->data_count; i++)
        if (strcmp(manifest->data[i].name, name) == 0)
            return &manifest->data[i];
    return NULL;
}

json_t *spx_manifest_subject(const spx_manifest_t *manifest)
{
    json_t *project = json_pack("{s:s, s:s}", "name", manifest->name, "version", manifest->version);
    if (manifest->entry)
        json_object_set_new(project, "entry", json_string(manifest->entry));

    json_t *sources = json_array();
    for (apr_size_t i = 0; i < manifest->source_count; i++)
        insert_by_path(sources, json_pack("{s:s, s:s}", "module", manifest->sources[i].module,
                                          "path", manifest->sources[i].path));

    json_t *tests = json_array();
    for (apr_size_t i = 0; i < manifest->test_count; i++) {
        const spx_manifest_test_t *test = &manifest->tests[i];
        json_t *entry = limits_subject(&test->limits);
        json_object_set_new(entry, "name", json_string(test->name));
        json_object_set_new(entry, "function", json_string(test->function));
        json_array_append_new(tests, entry);
    }

    if (manifest->schema_version != 2)
        return json_pack("{s:s, s:o, s:o, s:o}", "schema", SPX_MANIFEST_SCHEMA, "project", project,
                         "sources", sources, "tests", tests);
    json_t *data = json_array();
    for (apr_size_t i = 0; i < manifest->data_count; i++)
        insert_by_path(data, json_pack("{s:s, s:s}", "name", manifest->data[i].name, "path",
                                       manifest->data[i].path));
    return json_pack("{s:s, s:o, s:o, s:o, s:o, s:o}", "schema", SPX_MANIFEST_SCHEMA_V2, "project",
                     project, "limits", limits_subject(&manifest->limits), "sources", sources,
                     "data", data, "tests", tests);
}
