/*
 * siphash.c: SipHash-1-3 (spx_siphash.h), after the reference
 * implementation of SipHash (github.com/veorq/SipHash) with cROUNDS 1 and
 * dROUNDS 3. Bytes are read little-endian one at a time, so the result is
 * the same on every platform.
 */
#include "spx_siphash.h"

static uint64_t rotate(uint64_t x, unsigned bits)
{
    return (x << bits) | (x >> (64u - bits));
}

static uint64_t little_endian(const unsigned char *bytes, size_t count)
{
    uint64_t word = 0;
    for (size_t i = 0; i < count; i++)
        word |= (uint64_t)bytes[i] << (8u * i);
    return word;
}

typedef struct sip_state_t {
    uint64_t v0, v1, v2, v3;
} sip_state_t;

static void sip_round(sip_state_t *s)
{
    s->v0 += s->v1;
    s->v1 = rotate(s->v1, 13);
    s->v1 ^= s->v0;
    s->v0 = rotate(s->v0, 32);
    s->v2 += s->v3;
    s->v3 = rotate(s->v3, 16);
    s->v3 ^= s->v2;
    s->v0 += s->v3;
    s->v3 = rotate(s->v3, 21);
    s->v3 ^= s->v0;
    s->v2 += s->v1;
    s->v1 = rotate(s->v1, 17);
    s->v1 ^= s->v2;
    s->v2 = rotate(s->v2, 32);
}

uint64_t spx_siphash13(const uint64_t key[2], const unsigned char *bytes, size_t length)
{
    sip_state_t s = {key[0] ^ 0x736f6d6570736575ull, key[1] ^ 0x646f72616e646f6dull,
                     key[0] ^ 0x6c7967656e657261ull, key[1] ^ 0x7465646279746573ull};
    size_t whole = length - length % 8;
    for (size_t at = 0; at < whole; at += 8) {
        uint64_t m = little_endian(bytes + at, 8);
        s.v3 ^= m;
        sip_round(&s);
        s.v0 ^= m;
    }
    uint64_t last = ((uint64_t)length << 56) | little_endian(bytes + whole, length % 8);
    s.v3 ^= last;
    sip_round(&s);
    s.v0 ^= last;
    s.v2 ^= 0xff;
    sip_round(&s);
    sip_round(&s);
    sip_round(&s);
    return s.v0 ^ s.v1 ^ s.v2 ^ s.v3;
}
