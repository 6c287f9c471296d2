/*
 * render_types.c: the render type (render.h) of a checked type, for the
 * compiler: what the renderer needs to know of a value that its blocks do
 * not record (int or bool, a struct's name, its fields' names and types, a
 * map's key and value types, an enum's variants' names and payload types).
 *
 * A struct's fields and a variant's payloads are typed as written
 * (spx_type_syntax_t) in their own module, resolved here as the checker
 * resolved them (a TYPENAME of the module, or MOD.Name of an import: a
 * struct, else an enum). Each struct and enum gets one render type (memo),
 * made before its fields or variants are, so types that hold themselves
 * end; they are filled from a worklist, so a long chain of such types
 * costs no C recursion (an array or map type recurses into its element and
 * key, as deep as the parser allowed).
 */
#include "render.h"

#include "spx_ast.h"

#include <apr_hash.h>
#include <apr_strings.h>
#include <apr_tables.h>
#include <string.h>

/* A struct's or enum's render type whose fields or variants are still to
 * make (one of structure and enumeration is set). */
typedef struct unfilled_t {
    spx_render_type_t *type;
    const spx_struct_t *structure;
    const spx_enum_t *enumeration;
} unfilled_t;

typedef struct builder_t {
    apr_hash_t *memo;             /* declaration (spx_struct_t *, spx_enum_t *) -> render type */
    apr_array_header_t *unfilled; /* unfilled_t */
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

/* The render type of a declaration (a struct or enum), made once and
 * filled later. */
static const spx_render_type_t *of_declaration(builder_t *b, const spx_struct_t *structure,
                                               const spx_enum_t *enumeration)
{
    const void *declaration = structure ? (const void *)structure : (const void *)enumeration;
    spx_render_type_t *type = apr_hash_get(b->memo, &declaration, sizeof(declaration));
    if (type)
        return type;
    if (structure) {
        type = new_type(b, SPX_RENDER_STRUCT);
        type->name = spx_struct_full_name(structure, b->pool);
    } else {
        type = new_type(b, SPX_RENDER_ENUM);
        type->name = spx_enum_full_name(enumeration, b->pool);
    }
    const void **key = apr_pmemdup(b->pool, &declaration, sizeof(declaration));
    apr_hash_set(b->memo, key, sizeof(*key), type);
    APR_ARRAY_PUSH(b->unfilled, unfilled_t) = (unfilled_t){type, structure, enumeration};
    return type;
}

/* The module that MOD of MOD.TYPENAME names in module (module itself
 * without MOD): the program was checked, so it is there. */
static const spx_module_t *owner_of(const spx_module_t *module, const spx_type_syntax_t *syntax)
{
    if (!syntax->module.text)
        return module;
    for (apr_size_t i = 0; i < module->import_count; i++)
        if (strcmp(module->imports[i].module.text, syntax->module.text) == 0)
            return module->imports[i].target;
    return NULL;
}

static const spx_struct_t *resolve_struct(const spx_module_t *module, const char *name)
{
    for (apr_size_t i = 0; module && i < module->struct_count; i++)
        if (strcmp(module->structs[i]->name.text, name) == 0)
            return module->structs[i];
    return NULL;
}

static const spx_enum_t *resolve_enum(const spx_module_t *module, const char *name)
{
    for (apr_size_t i = 0; module && i < module->enum_count; i++)
        if (module->enums[i]->name.text && strcmp(module->enums[i]->name.text, name) == 0)
            return module->enums[i];
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
    case SPX_TYPE_SYNTAX_MAP: {
        spx_render_type_t *type = new_type(b, SPX_RENDER_MAP);
        type->key = of_syntax(b, module, syntax->key, SPX_TYPE_ERROR);
        type->element = of_syntax(b, module, syntax->element, SPX_TYPE_ERROR);
        return type;
    }
    case SPX_TYPE_SYNTAX_STRUCT: {
        const spx_module_t *owner = owner_of(module, syntax);
        const spx_struct_t *structure = resolve_struct(owner, syntax->name.text);
        const spx_enum_t *enumeration = structure ? NULL : resolve_enum(owner, syntax->name.text);
        return structure || enumeration ? of_declaration(b, structure, enumeration)
                                        : of_basic(b, SPX_TYPE_INT);
    }
    case SPX_TYPE_SYNTAX_BASIC:
    default:
        return of_basic(b, syntax->basic);
    }
}

static const spx_render_type_t *of_vtype(builder_t *b, const spx_vtype_t *vtype)
{
    switch (vtype->kind) {
    case SPX_TYPE_ARRAY: {
        spx_render_type_t *type = new_type(b, SPX_RENDER_ARRAY);
        type->element = of_vtype(b, vtype->element);
        return type;
    }
    case SPX_TYPE_MAP: {
        spx_render_type_t *type = new_type(b, SPX_RENDER_MAP);
        type->key = of_vtype(b, vtype->key);
        type->element = of_vtype(b, vtype->element);
        return type;
    }
    case SPX_TYPE_STRUCT:
        return of_declaration(b, vtype->structure, NULL);
    case SPX_TYPE_ENUM:
        return of_declaration(b, NULL, vtype->enumeration);
    default:
        return of_basic(b, vtype->kind);
    }
}

static void fill_struct(builder_t *b, spx_render_type_t *filling, const spx_struct_t *structure)
{
    apr_size_t count = structure->field_count;
    const char **names = apr_palloc(b->pool, (count + 1) * sizeof(*names));
    const spx_render_type_t **types = apr_palloc(b->pool, (count + 1) * sizeof(*types));
    for (apr_size_t i = 0; i < count; i++) {
        names[i] = structure->fields[i].name.text;
        types[i] = of_syntax(b, structure->module, structure->fields[i].type_syntax,
                             structure->fields[i].type);
    }
    filling->field_count = (uint32_t)count;
    filling->field_names = names;
    filling->field_types = types;
}

static void fill_enum(builder_t *b, spx_render_type_t *filling, const spx_enum_t *enumeration)
{
    apr_size_t count = enumeration->variant_count;
    spx_render_variant_t *variants = apr_pcalloc(b->pool, (count + 1) * sizeof(*variants));
    for (apr_size_t v = 0; v < count; v++) {
        const spx_variant_t *variant = &enumeration->variants[v];
        apr_size_t payloads = variant->payload_count;
        const spx_render_type_t **types = apr_palloc(b->pool, (payloads + 1) * sizeof(*types));
        for (apr_size_t i = 0; i < payloads; i++)
            types[i] = of_syntax(b, enumeration->module, variant->payloads[i].type_syntax,
                                 variant->payloads[i].type);
        variants[v].name = apr_pstrcat(b->pool, filling->name, ".", variant->name.text, NULL);
        variants[v].payload_count = (uint32_t)payloads;
        variants[v].payload_types = types;
    }
    filling->variant_count = (uint32_t)count;
    filling->variants = variants;
}

const spx_render_type_t *spx_render_type_of(int kind, const spx_vtype_t *vtype, apr_hash_t *memo,
                                            apr_pool_t *pool)
{
    builder_t b = {memo, apr_array_make(pool, 4, sizeof(unfilled_t)), pool};
    const spx_render_type_t *result = vtype && (kind == SPX_TYPE_ARRAY || kind == SPX_TYPE_STRUCT ||
                                                kind == SPX_TYPE_MAP || kind == SPX_TYPE_ENUM)
                                          ? of_vtype(&b, vtype)
                                          : of_basic(&b, (spx_type_t)kind);
    while (b.unfilled->nelts) {
        unfilled_t next = APR_ARRAY_IDX(b.unfilled, b.unfilled->nelts - 1, unfilled_t);
        b.unfilled->nelts--;
        if (next.structure)
            fill_struct(&b, next.type, next.structure);
        else
            fill_enum(&b, next.type, next.enumeration);
    }
    return result;
}
