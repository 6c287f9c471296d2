/*
 * lookup_internal.h: what the position queries share (lookup*.c): the
 * table of one source's names, made by parsing and checking that source
 * again in a scratch pool (lookup_table.c), and the small helpers over
 * retained bytes and declarations.
 */
#ifndef SPX_LOOKUP_INTERNAL_H
#define SPX_LOOKUP_INTERNAL_H

#include "project_internal.h"
#include "spx_lookup.h"

/* One name as written in the source, and what it names. */
typedef struct lookup_name_t {
    spx_span_t span;
    spx_lookup_symbol_t symbol;
    int declaration;
    /* locals, parameters, fields: the value's type (the checker's), or NULL */
    const spx_vtype_t *vtype;
    spx_type_t type;
    long local; /* a local's or parameter's number in the table's locals; else -1 */
} lookup_name_t;

/* A local or parameter as declared, for completion: visible from its
 * name's end to scope_end (its block's end). */
typedef struct lookup_local_t {
    const char *name;
    spx_span_t span;
    apr_size_t function; /* the function's number in its module */
    apr_size_t scope_end;
    int parameter;
    const spx_vtype_t *vtype;
    spx_type_t type;
} lookup_local_t;

/* The names of one source, sorted by offset, each span once. */
typedef struct lookup_table_t {
    apr_size_t source;
    const spx_module_t *module; /* the retained module */
    lookup_name_t *names;
    apr_size_t count;
    lookup_local_t *locals; /* in source order */
    apr_size_t local_count;
    apr_pool_t *scratch; /* the parsed and checked modules the names point into */
} lookup_table_t;

/* Parse and check the source again, with the modules it imports directly
 * or not (their declarations are what its bodies need), and list its
 * names: the table lives in a scratch pool under pool. */
lookup_table_t *spx_lookup_table(const spx_project_t *project, apr_size_t source, apr_pool_t *pool);

/* Every table of the sources whose wanted[number] is not 0, each given to
 * visit and let go after it (its names with it): the project's modules
 * parsed once each, imported modules first, and only one module's bodies
 * held at a time where the imports form no cycle (as in Phase A). */
void spx_lookup_each_table(const spx_project_t *project, const char *wanted,
                           void (*visit)(void *context, const lookup_table_t *table), void *context,
                           apr_pool_t *pool);

/* Give the table's scratch back: the table and its names go with it. */
void spx_lookup_table_release(lookup_table_t *table);

/* The name at offset (start <= offset < end), or NULL. */
const lookup_name_t *spx_lookup_table_at(const lookup_table_t *table, apr_size_t offset);

/* The position of offset in text (line and column 1-based, in bytes). */
spx_position_t spx_lookup_position(const unsigned char *text, apr_size_t length, apr_size_t offset);

/* The number of the module named name, or SPX_LOOKUP_NO_SOURCE. */
apr_size_t spx_lookup_module_number(const spx_project_t *project, const char *name);

/* The retained module a project's source holds. */
const spx_module_t *spx_lookup_module(const spx_project_t *project, apr_size_t source);

/* The declaration text of a symbol (spx_lookup_hover) from the retained
 * declarations; vtype and type for locals, parameters and fields. */
const char *spx_lookup_declaration(const spx_project_t *project, const spx_lookup_symbol_t *symbol,
                                   const spx_vtype_t *vtype, spx_type_t type, apr_pool_t *pool);

#endif /* SPX_LOOKUP_INTERNAL_H */
