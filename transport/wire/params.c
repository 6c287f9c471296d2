/*
 * params.c: the readers of optional params and tool arguments that the
 * daemon's methods (session_v2.c) and the MCP tools (mcp_tools.c) share
 * (spx_params.h). They classify what a member holds; the callers word the
 * refusal.
 */
#include "spx_params.h"

#include <apr_strings.h>

static json_t *member_of(json_t *object, const char *key)
{
    return object ? json_object_get(object, key) : NULL;
}

spx_param_found_t spx_param_optional_count(json_t *object, const char *key, apr_uint64_t minimum,
                                           apr_uint64_t maximum, int integers_as_reals,
                                           apr_uint64_t *value, apr_int64_t *given)
{
    json_t *member = member_of(object, key);
    if (!member)
        return SPX_PARAM_ABSENT;
    if (json_is_integer(member)) {
        json_int_t integer = json_integer_value(member);
        if (integer < 0 || (apr_uint64_t)integer < minimum || (apr_uint64_t)integer > maximum) {
            *given = (apr_int64_t)integer;
            return SPX_PARAM_OUT_OF_RANGE;
        }
        *value = (apr_uint64_t)integer;
        return SPX_PARAM_VALID;
    }
    if (json_is_real(member) && integers_as_reals &&
        (json_real_value(member) >= 9223372036854775807.0 ||
         json_real_value(member) <= -9223372036854775808.0))
        return SPX_PARAM_BEYOND_INT64;
    return SPX_PARAM_MISTYPED;
}

spx_param_found_t spx_param_optional_string(json_t *object, const char *key, const char **value)
{
    json_t *member = member_of(object, key);
    if (!member)
        return SPX_PARAM_ABSENT;
    if (!json_is_string(member))
        return SPX_PARAM_MISTYPED;
    *value = json_string_value(member);
    return SPX_PARAM_VALID;
}

spx_param_found_t spx_param_test_names(json_t *object, const char ***names, apr_size_t *count,
                                       apr_size_t *item, apr_pool_t *pool)
{
    json_t *member = member_of(object, "tests");
    *names = NULL;
    *count = 0;
    if (!member)
        return SPX_PARAM_ABSENT;
    if (!json_is_array(member))
        return SPX_PARAM_MISTYPED;
    apr_size_t size = json_array_size(member);
    if (size == 0)
        return SPX_PARAM_EMPTY;
    const char **given = apr_pcalloc(pool, (size + 1) * sizeof(*given));
    for (apr_size_t i = 0; i < size; i++) {
        given[i] = json_string_value(json_array_get(member, i));
        if (!given[i]) {
            *item = i;
            return SPX_PARAM_MISTYPED_ITEM;
        }
    }
    *names = given;
    *count = size;
    return SPX_PARAM_VALID;
}

const char *spx_param_test_names_problem(spx_param_found_t found, apr_size_t item, apr_pool_t *pool)
{
    switch (found) {
    case SPX_PARAM_EMPTY:
        return "tests must name at least one test; leave it out to run them all";
    case SPX_PARAM_MISTYPED_ITEM:
        return apr_psprintf(pool, "tests[%" APR_SIZE_T_FMT "] must be a string (a test name)",
                            item);
    default:
        return "tests must be an array of test names (strings)";
    }
}
