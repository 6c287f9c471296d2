/*
 * types.c: the checker's value types (spx_ast.h, spx_types_t): the kinds of
 * spx_type_t, and language v2's arrays ([T], nested) and structs (a struct
 * declaration of a module). Every type is made once per table, so two types
 * are equal exactly when their pointers are; names are written as messages
 * write them: "int", "[str]", "[[geo.Point]]".
 */
#include "spx_ast.h"

#include <apr_strings.h>
#include <string.h>

struct spx_types_t {
    apr_pool_t *pool;
    spx_vtype_t basic[SPX_TYPE_UNIT + 1]; /* ERROR, INT, BOOL, STR, UNIT */
    apr_hash_t *structs;                  /* const spx_struct_t * -> spx_vtype_t * */
    apr_hash_t *enums;                    /* v3: const spx_enum_t * -> spx_vtype_t * */
    apr_hash_t *maps;                     /* v3: {key, value} pointers -> spx_vtype_t * */
};

spx_types_t *spx_types_make(apr_pool_t *pool)
{
    spx_types_t *types = apr_pcalloc(pool, sizeof(*types));
    types->pool = pool;
    for (int kind = SPX_TYPE_ERROR; kind <= SPX_TYPE_UNIT; kind++)
        types->basic[kind].kind = (spx_type_t)kind;
    types->structs = apr_hash_make(pool);
    types->enums = apr_hash_make(pool);
    types->maps = apr_hash_make(pool);
    return types;
}

const spx_vtype_t *spx_types_basic(spx_types_t *types, spx_type_t kind)
{
    if (kind < SPX_TYPE_ERROR || kind > SPX_TYPE_UNIT)
        kind = SPX_TYPE_ERROR;
    return &types->basic[kind];
}

const spx_vtype_t *spx_types_array(spx_types_t *types, const spx_vtype_t *element)
{
    /* Only this table's types are handed out, so the cache may be filled. */
    spx_vtype_t *owned = (spx_vtype_t *)element;
    if (!owned->array_of) {
        spx_vtype_t *array = apr_pcalloc(types->pool, sizeof(*array));
        array->kind = SPX_TYPE_ARRAY;
        array->element = element;
        owned->array_of = array;
    }
    return owned->array_of;
}

const spx_vtype_t *spx_types_struct(spx_types_t *types, const spx_struct_t *structure)
{
    spx_vtype_t *found = apr_hash_get(types->structs, &structure, sizeof(structure));
    if (!found) {
        found = apr_pcalloc(types->pool, sizeof(*found));
        found->kind = SPX_TYPE_STRUCT;
        found->structure = structure;
        const spx_struct_t **key = apr_palloc(types->pool, sizeof(*key));
        *key = structure;
        apr_hash_set(types->structs, key, sizeof(*key), found);
    }
    return found;
}

const spx_vtype_t *spx_types_enum(spx_types_t *types, const spx_enum_t *enumeration)
{
    spx_vtype_t *found = apr_hash_get(types->enums, &enumeration, sizeof(enumeration));
    if (!found) {
        found = apr_pcalloc(types->pool, sizeof(*found));
        found->kind = SPX_TYPE_ENUM;
        found->enumeration = enumeration;
        const spx_enum_t **key = apr_palloc(types->pool, sizeof(*key));
        *key = enumeration;
        apr_hash_set(types->enums, key, sizeof(*key), found);
    }
    return found;
}

const spx_vtype_t *spx_types_map(spx_types_t *types, const spx_vtype_t *key,
                                 const spx_vtype_t *value)
{
    const spx_vtype_t *pair[2] = {key, value};
    spx_vtype_t *found = apr_hash_get(types->maps, pair, sizeof(pair));
    if (!found) {
        found = apr_pcalloc(types->pool, sizeof(*found));
        found->kind = SPX_TYPE_MAP;
        found->key = key;
        found->element = value;
        const spx_vtype_t **stored = apr_pmemdup(types->pool, pair, sizeof(pair));
        apr_hash_set(types->maps, stored, sizeof(pair), found);
    }
    return found;
}

const char *spx_enum_full_name(const spx_enum_t *enumeration, apr_pool_t *pool)
{
    return apr_pstrcat(pool, enumeration->module->name, ".", enumeration->name.text, NULL);
}

const char *spx_struct_full_name(const spx_struct_t *structure, apr_pool_t *pool)
{
    return apr_pstrcat(pool, structure->module->name, ".", structure->name.text, NULL);
}

/* Arrays nest only as deep as the parser allowed, but are walked as a loop;
 * a map's value type recurses (each "{" is a level of the parse depth). */
const char *spx_vtype_name(const spx_vtype_t *type, apr_pool_t *pool)
{
    size_t depth = 0;
    while (type->kind == SPX_TYPE_ARRAY) {
        depth++;
        type = type->element;
    }
    const char *inner = type->kind == SPX_TYPE_STRUCT ? spx_struct_full_name(type->structure, pool)
                        : type->kind == SPX_TYPE_ENUM ? spx_enum_full_name(type->enumeration, pool)
                        : type->kind == SPX_TYPE_MAP
                            ? apr_pstrcat(pool, "{", spx_vtype_name(type->key, pool), ": ",
                                          spx_vtype_name(type->element, pool), "}", NULL)
                            : spx_type_name(type->kind);
    return depth == 0 ? inner : spx_array_type_name(inner, depth, pool);
}
