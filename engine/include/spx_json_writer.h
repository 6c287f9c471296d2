/*
 * spx_json_writer.h: the streaming canonical JSON writer. A document is
 * written value by value, in canonical form (docs/canonical-json.md: the
 * bytes Jansson writes with SPX_CANONICAL_FLAGS), straight into a sink: a
 * counter, a growing buffer, a caller's fixed buffer, or a stream written
 * in chunks of SPX_LIMIT_JSON_CHUNK_BYTES. No tree of the document is made.
 *
 * Canonical order is the caller's to keep and the writer's to check: each
 * object's keys must come bytewise ascending (as JSON_SORT_KEYS sorts
 * them), and a key out of order, a value where a key is due or an
 * unbalanced end is SPX_JSON_MISUSE. Every sink has a limit: a write that
 * would take the text past it is SPX_JSON_OVER_LIMIT, and nothing of it is
 * written. The first failure sticks: every later call does nothing and
 * spx_json_writer_finish reports it.
 */
#ifndef SPX_JSON_WRITER_H
#define SPX_JSON_WRITER_H

#include <apr_pools.h>
#include <jansson.h>
#include <stdint.h>

typedef enum spx_json_status_t {
    SPX_JSON_OK = 0,
    SPX_JSON_OVER_LIMIT,   /* the text would pass the sink's limit */
    SPX_JSON_BAD_UTF8,     /* a string that is not UTF-8 (Jansson refuses it too) */
    SPX_JSON_WRITE_FAILED, /* the stream's write function failed */
    SPX_JSON_MISUSE        /* keys out of order, unbalanced, too deep, two documents */
} spx_json_status_t;

typedef struct spx_json_writer_t spx_json_writer_t;

/* A stream's write: all length bytes, or a failure. */
typedef apr_status_t (*spx_json_write_fn)(void *context, const char *bytes, apr_size_t length);

/* A writer that only counts the bytes, up to limit. */
spx_json_writer_t *spx_json_writer_counting(apr_size_t limit, apr_pool_t *pool);

/* A writer into a buffer that grows (malloc, never past limit and one spare
 * byte) as the text does; the buffer is freed by spx_json_writer_release
 * or when pool is cleared. */
spx_json_writer_t *spx_json_writer_buffer(apr_size_t limit, apr_pool_t *pool);

/* A writer into bytes[0..capacity): its limit is capacity - 1, so one byte
 * is always left for a final LF or NUL. */
spx_json_writer_t *spx_json_writer_fixed(char *bytes, apr_size_t capacity, apr_pool_t *pool);

/* A writer to a stream, in chunks of SPX_LIMIT_JSON_CHUNK_BYTES (the last
 * one by spx_json_writer_finish), up to limit bytes in all. */
spx_json_writer_t *spx_json_writer_stream(spx_json_write_fn write, void *context, apr_size_t limit,
                                          apr_pool_t *pool);

/* Values. In an object each value follows its key. */
void spx_json_object_begin(spx_json_writer_t *writer);
void spx_json_object_end(spx_json_writer_t *writer);
void spx_json_array_begin(spx_json_writer_t *writer);
void spx_json_array_end(spx_json_writer_t *writer);
/* A key of the object being written: NUL-terminated, above the object's
 * previous key bytewise, and alive until the object's next key or end. */
void spx_json_key(spx_json_writer_t *writer, const char *key);
/* A NULL text is SPX_JSON_MISUSE (as Jansson's json_pack fails on one). */
void spx_json_string(spx_json_writer_t *writer, const char *text);
void spx_json_stringn(spx_json_writer_t *writer, const char *bytes, apr_size_t length);
void spx_json_integer(spx_json_writer_t *writer, int64_t value);
void spx_json_boolean(spx_json_writer_t *writer, int value);
void spx_json_null(spx_json_writer_t *writer);
/* A Jansson value (a request id, a small part), in its canonical text. */
void spx_json_value(spx_json_writer_t *writer, const json_t *value);

/* Ends the document (one whole value written, every object and array
 * closed), writes a stream's last chunk, and says how it went. */
spx_json_status_t spx_json_writer_finish(spx_json_writer_t *writer);

/* The writer's state so far (the first failure, or SPX_JSON_OK). */
spx_json_status_t spx_json_writer_status(const spx_json_writer_t *writer);

/* The bytes of text written (counted, for a counter). */
apr_size_t spx_json_writer_length(const spx_json_writer_t *writer);

/* The text of a buffer or fixed writer, with at least one byte writable
 * after it (for a final LF or NUL); NULL for the others, or an empty
 * buffer. */
char *spx_json_writer_bytes(spx_json_writer_t *writer);

/* Gives a buffer writer's memory back now (else when its pool is cleared). */
void spx_json_writer_release(spx_json_writer_t *writer);

#endif /* SPX_JSON_WRITER_H */
