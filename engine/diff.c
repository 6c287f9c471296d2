/*
 * diff.c: the unified line diff of spx_diff.h. The texts are cut into lines
 * (each with its LF, the last perhaps without), the common first and last
 * lines set aside, and the middle matched by Myers' greedy O(ND) search,
 * which keeps the furthest reach of each diagonal after each edit (the
 * trace) and walks it back into the edit script. The trace and the
 * comparisons are bounded (SPX_LIMIT_DIFF_TRACE_BYTES,
 * SPX_LIMIT_DIFF_STEPS); past them the middle is replaced whole. The script
 * is then written as `diff -u` writes it: hunks with
 * SPX_LIMIT_DIFF_CONTEXT_LINES lines of context, two changes closer than
 * twice that sharing a hunk.
 */
#include "spx_diff.h"

#include "spx_limits.h"

#include <apr_strings.h>
#include <stdint.h>
#include <string.h>

/* One line: where it starts, its bytes (its LF included), a hash of them. */
typedef struct line_t {
    const char *start;
    apr_size_t length;
    uint64_t hash;
} line_t;

typedef struct lines_t {
    line_t *line;
    apr_size_t count;
} lines_t;

static void split_lines(const char *text, apr_size_t length, lines_t *lines, apr_pool_t *pool)
{
    apr_size_t count = 0;
    for (apr_size_t i = 0; i < length; i++)
        count += text[i] == '\n';
    count += length > 0 && text[length - 1] != '\n';
    lines->line = apr_palloc(pool, (count + 1) * sizeof(line_t));
    lines->count = count;
    apr_size_t at = 0;
    for (apr_size_t n = 0; n < count; n++) {
        apr_size_t end = at;
        uint64_t hash = 14695981039346656037ull; /* FNV-1a */
        while (end < length && text[end] != '\n') {
            hash = (hash ^ (unsigned char)text[end]) * 1099511628211ull;
            end++;
        }
        if (end < length)
            end++; /* the LF */
        lines->line[n].start = text + at;
        lines->line[n].length = end - at;
        lines->line[n].hash = hash ^ (end - at);
        at = end;
    }
}

static int same_line(const line_t *a, const line_t *b)
{
    return a->hash == b->hash && a->length == b->length &&
           memcmp(a->start, b->start, a->length) == 0;
}

/* Myers' search over old[0..n) and new[0..m) (the middle): marks the
 * deleted old lines and the added new lines; 0 when a bound was reached
 * (the marks are then not set). */
static int shortest_script(const line_t *old, apr_size_t n, const line_t *new_lines, apr_size_t m,
                           unsigned char *deleted, unsigned char *added, apr_size_t max_trace_bytes,
                           apr_uint64_t max_steps, apr_pool_t *pool)
{
    if (n == 0 || m == 0) {
        memset(deleted, 1, n);
        memset(added, 1, m);
        return 1;
    }
    apr_pool_t *scratch = NULL;
    apr_pool_create(&scratch, pool);
    apr_size_t most = n + m; /* the most edits */
    /* The rows kept: row d holds the reach of diagonals -d..d after d edits. */
    int32_t **trace = NULL; /* a source's lines fit: SPX_LIMIT_SOURCE_BYTES < 2^31 */
    apr_size_t trace_capacity = 0, trace_bytes = 0;
    int32_t *reach = NULL; /* the row being made, diagonals -d..d at [k + d] */
    const int32_t *previous = NULL;
    apr_uint64_t steps = 0;
    long found = -1;
    for (apr_size_t d = 0; d <= most && found < 0; d++) {
        apr_size_t row_bytes = (2 * d + 1) * sizeof(int32_t);
        if (trace_bytes + row_bytes > max_trace_bytes)
            break;
        trace_bytes += row_bytes;
        if (d == trace_capacity) {
            apr_size_t capacity = trace_capacity ? 2 * trace_capacity : 64;
            int32_t **grown = apr_palloc(scratch, capacity * sizeof(*grown));
            if (trace_capacity)
                memcpy(grown, trace, trace_capacity * sizeof(*grown));
            trace = grown;
            trace_capacity = capacity;
        }
        reach = apr_palloc(scratch, row_bytes);
        long dd = (long)d;
        for (long k = -dd; k <= dd; k += 2) {
            long x;
            /* previous holds diagonals -(d-1)..d-1 at [k + d - 1] */
            if (d == 0)
                x = 0;
            else if (k == -dd || (k != dd && previous[k - 1 + dd - 1] < previous[k + 1 + dd - 1]))
                x = previous[k + 1 + dd - 1]; /* down: a new line added */
            else
                x = previous[k - 1 + dd - 1] + 1; /* right: an old line deleted */
            long y = x - k;
            while ((apr_size_t)x < n && y >= 0 && (apr_size_t)y < m &&
                   same_line(&old[x], &new_lines[y])) {
                x++;
                y++;
                steps++;
            }
            steps++;
            reach[k + dd] = (int32_t)x;
            if ((apr_size_t)x >= n && y >= 0 && (apr_size_t)y >= m) {
                found = dd;
                break;
            }
        }
        trace[d] = reach;
        previous = reach;
        if (steps > max_steps)
            break;
    }
    if (found < 0) {
        apr_pool_destroy(scratch);
        return 0;
    }
    memset(deleted, 0, n);
    memset(added, 0, m);
    /* Walk back from (n, m) through the rows. */
    long x = (long)n, y = (long)m;
    for (long d = found; d > 0; d--) {
        const int32_t *row = trace[d - 1]; /* diagonals -(d-1)..d-1 at [k + d - 1] */
        long k = x - y;
        long previous_k;
        if (k == -d || (k != d && row[k - 1 + d - 1] < row[k + 1 + d - 1]))
            previous_k = k + 1;
        else
            previous_k = k - 1;
        long previous_x = row[previous_k + d - 1];
        long previous_y = previous_x - previous_k;
        /* The edit leads from (previous_x, previous_y) to the snake's start. */
        if (previous_k == k + 1)
            added[previous_y] = 1; /* down: new line previous_y */
        else
            deleted[previous_x] = 1; /* right: old line previous_x */
        x = previous_x;
        y = previous_y;
    }
    apr_pool_destroy(scratch);
    return 1;
}

/* A growing text in a pool. */
typedef struct text_t {
    char *bytes;
    apr_size_t length, capacity;
    apr_pool_t *pool;
} text_t;

static void add_bytes(text_t *text, const char *bytes, apr_size_t length)
{
    if (text->length + length + 1 > text->capacity) {
        apr_size_t capacity = text->capacity ? text->capacity : 256;
        while (text->length + length + 1 > capacity)
            capacity *= 2;
        char *grown = apr_palloc(text->pool, capacity);
        if (text->length)
            memcpy(grown, text->bytes, text->length);
        text->bytes = grown;
        text->capacity = capacity;
    }
    memcpy(text->bytes + text->length, bytes, length);
    text->length += length;
    text->bytes[text->length] = '\0';
}

static void add_string(text_t *text, const char *string)
{
    add_bytes(text, string, strlen(string));
}

/* One line of a hunk: its mark (' ', '-', '+') and bytes, and the note
 * when it ends its text without an LF. */
static void add_line(text_t *text, char mark, const line_t *line)
{
    add_bytes(text, &mark, 1);
    add_bytes(text, line->start, line->length);
    if (line->length == 0 || line->start[line->length - 1] != '\n')
        add_string(text, "\n\\ No newline at end of file\n");
}

/* One entry of the script: an old line kept (both indexes), deleted (old)
 * or added (new). */
typedef struct entry_t {
    char mark;
    apr_size_t old, new_index;
} entry_t;

/* "-l,s" as `diff -u` writes a range: s == 1 leaves ",1" out, s == 0 names
 * the line before. */
static const char *range(apr_size_t first, apr_size_t count, apr_pool_t *pool)
{
    if (count == 1)
        return apr_psprintf(pool, "%" APR_SIZE_T_FMT, first + 1);
    return apr_psprintf(pool, "%" APR_SIZE_T_FMT ",%" APR_SIZE_T_FMT, count ? first + 1 : first,
                        count);
}

/* The edit script from old to new_text, in scratch: *script of *entries
 * (deletions before additions within a change, as diff -u), and the lines
 * of both. */
static spx_diff_search_t make_script(const char *old, apr_size_t old_length, const char *new_text,
                                     apr_size_t new_length, apr_size_t max_trace_bytes,
                                     apr_uint64_t max_steps, lines_t *a, lines_t *b,
                                     entry_t **script_out, apr_size_t *entries_out,
                                     apr_pool_t *scratch)
{
    split_lines(old, old_length, a, scratch);
    split_lines(new_text, new_length, b, scratch);
    apr_size_t prefix = 0;
    while (prefix < a->count && prefix < b->count && same_line(&a->line[prefix], &b->line[prefix]))
        prefix++;
    apr_size_t suffix = 0;
    while (suffix < a->count - prefix && suffix < b->count - prefix &&
           same_line(&a->line[a->count - 1 - suffix], &b->line[b->count - 1 - suffix]))
        suffix++;
    apr_size_t n = a->count - prefix - suffix, m = b->count - prefix - suffix;
    unsigned char *deleted = apr_pcalloc(scratch, a->count + 1);
    unsigned char *added = apr_pcalloc(scratch, b->count + 1);
    spx_diff_search_t search = SPX_DIFF_SHORTEST;
    if (!shortest_script(a->line + prefix, n, b->line + prefix, m, deleted + prefix, added + prefix,
                         max_trace_bytes, max_steps, scratch)) {
        memset(deleted + prefix, 1, n);
        memset(added + prefix, 1, m);
        search = SPX_DIFF_WHOLE_MIDDLE;
    }
    entry_t *script = apr_palloc(scratch, (a->count + b->count + 1) * sizeof(entry_t));
    apr_size_t entries = 0, i = 0, j = 0;
    while (i < a->count || j < b->count) {
        if (i < a->count && deleted[i])
            script[entries++] = (entry_t){'-', i++, j};
        else if (j < b->count && added[j])
            script[entries++] = (entry_t){'+', i, j++};
        else
            script[entries++] = (entry_t){' ', i++, j++};
    }
    *script_out = script;
    *entries_out = entries;
    return search;
}

spx_diff_search_t spx_diff_unified_bounded(const char *path, const char *old, apr_size_t old_length,
                                           const char *new_text, apr_size_t new_length,
                                           apr_size_t max_trace_bytes, apr_uint64_t max_steps,
                                           char **diff, apr_size_t *diff_length, apr_pool_t *pool)
{
    *diff = apr_pstrdup(pool, "");
    *diff_length = 0;
    if (old_length == new_length && memcmp(old, new_text, old_length) == 0)
        return SPX_DIFF_SAME;
    apr_pool_t *scratch = NULL;
    apr_pool_create(&scratch, pool);
    lines_t a, b;
    entry_t *script = NULL;
    apr_size_t entries = 0;
    spx_diff_search_t search = make_script(old, old_length, new_text, new_length, max_trace_bytes,
                                           max_steps, &a, &b, &script, &entries, scratch);
    text_t text = {NULL, 0, 0, pool};
    add_string(&text, apr_psprintf(scratch, "--- a/%s\n+++ b/%s\n", path, path));
    const apr_size_t context = SPX_LIMIT_DIFF_CONTEXT_LINES;
    apr_size_t at = 0;
    while (at < entries) {
        while (at < entries && script[at].mark == ' ')
            at++;
        if (at == entries)
            break;
        /* The hunk: from context lines before this change to context lines
         * after the last change within 2 * context kept lines of it. */
        apr_size_t start = at > context ? at - context : 0;
        apr_size_t last = at; /* the last changed entry */
        for (apr_size_t look = at + 1; look < entries; look++) {
            if (script[look].mark == ' ') {
                if (look - last > 2 * context)
                    break;
                continue;
            }
            last = look;
        }
        apr_size_t end = last + 1 + context < entries ? last + 1 + context : entries;
        apr_size_t old_count = 0, new_count = 0;
        for (apr_size_t e = start; e < end; e++) {
            old_count += script[e].mark != '+';
            new_count += script[e].mark != '-';
        }
        add_string(&text, apr_psprintf(scratch, "@@ -%s +%s @@\n",
                                       range(script[start].old, old_count, scratch),
                                       range(script[start].new_index, new_count, scratch)));
        for (apr_size_t e = start; e < end; e++) {
            const entry_t *entry = &script[e];
            add_line(&text, entry->mark,
                     entry->mark == '+' ? &b.line[entry->new_index] : &a.line[entry->old]);
        }
        at = end;
    }
    apr_pool_destroy(scratch);
    *diff = text.bytes;
    *diff_length = text.length;
    return search;
}

spx_diff_search_t spx_diff_unified(const char *path, const char *old, apr_size_t old_length,
                                   const char *new_text, apr_size_t new_length, char **diff,
                                   apr_size_t *diff_length, apr_pool_t *pool)
{
    return spx_diff_unified_bounded(path, old, old_length, new_text, new_length,
                                    SPX_LIMIT_DIFF_TRACE_BYTES, SPX_LIMIT_DIFF_STEPS, diff,
                                    diff_length, pool);
}

spx_diff_search_t spx_diff_changes(const char *old, apr_size_t old_length, const char *new_text,
                                   apr_size_t new_length, apr_array_header_t **changes,
                                   apr_pool_t *pool)
{
    *changes = apr_array_make(pool, 8, sizeof(spx_diff_change_t));
    if (old_length == new_length && memcmp(old, new_text, old_length) == 0)
        return SPX_DIFF_SAME;
    apr_pool_t *scratch = NULL;
    apr_pool_create(&scratch, pool);
    lines_t a, b;
    entry_t *script = NULL;
    apr_size_t entries = 0;
    spx_diff_search_t search =
        make_script(old, old_length, new_text, new_length, SPX_LIMIT_DIFF_TRACE_BYTES,
                    SPX_LIMIT_DIFF_STEPS, &a, &b, &script, &entries, scratch);
    /* Where line index starts in a text of count lines (its end past the
     * last). */
#define LINE_OFFSET(lines, text, length, index)                                                    \
    ((index) < (lines).count ? (apr_size_t)((lines).line[(index)].start - (text)) : (length))
    for (apr_size_t at = 0; at < entries;) {
        if (script[at].mark == ' ') {
            at++;
            continue;
        }
        apr_size_t end = at;
        while (end < entries && script[end].mark != ' ')
            end++;
        /* entries at..end: the deleted old lines, then the added new ones,
         * each run contiguous */
        apr_size_t old_first = script[at].old, new_first = script[at].new_index;
        apr_size_t old_last = old_first, new_last = new_first; /* exclusive */
        for (apr_size_t e = at; e < end; e++) {
            if (script[e].mark == '-')
                old_last = script[e].old + 1;
            else
                new_last = script[e].new_index + 1;
        }
        spx_diff_change_t *change = &APR_ARRAY_PUSH(*changes, spx_diff_change_t);
        change->old_start = LINE_OFFSET(a, old, old_length, old_first);
        change->old_end = LINE_OFFSET(a, old, old_length, old_last);
        change->new_start = LINE_OFFSET(b, new_text, new_length, new_first);
        change->new_end = LINE_OFFSET(b, new_text, new_length, new_last);
        at = end;
    }
#undef LINE_OFFSET
    apr_pool_destroy(scratch);
    return search;
}
