/*
 * spx_frame.h: the frame reader of the agent transports (transport.md,
 * "Framing"): splits a binary input stream into LF-delimited frames.
 *
 * A frame is the bytes before an LF, at most max_bytes of them (LF excluded).
 * The bound is applied while reading, before anything decodes the bytes. The
 * reader reads in chunks of SPX_LIMIT_READ_CHUNK_BYTES; an oversized frame is
 * not stored but drained, chunk by chunk, up to and including its LF (or end of
 * input), so the reader never holds more than max_bytes plus one chunk,
 * whatever arrives. Bytes after a frame's LF (pipelined requests) are kept for
 * the next call. Bytes at end of input with no LF after them are not a frame:
 * the reader reports them as SPX_FRAME_UNTERMINATED (docs/transport.md says
 * what the session does with them).
 */
#ifndef SPX_FRAME_H
#define SPX_FRAME_H

#include "spx_platform.h"

#include <apr_pools.h>

/* Where the reader's bytes come from: fill buffer with up to capacity bytes;
 * *got is 0 only at end of input. spx_stdio_read has this shape. */
typedef apr_status_t (*spx_frame_source_fn)(void *context, void *buffer, apr_size_t capacity,
                                            apr_size_t *got);

/* Whether a read of the source (same context) would not wait: 1 when bytes,
 * end of input or an error are there. spx_stdio_input_ready has this shape. */
typedef int (*spx_frame_ready_fn)(void *context);

typedef enum spx_frame_kind_t {
    SPX_FRAME_COMPLETE = 1,    /* bytes/length hold one frame; its LF was consumed */
    SPX_FRAME_OVERSIZED = 2,   /* over max_bytes: drained to its LF or end of input */
    SPX_FRAME_END = 3,         /* end of input, nothing pending */
    SPX_FRAME_UNTERMINATED = 4 /* end of input after bytes/length with no LF (<= max) */
} spx_frame_kind_t;

typedef struct spx_frame_t {
    spx_frame_kind_t kind;
    const unsigned char *bytes; /* COMPLETE and UNTERMINATED: valid until the next call */
    apr_size_t length;          /* LF excluded */
} spx_frame_t;

typedef struct spx_frame_reader_t spx_frame_reader_t;

/* A reader of frames of at most max_bytes (at least 1) from source. Its
 * buffer is released when pool is cleared or destroyed. */
apr_status_t spx_frame_reader_create(spx_frame_reader_t **reader, spx_frame_source_fn source,
                                     void *context, apr_size_t max_bytes, apr_pool_t *pool);

/* A reader over the process's binary standard input, which can read ahead
 * (spx_stdio_input_ready). */
apr_status_t spx_frame_reader_create_stdio(spx_frame_reader_t **reader, spx_stdio_t *stdio,
                                           apr_size_t max_bytes, apr_pool_t *pool);

/* The next frame. A failing read of the source is returned as is, and the
 * reader must not be used again. After SPX_FRAME_END or
 * SPX_FRAME_UNTERMINATED every later call reports SPX_FRAME_END. */
apr_status_t spx_frame_next(spx_frame_reader_t *reader, spx_frame_t *frame);

/* Bytes of buffer the reader holds now: never more than max_bytes plus one
 * read chunk (the tests check this bound). */
apr_size_t spx_frame_reader_capacity(const spx_frame_reader_t *reader);

/* The reader's bound on a frame, as created. */
apr_size_t spx_frame_reader_max_bytes(const spx_frame_reader_t *reader);

/* Let the reader read ahead, asking ready whether its source would wait. */
void spx_frame_reader_set_ready(spx_frame_reader_t *reader, spx_frame_ready_fn ready);

/* While a request is answered (between two spx_frame_next): read one chunk
 * that is ready, without waiting, onto the pending bytes, and only while
 * they stay within max_bytes (so the buffer's bound holds); 1 when bytes
 * were added. End of input or a failing read found here is reported by
 * spx_frame_next once the frames before it are returned. 0, reading
 * nothing, for a reader without a ready function. */
int spx_frame_reader_read_ahead(spx_frame_reader_t *reader);

/* The bytes read and not yet returned as frames: whole frames, each ending
 * with its LF, then the start of one. Valid until the next spx_frame_next
 * or spx_frame_reader_read_ahead, which may move them but keeps their
 * order. */
void spx_frame_reader_pending(const spx_frame_reader_t *reader, const unsigned char **bytes,
                              apr_size_t *length);

#endif /* SPX_FRAME_H */
