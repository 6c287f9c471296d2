/*
 * lsp_frame.c: the Language Server Protocol's Content-Length framing
 * (spx_lsp_frame.h): a bounded reader of header blocks and bodies, and the
 * writer of one message.
 */
#include "spx_lsp_frame.h"

#include "spx_allocation.h"
#include "spx_assert.h"
#include "spx_limits.h"

#include <apr_strings.h>
#include <stdlib.h>
#include <string.h>

struct spx_lsp_frame_reader_t {
    spx_frame_source_fn source;
    void *context;
    apr_size_t max_body;
    unsigned char *chunk; /* SPX_LIMIT_READ_CHUNK_BYTES, malloc'd */
    apr_size_t start, end;
    unsigned char *body; /* malloc'd, grown to the largest body read so far */
    apr_size_t body_capacity;
    char header[SPX_LIMIT_LSP_HEADER_BYTES + 1]; /* the current line, NUL-terminated */
    int ended;                                   /* the source reported end of input */
};

static apr_status_t release_buffers(void *data)
{
    spx_lsp_frame_reader_t *reader = data;
    free(reader->chunk);
    free(reader->body);
    reader->chunk = reader->body = NULL;
    return APR_SUCCESS;
}

apr_status_t spx_lsp_frame_reader_create(spx_lsp_frame_reader_t **reader,
                                         spx_frame_source_fn source, void *context,
                                         apr_size_t max_body, apr_pool_t *pool)
{
    if (max_body == 0 || max_body > SPX_LIMIT_REQUEST_BYTES_MAXIMUM)
        return APR_EINVAL;
    spx_lsp_frame_reader_t *created = apr_pcalloc(pool, sizeof(*created));
    created->source = source;
    created->context = context;
    created->max_body = max_body;
    created->chunk = spx_allocate(SPX_LIMIT_READ_CHUNK_BYTES);
    apr_pool_cleanup_register(pool, created, release_buffers, apr_pool_cleanup_null);
    *reader = created;
    return APR_SUCCESS;
}

apr_size_t spx_lsp_frame_reader_held(const spx_lsp_frame_reader_t *reader)
{
    return SPX_LIMIT_READ_CHUNK_BYTES + sizeof(reader->header) + reader->body_capacity;
}

/* Refill the chunk when it is empty: 1 with bytes there, 0 at end of input. */
static apr_status_t fill(spx_lsp_frame_reader_t *reader, int *available)
{
    *available = 1;
    if (reader->start < reader->end)
        return APR_SUCCESS;
    reader->start = reader->end = 0;
    if (!reader->ended) {
        apr_size_t got = 0;
        apr_status_t status =
            reader->source(reader->context, reader->chunk, SPX_LIMIT_READ_CHUNK_BYTES, &got);
        if (status != APR_SUCCESS)
            return status;
        reader->end = got;
        if (got == 0)
            reader->ended = 1;
    }
    *available = reader->end > 0;
    return APR_SUCCESS;
}

/* A header name matched without regard to ASCII case. */
static int same_name(const char *name, apr_size_t length, const char *wanted)
{
    if (strlen(wanted) != length)
        return 0;
    for (apr_size_t i = 0; i < length; i++) {
        char a = name[i], b = wanted[i];
        if (a >= 'A' && a <= 'Z')
            a = (char)(a - 'A' + 'a');
        if (b >= 'A' && b <= 'Z')
            b = (char)(b - 'A' + 'a');
        if (a != b)
            return 0;
    }
    return 1;
}

/* What is wrong with one header line (CR and LF taken off), NULL when
 * nothing; a Content-Length sets *length and *seen. */
static const char *header_line(const char *line, apr_size_t line_length, apr_size_t max_body,
                               apr_uint64_t *length, int *seen, int *too_long)
{
    const char *colon = memchr(line, ':', line_length);
    if (!colon)
        return "a header line without ':'";
    apr_size_t name_length = (apr_size_t)(colon - line);
    if (name_length == 0)
        return "a header line without a name";
    if (!same_name(line, name_length, "Content-Length"))
        return NULL; /* Content-Type and any other: accepted, ignored */
    if (*seen)
        return "two Content-Length headers";
    const char *value = colon + 1, *end = line + line_length;
    while (value < end && (*value == ' ' || *value == '\t'))
        value++;
    while (end > value && (end[-1] == ' ' || end[-1] == '\t'))
        end--;
    if (value == end)
        return "an empty Content-Length";
    apr_uint64_t number = 0; /* saturates: a body that long is drained to end of input */
    for (const char *digit = value; digit < end; digit++) {
        if (*digit < '0' || *digit > '9')
            return "a Content-Length that is not a decimal number";
        apr_uint64_t unit = (apr_uint64_t)(*digit - '0');
        number = number > (APR_UINT64_MAX - unit) / 10 ? APR_UINT64_MAX : number * 10 + unit;
    }
    if (number > max_body)
        *too_long = 1;
    *length = number;
    *seen = 1;
    return NULL;
}

/* Read the header block through its empty line. *ended: end of input came
 * first (with *partial when some of a block had been read). */
static apr_status_t read_header(spx_lsp_frame_reader_t *reader, spx_lsp_frame_t *frame,
                                apr_uint64_t *length, int *too_long, int *seen_length)
{
    apr_size_t line_length = 0, block = 0;
    int seen = 0, over = 0;
    const char *problem = NULL;
    for (;;) {
        int available = 0;
        apr_status_t status = fill(reader, &available);
        if (status != APR_SUCCESS)
            return status;
        if (!available) {
            frame->kind =
                block == 0 && line_length == 0 ? SPX_LSP_FRAME_END : SPX_LSP_FRAME_TRUNCATED;
            return APR_SUCCESS;
        }
        unsigned char byte = reader->chunk[reader->start++];
        block++;
        if (block > SPX_LIMIT_LSP_HEADER_BYTES)
            over = 1; /* drained to the empty line, storing nothing */
        if (byte != '\n') {
            if (!over)
                reader->header[line_length++] = (char)byte;
            else if (byte != '\r')
                line_length = 1; /* not an empty line */
            continue;
        }
        if (!over && line_length > 0 && reader->header[line_length - 1] == '\r')
            line_length--;
        if (line_length == 0)
            break; /* the empty line */
        if (!over) {
            /* Every line is read, past a first problem too: a Content-Length
             * after it still says where the body ends. */
            const char *wrong =
                header_line(reader->header, line_length, reader->max_body, length, &seen, too_long);
            if (!problem)
                problem = wrong;
        }
        line_length = 0;
    }
    if (over)
        problem = "a header block over its bound";
    else if (!problem && !seen)
        problem = "no Content-Length header";
    *seen_length = seen && !over;
    if (problem) {
        frame->kind = SPX_LSP_FRAME_BAD_HEADER;
        frame->problem = problem;
    } else {
        frame->kind = SPX_LSP_FRAME_MESSAGE;
    }
    return APR_SUCCESS;
}

/* Skip length bytes of input, a chunk at a time, storing nothing: 0 in
 * *complete when end of input came first. */
static apr_status_t skip(spx_lsp_frame_reader_t *reader, apr_uint64_t length, int *complete)
{
    *complete = 1;
    for (apr_uint64_t left = length; left > 0;) {
        int available = 0;
        apr_status_t status = fill(reader, &available);
        if (status != APR_SUCCESS)
            return status;
        if (!available) {
            *complete = 0;
            return APR_SUCCESS;
        }
        apr_size_t take = reader->end - reader->start;
        if (take > left)
            take = (apr_size_t)left;
        reader->start += take;
        left -= take;
    }
    return APR_SUCCESS;
}

apr_status_t spx_lsp_frame_next(spx_lsp_frame_reader_t *reader, spx_lsp_frame_t *frame)
{
    memset(frame, 0, sizeof(*frame));
    apr_uint64_t length = 0;
    int too_long = 0, seen = 0, complete = 1;
    apr_status_t status = read_header(reader, frame, &length, &too_long, &seen);
    if (status != APR_SUCCESS)
        return status;
    if (frame->kind == SPX_LSP_FRAME_BAD_HEADER && seen && !too_long) {
        /* The block was wrong elsewhere but says where its body ends: skip
         * the body, so that the next message is read from its header. */
        status = skip(reader, length, &complete);
        if (status == APR_SUCCESS && !complete)
            frame->kind = SPX_LSP_FRAME_TRUNCATED;
        return status;
    }
    if (frame->kind != SPX_LSP_FRAME_MESSAGE)
        return APR_SUCCESS;
    frame->length = length > APR_SIZE_MAX ? APR_SIZE_MAX : (apr_size_t)length;
    if (too_long) {
        /* The body is drained, storing nothing. */
        frame->kind = SPX_LSP_FRAME_OVERSIZED;
        status = skip(reader, length, &complete);
        if (status == APR_SUCCESS && !complete)
            frame->kind = SPX_LSP_FRAME_TRUNCATED;
        return status;
    }
    SPX_ASSERT(length <= reader->max_body);
    if (length + 1 > reader->body_capacity) {
        reader->body_capacity = (apr_size_t)length + 1;
        reader->body = spx_reallocate(reader->body, reader->body_capacity);
    }
    for (apr_size_t have = 0; have < length;) {
        int available = 0;
        status = fill(reader, &available);
        if (status != APR_SUCCESS)
            return status;
        if (!available) {
            frame->kind = SPX_LSP_FRAME_TRUNCATED;
            return APR_SUCCESS;
        }
        apr_size_t take = reader->end - reader->start;
        if (take > length - have)
            take = length - have;
        memcpy(reader->body + have, reader->chunk + reader->start, take);
        reader->start += take;
        have += take;
    }
    reader->body[length] = 0;
    frame->bytes = reader->body;
    return APR_SUCCESS;
}

apr_status_t spx_lsp_frame_write(spx_stdio_t *stdio, const char *body, apr_size_t length)
{
    char header[64];
    int written =
        apr_snprintf(header, sizeof(header), "Content-Length: %" APR_SIZE_T_FMT "\r\n\r\n", length);
    apr_status_t status = spx_stdio_write(stdio, header, (apr_size_t)written);
    if (status == APR_SUCCESS)
        status = spx_stdio_write(stdio, body, length);
    if (status == APR_SUCCESS)
        status = spx_stdio_flush(stdio);
    return status;
}
