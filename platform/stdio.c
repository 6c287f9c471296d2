/*
 * stdio.c: binary, unbuffered standard input and output over APR.
 *
 * APR's files never translate line ends (on Windows they sit on ReadFile and
 * WriteFile), so one implementation serves both platforms. Without
 * APR_FOPEN_BUFFERED every write goes straight to the descriptor.
 */
#include "spx_platform.h"

#include <apr_file_io.h>

struct spx_stdio_t {
    apr_file_t *in;
    apr_file_t *out;
};

apr_status_t spx_stdio_open(spx_stdio_t **stdio, apr_pool_t *pool)
{
    spx_stdio_t *streams = apr_pcalloc(pool, sizeof(*streams));
    apr_status_t status = apr_file_open_flags_stdin(&streams->in, APR_FOPEN_READ, pool);
    if (status != APR_SUCCESS)
        return status;
    status = apr_file_open_flags_stdout(&streams->out, APR_FOPEN_WRITE, pool);
    if (status != APR_SUCCESS)
        return status;
    *stdio = streams;
    return APR_SUCCESS;
}

apr_status_t spx_stdio_read(spx_stdio_t *stdio, void *buffer, apr_size_t capacity, apr_size_t *got)
{
    apr_size_t length = capacity;
    apr_status_t status = apr_file_read(stdio->in, buffer, &length);
    if (status == APR_EOF) {
        *got = 0;
        return APR_SUCCESS;
    }
    *got = status == APR_SUCCESS ? length : 0;
    return status;
}

apr_status_t spx_stdio_write(spx_stdio_t *stdio, const void *bytes, apr_size_t length)
{
    return apr_file_write_full(stdio->out, bytes, length, NULL);
}

apr_status_t spx_stdio_flush(spx_stdio_t *stdio)
{
    return apr_file_flush(stdio->out);
}
