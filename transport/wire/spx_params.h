/*
 * spx_params.h: reading the optional members of a request's params (the
 * daemon's v2 and v3 methods) or of a tool's arguments (semapraxd --mcp),
 * written once for every transport. Each reader says what it found: absent,
 * a valid value, or what is wrong with it; the caller words the refusal in
 * its own protocol's terms (a -32602 with a reason, or a tool error).
 */
#ifndef SPX_PARAMS_H
#define SPX_PARAMS_H

#include <apr_pools.h>
#include <jansson.h>

typedef enum spx_param_found_t {
    SPX_PARAM_ABSENT = 0,   /* no such member: the value is untouched */
    SPX_PARAM_VALID,        /* the value is set */
    SPX_PARAM_OUT_OF_RANGE, /* an integer outside the range (*given says which) */
    SPX_PARAM_BEYOND_INT64, /* an integer beyond 2^63-1 (or below -2^63), decoded
                             * as a real (spx_request_t.integers_as_reals) */
    SPX_PARAM_MISTYPED,     /* not of the member's type */
    SPX_PARAM_EMPTY,        /* an array with no item, where one is needed */
    SPX_PARAM_MISTYPED_ITEM /* an array with an item not of its type (*item says which) */
} spx_param_found_t;

/* The optional unsigned integer member key of object (which may be NULL)
 * within [minimum, maximum]: *value is set when it is valid; *given is the
 * integer when it is out of range. integers_as_reals says whether every
 * integer of the request was decoded as a real, as one beyond 2^63-1 makes
 * spx_request_parse do: only then is a real at or beyond 2^63 in magnitude
 * SPX_PARAM_BEYOND_INT64 rather than SPX_PARAM_MISTYPED. */
spx_param_found_t spx_param_optional_count(json_t *object, const char *key, apr_uint64_t minimum,
                                           apr_uint64_t maximum, int integers_as_reals,
                                           apr_uint64_t *value, apr_int64_t *given);

/* The optional string member key of object (which may be NULL): *value is
 * set when it is a string. */
spx_param_found_t spx_param_optional_string(json_t *object, const char *key, const char **value);

/* The optional member "tests" of object (which may be NULL): an array of
 * one or more test names (strings). When valid, *names (NULL-terminated, in
 * pool) and *count are set; when absent they are NULL and 0. For
 * SPX_PARAM_MISTYPED_ITEM *item is the index of the first item that is not
 * a string. */
spx_param_found_t spx_param_test_names(json_t *object, const char ***names, apr_size_t *count,
                                       apr_size_t *item, apr_pool_t *pool);

/* Why a "tests" member that spx_param_test_names did not find valid is
 * refused, for a person or a model: the same sentence in every transport. */
const char *spx_param_test_names_problem(spx_param_found_t found, apr_size_t item,
                                         apr_pool_t *pool);

#endif /* SPX_PARAMS_H */
