/*
 * test_utf8.c: spx_utf8.h on its own: the well-formed sequences at their
 * limits, every overlong form, the surrogates, U+10FFFF and U+110000, stray
 * continuation bytes, the bytes that lead nothing, truncation at each
 * position, the ill-formed part's length, a cut at every byte inside a 2-, 3-
 * and 4-byte character, and the encoder; then every short input against a
 * decoder written here from the bit patterns, independently of utf8.c.
 */
#include "spx_test.h"
#include "spx_utf8.h"

#include <stdio.h>
#include <string.h>

/* spx_utf8_length and spx_utf8_invalid_length of bytes[0..available). */
static void check(const char *bytes, apr_size_t available, apr_size_t length, apr_size_t invalid)
{
    const unsigned char *u = (const unsigned char *)bytes;
    apr_size_t got_length = spx_utf8_length(u, available);
    apr_size_t got_invalid = spx_utf8_invalid_length(u, available);
    if (got_length != length || got_invalid != invalid) {
        fprintf(stderr, "\n  ");
        for (apr_size_t i = 0; i < available; i++)
            fprintf(stderr, "%02x ", u[i]);
        fprintf(stderr, "(%lu bytes): length %lu, invalid %lu; wanted %lu, %lu\n",
                (unsigned long)available, (unsigned long)got_length, (unsigned long)got_invalid,
                (unsigned long)length, (unsigned long)invalid);
    }
    CU_ASSERT_EQUAL(got_length, length);
    CU_ASSERT_EQUAL(got_invalid, invalid);
}

static void test_ascii_is_one_byte(void)
{
    unsigned wrong = 0;
    for (unsigned c = 0; c < 0x80; c++) {
        unsigned char byte[2] = {(unsigned char)c, 0x80};
        wrong += spx_utf8_length(byte, 2) != 1 || spx_utf8_invalid_length(byte, 2) != 0;
    }
    CU_ASSERT_EQUAL(wrong, 0);
    check("\0", 1, 1, 0); /* NUL and control bytes are well-formed UTF-8 */
    check("\x7f", 1, 1, 0);
    check("", 0, 0, 0); /* nothing there */
}

static void test_well_formed_limits(void)
{
    check("\xc2\x80", 2, 2, 0);             /* U+0080, the first 2-byte one */
    check("\xdf\xbf", 2, 2, 0);             /* U+07FF */
    check("\xe0\xa0\x80", 3, 3, 0);         /* U+0800, the first 3-byte one */
    check("\xe2\x82\xac", 3, 3, 0);         /* U+20AC */
    check("\xed\x9f\xbf", 3, 3, 0);         /* U+D7FF, just below the surrogates */
    check("\xee\x80\x80", 3, 3, 0);         /* U+E000, just above them */
    check("\xef\xbb\xbf", 3, 3, 0);         /* U+FEFF is well-formed (the callers judge it) */
    check("\xef\xbf\xbf", 3, 3, 0);         /* U+FFFF */
    check("\xf0\x90\x80\x80", 4, 4, 0);     /* U+10000, the first 4-byte one */
    check("\xf3\xbf\xbf\xbf", 4, 4, 0);     /* U+FFFFF */
    check("\xf4\x8f\xbf\xbf", 4, 4, 0);     /* U+10FFFF, the last one */
    check("\xc3\xa9xyz", 5, 2, 0);          /* only the first sequence counts */
    check("\xf0\x9f\x98\x80\x80", 5, 4, 0); /* a stray byte after it is the next one's */
}

/* Every overlong form: C0 and C1 lead nothing; after E0 the bytes 80..9F,
 * after F0 the bytes 80..8F would write a value that fits fewer bytes. */
static void test_every_overlong_is_rejected(void)
{
    unsigned accepted = 0, wrong_part = 0;
    for (unsigned lead = 0xc0; lead <= 0xc1; lead++)
        for (unsigned b1 = 0x80; b1 <= 0xbf; b1++) {
            unsigned char s[2] = {(unsigned char)lead, (unsigned char)b1};
            accepted += spx_utf8_length(s, 2) != 0;
            wrong_part += spx_utf8_invalid_length(s, 2) != 1;
        }
    for (unsigned b1 = 0x80; b1 <= 0x9f; b1++)
        for (unsigned b2 = 0x80; b2 <= 0xbf; b2++) {
            unsigned char s[3] = {0xe0, (unsigned char)b1, (unsigned char)b2};
            accepted += spx_utf8_length(s, 3) != 0;
            wrong_part += spx_utf8_invalid_length(s, 3) != 1;
        }
    for (unsigned b1 = 0x80; b1 <= 0x8f; b1++)
        for (unsigned b2 = 0x80; b2 <= 0xbf; b2++)
            for (unsigned b3 = 0x80; b3 <= 0xbf; b3++) {
                unsigned char s[4] = {0xf0, (unsigned char)b1, (unsigned char)b2,
                                      (unsigned char)b3};
                accepted += spx_utf8_length(s, 4) != 0;
                wrong_part += spx_utf8_invalid_length(s, 4) != 1;
            }
    CU_ASSERT_EQUAL(accepted, 0);
    CU_ASSERT_EQUAL(wrong_part, 0);
    /* The well-known ones by name: '/' and NUL written long. */
    check("\xc0\xaf", 2, 0, 1);
    check("\xe0\x80\xaf", 3, 0, 1);
    check("\xf0\x80\x80\xaf", 4, 0, 1);
    check("\xc0\x80", 2, 0, 1);
    check("\xc1\xbf", 2, 0, 1);         /* U+007F written in 2 bytes */
    check("\xe0\x9f\xbf", 3, 0, 1);     /* U+07FF written in 3 */
    check("\xf0\x8f\xbf\xbf", 4, 0, 1); /* U+FFFF written in 4 */
}

static void test_surrogates_are_rejected(void)
{
    unsigned accepted = 0, wrong_part = 0;
    for (unsigned b1 = 0xa0; b1 <= 0xbf; b1++)
        for (unsigned b2 = 0x80; b2 <= 0xbf; b2++) {
            unsigned char s[3] = {0xed, (unsigned char)b1, (unsigned char)b2};
            accepted += spx_utf8_length(s, 3) != 0;
            wrong_part += spx_utf8_invalid_length(s, 3) != 1;
        }
    CU_ASSERT_EQUAL(accepted, 0);
    CU_ASSERT_EQUAL(wrong_part, 0);
    check("\xed\xa0\x80", 3, 0, 1); /* U+D800 */
    check("\xed\xaf\xbf", 3, 0, 1); /* U+DBFF */
    check("\xed\xb0\x80", 3, 0, 1); /* U+DC00 */
    check("\xed\xbf\xbf", 3, 0, 1); /* U+DFFF */
    /* A pair written as CESU-8 is two ill-formed sequences, not U+10000. */
    check("\xed\xa0\x80\xed\xb0\x80", 6, 0, 1);
}

static void test_above_u10ffff_is_rejected(void)
{
    check("\xf4\x8f\xbf\xbf", 4, 4, 0);         /* U+10FFFF */
    check("\xf4\x90\x80\x80", 4, 0, 1);         /* U+110000 */
    check("\xf4\xbf\xbf\xbf", 4, 0, 1);         /* U+13FFFF */
    check("\xf5\x80\x80\x80", 4, 0, 1);         /* U+140000 */
    check("\xf7\xbf\xbf\xbf", 4, 0, 1);         /* U+1FFFFF */
    check("\xf8\x88\x80\x80\x80", 5, 0, 1);     /* the old 5-byte form */
    check("\xfc\x84\x80\x80\x80\x80", 6, 0, 1); /* the old 6-byte form */
}

static void test_stray_continuation_bytes(void)
{
    unsigned wrong = 0;
    for (unsigned c = 0x80; c <= 0xbf; c++) {
        unsigned char alone[1] = {(unsigned char)c};
        unsigned char run[4] = {(unsigned char)c, 0x80, 0x80, 0x80};
        wrong += spx_utf8_length(alone, 1) != 0 || spx_utf8_invalid_length(alone, 1) != 1;
        wrong += spx_utf8_length(run, 4) != 0 || spx_utf8_invalid_length(run, 4) != 1;
    }
    CU_ASSERT_EQUAL(wrong, 0);
    check("\x80", 1, 0, 1);
    check("\xbfz", 2, 0, 1);
}

static void test_bytes_that_lead_nothing(void)
{
    static const unsigned char leads[] = {0xc0, 0xc1, 0xf5, 0xf6, 0xf7, 0xf8, 0xf9,
                                          0xfa, 0xfb, 0xfc, 0xfd, 0xfe, 0xff};
    for (size_t i = 0; i < sizeof(leads); i++) {
        unsigned char s[4] = {leads[i], 0x80, 0x80, 0x80};
        for (apr_size_t available = 1; available <= 4; available++) {
            CU_ASSERT_EQUAL(spx_utf8_length(s, available), 0);
            CU_ASSERT_EQUAL(spx_utf8_invalid_length(s, available), 1);
        }
        unsigned char t[4] = {leads[i], 0xbf, 0xbf, 0xbf};
        CU_ASSERT_EQUAL(spx_utf8_length(t, 4), 0);
        CU_ASSERT_EQUAL(spx_utf8_invalid_length(t, 4), 1);
    }
    /* Their neighbours do lead: the test above is not refusing everything. */
    check("\xc2\x80", 2, 2, 0);
    check("\xf4\x80\x80\x80", 4, 4, 0);
}

/* A sequence cut short after each of its bytes is ill-formed, all of it;
 * one broken after k bytes (by an ASCII byte or by a new lead) is ill-formed
 * for its first k. */
static void test_truncation_at_each_position(void)
{
    static const char *const sequences[] = {"\xc2\xa9",     "\xe2\x82\xac",     "\xe0\xa0\x80",
                                            "\xed\x9f\xbf", "\xf0\x9f\x98\x80", "\xf4\x8f\xbf\xbf"};
    for (size_t i = 0; i < sizeof(sequences) / sizeof(sequences[0]); i++) {
        apr_size_t size = strlen(sequences[i]);
        check(sequences[i], size, size, 0);
        for (apr_size_t available = 1; available < size; available++)
            check(sequences[i], available, 0, available);
        for (apr_size_t k = 1; k < size; k++) {
            char broken[8];
            memcpy(broken, sequences[i], size);
            broken[k] = 'A';
            check(broken, size, 0, k);
            broken[k] = (char)0xc3;
            check(broken, size, 0, k);
            broken[k] = (char)0xff;
            check(broken, size, 0, k);
        }
    }
    /* The second byte's own range decides as early as it can. */
    check("\xe0\xa0", 2, 0, 2);
    check("\xe0\x9f", 2, 0, 1);
    check("\xf4\x8f\xbf", 3, 0, 3);
    check("\xf4\x90\xbf", 3, 0, 1);
}

/* spx_utf8_cut of text[0..length) at n is wanted. */
static void check_cut(const char *text, apr_size_t length, apr_size_t n, apr_size_t wanted)
{
    apr_size_t got = spx_utf8_cut((const unsigned char *)text, length, n);
    if (got != wanted)
        fprintf(stderr, "\n  cut of %lu bytes at %lu: %lu, wanted %lu\n", (unsigned long)length,
                (unsigned long)n, (unsigned long)got, (unsigned long)wanted);
    CU_ASSERT_EQUAL(got, wanted);
}

/* The cut of "a" X "b" (X: size bytes) at every n from 0 to past the end:
 * inside X it is 1, before X; elsewhere n, or the whole past the end. */
static void check_cuts(const char *character, apr_size_t size)
{
    char text[8];
    text[0] = 'a';
    memcpy(text + 1, character, size);
    text[1 + size] = 'b';
    apr_size_t length = size + 2;
    for (apr_size_t n = 0; n <= length + 2; n++)
        check_cut(text, length, n, n >= length ? length : n > 1 && n <= size ? 1 : n);
}

static void test_cut_inside_each_character(void)
{
    check_cuts("\xc3\xa9", 2);         /* U+00E9 */
    check_cuts("\xe2\x82\xac", 3);     /* U+20AC */
    check_cuts("\xf0\x9f\x98\x80", 4); /* U+1F600 */
}

static void test_cut_edges(void)
{
    check_cut("hello", 5, 0, 0);
    check_cut("hello", 5, 3, 3);
    check_cut("hello", 5, 99, 5); /* never past the end */
    check_cut("", 0, 0, 0);
    /* The byte after the end is not read: a cut at the end is the end. */
    check_cut("ab\x80", 2, 2, 2);
    check_cut("ab\x80", 2, 3, 2);
    /* A character at the very start: nothing of it fits. */
    check_cut("\xe2\x82\xacx", 4, 2, 0);
    /* Two characters back to back: the cut lands between them. */
    check_cut("\xc3\xa9\xc3\xa9", 4, 3, 2);
    /* In ill-formed text only continuation bytes are backed over, all of
     * them (what the lexer and the manifest let through is well-formed). */
    check_cut("a\x80\x80\x80\x80\x80", 6, 5, 0);
    check_cut("\xe2z", 2, 1, 1);
}

static void check_encode(unsigned long value, const char *wanted, apr_size_t size)
{
    char out[4] = {0};
    apr_size_t got = spx_utf8_encode(value, out);
    CU_ASSERT_EQUAL(got, size);
    CU_ASSERT_EQUAL(memcmp(out, wanted, size), 0);
}

static void test_encode(void)
{
    check_encode(0x00, "\0", 1);
    check_encode(0x41, "A", 1);
    check_encode(0x7f, "\x7f", 1);
    check_encode(0x80, "\xc2\x80", 2);
    check_encode(0xe9, "\xc3\xa9", 2);
    check_encode(0x7ff, "\xdf\xbf", 2);
    check_encode(0x800, "\xe0\xa0\x80", 3);
    check_encode(0x20ac, "\xe2\x82\xac", 3);
    check_encode(0xd7ff, "\xed\x9f\xbf", 3);
    check_encode(0xe000, "\xee\x80\x80", 3);
    check_encode(0xffff, "\xef\xbf\xbf", 3);
    check_encode(0x10000, "\xf0\x90\x80\x80", 4);
    check_encode(0x1f600, "\xf0\x9f\x98\x80", 4);
    check_encode(0x10ffff, "\xf4\x8f\xbf\xbf", 4);
    /* Every scalar value encodes to a well-formed sequence of its length,
     * which decodes back to it. */
    unsigned long wrong = 0;
    for (unsigned long value = 0; value <= 0x10ffff; value++) {
        if (value >= 0xd800 && value <= 0xdfff)
            continue;
        unsigned char out[4];
        apr_size_t size = spx_utf8_encode(value, (char *)out);
        apr_size_t wanted = value < 0x80 ? 1 : value < 0x800 ? 2 : value < 0x10000 ? 3 : 4;
        unsigned long back = size == 1 ? out[0] : out[0] & (0x7f >> size);
        for (apr_size_t i = 1; i < size; i++)
            back = back << 6 | (out[i] & 0x3f);
        wrong += size != wanted || spx_utf8_length(out, size) != size || back != value;
    }
    CU_ASSERT_EQUAL(wrong, 0);
}

/* --- against a decoder written from the bit patterns -------------------------- */

/* The length of the well-formed sequence at s[0..n), or 0: by the lead
 * byte's high bits, then the code point's value. */
static apr_size_t reference_length(const unsigned char *s, apr_size_t n)
{
    if (n == 0)
        return 0;
    apr_size_t size;
    unsigned long value;
    if ((s[0] & 0x80) == 0)
        return 1;
    else if ((s[0] & 0xe0) == 0xc0)
        size = 2, value = s[0] & 0x1fu;
    else if ((s[0] & 0xf0) == 0xe0)
        size = 3, value = s[0] & 0x0fu;
    else if ((s[0] & 0xf8) == 0xf0)
        size = 4, value = s[0] & 0x07u;
    else
        return 0;
    if (n < size)
        return 0;
    for (apr_size_t i = 1; i < size; i++) {
        if ((s[i] & 0xc0) != 0x80)
            return 0;
        value = value << 6 | (s[i] & 0x3fu);
    }
    static const unsigned long smallest[] = {0, 0, 0x80, 0x800, 0x10000};
    if (value < smallest[size] || (value >= 0xd800 && value <= 0xdfff) || value > 0x10ffff)
        return 0;
    return size;
}

/* Whether s[0..k) (k >= 2) begins some well-formed sequence longer than k
 * bytes: only the second byte has a narrower range than 0x80..0xBF, and it
 * is given, so filling with 0x80 finds one if any exists. */
static int reference_begins(const unsigned char *s, apr_size_t k)
{
    for (apr_size_t size = k + 1; size <= 4; size++) {
        unsigned char t[4];
        memcpy(t, s, k);
        for (apr_size_t i = k; i < size; i++)
            t[i] = 0x80;
        if (reference_length(t, size) == size)
            return 1;
    }
    return 0;
}

/* The maximal subpart: the longest prefix that begins a well-formed
 * sequence, at least 1; 0 when a well-formed sequence is there. */
static apr_size_t reference_invalid(const unsigned char *s, apr_size_t n)
{
    if (n == 0 || reference_length(s, n) > 0)
        return 0;
    apr_size_t k = 1;
    while (k < n && k < 4 && reference_begins(s, k + 1))
        k++;
    return k;
}

static unsigned long compare_with_reference(const unsigned char *s, apr_size_t n)
{
    apr_size_t length = spx_utf8_length(s, n), invalid = spx_utf8_invalid_length(s, n);
    if (length == reference_length(s, n) && invalid == reference_invalid(s, n))
        return 0;
    fprintf(stderr, "\n  %02x %02x %02x %02x (%lu bytes): length %lu, invalid %lu\n", s[0], s[1],
            s[2], s[3], (unsigned long)n, (unsigned long)length, (unsigned long)invalid);
    return 1;
}

static void test_every_short_input_matches_the_reference(void)
{
    /* Later bytes: each side of every range edge. */
    static const unsigned char later[] = {0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90,
                                          0x9f, 0xa0, 0xbf, 0xc0, 0xc2, 0xff};
    unsigned long wrong = 0, accepted = 0;
    for (unsigned b0 = 0; b0 < 256; b0++)
        for (unsigned b1 = 0; b1 < 256; b1++)
            for (size_t i2 = 0; i2 < sizeof(later); i2++)
                for (size_t i3 = 0; i3 < sizeof(later); i3++) {
                    unsigned char s[4] = {(unsigned char)b0, (unsigned char)b1, later[i2],
                                          later[i3]};
                    for (apr_size_t n = 1; n <= 4; n++)
                        wrong += compare_with_reference(s, n);
                    accepted += spx_utf8_length(s, 4) == 4;
                }
    CU_ASSERT_EQUAL(wrong, 0);
    /* The reference is not rejecting everything: F0..F4 with both later
     * bytes from 0x80 0x8f 0x90 0x9f 0xa0 0xbf, second bytes as allowed. */
    CU_ASSERT_EQUAL(accepted, (unsigned long)(48 + 64 + 64 + 64 + 16) * 36);
}

/* A byte order mark is exactly EF BB BF at the start of what is given. */
static void test_byte_order_mark(void)
{
    CU_ASSERT_EQUAL(spx_byte_order_mark_length("\xef\xbb\xbf", 3), 3);
    CU_ASSERT_EQUAL(spx_byte_order_mark_length("\xef\xbb\xbfx", 4), 3);
    CU_ASSERT_EQUAL(spx_byte_order_mark_length("\xef\xbb\xbf", 2), 0); /* truncated */
    CU_ASSERT_EQUAL(spx_byte_order_mark_length("\xef\xbb\xbe", 3), 0);
    CU_ASSERT_EQUAL(spx_byte_order_mark_length("x\xef\xbb\xbf", 4), 0);
    CU_ASSERT_EQUAL(spx_byte_order_mark_length("", 0), 0);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"ASCII is one byte", test_ascii_is_one_byte},
        {"a byte order mark only at the start", test_byte_order_mark},
        {"well-formed sequences at their limits", test_well_formed_limits},
        {"every overlong form is rejected", test_every_overlong_is_rejected},
        {"surrogates are rejected", test_surrogates_are_rejected},
        {"U+10FFFF is accepted, U+110000 and above are not", test_above_u10ffff_is_rejected},
        {"stray continuation bytes", test_stray_continuation_bytes},
        {"C0, C1, F5..FF lead nothing", test_bytes_that_lead_nothing},
        {"truncation at each position", test_truncation_at_each_position},
        {"a cut at every byte inside a 2-, 3- and 4-byte character",
         test_cut_inside_each_character},
        {"cut edges", test_cut_edges},
        {"encode", test_encode},
        {"every short input matches a reference decoder",
         test_every_short_input_matches_the_reference},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("utf8", tests);
}
