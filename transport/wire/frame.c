/*
 * frame.c: the bounded frame reader (spx_frame.h).
 *
 * One buffer holds the unconsumed input: [start, end) of it are bytes read but
 * not yet returned, of which the first `scanned` are known to hold no LF. The
 * reader reads more only while those pending bytes are within the bound, and
 * one chunk at a time, so the buffer never needs more than max_bytes plus one
 * chunk. Once the pending bytes pass the bound they are dropped and the rest
 * of the frame is read into the start of the buffer, chunk by chunk, only to
 * find its LF.
 *
 * While a request is being answered, the daemon may read ahead (spx_frame_reader_read_ahead):
 * a chunk that is ready is appended to the pending bytes, within the same bound, and
 * end of input or a failing read found then is kept for spx_frame_next to report once the
 * frames before it are returned.
 */
#include "spx_frame.h"

#include "spx_allocation.h"
#include "spx_assert.h"
#include "spx_limits.h"

#include <stdlib.h>
#include <string.h>

struct spx_frame_reader_t {
    spx_frame_source_fn source;
    spx_frame_ready_fn ready; /* NULL: the source cannot say; nothing is read ahead */
    void *context;
    apr_size_t max_bytes;
    unsigned char *buffer; /* malloc'd; freed by the pool's cleanup */
    apr_size_t capacity;
    apr_size_t start;
    apr_size_t end;
    apr_size_t scanned;
    int finished;                /* end of input has been reported */
    int source_ended;            /* a read ahead found the end of input */
    apr_status_t source_failure; /* a read ahead failed with this */
};

static apr_status_t release_buffer(void *data)
{
    spx_frame_reader_t *reader = data;
    free(reader->buffer);
    reader->buffer = NULL;
    return APR_SUCCESS;
}

apr_status_t spx_frame_reader_create(spx_frame_reader_t **reader, spx_frame_source_fn source,
                                     void *context, apr_size_t max_bytes, apr_pool_t *pool)
{
    if (max_bytes == 0 || max_bytes > SPX_LIMIT_REQUEST_BYTES_MAXIMUM)
        return APR_EINVAL;
    spx_frame_reader_t *created = apr_pcalloc(pool, sizeof(*created));
    created->source = source;
    created->context = context;
    created->max_bytes = max_bytes;
    /* Two chunks (or the most ever needed, if less), so that moving a partial
     * frame of up to one chunk to the front always leaves room for the next
     * read: pipelined small frames never grow the buffer. */
    created->capacity = 2 * SPX_LIMIT_READ_CHUNK_BYTES;
    if (created->capacity > max_bytes + SPX_LIMIT_READ_CHUNK_BYTES)
        created->capacity = max_bytes + SPX_LIMIT_READ_CHUNK_BYTES;
    created->buffer = spx_allocate(created->capacity);
    apr_pool_cleanup_register(pool, created, release_buffer, apr_pool_cleanup_null);
    *reader = created;
    return APR_SUCCESS;
}

static apr_status_t read_stdio(void *context, void *buffer, apr_size_t capacity, apr_size_t *got)
{
    return spx_stdio_read(context, buffer, capacity, got);
}

static int stdio_ready(void *context)
{
    return spx_stdio_input_ready(context);
}

apr_status_t spx_frame_reader_create_stdio(spx_frame_reader_t **reader, spx_stdio_t *stdio,
                                           apr_size_t max_bytes, apr_pool_t *pool)
{
    apr_status_t status = spx_frame_reader_create(reader, read_stdio, stdio, max_bytes, pool);
    if (status == APR_SUCCESS)
        spx_frame_reader_set_ready(*reader, stdio_ready);
    return status;
}

void spx_frame_reader_set_ready(spx_frame_reader_t *reader, spx_frame_ready_fn ready)
{
    reader->ready = ready;
}

apr_size_t spx_frame_reader_capacity(const spx_frame_reader_t *reader)
{
    return reader->capacity;
}

/* Make room for one more chunk after the pending bytes, which are at most
 * max_bytes: first by moving them to the front, then by growing the buffer
 * (doubling, never past max_bytes plus one chunk). */
static void make_room(spx_frame_reader_t *reader)
{
    const apr_size_t chunk = SPX_LIMIT_READ_CHUNK_BYTES;
    if (reader->capacity - reader->end >= chunk)
        return;
    apr_size_t pending = reader->end - reader->start;
    if (reader->start > 0) {
        memmove(reader->buffer, reader->buffer + reader->start, pending);
        reader->start = 0;
        reader->end = pending;
    }
    if (reader->capacity - reader->end >= chunk)
        return;
    apr_size_t wanted = reader->capacity * 2;
    if (wanted < reader->end + chunk)
        wanted = reader->end + chunk;
    if (wanted > reader->max_bytes + chunk)
        wanted = reader->max_bytes + chunk;
    reader->buffer = spx_reallocate(reader->buffer, wanted);
    reader->capacity = wanted;
    SPX_ASSERT(reader->capacity - reader->end >= chunk); /* pending <= max_bytes */
}

static apr_status_t read_chunk(spx_frame_reader_t *reader, apr_size_t at, apr_size_t *got)
{
    *got = 0;
    if (reader->source_failure != APR_SUCCESS)
        return reader->source_failure;
    if (reader->source_ended)
        return APR_SUCCESS;
    return reader->source(reader->context, reader->buffer + at, SPX_LIMIT_READ_CHUNK_BYTES, got);
}

/* The pending bytes are over the bound: forget them and read on, storing
 * nothing, until an LF (keeping what follows it) or end of input. */
static apr_status_t drain(spx_frame_reader_t *reader, spx_frame_t *frame)
{
    apr_size_t drained = reader->end - reader->start;
    reader->start = reader->end = reader->scanned = 0;
    frame->kind = SPX_FRAME_OVERSIZED;
    frame->bytes = NULL;
    for (;;) {
        apr_size_t got = 0;
        apr_status_t status = read_chunk(reader, 0, &got);
        if (status != APR_SUCCESS)
            return status;
        if (got == 0) {
            reader->finished = 1;
            frame->length = drained;
            return APR_SUCCESS;
        }
        const unsigned char *lf = memchr(reader->buffer, '\n', got);
        if (lf) {
            apr_size_t before = (apr_size_t)(lf - reader->buffer);
            reader->start = before + 1;
            reader->end = got;
            frame->length = drained + before;
            return APR_SUCCESS;
        }
        drained += got;
    }
}

apr_status_t spx_frame_next(spx_frame_reader_t *reader, spx_frame_t *frame)
{
    frame->bytes = NULL;
    frame->length = 0;
    if (reader->finished) {
        frame->kind = SPX_FRAME_END;
        return APR_SUCCESS;
    }
    for (;;) {
        unsigned char *first = reader->buffer + reader->start;
        apr_size_t pending = reader->end - reader->start;
        unsigned char *lf = memchr(first + reader->scanned, '\n', pending - reader->scanned);
        if (lf) {
            apr_size_t length = (apr_size_t)(lf - first);
            reader->start += length + 1;
            reader->scanned = 0;
            frame->length = length;
            if (length > reader->max_bytes) {
                frame->kind = SPX_FRAME_OVERSIZED;
            } else {
                frame->kind = SPX_FRAME_COMPLETE;
                frame->bytes = first;
            }
            return APR_SUCCESS;
        }
        reader->scanned = pending;
        if (pending > reader->max_bytes)
            return drain(reader, frame);
        make_room(reader);
        apr_size_t got = 0;
        apr_status_t status = read_chunk(reader, reader->end, &got);
        if (status != APR_SUCCESS)
            return status;
        if (got == 0) {
            reader->finished = 1;
            frame->kind = pending == 0 ? SPX_FRAME_END : SPX_FRAME_UNTERMINATED;
            frame->bytes = pending == 0 ? NULL : reader->buffer + reader->start;
            frame->length = pending;
            return APR_SUCCESS;
        }
        reader->end += got;
    }
}

apr_size_t spx_frame_reader_max_bytes(const spx_frame_reader_t *reader)
{
    return reader->max_bytes;
}

int spx_frame_reader_read_ahead(spx_frame_reader_t *reader)
{
    if (!reader->ready || reader->finished || reader->source_ended ||
        reader->source_failure != APR_SUCCESS || reader->end - reader->start > reader->max_bytes ||
        !reader->ready(reader->context))
        return 0;
    make_room(reader); /* the pending bytes are within the bound: room for a chunk */
    apr_size_t got = 0;
    apr_status_t status = read_chunk(reader, reader->end, &got);
    if (status != APR_SUCCESS)
        reader->source_failure = status;
    else if (got == 0)
        reader->source_ended = 1;
    reader->end += got;
    return got > 0;
}

void spx_frame_reader_pending(const spx_frame_reader_t *reader, const unsigned char **bytes,
                              apr_size_t *length)
{
    *bytes = reader->buffer + reader->start;
    *length = reader->end - reader->start;
}
