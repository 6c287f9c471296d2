/*
 * spx_random.h: bytes from the platform's random source (APR's, which is
 * the operating system's: getrandom or /dev/urandom, BCryptGenRandom), for
 * what must differ from process to process and run to run: the key of the
 * maps' hash (engine/values_map.c).
 */
#ifndef SPX_RANDOM_H
#define SPX_RANDOM_H

#include <apr.h>
#include <apr_errno.h>

/* Fill length bytes at out; APR's status when the source fails. */
apr_status_t spx_random_bytes(void *out, apr_size_t length);

#endif /* SPX_RANDOM_H */
