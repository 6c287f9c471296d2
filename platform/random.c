/*
 * random.c: the platform's random source (spx_random.h), over APR.
 */
#include "spx_random.h"

#include <apr_general.h>

apr_status_t spx_random_bytes(void *out, apr_size_t length)
{
    return apr_generate_random_bytes(out, length);
}
