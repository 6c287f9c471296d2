/*
 * spx_leb128.h: unsigned LEB128 numbers, seven bits a byte, the low ones
 * first, a set top bit saying another byte follows: how the engine packs
 * the small numbers it keeps by the million (the compiled program's sites,
 * compile.c and vm.c; the index's call sites, index.c). Private to the
 * engine; inline, for the readers on hot paths.
 */
#ifndef SPX_LEB128_H
#define SPX_LEB128_H

#include <stdint.h>

/* The number value written at at (at most 5 bytes); returns the byte after it. */
static inline uint8_t *spx_leb128_put(uint8_t *at, uint32_t value)
{
    while (value >= 0x80) {
        *at++ = (uint8_t)(value | 0x80);
        value >>= 7;
    }
    *at++ = (uint8_t)value;
    return at;
}

/* The number at *at, which moves past it. */
static inline uint32_t spx_leb128_get(const uint8_t **at)
{
    uint32_t value = 0;
    for (unsigned shift = 0;; shift += 7) {
        uint8_t byte = *(*at)++;
        value |= (uint32_t)(byte & 0x7f) << shift;
        if (!(byte & 0x80))
            return value;
    }
}

#endif /* SPX_LEB128_H */
