/*
 * json_writer.c: the streaming canonical JSON writer (spx_json_writer.h):
 * the bytes Jansson writes with SPX_CANONICAL_FLAGS, written as they come
 * into a counter, a growing buffer, a fixed buffer or a stream in chunks,
 * each with its limit, and the canonical key order checked as it goes.
 *
 * Strings are escaped as Jansson's dump_string escapes them (and as
 * docs/canonical-json.md writes down): '"' and '\' with a backslash, \b \f
 * \n \r \t in their short forms, any other byte below 0x20 as \u00XX with
 * uppercase hex, everything else (0x7f, '/', UTF-8 sequences) as it is; a
 * string that is not well-formed UTF-8 is refused, as Jansson refuses it.
 * Integers are written as Jansson writes a json_int_t ("%lld").
 */
#include "spx_json_writer.h"

#include "spx_allocation.h"
#include "spx_canonical.h"
#include "spx_limits.h"
#include "spx_utf8.h"

#include <stdlib.h>
#include <string.h>

typedef enum sink_kind_t { SINK_COUNT, SINK_BUFFER, SINK_FIXED, SINK_STREAM } sink_kind_t;

/* An object or array being written. */
typedef struct frame_t {
    int object;             /* an object, else an array */
    apr_size_t count;       /* members (keys, in an object) written */
    int key_due;            /* an object: a key comes next, not a value */
    const char *last_key;   /* an object: the key written last */
    apr_size_t last_length; /* its length */
} frame_t;

struct spx_json_writer_t {
    sink_kind_t kind;
    spx_json_status_t status;
    apr_size_t limit;  /* most bytes of text */
    apr_size_t length; /* bytes of text written (or counted) */
    char *bytes;       /* buffer and fixed: the text; stream: the chunk */
    apr_size_t capacity;
    apr_size_t pending; /* stream: bytes in the chunk */
    spx_json_write_fn write;
    void *context;
    frame_t frames[SPX_LIMIT_JSON_WRITER_DEPTH];
    apr_size_t depth;
    int written; /* the document's one top-level value has begun */
};

static apr_status_t free_buffer(void *data)
{
    spx_json_writer_t *writer = data;
    free(writer->bytes);
    writer->bytes = NULL;
    writer->capacity = 0;
    return APR_SUCCESS;
}

static spx_json_writer_t *make(sink_kind_t kind, apr_size_t limit, apr_pool_t *pool)
{
    spx_json_writer_t *writer = apr_pcalloc(pool, sizeof(*writer));
    writer->kind = kind;
    writer->limit = limit;
    return writer;
}

spx_json_writer_t *spx_json_writer_counting(apr_size_t limit, apr_pool_t *pool)
{
    return make(SINK_COUNT, limit, pool);
}

spx_json_writer_t *spx_json_writer_buffer(apr_size_t limit, apr_pool_t *pool)
{
    spx_json_writer_t *writer = make(SINK_BUFFER, limit, pool);
    apr_pool_cleanup_register(pool, writer, free_buffer, apr_pool_cleanup_null);
    return writer;
}

spx_json_writer_t *spx_json_writer_fixed(char *bytes, apr_size_t capacity, apr_pool_t *pool)
{
    spx_json_writer_t *writer = make(SINK_FIXED, capacity ? capacity - 1 : 0, pool);
    writer->bytes = bytes;
    writer->capacity = capacity;
    if (capacity == 0)
        writer->status = SPX_JSON_OVER_LIMIT;
    return writer;
}

spx_json_writer_t *spx_json_writer_stream(spx_json_write_fn write, void *context, apr_size_t limit,
                                          apr_pool_t *pool)
{
    spx_json_writer_t *writer = make(SINK_STREAM, limit, pool);
    writer->write = write;
    writer->context = context;
    writer->capacity = SPX_LIMIT_JSON_CHUNK_BYTES;
    writer->bytes = apr_palloc(pool, writer->capacity);
    return writer;
}

static void fail(spx_json_writer_t *writer, spx_json_status_t status)
{
    if (writer->status == SPX_JSON_OK)
        writer->status = status;
}

/* Sends the stream's chunk. */
static void flush_chunk(spx_json_writer_t *writer)
{
    if (writer->pending &&
        writer->write(writer->context, writer->bytes, writer->pending) != APR_SUCCESS)
        fail(writer, SPX_JSON_WRITE_FAILED);
    writer->pending = 0;
}

/* The room a buffer needs for length more bytes and one spare. */
static void grow(spx_json_writer_t *writer, apr_size_t needed)
{
    apr_size_t capacity = writer->capacity ? writer->capacity : SPX_LIMIT_JSON_BUFFER_FIRST_BYTES;
    while (capacity < needed)
        capacity = capacity > SIZE_MAX / 2 ? SIZE_MAX : capacity * 2;
    if (writer->limit < SIZE_MAX && capacity > writer->limit + 1)
        capacity = writer->limit + 1;
    writer->bytes = spx_reallocate(writer->bytes, capacity);
    writer->capacity = capacity;
}

/* Adds size bytes of text, or fails without adding any when they would
 * take the text past the limit: every case (put, below, takes the common
 * ones inline). */
static void put_any(spx_json_writer_t *writer, const char *bytes, apr_size_t size)
{
    if (writer->status != SPX_JSON_OK)
        return;
    if (size > writer->limit - writer->length) {
        fail(writer, SPX_JSON_OVER_LIMIT);
        return;
    }
    switch (writer->kind) {
    case SINK_COUNT:
        break;
    case SINK_BUFFER:
        if (writer->length + size + 1 > writer->capacity)
            grow(writer, writer->length + size + 1);
        memcpy(writer->bytes + writer->length, bytes, size);
        break;
    case SINK_FIXED:
        memcpy(writer->bytes + writer->length, bytes, size);
        break;
    case SINK_STREAM:
        for (apr_size_t done = 0; done < size && writer->status == SPX_JSON_OK;) {
            apr_size_t room = writer->capacity - writer->pending;
            apr_size_t part = size - done < room ? size - done : room;
            memcpy(writer->bytes + writer->pending, bytes + done, part);
            writer->pending += part;
            done += part;
            if (writer->pending == writer->capacity)
                flush_chunk(writer);
        }
        break;
    }
    writer->length += size;
}

/* put_any, the bytes copied inline when they fit within the limit and in
 * the buffer's or the chunk's room (keeping a buffer's spare byte). */
static inline void put(spx_json_writer_t *writer, const char *bytes, apr_size_t size)
{
    if (writer->status == SPX_JSON_OK && size <= writer->limit - writer->length) {
        if ((writer->kind == SINK_BUFFER || writer->kind == SINK_FIXED) &&
            writer->length + size < writer->capacity) {
            memcpy(writer->bytes + writer->length, bytes, size);
            writer->length += size;
            return;
        }
        if (writer->kind == SINK_STREAM && writer->pending + size < writer->capacity) {
            memcpy(writer->bytes + writer->pending, bytes, size);
            writer->pending += size;
            writer->length += size;
            return;
        }
        if (writer->kind == SINK_COUNT) {
            writer->length += size;
            return;
        }
    }
    put_any(writer, bytes, size);
}

/* What comes before any value: a comma in an array, the key's check in an
 * object, one value only at the top. */
static void begin_value(spx_json_writer_t *writer)
{
    if (writer->status != SPX_JSON_OK)
        return;
    if (writer->depth == 0) {
        if (writer->written)
            fail(writer, SPX_JSON_MISUSE);
        writer->written = 1;
        return;
    }
    frame_t *top = &writer->frames[writer->depth - 1];
    if (top->object) {
        if (!top->key_due)
            top->key_due = 1; /* the value of the key just written */
        else
            fail(writer, SPX_JSON_MISUSE);
        return;
    }
    if (top->count++)
        put(writer, ",", 1);
}

/* Whether byte c is written as it is (before a UTF-8 sequence's check). */
static inline int plain(unsigned char c)
{
    return c >= 0x20 && c != '"' && c != '\\' && c < 0x80;
}

/* The string's escaped text, runs of plain bytes written at once. */
static void put_string(spx_json_writer_t *writer, const char *text, apr_size_t length)
{
    static const char hex[] = "0123456789ABCDEF";
    const unsigned char *bytes = (const unsigned char *)text;
    put(writer, "\"", 1);
    apr_size_t run = 0, i = 0;
    while (i < length) {
        while (i < length && plain(bytes[i]))
            i++;
        if (i == length)
            break;
        unsigned char c = bytes[i];
        if (c >= 0x80) {
            apr_size_t sequence = spx_utf8_length(bytes + i, length - i);
            if (sequence == 0) {
                fail(writer, SPX_JSON_BAD_UTF8);
                return;
            }
            i += sequence;
            continue;
        }
        put(writer, text + run, i - run);
        char escaped[6] = {'\\', 0, 0, 0, 0, 0};
        apr_size_t size = 2;
        switch (c) {
        case '"':
        case '\\':
            escaped[1] = (char)c;
            break;
        case '\b':
            escaped[1] = 'b';
            break;
        case '\f':
            escaped[1] = 'f';
            break;
        case '\n':
            escaped[1] = 'n';
            break;
        case '\r':
            escaped[1] = 'r';
            break;
        case '\t':
            escaped[1] = 't';
            break;
        default:
            memcpy(escaped + 1, "u00", 3);
            escaped[4] = hex[c >> 4];
            escaped[5] = hex[c & 0xf];
            size = 6;
            break;
        }
        put(writer, escaped, size);
        run = ++i;
    }
    put(writer, text + run, i - run);
    put(writer, "\"", 1);
}

static void open_frame(spx_json_writer_t *writer, int object)
{
    begin_value(writer);
    if (writer->status != SPX_JSON_OK)
        return;
    if (writer->depth == SPX_LIMIT_JSON_WRITER_DEPTH) {
        fail(writer, SPX_JSON_MISUSE);
        return;
    }
    writer->frames[writer->depth++] = (frame_t){object, 0, 1, NULL, 0};
    put(writer, object ? "{" : "[", 1);
}

static void close_frame(spx_json_writer_t *writer, int object)
{
    if (writer->status != SPX_JSON_OK)
        return;
    if (writer->depth == 0 || writer->frames[writer->depth - 1].object != object ||
        (object && !writer->frames[writer->depth - 1].key_due)) {
        fail(writer, SPX_JSON_MISUSE);
        return;
    }
    writer->depth--;
    put(writer, object ? "}" : "]", 1);
}

void spx_json_object_begin(spx_json_writer_t *writer)
{
    open_frame(writer, 1);
}

void spx_json_object_end(spx_json_writer_t *writer)
{
    close_frame(writer, 1);
}

void spx_json_array_begin(spx_json_writer_t *writer)
{
    open_frame(writer, 0);
}

void spx_json_array_end(spx_json_writer_t *writer)
{
    close_frame(writer, 0);
}

/* Bytewise, a shorter key before every longer one it begins (Jansson's
 * JSON_SORT_KEYS order). */
static int compare_keys(const char *a, apr_size_t a_length, const char *b, apr_size_t b_length)
{
    if (a_length && b_length && a[0] != b[0]) /* most keys differ at once */
        return (unsigned char)a[0] < (unsigned char)b[0] ? -1 : 1;
    int order = memcmp(a, b, a_length < b_length ? a_length : b_length);
    if (order)
        return order;
    return (a_length > b_length) - (a_length < b_length);
}

void spx_json_key(spx_json_writer_t *writer, const char *key)
{
    if (writer->status != SPX_JSON_OK)
        return;
    frame_t *top = writer->depth ? &writer->frames[writer->depth - 1] : NULL;
    apr_size_t length = strlen(key);
    if (!top || !top->object || !top->key_due ||
        (top->count && compare_keys(top->last_key, top->last_length, key, length) >= 0)) {
        fail(writer, SPX_JSON_MISUSE);
        return;
    }
    if (top->count++)
        put(writer, ",", 1);
    put_string(writer, key, length);
    put(writer, ":", 1);
    top->key_due = 0;
    top->last_key = key;
    top->last_length = length;
}

void spx_json_string(spx_json_writer_t *writer, const char *text)
{
    if (!text) /* as json_pack fails on a NULL string */
        fail(writer, SPX_JSON_MISUSE);
    else
        spx_json_stringn(writer, text, strlen(text));
}

void spx_json_stringn(spx_json_writer_t *writer, const char *bytes, apr_size_t length)
{
    begin_value(writer);
    put_string(writer, bytes, length);
}

void spx_json_integer(spx_json_writer_t *writer, int64_t value)
{
    /* the digits of its magnitude from the end, then the sign ("%lld") */
    char number[24];
    char *at = number + sizeof(number);
    uint64_t magnitude = value < 0 ? 0 - (uint64_t)value : (uint64_t)value;
    do {
        *--at = (char)('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude);
    if (value < 0)
        *--at = '-';
    begin_value(writer);
    put(writer, at, (apr_size_t)(number + sizeof(number) - at));
}

void spx_json_boolean(spx_json_writer_t *writer, int value)
{
    begin_value(writer);
    if (value)
        put(writer, "true", 4);
    else
        put(writer, "false", 5);
}

void spx_json_null(spx_json_writer_t *writer)
{
    begin_value(writer);
    put(writer, "null", 4);
}

static int put_dumped(const char *buffer, size_t size, void *data)
{
    spx_json_writer_t *writer = data;
    put(writer, buffer, size);
    return writer->status == SPX_JSON_OK ? 0 : -1;
}

void spx_json_value(spx_json_writer_t *writer, const json_t *value)
{
    begin_value(writer);
    if (writer->status == SPX_JSON_OK &&
        json_dump_callback(value, put_dumped, writer, SPX_CANONICAL_FLAGS) != 0)
        fail(writer, SPX_JSON_BAD_UTF8); /* Jansson refuses nothing else it holds */
}

spx_json_status_t spx_json_writer_finish(spx_json_writer_t *writer)
{
    if (writer->depth || !writer->written)
        fail(writer, SPX_JSON_MISUSE);
    if (writer->kind == SINK_STREAM && writer->status == SPX_JSON_OK)
        flush_chunk(writer);
    return writer->status;
}

spx_json_status_t spx_json_writer_status(const spx_json_writer_t *writer)
{
    return writer->status;
}

apr_size_t spx_json_writer_length(const spx_json_writer_t *writer)
{
    return writer->length;
}

char *spx_json_writer_bytes(spx_json_writer_t *writer)
{
    if (writer->kind == SINK_BUFFER && !writer->bytes)
        grow(writer, 1);
    return writer->kind == SINK_BUFFER || writer->kind == SINK_FIXED ? writer->bytes : NULL;
}

void spx_json_writer_release(spx_json_writer_t *writer)
{
    if (writer->kind == SINK_BUFFER)
        free_buffer(writer);
}
