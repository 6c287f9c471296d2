/*
 * lsp_text.c: LSP positions over a text's bytes (spx_lsp_text.h): the line
 * index and the exact conversions between byte offsets and line/character
 * in UTF-16 code units or UTF-8 bytes.
 */
#include "spx_lsp_text.h"

#include "spx_utf8.h"

void spx_lsp_lines_index(spx_lsp_lines_t *lines, const unsigned char *text, apr_size_t length,
                         int skip_bom, apr_pool_t *pool)
{
    lines->text = text;
    lines->length = length;
    lines->skip = skip_bom ? spx_byte_order_mark_length((const char *)text, length) : 0;
    lines->starts = apr_array_make(pool, 64, sizeof(apr_size_t));
    APR_ARRAY_PUSH(lines->starts, apr_size_t) = 0;
    for (apr_size_t i = 0; i < length; i++) {
        if (text[i] == '\n' || (text[i] == '\r' && (i + 1 == length || text[i + 1] != '\n')))
            APR_ARRAY_PUSH(lines->starts, apr_size_t) = i + 1;
    }
}

/* Where line's content ends (its terminator excluded). */
static apr_size_t line_end(const spx_lsp_lines_t *lines, apr_size_t line)
{
    apr_size_t count = (apr_size_t)lines->starts->nelts;
    if (line + 1 >= count)
        return lines->length;
    apr_size_t end = APR_ARRAY_IDX(lines->starts, line + 1, apr_size_t);
    if (end > 0 && lines->text[end - 1] == '\n')
        end--;
    if (end > 0 && lines->text[end - 1] == '\r')
        end--;
    return end;
}

/* The character at at (before end): its bytes and its units. */
static void character_at(const spx_lsp_lines_t *lines, apr_size_t at, apr_size_t end,
                         spx_lsp_encoding_t encoding, apr_size_t *bytes, apr_size_t *units)
{
    if (at < lines->skip) {
        *bytes = lines->skip - at;
        *units = 0;
        return;
    }
    apr_size_t length = spx_utf8_length(lines->text + at, end - at);
    if (length == 0) {
        *bytes = spx_utf8_invalid_length(lines->text + at, end - at);
        *units = encoding == SPX_LSP_UTF16 ? 1 : 3; /* one U+FFFD */
        return;
    }
    *bytes = length;
    *units = encoding == SPX_LSP_UTF8 ? length : (length == 4 ? 2 : 1);
}

/* The line holding offset: the last start at or before it. */
static apr_size_t line_of(const spx_lsp_lines_t *lines, apr_size_t offset)
{
    apr_size_t low = 0, high = (apr_size_t)lines->starts->nelts; /* starts[low] <= offset */
    while (high - low > 1) {
        apr_size_t middle = low + (high - low) / 2;
        if (APR_ARRAY_IDX(lines->starts, middle, apr_size_t) <= offset)
            low = middle;
        else
            high = middle;
    }
    return low;
}

void spx_lsp_position(const spx_lsp_lines_t *lines, apr_size_t offset, spx_lsp_encoding_t encoding,
                      apr_size_t *line, apr_size_t *character)
{
    if (offset > lines->length)
        offset = lines->length;
    *line = line_of(lines, offset);
    apr_size_t at = APR_ARRAY_IDX(lines->starts, *line, apr_size_t);
    apr_size_t end = line_end(lines, *line);
    if (offset > end)
        offset = end;
    *character = 0;
    while (at < offset) {
        apr_size_t bytes = 0, units = 0;
        character_at(lines, at, end, encoding, &bytes, &units);
        if (at + bytes > offset)
            break; /* inside a character: its start */
        at += bytes;
        *character += units;
    }
}

apr_size_t spx_lsp_offset(const spx_lsp_lines_t *lines, apr_uint64_t line, apr_uint64_t character,
                          spx_lsp_encoding_t encoding)
{
    if (line >= (apr_uint64_t)lines->starts->nelts)
        return lines->length;
    apr_size_t at = APR_ARRAY_IDX(lines->starts, (apr_size_t)line, apr_size_t);
    apr_size_t end = line_end(lines, (apr_size_t)line);
    apr_uint64_t counted = 0;
    while (at < end) {
        apr_size_t bytes = 0, units = 0;
        character_at(lines, at, end, encoding, &bytes, &units);
        if (counted + units > character)
            break;
        counted += units;
        at += bytes;
    }
    return at;
}
