/*
 * render.c: values as source-like text for failure messages (render.h):
 * an int in decimal, true and false, a string in double quotes (", \, LF
 * and tab written \", \\, \n, \t, other bytes below 0x20 and 0x7f as \xhh,
 * lowercase, every other byte as it is), an array [1, 2], a struct
 * geo.Point { x: 1, y: 2 } with its fields in declaration order, a map
 * {"a": 1, "b": 2} in its order ({} when empty), an enum geo.Shape.Circle(3)
 * or app.Shape.Empty. A map key in a message (R0522, E0437) is written by
 * the same code (spx_render_scalar).
 *
 * The walk keeps its own stack of open arrays, structs, maps and enum
 * payloads (no recursion in C) and stops as soon as the text is over
 * SPX_LIMIT_RENDER_BYTES: each level opened writes at least one byte, so
 * the stack never holds more than that many frames, and the work is
 * bounded by the limit whatever the value. The text is then cut at a
 * character boundary (an escape may be cut) and "..." follows.
 */
#include "render.h"

#include "spx_utf8.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

/* One array, struct, map or enum block being written. */
typedef struct frame_t {
    const spx_render_type_t *type;
    const spx_value_block_t *block;
    uint32_t next; /* the next element, field, entry or payload */
} frame_t;

typedef struct renderer_t {
    spx_render_text_t *out;
    frame_t frames[SPX_LIMIT_RENDER_BYTES + 2];
    apr_size_t depth;
} renderer_t;

static int full(const spx_render_text_t *out)
{
    return out->length > SPX_LIMIT_RENDER_BYTES;
}

/* Appends bytes, keeping at most one byte past the limit (which says the
 * text is to be cut). */
static void put(spx_render_text_t *out, const char *bytes, apr_size_t size)
{
    apr_size_t room =
        out->length < SPX_LIMIT_RENDER_BYTES + 1 ? SPX_LIMIT_RENDER_BYTES + 1 - out->length : 0;
    if (size > room)
        size = room;
    memcpy(out->bytes + out->length, bytes, size);
    out->length += size;
}

static void put_text(spx_render_text_t *out, const char *text)
{
    put(out, text, strlen(text));
}

static void put_string(spx_render_text_t *out, const unsigned char *bytes, apr_size_t length)
{
    put(out, "\"", 1);
    for (apr_size_t i = 0; i < length && !full(out); i++) {
        unsigned char c = bytes[i];
        char escaped[8];
        if (c == '"' || c == '\\') {
            escaped[0] = '\\';
            escaped[1] = (char)c;
            put(out, escaped, 2);
        } else if (c == '\n') {
            put(out, "\\n", 2);
        } else if (c == '\t') {
            put(out, "\\t", 2);
        } else if (c < 0x20 || c == 0x7f) {
            snprintf(escaped, sizeof(escaped), "\\x%02x", c);
            put(out, escaped, 4);
        } else {
            put(out, (const char *)&c, 1);
        }
    }
    put(out, "\"", 1);
}

/* An int, bool or str (length bytes). */
static void put_scalar(spx_render_text_t *out, spx_render_kind_t kind, int64_t integer,
                       const unsigned char *bytes, apr_size_t length)
{
    char number[32];
    if (kind == SPX_RENDER_STR) {
        put_string(out, bytes, length);
    } else if (kind == SPX_RENDER_BOOL) {
        put_text(out, integer ? "true" : "false");
    } else {
        snprintf(number, sizeof(number), "%" PRId64, integer);
        put_text(out, number);
    }
}

static void put_value_scalar(spx_render_text_t *out, spx_render_kind_t kind, spx_value_t value)
{
    if (kind == SPX_RENDER_STR)
        put_scalar(out, kind, 0, spx_str_bytes(value.b), value.b->length);
    else
        put_scalar(out, kind, value.i, NULL, 0);
}

/* Cuts a text over the limit at a character boundary and adds "...". */
static void finish(spx_render_text_t *out)
{
    if (full(out)) {
        out->length =
            spx_utf8_cut((const unsigned char *)out->bytes, out->length, SPX_LIMIT_RENDER_BYTES);
        memcpy(out->bytes + out->length, "...", 3);
        out->length += 3;
    }
    out->bytes[out->length] = '\0';
}

/* Write value of type; an array, struct, map or enum block opens a frame. */
static void open_value(renderer_t *r, const spx_render_type_t *type, spx_value_t value)
{
    switch (type->kind) {
    case SPX_RENDER_INT:
    case SPX_RENDER_BOOL:
    case SPX_RENDER_STR:
        put_value_scalar(r->out, type->kind, value);
        return;
    case SPX_RENDER_ARRAY:
        put(r->out, "[", 1);
        break;
    case SPX_RENDER_STRUCT:
        put_text(r->out, type->name);
        put(r->out, " { ", 3);
        break;
    case SPX_RENDER_MAP:
        put(r->out, "{", 1);
        break;
    case SPX_RENDER_ENUM: {
        const spx_render_variant_t *variant = &type->variants[spx_enum_variant(value.b)];
        put_text(r->out, variant->name);
        if (spx_value_is_constant(value.b))
            return;
        put(r->out, "(", 1);
        break;
    }
    }
    if (full(r->out))
        return;
    r->frames[r->depth++] = (frame_t){type, value.b, 0};
}

static const char *closing(spx_render_kind_t kind)
{
    return kind == SPX_RENDER_ARRAY    ? "]"
           : kind == SPX_RENDER_STRUCT ? " }"
           : kind == SPX_RENDER_MAP    ? "}"
                                       : ")";
}

/* Write the next part of the innermost open value. */
static void continue_frame(renderer_t *r)
{
    frame_t *top = &r->frames[r->depth - 1];
    const spx_render_type_t *type = top->type;
    const spx_value_block_t *block = top->block;
    if (top->next == block->length) {
        put_text(r->out, closing(type->kind));
        r->depth--;
        return;
    }
    uint32_t k = top->next++;
    if (k > 0)
        put(r->out, ", ", 2);
    switch (type->kind) {
    case SPX_RENDER_ARRAY:
        open_value(r, type->element, block->slots[k]);
        return;
    case SPX_RENDER_STRUCT:
        put_text(r->out, type->field_names[k]);
        put(r->out, ": ", 2);
        open_value(r, type->field_types[k], block->slots[k]);
        return;
    case SPX_RENDER_MAP: /* entry k: its key (int, bool or str), then its value */
        put_value_scalar(r->out, type->key->kind, block->slots[2u * k]);
        put(r->out, ": ", 2);
        open_value(r, type->element, block->slots[2u * k + 1]);
        return;
    case SPX_RENDER_ENUM:
        open_value(r, type->variants[spx_enum_variant(block)].payload_types[k], block->slots[k]);
        return;
    default:
        return;
    }
}

void spx_render_value(const spx_render_type_t *type, spx_value_t value, spx_render_text_t *out)
{
    renderer_t r;
    r.out = out;
    r.depth = 0;
    out->length = 0;
    open_value(&r, type, value);
    while (r.depth && !full(out))
        continue_frame(&r);
    finish(out);
}

void spx_render_scalar(spx_render_kind_t kind, int64_t integer, const unsigned char *bytes,
                       apr_size_t length, spx_render_text_t *out)
{
    out->length = 0;
    put_scalar(out, kind, integer, bytes, length);
    finish(out);
}
