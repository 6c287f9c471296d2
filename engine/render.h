/*
 * render.h: the one renderer of values for failure messages (language v3,
 * "assert_eq's message"; docs/execution.md, "Rendering values"): a value as
 * source-like text, cut after SPX_LIMIT_RENDER_BYTES bytes. Private to the
 * engine: compile.c describes the static type of what is rendered
 * (spx_render_type_t, built by spx_render_type_of in render_types.c), and the
 * interpreter renders with it (render.c). assert_eq is its first user; the
 * maps and enums of language v3 add their kinds to spx_render_kind_t and a
 * case each to the switch of render.c (a missing key of R0522 is rendered
 * the same way).
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
} spx_render_kind_t;

/* A static type for rendering. Types that hold themselves (struct Node {
 * kids: [Node] }) are cyclic graphs of these. */
typedef struct spx_render_type_t {
    spx_render_kind_t kind;
    const struct spx_render_type_t *element;            /* ARRAY */
    const char *name;                                   /* STRUCT: "geo.Point" */
    uint32_t field_count;                               /* STRUCT */
    const char *const *field_names;                     /* STRUCT, declaration order */
    const struct spx_render_type_t *const *field_types; /* STRUCT */
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

struct spx_vtype_t;
/* The render type of a checked type (compile time): kind (a spx_type_t:
 * int, bool, str, or an array or struct whose whole type is vtype), made in
 * pool; memo (of pool) maps each struct declaration to its render type, so
 * types that hold themselves end and each struct is described once. */
const spx_render_type_t *spx_render_type_of(int kind, const struct spx_vtype_t *vtype,
                                            apr_hash_t *memo, apr_pool_t *pool);

#endif /* SPX_RENDER_H */
