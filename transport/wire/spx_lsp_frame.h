/*
 * spx_lsp_frame.h: the Language Server Protocol's framing (docs/editors.md,
 * "Framing"), beside the LF framing of spx_frame.h, which --stdio and --mcp
 * keep: a message is a header block, lines ended by CR LF (a bare LF is
 * taken too), then an empty line, then a body of exactly Content-Length
 * bytes. Header names are matched without regard to case; every header but
 * Content-Length (Content-Type among them) is accepted and ignored.
 *
 * Bounded while reading: the header block is at most
 * SPX_LIMIT_LSP_HEADER_BYTES, the body at most max_body bytes. A body over
 * it is drained, chunk by chunk, storing nothing; a header block over its
 * bound is drained to its empty line. The reader holds one chunk
 * (SPX_LIMIT_READ_CHUNK_BYTES), the header block and at most one body.
 */
#ifndef SPX_LSP_FRAME_H
#define SPX_LSP_FRAME_H

#include "spx_frame.h"
#include "spx_platform.h"

#include <apr_pools.h>

typedef enum spx_lsp_frame_kind_t {
    SPX_LSP_FRAME_MESSAGE = 1,    /* bytes/length hold one body */
    SPX_LSP_FRAME_OVERSIZED = 2,  /* Content-Length over max_body: the body was drained */
    SPX_LSP_FRAME_BAD_HEADER = 3, /* a header block was read (or drained) whole, but it
                                   * says no usable Content-Length: problem says why;
                                   * no body was read */
    SPX_LSP_FRAME_END = 4,        /* end of input between messages */
    SPX_LSP_FRAME_TRUNCATED = 5   /* end of input inside a header block or body */
} spx_lsp_frame_kind_t;

typedef struct spx_lsp_frame_t {
    spx_lsp_frame_kind_t kind;
    const unsigned char *bytes; /* MESSAGE: the body, valid until the next call */
    apr_size_t length;          /* MESSAGE, OVERSIZED: Content-Length */
    const char *problem;        /* BAD_HEADER: a phrase ("no Content-Length header") */
} spx_lsp_frame_t;

typedef struct spx_lsp_frame_reader_t spx_lsp_frame_reader_t;

/* A reader of messages whose bodies are at most max_body bytes (1 to
 * SPX_LIMIT_REQUEST_BYTES_MAXIMUM) from source. Its buffers are released
 * when pool is cleared or destroyed. */
apr_status_t spx_lsp_frame_reader_create(spx_lsp_frame_reader_t **reader,
                                         spx_frame_source_fn source, void *context,
                                         apr_size_t max_body, apr_pool_t *pool);

/* The next message, or why there is none. A failing read is returned as
 * its status (frame->kind is then meaningless). */
apr_status_t spx_lsp_frame_next(spx_lsp_frame_reader_t *reader, spx_lsp_frame_t *frame);

/* The most bytes the reader has ever held for its buffers (chunk, header
 * block and body together): what its tests bound. */
apr_size_t spx_lsp_frame_reader_held(const spx_lsp_frame_reader_t *reader);

/* Write one message: "Content-Length: N\r\n\r\n" and the length bytes of
 * body, then flush. */
apr_status_t spx_lsp_frame_write(spx_stdio_t *stdio, const char *body, apr_size_t length);

#endif /* SPX_LSP_FRAME_H */
