/*
 * render_types.c: the render type (render.h) of a checked type, for the
 * compiler: what the renderer needs to know of a value that its blocks do
 * not record (int or bool, a struct's name, its fields' names and types).
 *
 * A struct's fields are typed as written (spx_type_syntax_t) in its own
 * module, resolved here as the checker resolved them (a TYPENAME of the
 * module, or MOD.Name of an import). Each struct gets one render type
 * (memo), made before its fields are, so types that hold themselves end;
 * structs are filled from a worklist, so a long chain of struct types costs
 * no C recursion (an array type recurses into its element, as deep as the
 * parser allowed).
 */
#include "render.h"

#include "spx_ast.h"

#include <apr_hash.h>
#include <apr_strings.h>
#include <apr_tables.h>
#include <string.h>

typedef struct builder_t {
    apr_hash_t *memo;             /* const spx_struct_t * -> spx_render_type_t * */
    apr_array_header_t *unfilled; /* spx_render_type_t * whose fields are still to make */
    apr_array_header_t *structs;  /* const spx_struct_t *, in step with unfilled */
    apr_pool_t *pool;
} builder_t;

static spx_render_type_t *new_type(builder_t *b, spx_render_kind_t kind)
{
    spx_render_type_t *type = apr_pcalloc(b->pool, sizeof(*type));
    type->kind = kind;
    return type;
}

static const spx_render_type_t *of_basic(builder_t *b, spx_type_t basic)
{
    return new_type(b, basic == SPX_TYPE_BOOL  ? SPX_RENDER_BOOL
                       : basic == SPX_TYPE_STR ? SPX_RENDER_STR
                                               : SPX_RENDER_INT);
}

static const spx_render_type_t *of_struct(builder_t *b, const spx_struct_t *structure)
{
    spx_render_type_t *type = apr_hash_get(b->memo, &structure, sizeof(structure));
    if (type)
        return type;
    type = new_type(b, SPX_RENDER_STRUCT);
    type->name = spx_struct_full_name(structure, b->pool);
    const spx_struct_t **key = apr_pmemdup(b->pool, &structure, sizeof(structure));
    apr_hash_set(b->memo, key, sizeof(*key), type);
    APR_ARRAY_PUSH(b->unfilled, spx_render_type_t *) = type;
    APR_ARRAY_PUSH(b->structs, const spx_struct_t *) = structure;
    return type;
}

/* The struct that TYPENAME (or MOD.TYPENAME) names in module: the program
 * was checked, so it is there. */
static const spx_struct_t *resolve_struct(const spx_module_t *module,
                                          const spx_type_syntax_t *syntax)
{
    if (syntax->module.text) {
        const spx_module_t *owner = NULL;
        for (apr_size_t i = 0; i < module->import_count && !owner; i++)
            if (strcmp(module->imports[i].module.text, syntax->module.text) == 0)
                owner = module->imports[i].target;
        module = owner;
    }
    for (apr_size_t i = 0; module && i < module->struct_count; i++)
        if (strcmp(module->structs[i]->name.text, syntax->name.text) == 0)
            return module->structs[i];
    return NULL;
}

static const spx_render_type_t *of_syntax(builder_t *b, const spx_module_t *module,
                                          const spx_type_syntax_t *syntax, spx_type_t basic)
{
    if (!syntax)
        return of_basic(b, basic);
    switch (syntax->kind) {
    case SPX_TYPE_SYNTAX_ARRAY: {
        spx_render_type_t *type = new_type(b, SPX_RENDER_ARRAY);
        type->element = of_syntax(b, module, syntax->element, SPX_TYPE_ERROR);
        return type;
    }
    case SPX_TYPE_SYNTAX_STRUCT: {
        const spx_struct_t *structure = resolve_struct(module, syntax);
        return structure ? of_struct(b, structure) : of_basic(b, SPX_TYPE_INT);
    }
    case SPX_TYPE_SYNTAX_BASIC:
    default:
        return of_basic(b, syntax->basic);
    }
}

static const spx_render_type_t *of_vtype(builder_t *b, const spx_vtype_t *vtype)
{
    if (vtype->kind == SPX_TYPE_ARRAY) {
        spx_render_type_t *type = new_type(b, SPX_RENDER_ARRAY);
        type->element = of_vtype(b, vtype->element);
        return type;
    }
    if (vtype->kind == SPX_TYPE_STRUCT)
        return of_struct(b, vtype->structure);
    return of_basic(b, vtype->kind);
}

const spx_render_type_t *spx_render_type_of(int kind, const spx_vtype_t *vtype, apr_hash_t *memo,
                                            apr_pool_t *pool)
{
    builder_t b = {memo, apr_array_make(pool, 4, sizeof(spx_render_type_t *)),
                   apr_array_make(pool, 4, sizeof(const spx_struct_t *)), pool};
    const spx_render_type_t *result = (kind == SPX_TYPE_ARRAY || kind == SPX_TYPE_STRUCT) && vtype
                                          ? of_vtype(&b, vtype)
                                          : of_basic(&b, (spx_type_t)kind);
    while (b.unfilled->nelts) {
        spx_render_type_t *filling =
            APR_ARRAY_IDX(b.unfilled, b.unfilled->nelts - 1, spx_render_type_t *);
        const spx_struct_t *structure =
            APR_ARRAY_IDX(b.structs, b.structs->nelts - 1, const spx_struct_t *);
        b.unfilled->nelts--;
        b.structs->nelts--;
        apr_size_t count = structure->field_count;
        const char **names = apr_palloc(pool, (count + 1) * sizeof(*names));
        const spx_render_type_t **types = apr_palloc(pool, (count + 1) * sizeof(*types));
        for (apr_size_t i = 0; i < count; i++) {
            names[i] = structure->fields[i].name.text;
            types[i] = of_syntax(&b, structure->module, structure->fields[i].type_syntax,
                                 structure->fields[i].type);
        }
        filling->field_count = (uint32_t)count;
        filling->field_names = names;
        filling->field_types = types;
    }
    return result;
}
