/*
 * render.h: the one renderer of values for failure messages (language v3,
 * "assert_eq's message"; docs/execution.md, "Rendering values"): a value as
 * source-like text, cut after SPX_LIMIT_RENDER_BYTES bytes. Private to the
 * engine: compile.c describes the static type of what is rendered
 * (spx_render_type_t, built by spx_render_type_of in render_types.c), and the
 * interpreter renders with it (render.c). assert_eq renders whole values;
 * a map key in R0522's message and E0437's diagnostic is rendered by the
 * same code (spx_render_scalar), so the escaping rules exist once.
 */
#ifndef SPX_RENDER_H
#define SPX_RENDER_H

#include "spx_limits.h"
#include "spx_values.h"

#include <apr_hash.h>
#include <apr_pools.h>

/* What a rendered value is, as far as its text needs to know: the blocks
 * of spx_values.h do not record their element or field types. */
typedef enum spx_render_kind_t {
    SPX_RENDER_INT,    /* decimal */
    SPX_RENDER_BOOL,   /* true, false */
    SPX_RENDER_STR,    /* "..." with \" \\ \n \t and \xhh escapes */
    SPX_RENDER_ARRAY,  /* [1, 2] */
    SPX_RENDER_STRUCT, /* geo.Point { x: 1, y: 2 } */
    SPX_RENDER_MAP,    /* {"a": 1, "b": 2} in the map's order, {} when empty */
    SPX_RENDER_ENUM    /* geo.Shape.Circle(3), app.Shape.Empty */
} spx_render_kind_t;

struct spx_render_type_t;

/* An enum's variant, for rendering: a value of it without payloads is a
 * constant (spx_enum_constant), one with payloads a block whose slots are
 * they, and neither records the variant's name or payload types. */
typedef struct spx_render_variant_t {
    const char *name; /* "geo.Shape.Circle" */
    uint32_t payload_count;
    const struct spx_render_type_t *const *payload_types;
} spx_render_variant_t;

/* A static type for rendering. Types that hold themselves (struct Node {
 * kids: [Node] }, enum List { Nil, Cons(int, List) }) are cyclic graphs of
 * these. */
typedef struct spx_render_type_t {
    spx_render_kind_t kind;
    const struct spx_render_type_t *element;            /* ARRAY; MAP: the value type */
    const struct spx_render_type_t *key;                /* MAP: INT, BOOL or STR */
    const char *name;                                   /* STRUCT: "geo.Point" */
    uint32_t field_count;                               /* STRUCT */
    const char *const *field_names;                     /* STRUCT, declaration order */
    const struct spx_render_type_t *const *field_types; /* STRUCT */
    uint32_t variant_count;                             /* ENUM */
    const spx_render_variant_t *variants;               /* ENUM, by variant number */
} spx_render_type_t;

/* The text of a rendered value: at most SPX_LIMIT_RENDER_BYTES bytes of
 * the value's text, then "..." when it was cut. */
typedef struct spx_render_text_t {
    char bytes[SPX_LIMIT_RENDER_BYTES + 8];
    apr_size_t length;
} spx_render_text_t;

/* value (an int or bool in .i, else a block) as text of type. Work is
 * O(SPX_LIMIT_RENDER_BYTES) whatever the value's size or depth: rendering
 * stops once the text is over the limit. No recursion in C. */
void spx_render_value(const spx_render_type_t *type, spx_value_t value, spx_render_text_t *out);

/* A map key as spx_render_value writes it, from what the checker knows of a
 * literal or const key as well as from a run's value: kind SPX_RENDER_INT
 * or SPX_RENDER_BOOL (integer), or SPX_RENDER_STR (length bytes). */
void spx_render_scalar(spx_render_kind_t kind, int64_t integer, const unsigned char *bytes,
                       apr_size_t length, spx_render_text_t *out);

struct spx_vtype_t;
/* The render type of a checked type (compile time): kind (a spx_type_t:
 * int, bool, str, or an array, struct, map or enum whose whole type is
 * vtype), made in pool; memo (of pool) maps each struct and enum
 * declaration to its render type, so types that hold themselves end and
 * each declaration is described once. */
const spx_render_type_t *spx_render_type_of(int kind, const struct spx_vtype_t *vtype,
                                            apr_hash_t *memo, apr_pool_t *pool);

#endif /* SPX_RENDER_H */
