/*
 * sources.c: the byte sources of the frame readers' tests (spx_sources.h).
 */
#include "spx_sources.h"

#include <string.h>

apr_status_t spx_read_memory(void *context, void *buffer, apr_size_t capacity, apr_size_t *got)
{
    spx_memory_source_t *source = context;
    if (capacity > source->largest_request)
        source->largest_request = capacity;
    apr_size_t count = source->length - source->at;
    if (count > capacity)
        count = capacity;
    if (count > source->per_read)
        count = source->per_read;
    memcpy(buffer, (const unsigned char *)source->bytes + source->at, count);
    source->at += count;
    *got = count;
    return APR_SUCCESS;
}

apr_status_t spx_read_filler(void *context, void *buffer, apr_size_t capacity, apr_size_t *got)
{
    spx_filler_source_t *source = context;
    apr_size_t head = source->head ? strlen(source->head) : 0;
    apr_size_t total = head + source->filler + strlen(source->tail);
    unsigned char *out = buffer;
    apr_size_t count = 0;
    while (count < capacity && source->produced < total) {
        apr_size_t at = source->produced, run = 1;
        if (at < head) {
            out[count] = (unsigned char)source->head[at];
        } else if (at < head + source->filler) {
            run = head + source->filler - at;
            if (run > capacity - count)
                run = capacity - count;
            memset(out + count, 'x', run);
        } else {
            out[count] = (unsigned char)source->tail[at - head - source->filler];
        }
        count += run;
        source->produced += run;
    }
    *got = count;
    return APR_SUCCESS;
}
