/*
 * render.c: values as source-like text for failure messages (render.h):
 * an int in decimal, true and false, a string in double quotes (", \, LF
 * and tab written \", \\, \n, \t, other bytes below 0x20 and 0x7f as \xhh,
 * lowercase, every other byte as it is), an array [1, 2], a struct
 * geo.Point { x: 1, y: 2 } with its fields in declaration order.
 *
 * The walk keeps its own stack of open arrays and structs (no recursion in
 * C) and stops as soon as the text is over SPX_LIMIT_RENDER_BYTES: each
 * level opened writes at least one byte, so the stack never holds more
 * than that many frames, and the work is bounded by the limit whatever
 * the value. The text is then cut at a character boundary (an escape may
 * be cut) and "..." follows.
 */
#include "render.h"

#include "spx_utf8.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* One array or struct being written. */
typedef struct frame_t {
    const spx_render_type_t *type;
    const spx_value_block_t *block;
    uint32_t next; /* the next element or field */
} frame_t;

typedef struct renderer_t {
    spx_render_text_t *out;
    frame_t frames[SPX_LIMIT_RENDER_BYTES + 2];
    apr_size_t depth;
} renderer_t;

static int full(const renderer_t *r)
{
    return r->out->length > SPX_LIMIT_RENDER_BYTES;
}

static void put(renderer_t *r, const char *bytes, apr_size_t size)
{
    spx_render_text_t *out = r->out;
    apr_size_t room =
        out->length < SPX_LIMIT_RENDER_BYTES + 1 ? SPX_LIMIT_RENDER_BYTES + 1 - out->length : 0;
    if (size > room)
        size = room;
    memcpy(out->bytes + out->length, bytes, size);
    out->length += size;
}

static void put_text(renderer_t *r, const char *text)
{
    put(r, text, strlen(text));
}

static void put_string(renderer_t *r, const spx_value_block_t *s)
{
    const unsigned char *bytes = spx_str_bytes(s);
    put(r, "\"", 1);
    for (uint32_t i = 0; i < s->length && !full(r); i++) {
        unsigned char c = bytes[i];
        char escaped[8];
        if (c == '"' || c == '\\') {
            escaped[0] = '\\';
            escaped[1] = (char)c;
            put(r, escaped, 2);
        } else if (c == '\n') {
            put(r, "\\n", 2);
        } else if (c == '\t') {
            put(r, "\\t", 2);
        } else if (c < 0x20 || c == 0x7f) {
            snprintf(escaped, sizeof(escaped), "\\x%02x", c);
            put(r, escaped, 4);
        } else {
            put(r, (const char *)&c, 1);
        }
    }
    put(r, "\"", 1);
}

/* Write value of type; an array or struct opens a frame. */
static void open_value(renderer_t *r, const spx_render_type_t *type, spx_value_t value)
{
    char number[32];
    switch (type->kind) {
    case SPX_RENDER_INT:
        snprintf(number, sizeof(number), "%" PRId64, value.i);
        put_text(r, number);
        return;
    case SPX_RENDER_BOOL:
        put_text(r, value.i ? "true" : "false");
        return;
    case SPX_RENDER_STR:
        put_string(r, value.b);
        return;
    case SPX_RENDER_ARRAY:
        put(r, "[", 1);
        break;
    case SPX_RENDER_STRUCT:
        put_text(r, type->name);
        put(r, " { ", 3);
        break;
    }
    if (full(r))
        return;
    r->frames[r->depth++] = (frame_t){type, value.b, 0};
}

/* Write the next part of the innermost open array or struct. */
static void continue_frame(renderer_t *r)
{
    frame_t *top = &r->frames[r->depth - 1];
    const spx_render_type_t *type = top->type;
    if (top->next == top->block->length) {
        put_text(r, type->kind == SPX_RENDER_ARRAY ? "]" : " }");
        r->depth--;
        return;
    }
    uint32_t k = top->next++;
    if (k > 0)
        put(r, ", ", 2);
    if (type->kind == SPX_RENDER_ARRAY) {
        open_value(r, type->element, top->block->slots[k]);
        return;
    }
    put_text(r, type->field_names[k]);
    put(r, ": ", 2);
    open_value(r, type->field_types[k], top->block->slots[k]);
}

void spx_render_value(const spx_render_type_t *type, spx_value_t value, spx_render_text_t *out)
{
    renderer_t r;
    r.out = out;
    r.depth = 0;
    out->length = 0;
    open_value(&r, type, value);
    while (r.depth && !full(&r))
        continue_frame(&r);
    if (full(&r)) {
        out->length =
            spx_utf8_cut((const unsigned char *)out->bytes, out->length, SPX_LIMIT_RENDER_BYTES);
        memcpy(out->bytes + out->length, "...", 3);
        out->length += 3;
    }
    out->bytes[out->length] = '\0';
}
