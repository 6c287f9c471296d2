/*
 * held.c: what both platforms share about held objects: comparing and
 * rendering identities, reading a whole held file through its handle, and
 * comparing a held file's bytes with a copy kept of them.
 */
#include "spx_platform.h"

#include <apr_strings.h>
#include <string.h>

int spx_identity_same_object(const spx_identity_t *a, const spx_identity_t *b)
{
    return a->volume == b->volume && a->object == b->object && a->object_high == b->object_high &&
           a->kind == b->kind;
}

void spx_identity_object_hex(const spx_identity_t *identity, char text[SPX_IDENTITY_OBJECT_HEX])
{
    if (identity->object_high == 0)
        apr_snprintf(text, SPX_IDENTITY_OBJECT_HEX, "%" APR_UINT64_T_HEX_FMT,
                     (apr_uint64_t)identity->object);
    else
        apr_snprintf(text, SPX_IDENTITY_OBJECT_HEX,
                     "%" APR_UINT64_T_HEX_FMT "%016" APR_UINT64_T_HEX_FMT,
                     (apr_uint64_t)identity->object_high, (apr_uint64_t)identity->object);
}

static apr_status_t fail(apr_status_t status, const char **message, apr_pool_t *pool,
                         const char *text)
{
    if (message)
        *message = apr_pstrdup(pool, text);
    return status;
}

apr_status_t spx_file_read_all(spx_file_t *file, apr_size_t max_bytes, unsigned char **bytes,
                               apr_size_t *length, apr_pool_t *pool, const char **message)
{
    return spx_file_read_all_into(file, max_bytes, NULL, NULL, bytes, length, pool, message);
}

apr_status_t spx_file_read_all_into(spx_file_t *file, apr_size_t max_bytes,
                                    spx_buffer_fn *buffer_for, void *buffer_context,
                                    unsigned char **bytes, apr_size_t *length, apr_pool_t *pool,
                                    const char **message)
{
    spx_identity_t before, after;
    apr_status_t status = spx_file_identity(file, &before, pool, message);
    if (status != APR_SUCCESS)
        return status;
    if (before.size > max_bytes)
        return fail(SPX_STATUS_TOO_LARGE, message, pool,
                    apr_psprintf(pool,
                                 "'%s' is %" APR_UINT64_T_FMT
                                 " bytes, over the limit of %" APR_SIZE_T_FMT " bytes",
                                 spx_file_path(file), (apr_uint64_t)before.size, max_bytes));

    /* Read one byte past the recorded size, so that growth is seen. */
    apr_size_t capacity = (apr_size_t)before.size + 1;
    unsigned char *buffer =
        buffer_for ? buffer_for(buffer_context, capacity + 1) : apr_palloc(pool, capacity + 1);
    apr_size_t filled = 0;
    while (filled < capacity) {
        apr_size_t got = 0;
        status =
            spx_file_read_at(file, filled, buffer + filled, capacity - filled, &got, pool, message);
        if (status != APR_SUCCESS)
            return status;
        if (got == 0)
            break;
        filled += got;
    }
    status = spx_file_identity(file, &after, pool, message);
    if (status != APR_SUCCESS)
        return status;
    if (filled != before.size || after.size != before.size)
        return fail(
            SPX_STATUS_CHANGED, message, pool,
            apr_psprintf(pool, "'%s' changed size while it was being read", spx_file_path(file)));
    buffer[filled] = '\0';
    *bytes = buffer;
    *length = filled;
    return APR_SUCCESS;
}

apr_status_t spx_file_same_bytes(spx_file_t *file, const unsigned char *expected,
                                 apr_size_t expected_length, unsigned char *buffer,
                                 apr_size_t capacity, int *same, apr_pool_t *pool,
                                 const char **message)
{
    *same = 0;
    uint64_t offset = 0;
    for (;;) {
        /* At most one byte past the end of what is expected: growth shows. */
        apr_size_t left = expected_length - (apr_size_t)offset;
        apr_size_t want = left < capacity ? left + 1 : capacity;
        apr_size_t got = 0;
        apr_status_t status = spx_file_read_at(file, offset, buffer, want, &got, pool, message);
        if (status != APR_SUCCESS)
            return status;
        if (got > left || memcmp(buffer, expected + offset, got) != 0)
            return APR_SUCCESS; /* longer, or different */
        offset += got;
        /* The end: a read that returns nothing, or a short read that ends
         * exactly where expected (a file cannot hold fewer bytes at once). */
        if (got == 0 || (got < want && offset == expected_length))
            break;
    }
    *same = offset == expected_length;
    return APR_SUCCESS;
}

apr_status_t spx_file_read_named(spx_dir_t *dir, const char *name, apr_size_t max_bytes,
                                 unsigned char **bytes, apr_size_t *length, apr_pool_t *pool,
                                 const char **message)
{
    spx_file_t *file = NULL;
    apr_status_t status = spx_file_open(&file, dir, name, pool, message);
    if (status == APR_SUCCESS)
        status = spx_file_read_all(file, max_bytes, bytes, length, pool, message);
    if (file)
        spx_file_close(file);
    return status;
}
