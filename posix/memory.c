/*
 * memory.c: the POSIX implementation of bulk memory and of giving freed
 * memory back to the system (spx_platform.h).
 *
 * An anonymous private mapping, released by a cleanup of the pool that asked
 * for it. On Linux it is marked MADV_HUGEPAGE: with transparent huge pages
 * in "madvise" mode (Debian's default) the kernel then backs it with 2 MiB
 * pages, and a large Phase A takes hundreds of page faults instead of tens of
 * thousands (docs/performance.md). Elsewhere the advice does not exist and
 * the mapping is used as it is. Giving back is glibc's malloc_trim or
 * macOS's zone pressure relief; musl and the BSDs need no asking.
 */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS and madvise() under -std=c11 */

#include "spx_platform.h"

#include <sys/mman.h>

#if defined(__GLIBC__)
#include <malloc.h> /* malloc_trim */
#elif defined(__APPLE__)
#include <malloc/malloc.h> /* malloc_zone_pressure_relief */
#endif

typedef struct mapping_t {
    void *address;
    apr_size_t size;
} mapping_t;

static apr_status_t unmap(void *data)
{
    mapping_t *mapping = data;
    munmap(mapping->address, mapping->size);
    return APR_SUCCESS;
}

void *spx_bulk_memory(apr_size_t size, apr_pool_t *pool)
{
    void *address = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (address == MAP_FAILED)
        return NULL;
#ifdef MADV_HUGEPAGE
    (void)madvise(address, size, MADV_HUGEPAGE); /* advice only: refused means small pages */
#endif
    mapping_t *mapping = apr_palloc(pool, sizeof(*mapping));
    mapping->address = address;
    mapping->size = size;
    apr_pool_cleanup_register(pool, mapping, unmap, apr_pool_cleanup_null);
    return address;
}

void spx_memory_give_back(void)
{
#if defined(__GLIBC__)
    (void)malloc_trim(0);
#elif defined(__APPLE__)
    (void)malloc_zone_pressure_relief(NULL, 0);
#endif
    /* musl and the BSDs return freed pages by themselves. */
}
