/*
 * spx_sources.h: byte sources for the frame readers' tests (a
 * spx_frame_source_fn's shape: context, buffer, capacity, *got): bytes in
 * memory handed out a few at a time, and a long input made up as it is read
 * so that a test of an oversized frame takes no memory of that size.
 */
#ifndef SPX_SOURCES_H
#define SPX_SOURCES_H

#include <apr.h>
#include <apr_errno.h>

/* bytes[0..length) in memory, at most per_read bytes a read; at is how far
 * it was read, largest_request the largest capacity a reader asked for. */
typedef struct spx_memory_source_t {
    const void *bytes;
    apr_size_t length;
    apr_size_t at;
    apr_size_t per_read;
    apr_size_t largest_request;
} spx_memory_source_t;

apr_status_t spx_read_memory(void *context, void *buffer, apr_size_t capacity, apr_size_t *got);

/* head (NULL: none), then filler bytes of 'x', then tail, made up as they
 * are read; produced counts what was handed out. */
typedef struct spx_filler_source_t {
    const char *head;
    apr_size_t filler;
    const char *tail;
    apr_size_t produced;
} spx_filler_source_t;

apr_status_t spx_read_filler(void *context, void *buffer, apr_size_t capacity, apr_size_t *got);

#endif /* SPX_SOURCES_H */
