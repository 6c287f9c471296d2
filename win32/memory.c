/*
 * memory.c: the Windows implementation of bulk memory and of giving freed
 * memory back to the system (spx_platform.h).
 *
 * VirtualAlloc reserves and commits the region at once (the system hands it
 * out zeroed); a cleanup of the pool that asked for it releases it. Large
 * pages need a privilege ordinary accounts lack, so they are not asked for.
 * Freed memory goes back through the C runtime's _heapmin.
 */
#include "spx_platform.h"

#include <malloc.h> /* _heapmin */
#include <windows.h>

static apr_status_t release(void *address)
{
    VirtualFree(address, 0, MEM_RELEASE);
    return APR_SUCCESS;
}

void *spx_bulk_memory(apr_size_t size, apr_pool_t *pool)
{
    void *address = VirtualAlloc(NULL, size, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
    if (!address)
        return NULL;
    apr_pool_cleanup_register(pool, address, release, apr_pool_cleanup_null);
    return address;
}

void spx_memory_give_back(void)
{
    (void)_heapmin(); /* the C runtime's heap: decommits what it holds free */
}
