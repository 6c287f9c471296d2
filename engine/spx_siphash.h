/*
 * spx_siphash.h: SipHash-1-3 (Aumasson and Bernstein's SipHash with one
 * compression and three finalization rounds, Rust's HashMap default), the
 * hash of the maps of language v3 (values_map.c). Nettle, the project's
 * crypto library, has no SipHash, so it is written here, after the
 * reference implementation (docs/execution.md, "Maps").
 */
#ifndef SPX_SIPHASH_H
#define SPX_SIPHASH_H

#include <stddef.h>
#include <stdint.h>

/* The 64-bit SipHash-1-3 of length bytes under the 128-bit key (key[0] the
 * first 8 bytes, little-endian). */
uint64_t spx_siphash13(const uint64_t key[2], const unsigned char *bytes, size_t length);

#endif /* SPX_SIPHASH_H */
