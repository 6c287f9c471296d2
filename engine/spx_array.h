/*
 * spx_array.h: the push onto an APR array that Phase A's hot loops use
 * (the compiler's arrays, the checker's and the index's operator spines):
 * apr_array_push's work without its call while the array has room.
 */
#ifndef SPX_ARRAY_H
#define SPX_ARRAY_H

#include <apr_tables.h>

/* A new last element of array, of size bytes (its elt_size): in line while
 * the array has room, apr_array_push (which grows it) otherwise. */
static inline void *spx_array_push(apr_array_header_t *array, apr_size_t size)
{
    if (array->nelts < array->nalloc)
        return array->elts + size * (apr_size_t)array->nelts++;
    return apr_array_push(array);
}

/* The new last element of array, whose elements are of type, as an lvalue. */
#define SPX_ARRAY_PUSH(array, type) (*(type *)spx_array_push((array), sizeof(type)))

#endif /* SPX_ARRAY_H */
