/*
 * test_values.c: the run-time values of language v2 (engine/values.c):
 * value semantics under shared storage, the copies a write makes (one-level,
 * from the first shared block of its path down), the memory measure exact
 * at its limit, the size charge of each operation, what == examines, and
 * the failures R0506, R0511-R0514, R0519 and R0521 with their messages.
 * Every count below is worked out by hand from the specification's rules in
 * the comment beside it; every test ends with nothing live.
 */
#include "spx_limits.h"
#include "spx_test.h"
#include "spx_values.h"

#include <stdlib.h>
#include <string.h>

#define PLENTY 1000000000ull /* fuel enough for anything here */

/* A heap with limit max_memory; finish() checks that nothing is left. */
static spx_heap_t heap_of(uint64_t max_memory)
{
    spx_heap_t heap;
    spx_heap_init(&heap, max_memory);
    return heap;
}

static void finish(spx_heap_t *heap)
{
    CU_ASSERT_EQUAL(heap->blocks, 0);
    CU_ASSERT_EQUAL(heap->live, 0);
    spx_heap_finish(heap);
}

static spx_value_t int_value(int64_t i)
{
    spx_value_t value;
    value.i = i;
    return value;
}

static spx_value_t block_value(spx_value_block_t *b)
{
    spx_value_t value;
    value.b = b;
    return value;
}

/* [values...] of ints, count of them. */
static spx_value_block_t *int_array(spx_heap_t *heap, apr_size_t count, const int64_t *values)
{
    spx_value_t *elements = calloc(count ? count : 1, sizeof(*elements));
    for (apr_size_t i = 0; i < count; i++)
        elements[i].i = values ? values[i] : (int64_t)i;
    uint64_t fuel = PLENTY;
    spx_value_block_t *array = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_array_make(heap, &fuel, 0, elements, count, &array), SPX_HEAP_OK);
    free(elements);
    return array;
}

/* [blocks...] (consumes them). */
static spx_value_block_t *block_array(spx_heap_t *heap, apr_size_t count,
                                      spx_value_block_t **blocks)
{
    spx_value_t elements[16];
    CU_ASSERT_FATAL(count <= 16);
    for (apr_size_t i = 0; i < count; i++)
        elements[i].b = blocks[i];
    uint64_t fuel = PLENTY;
    spx_value_block_t *array = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_array_make(heap, &fuel, 1, elements, count, &array), SPX_HEAP_OK);
    return array;
}

/* A literal's block over bytes[0..length). */
static spx_value_block_t *literal_of(spx_heap_t *heap, const unsigned char *bytes,
                                     apr_size_t length)
{
    spx_value_block_t *block = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_str_literal(heap, bytes, length, &block), SPX_HEAP_OK);
    return block;
}

static spx_value_block_t *literal(spx_heap_t *heap, const char *text)
{
    return literal_of(heap, (const unsigned char *)text, strlen(text));
}

/* A counted string (as itos makes). */
static spx_value_block_t *made(spx_heap_t *heap, const char *text)
{
    spx_value_block_t *s = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_str_make(heap, (const unsigned char *)text, strlen(text), &s),
                          SPX_HEAP_OK);
    return s;
}

static int str_is(const spx_value_block_t *s, const char *text)
{
    return s->kind == SPX_BLOCK_STR && s->length == strlen(text) &&
           memcmp(spx_str_bytes(s), text, s->length) == 0;
}

static int64_t at(const spx_value_block_t *array, apr_size_t i)
{
    return array->slots[i].i;
}

/* struct P { x: int, name: str } */
static const unsigned char p_blocks[] = {0, 1};
static const spx_struct_shape_t p_shape = {2, p_blocks};

/* struct Node { kids: [Node] } */
static const unsigned char node_blocks[] = {1};
static const spx_struct_shape_t node_shape = {1, node_blocks};

static spx_value_block_t *p_make(spx_heap_t *heap, int64_t x, spx_value_block_t *name)
{
    spx_value_t fields[2] = {int_value(x), block_value(name)};
    uint64_t fuel = PLENTY;
    spx_value_block_t *p = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_struct_make(heap, &fuel, &p_shape, fields, &p), SPX_HEAP_OK);
    return p;
}

/* ---- value semantics ------------------------------------------------------- */

/* var a = [1, 2, 3]; var b = a; b[0] = 9; */
static void test_assign_then_write(void)
{
    spx_heap_t heap = heap_of(SPX_LIMIT_MAX_MEMORY_DEFAULT);
    int64_t values[] = {1, 2, 3};
    spx_value_block_t *a = int_array(&heap, 3, values);
    spx_value_block_t *b = a;
    spx_block_hold(b); /* binding adds a holder, never a copy */
    CU_ASSERT_EQUAL(a->holders, 2);
    CU_ASSERT_EQUAL(heap.live, 32 + 24);
    uint64_t fuel = PLENTY;
    int64_t step = 0;
    CU_ASSERT_EQUAL(spx_place_write(&heap, &fuel, &b, &step, 1, int_value(9)), SPX_HEAP_OK);
    CU_ASSERT_PTR_NOT_EQUAL(a, b);
    CU_ASSERT_EQUAL(at(a, 0), 1);
    CU_ASSERT_EQUAL(at(b, 0), 9);
    CU_ASSERT_EQUAL(at(b, 2), 3);
    CU_ASSERT_EQUAL(a->holders, 1);
    CU_ASSERT_EQUAL(b->holders, 1);
    CU_ASSERT_EQUAL(heap.copies, 1);
    CU_ASSERT_EQUAL(heap.charged_n, 3); /* the copied block's length */
    CU_ASSERT_EQUAL(fuel, PLENTY);      /* 3 / 64 = 0 */
    CU_ASSERT_EQUAL(heap.live, 2 * (32 + 24));

    /* b has one holder now: the next write copies nothing. */
    step = 1;
    CU_ASSERT_EQUAL(spx_place_write(&heap, &fuel, &b, &step, 1, int_value(8)), SPX_HEAP_OK);
    CU_ASSERT_EQUAL(heap.copies, 1);
    CU_ASSERT_EQUAL(heap.charged_n, 0);
    CU_ASSERT_EQUAL(at(a, 1), 2);
    CU_ASSERT_EQUAL(at(b, 1), 8);
    spx_block_release(&heap, a);
    CU_ASSERT_EQUAL(heap.live, 32 + 24);
    spx_block_release(&heap, b);
    finish(&heap);
}

/* var m = [[1], [2]]; var n = m; n[0][0] = 5; n[1] stays shared. */
static void test_nested_write_copies_the_path(void)
{
    spx_heap_t heap = heap_of(SPX_LIMIT_MAX_MEMORY_DEFAULT);
    int64_t one = 1, two = 2;
    spx_value_block_t *inner[2] = {int_array(&heap, 1, &one), int_array(&heap, 1, &two)};
    spx_value_block_t *m = block_array(&heap, 2, inner);
    spx_value_block_t *n = m;
    spx_block_hold(n);
    CU_ASSERT_EQUAL(heap.live, 3 * 32 + 8 + 8 + 16);
    uint64_t fuel = PLENTY;
    int64_t steps[2] = {0, 0};
    CU_ASSERT_EQUAL(spx_place_write(&heap, &fuel, &n, steps, 2, int_value(5)), SPX_HEAP_OK);
    /* m was shared, so it is copied; its copy holds [1] a second time, so
     * [1] is copied too: two copies, n = 2 x 8 (m's elements are blocks,
     * SPX_LIMIT_HELD_ELEMENT_N each) + 1. [2] is not on the path. */
    CU_ASSERT_EQUAL(heap.copies, 2);
    CU_ASSERT_EQUAL(heap.charged_n, 2 * SPX_LIMIT_HELD_ELEMENT_N + 1);
    CU_ASSERT_EQUAL(at(m->slots[0].b, 0), 1);
    CU_ASSERT_EQUAL(at(n->slots[0].b, 0), 5);
    CU_ASSERT_PTR_EQUAL(m->slots[1].b, n->slots[1].b);
    CU_ASSERT_EQUAL(m->slots[1].b->holders, 2);
    CU_ASSERT_EQUAL(m->slots[0].b->holders, 1);
    CU_ASSERT_EQUAL(n->slots[0].b->holders, 1);
    CU_ASSERT_EQUAL(heap.live, 2 * (32 + 16) + 3 * (32 + 8));
    spx_block_release(&heap, m);
    spx_block_release(&heap, n);
    finish(&heap);
}

/* var p = P { x: 1, name: "a" }; var q = p; q.x = 2; and push, pop through
 * an alias: let b = a; a.push(2); */
static void test_struct_and_push_pop_through_aliases(void)
{
    spx_heap_t heap = heap_of(SPX_LIMIT_MAX_MEMORY_DEFAULT);
    spx_value_block_t *p = p_make(&heap, 1, literal(&heap, "a"));
    spx_value_block_t *q = p;
    spx_block_hold(q);
    uint64_t fuel = PLENTY;
    int64_t field = 0;
    CU_ASSERT_EQUAL(spx_place_write(&heap, &fuel, &q, &field, 1, int_value(2)), SPX_HEAP_OK);
    CU_ASSERT_EQUAL(spx_struct_get(p, 0).i, 1);
    CU_ASSERT_EQUAL(spx_struct_get(q, 0).i, 2);
    CU_ASSERT_EQUAL(heap.charged_n, 2); /* the struct's field count */
    spx_value_t name = spx_struct_get(q, 1);
    CU_ASSERT_PTR_EQUAL(name.b, p->slots[1].b); /* the one-level copy shares the name */
    CU_ASSERT_EQUAL(name.b->holders, 3);        /* p's field, q's field, this operand */
    spx_block_release(&heap, name.b);
    spx_block_release(&heap, p);
    spx_block_release(&heap, q);

    int64_t one = 1;
    spx_value_block_t *a = int_array(&heap, 1, &one);
    spx_value_block_t *b = a;
    spx_block_hold(b);
    CU_ASSERT_EQUAL(spx_place_push(&heap, &fuel, &a, NULL, 0, int_value(2)), SPX_HEAP_OK);
    CU_ASSERT_EQUAL(spx_block_length(a), 2);
    CU_ASSERT_EQUAL(spx_block_length(b), 1);
    spx_value_t popped;
    spx_block_hold(a);
    spx_value_block_t *c = a; /* let c = a; c.pop(); */
    CU_ASSERT_EQUAL(spx_place_pop(&heap, &fuel, &c, NULL, 0, &popped), SPX_HEAP_OK);
    CU_ASSERT_EQUAL(popped.i, 2);
    CU_ASSERT_EQUAL(spx_block_length(a), 2);
    CU_ASSERT_EQUAL(spx_block_length(c), 1);
    CU_ASSERT_EQUAL(heap.copies, 3);
    spx_block_release(&heap, a);
    spx_block_release(&heap, b);
    spx_block_release(&heap, c);
    finish(&heap);
}

/* A value stored in a slot and read back is the same block; writing
 * through one holder of an element leaves the others alone:
 * var m = [[1, 2]]; let r = m[0]; m[0][1] = 7; (r stays [1, 2]) */
static void test_element_read_then_write(void)
{
    spx_heap_t heap = heap_of(SPX_LIMIT_MAX_MEMORY_DEFAULT);
    int64_t values[] = {1, 2};
    spx_value_block_t *row = int_array(&heap, 2, values);
    spx_value_block_t *m = block_array(&heap, 1, &row);
    spx_value_t r;
    CU_ASSERT_EQUAL(spx_array_get(&heap, m, 0, &r), SPX_HEAP_OK);
    CU_ASSERT_EQUAL(r.b->holders, 2);
    uint64_t fuel = PLENTY;
    int64_t steps[2] = {0, 1};
    CU_ASSERT_EQUAL(spx_place_write(&heap, &fuel, &m, steps, 2, int_value(7)), SPX_HEAP_OK);
    CU_ASSERT_EQUAL(heap.copies, 1); /* m has one holder; only the row is copied */
    CU_ASSERT_EQUAL(at(r.b, 1), 2);
    CU_ASSERT_EQUAL(at(m->slots[0].b, 1), 7);
    spx_block_release(&heap, r.b);
    spx_block_release(&heap, m);
    finish(&heap);
}

/* for x in xs { xs.push(x); } copies xs once: the snapshot holds the
 * original, the first push copies it (100 elements: 1 step) and doubles the
 * copy's capacity to 200, which the others fill (growth charges nothing). */
static void test_for_push_copies_once(void)
{
    spx_heap_t heap = heap_of(SPX_LIMIT_MAX_MEMORY_DEFAULT);
    spx_value_block_t *xs = int_array(&heap, 100, NULL);
    spx_value_block_t *snapshot = xs;
    spx_block_hold(snapshot);
    uint64_t fuel = PLENTY;
    for (int64_t i = 0; i < spx_block_length(snapshot); i++) {
        spx_value_t x;
        CU_ASSERT_EQUAL_FATAL(spx_array_get(&heap, snapshot, i, &x), SPX_HEAP_OK);
        CU_ASSERT_EQUAL_FATAL(spx_place_push(&heap, &fuel, &xs, NULL, 0, x), SPX_HEAP_OK);
        if (i == 0)
            CU_ASSERT_EQUAL(heap.live, (32 + 800) + (32 + 1600));
    }
    CU_ASSERT_EQUAL(heap.copies, 1);
    CU_ASSERT_EQUAL(PLENTY - fuel, 1); /* 100 / 64 */
    CU_ASSERT_EQUAL(spx_block_length(xs), 200);
    CU_ASSERT_EQUAL(spx_block_length(snapshot), 100);
    CU_ASSERT_EQUAL(at(xs, 150), 50);
    spx_block_release(&heap, snapshot); /* the loop's end */
    CU_ASSERT_EQUAL(heap.live, 32 + 1600);
    spx_block_release(&heap, xs);
    finish(&heap);
}

/* a.push(a.pop()) leaves a as it was. */
/* Storage follows the measure: pops give capacity back once the length
 * falls under a quarter of it, so an array pushed to 4096 elements and
 * popped to 10 holds at most 4 x its length (or 16 slots), not 4096. */
static void test_pop_gives_storage_back(void)
{
    spx_heap_t heap = heap_of(SPX_LIMIT_MAX_MEMORY_DEFAULT);
    uint64_t fuel = PLENTY;
    spx_value_block_t *a = int_array(&heap, 0, NULL);
    for (int i = 0; i < 4096; i++)
        CU_ASSERT_EQUAL(spx_place_push(&heap, &fuel, &a, NULL, 0, int_value(i)), SPX_HEAP_OK);
    CU_ASSERT(a->capacity >= 4096);
    for (int i = 4095; i >= 10; i--) {
        spx_value_t out;
        CU_ASSERT_EQUAL(spx_place_pop(&heap, &fuel, &a, NULL, 0, &out), SPX_HEAP_OK);
        CU_ASSERT_EQUAL(out.i, i);
        CU_ASSERT(a->capacity <= 4 * a->length || a->capacity <= 32);
    }
    CU_ASSERT_EQUAL(a->length, 10);
    CU_ASSERT(a->capacity <= 40);
    CU_ASSERT_EQUAL(at(a, 9), 9);
    CU_ASSERT_EQUAL(heap.live, 32 + 8 * 32); /* its capacity: 32 slots */
    spx_block_release(&heap, a);
    finish(&heap);
}

static void test_push_of_pop(void)
{
    spx_heap_t heap = heap_of(SPX_LIMIT_MAX_MEMORY_DEFAULT);
    int64_t values[] = {4, 5, 6};
    spx_value_block_t *a = int_array(&heap, 3, values);
    uint64_t fuel = PLENTY;
    spx_value_t last;
    CU_ASSERT_EQUAL(spx_place_pop(&heap, &fuel, &a, NULL, 0, &last), SPX_HEAP_OK);
    CU_ASSERT_EQUAL(heap.live, 32 + 24); /* the capacity stays */
    CU_ASSERT_EQUAL(spx_place_push(&heap, &fuel, &a, NULL, 0, last), SPX_HEAP_OK);
    CU_ASSERT_EQUAL(spx_block_length(a), 3);
    CU_ASSERT_EQUAL(at(a, 2), 6);
    CU_ASSERT_EQUAL(heap.live, 32 + 24);
    CU_ASSERT_EQUAL(heap.copies, 0);
    spx_block_release(&heap, a);
    finish(&heap);
}

/* t.kids.push(t) with struct Node { kids: [Node] }: t is held by the
 * operand too, so t is copied, then its kids (held by both copies). */
static void test_push_of_self(void)
{
    spx_heap_t heap = heap_of(SPX_LIMIT_MAX_MEMORY_DEFAULT);
    uint64_t fuel = PLENTY;
    spx_value_block_t *kids = block_array(&heap, 0, NULL);
    spx_value_t field = block_value(kids);
    spx_value_block_t *t = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_struct_make(&heap, &fuel, &node_shape, &field, &t), SPX_HEAP_OK);
    spx_value_block_t *old = t;
    spx_block_hold(old); /* the operand */
    int64_t step = 0;
    CU_ASSERT_EQUAL(spx_place_push(&heap, &fuel, &t, &step, 1, block_value(old)), SPX_HEAP_OK);
    CU_ASSERT_EQUAL(heap.copies, 2);
    CU_ASSERT_EQUAL(heap.charged_n, 1 + 0);
    CU_ASSERT_EQUAL(spx_block_length(t->slots[0].b), 1);
    CU_ASSERT_PTR_EQUAL(t->slots[0].b->slots[0].b, old);
    CU_ASSERT_EQUAL(spx_block_length(old->slots[0].b), 0);
    CU_ASSERT_EQUAL(old->holders, 1); /* the new kids' slot */
    spx_block_release(&heap, t);
    finish(&heap);
}

/* ---- strings: append and concatenation ------------------------------------ */

static void test_append(void)
{
    spx_heap_t heap = heap_of(SPX_LIMIT_MAX_MEMORY_DEFAULT);
    uint64_t fuel = PLENTY;
    /* var s = ""; a literal's block counts its header */
    spx_value_block_t *s = literal(&heap, "");
    CU_ASSERT_EQUAL(heap.live, 32);
    CU_ASSERT_EQUAL(heap.blocks, 1);
    /* the first append gives s storage of its own (2 bytes), the next ones
     * double its capacity when short (4, then 8) */
    const uint64_t capacities[] = {2, 4, 8};
    for (int round = 1; round <= 3; round++) {
        spx_value_block_t *t = literal(&heap, "ab");
        CU_ASSERT_EQUAL(spx_str_append(&heap, &fuel, &s, t), SPX_HEAP_OK);
        spx_block_release(&heap, t);
        CU_ASSERT_EQUAL(heap.charged_n, 2); /* n = len(e) */
        CU_ASSERT_EQUAL(heap.live, 32 + capacities[round - 1]);
        CU_ASSERT_EQUAL(heap.blocks, 1);
    }
    CU_ASSERT_TRUE(str_is(s, "ababab"));

    /* let t = s; s = s + "x": s is shared, so a concatenation, n = 6 + 1 */
    spx_value_block_t *t = s;
    spx_block_hold(t);
    spx_value_block_t *x = literal(&heap, "x");
    CU_ASSERT_EQUAL(spx_str_append(&heap, &fuel, &s, x), SPX_HEAP_OK);
    CU_ASSERT_EQUAL(heap.charged_n, 7);
    CU_ASSERT_TRUE(str_is(s, "abababx"));
    CU_ASSERT_TRUE(str_is(t, "ababab"));
    CU_ASSERT_EQUAL(t->holders, 1);
    CU_ASSERT_EQUAL(heap.live, (32 + 8) + (32 + 7) + 32); /* and the literal "x" */
    spx_block_release(&heap, t);

    /* s = s + s: the right operand holds s's block too: n = 7 + 7 */
    spx_block_hold(s);
    spx_value_block_t *e = s;
    CU_ASSERT_EQUAL(spx_str_append(&heap, &fuel, &s, e), SPX_HEAP_OK);
    spx_block_release(&heap, e);
    CU_ASSERT_EQUAL(heap.charged_n, 14);
    CU_ASSERT_TRUE(str_is(s, "abababxabababx"));
    CU_ASSERT_EQUAL(heap.live, (32 + 14) + 32);

    /* appending "" changes nothing */
    spx_value_block_t *empty = literal(&heap, "");
    CU_ASSERT_EQUAL(spx_str_append(&heap, &fuel, &s, empty), SPX_HEAP_OK);
    CU_ASSERT_EQUAL(heap.charged_n, 0);
    CU_ASSERT_EQUAL(heap.live, (32 + 14) + 32 + 32);
    spx_block_release(&heap, empty);
    spx_block_release(&heap, x);
    spx_block_release(&heap, s);

    /* A 100-byte literal grown by one byte: its block is made now, so n =
     * 100 + 1 (one step, project decision: the literal's bytes are copied),
     * and it counts 32 + 101; an empty append leaves a literal as it was (its
     * header) and charges nothing. */
    char hundred[101];
    memset(hundred, 'h', 100);
    hundred[100] = 0;
    spx_value_block_t *h = literal(&heap, hundred);
    spx_value_block_t *bang = literal(&heap, "!");
    spx_value_block_t *nothing = literal(&heap, "");
    CU_ASSERT_EQUAL(spx_str_append(&heap, &fuel, &h, nothing), SPX_HEAP_OK);
    CU_ASSERT_EQUAL(heap.live, 3 * 32);
    uint64_t before = fuel;
    CU_ASSERT_EQUAL(spx_str_append(&heap, &fuel, &h, bang), SPX_HEAP_OK);
    CU_ASSERT_EQUAL(fuel, before - 1);
    CU_ASSERT_EQUAL(heap.charged_n, 101);
    CU_ASSERT_EQUAL(heap.live, (32 + 101) + 2 * 32);
    CU_ASSERT_EQUAL(spx_str_bytes(h)[100], '!');
    CU_ASSERT_EQUAL(heap.blocks, 3);
    spx_block_release(&heap, h);
    spx_block_release(&heap, bang);
    spx_block_release(&heap, nothing);
    finish(&heap);
}

/* Appending many times grows one block (amortised, its capacity doubling
 * from 10 to 10240), and every byte of the capacity counts. */
static void test_append_grows_one_block(void)
{
    spx_heap_t heap = heap_of(SPX_LIMIT_MAX_MEMORY_DEFAULT);
    uint64_t fuel = PLENTY;
    spx_value_block_t *s = made(&heap, "");
    spx_value_block_t *chunk = made(&heap, "0123456789");
    for (int i = 0; i < 1000; i++)
        CU_ASSERT_EQUAL_FATAL(spx_str_append(&heap, &fuel, &s, chunk), SPX_HEAP_OK);
    CU_ASSERT_EQUAL(spx_block_length(s), 10000);
    CU_ASSERT_EQUAL(heap.live, (32 + 10240) + (32 + 10));
    CU_ASSERT_EQUAL(fuel, PLENTY); /* 10 / 64 each */
    CU_ASSERT_EQUAL(memcmp(spx_str_bytes(s) + 9990, "0123456789", 10), 0);
    spx_block_release(&heap, s);
    spx_block_release(&heap, chunk);
    finish(&heap);
}

/* ---- size charges ---------------------------------------------------------- */

/* Each operation's n and its n / 64 steps; a charge that cannot be paid
 * stops the operation with the fuel untouched and nothing made. */
static void test_size_charges(void)
{
    spx_heap_t heap = heap_of(SPX_LIMIT_MAX_MEMORY_DEFAULT);
    char text[200];
    memset(text, 'a', sizeof(text) - 1);
    text[199] = 0;
    spx_value_block_t *forty = made(&heap, text + 159);   /* 40 bytes */
    spx_value_block_t *thirty = made(&heap, text + 169);  /* 30 bytes */
    spx_value_block_t *long_one = made(&heap, text + 49); /* 150 bytes */
    uint64_t fuel = 10, blocks = heap.blocks;
    spx_value_block_t *out = NULL;

    /* a + b: n = 40 + 30 = 70, 1 step */
    CU_ASSERT_EQUAL(spx_str_concat(&heap, &fuel, forty, thirty, &out), SPX_HEAP_OK);
    CU_ASSERT_EQUAL(heap.charged_n, 70);
    CU_ASSERT_EQUAL(fuel, 9);
    spx_block_release(&heap, out);

    /* s[10..138]: n = 128, 2 steps; with 1 step left it cannot be paid */
    CU_ASSERT_EQUAL(spx_str_slice(&heap, &fuel, long_one, 10, 138, &out), SPX_HEAP_OK);
    CU_ASSERT_EQUAL(fuel, 7);
    CU_ASSERT_EQUAL(spx_block_length(out), 128);
    spx_block_release(&heap, out);
    uint64_t one = 1;
    CU_ASSERT_EQUAL(spx_str_slice(&heap, &one, long_one, 10, 138, &out), SPX_HEAP_OUT_OF_FUEL);
    CU_ASSERT_EQUAL(one, 1);
    CU_ASSERT_EQUAL(heap.blocks, blocks);

    /* an array literal of 130 elements: 2 steps; struct literal: 2 fields, 0 */
    spx_value_t elements[130];
    for (int i = 0; i < 130; i++)
        elements[i].i = i;
    CU_ASSERT_EQUAL(spx_array_make(&heap, &fuel, 0, elements, 130, &out), SPX_HEAP_OK);
    CU_ASSERT_EQUAL(heap.charged_n, 130);
    CU_ASSERT_EQUAL(fuel, 5);
    /* a[1..129]: n = 128, 2 steps */
    spx_value_block_t *slice = NULL;
    CU_ASSERT_EQUAL(spx_array_slice(&heap, &fuel, out, 1, 129, &slice), SPX_HEAP_OK);
    CU_ASSERT_EQUAL(fuel, 3);
    CU_ASSERT_EQUAL(at(slice, 0), 1);
    CU_ASSERT_EQUAL(at(slice, 127), 128);
    CU_ASSERT_EQUAL(heap.live, 3 * 32 + 40 + 30 + 150 + 32 + 8 * 130 + 32 + 8 * 128);
    spx_block_release(&heap, slice);
    spx_block_release(&heap, out);
    spx_block_hold(thirty);
    spx_value_block_t *p = p_make(&heap, 1, thirty);
    CU_ASSERT_EQUAL(heap.charged_n, 2);
    spx_block_release(&heap, p);

    /* an append: n = len(e) = 150, 2 steps, whatever x's length */
    spx_value_block_t *x = made(&heap, "x");
    CU_ASSERT_EQUAL(spx_str_append(&heap, &fuel, &x, long_one), SPX_HEAP_OK);
    CU_ASSERT_EQUAL(heap.charged_n, 150);
    CU_ASSERT_EQUAL(fuel, 1);
    spx_block_release(&heap, x);

    /* a charge of 0 steps is paid with no fuel at all */
    uint64_t none = 0;
    CU_ASSERT_EQUAL(spx_str_concat(&heap, &none, thirty, thirty, &out), SPX_HEAP_OK);
    spx_block_release(&heap, out);
    spx_block_release(&heap, forty);
    spx_block_release(&heap, thirty);
    spx_block_release(&heap, long_one);
    finish(&heap);
}

/* A write and its copies are one operation: copying an array of 100
 * blocks (8 each, SPX_LIMIT_HELD_ELEMENT_N) and one of 100 ints is n = 900,
 * charged 900 / 64 = 14 steps rounded down once (two charges of 800 and 100
 * would be 12 + 1). Without the fuel for it nothing is copied and the fuel
 * is as it was. */
static void test_write_charges_each_copy(void)
{
    spx_heap_t heap = heap_of(SPX_LIMIT_MAX_MEMORY_DEFAULT);
    spx_value_t rows[100];
    for (int i = 0; i < 100; i++)
        rows[i].b = int_array(&heap, 100, NULL);
    uint64_t fuel = PLENTY;
    spx_value_block_t *m = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_array_make(&heap, &fuel, 1, rows, 100, &m), SPX_HEAP_OK);
    spx_value_block_t *alias = m;
    spx_block_hold(alias);
    int64_t steps[2] = {42, 7};
    fuel = 13;
    CU_ASSERT_EQUAL(spx_place_write(&heap, &fuel, &m, steps, 2, int_value(-1)),
                    SPX_HEAP_OUT_OF_FUEL);
    CU_ASSERT_EQUAL(fuel, 13);
    CU_ASSERT_EQUAL(heap.charged_n, 900); /* both copies */
    CU_ASSERT_EQUAL(heap.copies, 0);
    CU_ASSERT_PTR_EQUAL(m, alias);
    CU_ASSERT_EQUAL(at(m->slots[42].b, 7), 7);
    fuel = 14;
    CU_ASSERT_EQUAL(spx_place_write(&heap, &fuel, &m, steps, 2, int_value(-1)), SPX_HEAP_OK);
    CU_ASSERT_EQUAL(fuel, 0);
    CU_ASSERT_EQUAL(heap.copies, 2);
    CU_ASSERT_EQUAL(at(m->slots[42].b, 7), -1);
    CU_ASSERT_EQUAL(at(alias->slots[42].b, 7), 7);
    /* again: nothing is shared on the path any more */
    CU_ASSERT_EQUAL(spx_place_write(&heap, &fuel, &m, steps, 2, int_value(-2)), SPX_HEAP_OK);
    CU_ASSERT_EQUAL(heap.charged_n, 0);
    CU_ASSERT_EQUAL(heap.copies, 2);
    /* another row: m is not shared, the row is (m and alias hold it) */
    steps[0] = 3;
    fuel = 1;
    CU_ASSERT_EQUAL(spx_place_write(&heap, &fuel, &m, steps, 2, int_value(-3)), SPX_HEAP_OK);
    CU_ASSERT_EQUAL(heap.charged_n, 100);
    CU_ASSERT_EQUAL(fuel, 0);
    CU_ASSERT_EQUAL(heap.copies, 3);
    spx_block_release(&heap, alias);
    spx_block_release(&heap, m);
    finish(&heap);
}

/* ---- the memory measure at its limit ----------------------------------------- */

/* A sequence whose measure ends at 262 (operation: what it adds = measure):
 *   0 var a = [1, 2, 3];            32 + 3 x 8            = 56
 *   1 var s = "hello";              a literal's header    = 88
 *     s = s + "!";                  "!" 120, s's own block 32 + 6 with both
 *                                   literals still counted: 158; then the
 *                                   literals go                          = 94
 *   2 var p = P { x: 0, name: s };  32 + 2 x 8            = 142
 *     let b = a;                    a holder, no copy     = 142
 *   3 a.push(4);                    copy 32 + 3 x 8: 198, then its capacity
 *                                   doubles, + 3 x 8      = 222
 *   4 let c = a[0..1];              32 + 8                = 262
 * With max_memory 262 it all runs; with 261 the slice fails, naming 262.
 * Returns whether all ran; *failed_at is the failing operation (or -1), and
 * *heap_out the heap as it was at the end (live: its measure then). */
static int run_sequence(uint64_t max_memory, spx_heap_t *heap_out, int *failed_at)
{
    spx_heap_t heap = heap_of(max_memory);
    uint64_t fuel = PLENTY;
    int step = 0, ok = 1;
    spx_value_block_t *a = NULL, *s = NULL, *p = NULL, *b = NULL, *c = NULL;
    spx_value_t three[3] = {int_value(1), int_value(2), int_value(3)};
    ok = spx_array_make(&heap, &fuel, 0, three, 3, &a) == SPX_HEAP_OK;
    if (ok) {
        step++;
        s = literal(&heap, "hello");
        spx_value_block_t *bang = literal(&heap, "!");
        ok = spx_str_append(&heap, &fuel, &s, bang) == SPX_HEAP_OK;
        spx_block_release(&heap, bang);
    }
    if (ok) {
        step++;
        spx_block_hold(s);
        spx_value_t fields[2] = {int_value(0), block_value(s)};
        ok = spx_struct_make(&heap, &fuel, &p_shape, fields, &p) == SPX_HEAP_OK;
        if (!ok)
            spx_block_release(&heap, s);
    }
    if (ok) {
        step++;
        b = a;
        spx_block_hold(b);
        ok = spx_place_push(&heap, &fuel, &a, NULL, 0, int_value(4)) == SPX_HEAP_OK;
    }
    if (ok) {
        step++;
        ok = spx_array_slice(&heap, &fuel, a, 0, 1, &c) == SPX_HEAP_OK;
    }
    *failed_at = ok ? -1 : step;
    uint64_t peak = heap.live;
    *heap_out = heap;
    spx_block_release(&heap, a);
    spx_block_release(&heap, s);
    spx_block_release(&heap, p);
    spx_block_release(&heap, b);
    spx_block_release(&heap, c);
    CU_ASSERT_EQUAL(heap.live, 0);
    CU_ASSERT_EQUAL(heap.blocks, 0);
    spx_heap_finish(&heap);
    heap_out->live = peak;
    return ok;
}

static void test_memory_limit_exact(void)
{
    spx_heap_t seen;
    int failed_at = 0;
    CU_ASSERT_TRUE(run_sequence(262, &seen, &failed_at));
    CU_ASSERT_EQUAL(seen.live, 262);
    CU_ASSERT_EQUAL(failed_at, -1);
    CU_ASSERT_FALSE(run_sequence(261, &seen, &failed_at));
    CU_ASSERT_EQUAL(failed_at, 4);
    CU_ASSERT_EQUAL(seen.code, SPX_R0521);
    CU_ASSERT_STRING_EQUAL(seen.message,
                           "memory limit exceeded: 262 bytes live, over max_memory 261");
    CU_ASSERT_EQUAL(seen.live, 222); /* nothing was made */

    /* Each highest measure of an operation, less one: that operation fails
     * (operation 2's 142 is under operation 1's 158, so it cannot be alone
     * the first to fail). */
    static const struct {
        uint64_t max_memory;
        int failed_at;
        const char *message;
    } shorter[] = {
        {55, 0, "memory limit exceeded: 56 bytes live, over max_memory 55"},
        {157, 1, "memory limit exceeded: 158 bytes live, over max_memory 157"},
        /* the push's copy is checked before its growth */
        {197, 3, "memory limit exceeded: 198 bytes live, over max_memory 197"},
        {221, 3, "memory limit exceeded: 222 bytes live, over max_memory 221"},
    };
    for (size_t i = 0; i < sizeof(shorter) / sizeof(shorter[0]); i++) {
        CU_ASSERT_FALSE(run_sequence(shorter[i].max_memory, &seen, &failed_at));
        CU_ASSERT_EQUAL(failed_at, shorter[i].failed_at);
        CU_ASSERT_EQUAL(seen.code, SPX_R0521);
        CU_ASSERT_STRING_EQUAL(seen.message, shorter[i].message);
    }
}

/* Copies along a path are checked one by one, in path order: the message
 * names the measure at the first that does not fit. */
static void test_memory_of_path_copies(void)
{
    spx_heap_t heap = heap_of(1000);
    int64_t one = 1;
    spx_value_block_t *row = int_array(&heap, 1, &one); /* 40 */
    spx_value_block_t *m = block_array(&heap, 1, &row); /* 40: 80 live */
    spx_value_block_t *alias = m;
    spx_block_hold(alias);
    uint64_t fuel = PLENTY;
    int64_t steps[2] = {0, 0};
    heap.max_memory = 80 + 40 + 39;
    CU_ASSERT_EQUAL(spx_place_write(&heap, &fuel, &m, steps, 2, int_value(5)), SPX_HEAP_FAILED);
    CU_ASSERT_STRING_EQUAL(heap.message,
                           "memory limit exceeded: 160 bytes live, over max_memory 159");
    heap.max_memory = 80 + 39;
    CU_ASSERT_EQUAL(spx_place_write(&heap, &fuel, &m, steps, 2, int_value(5)), SPX_HEAP_FAILED);
    CU_ASSERT_STRING_EQUAL(heap.message,
                           "memory limit exceeded: 120 bytes live, over max_memory 119");
    CU_ASSERT_EQUAL(heap.copies, 0);
    CU_ASSERT_EQUAL(heap.live, 80);
    heap.max_memory = 160;
    CU_ASSERT_EQUAL(spx_place_write(&heap, &fuel, &m, steps, 2, int_value(5)), SPX_HEAP_OK);
    CU_ASSERT_EQUAL(heap.live, 160);
    spx_block_release(&heap, m);
    spx_block_release(&heap, alias);
    finish(&heap);
}

/* Literals growing under the default max_memory: each round evaluates a
 * 15,000,000-byte literal (its header: 32) and "y" (32), appends "y" (a
 * block of its own now, 32 + 15,000,001, charged 15,000,001 / 64 = 234,375
 * steps: the literal's bytes are copied) and pushes it (the array's capacity
 * doubling from 4 slots). After k rounds the measure is 32 + 15,000,033 k +
 * 8 x the capacity; round 18's append would reach 32 + 15,000,033 x 17 +
 * 8 x 32, both literals and the new block: 270,000,946, its charge paid. */
static void test_literals_to_the_memory_limit(void)
{
    spx_heap_t heap = heap_of(SPX_LIMIT_MAX_MEMORY_DEFAULT);
    apr_size_t size = 15000000;
    unsigned char *text = malloc(size);
    memset(text, 'x', size);
    uint64_t fuel = PLENTY;
    spx_value_block_t *all = block_array(&heap, 0, NULL);
    int round = 0;
    spx_heap_status_t status = SPX_HEAP_OK;
    while (status == SPX_HEAP_OK && round < 20) {
        round++;
        spx_value_block_t *s = literal_of(&heap, text, size);
        spx_value_block_t *y = literal(&heap, "y");
        status = spx_str_append(&heap, &fuel, &s, y);
        spx_block_release(&heap, y);
        if (status == SPX_HEAP_OK) {
            spx_block_hold(s);
            status = spx_place_push(&heap, &fuel, &all, NULL, 0, block_value(s));
            if (status != SPX_HEAP_OK)
                spx_block_release(&heap, s);
        }
        spx_block_release(&heap, s); /* the end of the round's block */
        uint64_t capacity = round <= 4 ? 4 : round <= 8 ? 8 : round <= 16 ? 16 : 32;
        if (status == SPX_HEAP_OK)
            CU_ASSERT_EQUAL(heap.live, 32 + 15000033ull * (uint64_t)round + 8 * capacity);
    }
    CU_ASSERT_EQUAL(status, SPX_HEAP_FAILED);
    CU_ASSERT_EQUAL(round, 18);
    CU_ASSERT_STRING_EQUAL(
        heap.message, "memory limit exceeded: 270000946 bytes live, over max_memory 268435456");
    CU_ASSERT_EQUAL(PLENTY - fuel, 18 * 234375);
    spx_block_release(&heap, all);
    free(text);
    finish(&heap);
}

/* ---- comparison -------------------------------------------------------------- */

static uint64_t examined_by(spx_heap_t *heap, spx_value_block_t *a, spx_value_block_t *b,
                            int expected)
{
    uint64_t fuel = PLENTY, n = 0;
    int equal = -1;
    CU_ASSERT_EQUAL(spx_values_equal(heap, &fuel, a, b, &equal, &n), SPX_HEAP_OK);
    CU_ASSERT_EQUAL(equal, expected);
    CU_ASSERT_EQUAL(heap->charged_n, n);
    CU_ASSERT_EQUAL(PLENTY - fuel, n / 64);
    return n;
}

static void test_equality_examined(void)
{
    spx_heap_t heap = heap_of(SPX_LIMIT_MAX_MEMORY_DEFAULT);
    int64_t v123[] = {1, 2, 3}, v124[] = {1, 2, 4}, v12[] = {1, 2}, v3[] = {3}, v4[] = {4},
            v34[] = {3, 4};
    spx_value_block_t *a123 = int_array(&heap, 3, v123), *b123 = int_array(&heap, 3, v123);
    spx_value_block_t *a124 = int_array(&heap, 3, v124), *a12 = int_array(&heap, 2, v12);
    CU_ASSERT_EQUAL(examined_by(&heap, a123, b123, 1), 3);
    CU_ASSERT_EQUAL(examined_by(&heap, a123, a124, 0), 3);
    CU_ASSERT_EQUAL(examined_by(&heap, a123, a12, 0), 0);  /* lengths differ */
    CU_ASSERT_EQUAL(examined_by(&heap, a123, a123, 1), 3); /* sharing never shortens it */
    int64_t v923[] = {9, 2, 3};
    spx_value_block_t *a923 = int_array(&heap, 3, v923);
    CU_ASSERT_EQUAL(examined_by(&heap, a123, a923, 0), 1);

    /* [[1, 2], [3]] vs [[1, 2], [4]]: (1 + 64 + 2) + (1 + 64 + 1) = 133,
     * each nested block 64 (one step);
     * vs [[1, 2], [3, 4]]: (1 + 64 + 2) + (1 + 64 + 0) = 132 */
    spx_value_block_t *x[2] = {int_array(&heap, 2, v12), int_array(&heap, 1, v3)};
    spx_value_block_t *y[2] = {int_array(&heap, 2, v12), int_array(&heap, 1, v4)};
    spx_value_block_t *z[2] = {int_array(&heap, 2, v12), int_array(&heap, 2, v34)};
    spx_value_block_t *nx = block_array(&heap, 2, x), *ny = block_array(&heap, 2, y),
                      *nz = block_array(&heap, 2, z);
    CU_ASSERT_EQUAL(examined_by(&heap, nx, ny, 0), 133);
    CU_ASSERT_EQUAL(examined_by(&heap, nx, nz, 0), 132);
    CU_ASSERT_EQUAL(examined_by(&heap, nx, nx, 1), 133);

    /* strings: bytes up to and including the first difference, or the
     * shorter length */
    spx_value_block_t *abc = literal(&heap, "abc"), *abd = made(&heap, "abd"),
                      *abcd = literal(&heap, "abcd"), *xbc = literal(&heap, "xbc"),
                      *empty = literal(&heap, ""), *a = literal(&heap, "a");
    CU_ASSERT_EQUAL(examined_by(&heap, abc, abd, 0), 3);
    spx_value_block_t *abc2 = made(&heap, "abc");
    CU_ASSERT_EQUAL(examined_by(&heap, abc, abc2, 1), 3);
    CU_ASSERT_EQUAL(examined_by(&heap, abc, abcd, 0), 3);
    CU_ASSERT_EQUAL(examined_by(&heap, abcd, abc, 0), 3);
    CU_ASSERT_EQUAL(examined_by(&heap, xbc, abc, 0), 1);
    CU_ASSERT_EQUAL(examined_by(&heap, empty, empty, 1), 0);
    CU_ASSERT_EQUAL(examined_by(&heap, empty, a, 0), 0);

    /* structs: fields in declaration order; P { 1, "ab" } vs P { 1, "ac" }:
     * 1 + (1 + 64 + 2) = 68; vs P { 2, "ab" }: 1 */
    spx_value_block_t *p1 = p_make(&heap, 1, literal(&heap, "ab")),
                      *p2 = p_make(&heap, 1, literal(&heap, "ac")),
                      *p3 = p_make(&heap, 2, literal(&heap, "ab"));
    CU_ASSERT_EQUAL(examined_by(&heap, p1, p2, 0), 68);
    CU_ASSERT_EQUAL(examined_by(&heap, p1, p3, 0), 1);
    CU_ASSERT_EQUAL(examined_by(&heap, p1, p1, 1), 68);

    /* ["ab", "cd"] vs ["ab", "ce"]: (1 + 64 + 2) + (1 + 64 + 2) = 134 */
    spx_value_block_t *s1[2] = {literal(&heap, "ab"), literal(&heap, "cd")};
    spx_value_block_t *s2[2] = {literal(&heap, "ab"), literal(&heap, "ce")};
    spx_value_block_t *l1 = block_array(&heap, 2, s1), *l2 = block_array(&heap, 2, s2);
    CU_ASSERT_EQUAL(examined_by(&heap, l1, l2, 0), 134);

    spx_value_block_t *all[] = {a123, b123, a124,  a12, a923, nx, ny, nz, abc, abd,
                                abcd, xbc,  empty, a,   p1,   p2, p3, l1, l2,  abc2};
    for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
        spx_block_release(&heap, all[i]);
    finish(&heap);
}

/* The charge of == is n / 64 of what it examines, paid in one piece; past
 * what the fuel can pay, the comparison stops. */
static void test_equality_charge(void)
{
    spx_heap_t heap = heap_of(SPX_LIMIT_MAX_MEMORY_DEFAULT);
    char text[201];
    memset(text, 'q', 200);
    text[200] = 0;
    spx_value_block_t *s = made(&heap, text), *t = literal(&heap, text);
    uint64_t fuel = 3, n = 0;
    int equal = -1;
    CU_ASSERT_EQUAL(spx_values_equal(&heap, &fuel, s, t, &equal, &n), SPX_HEAP_OK);
    CU_ASSERT_EQUAL(n, 200);
    CU_ASSERT_EQUAL(fuel, 0);
    CU_ASSERT_EQUAL(equal, 1);
    fuel = 2;
    equal = -1;
    CU_ASSERT_EQUAL(spx_values_equal(&heap, &fuel, s, t, &equal, &n), SPX_HEAP_OUT_OF_FUEL);
    CU_ASSERT_EQUAL(fuel, 2);
    CU_ASSERT_EQUAL(equal, -1);

    /* 1000 positions of [s]: 1000 x (1 + 64 + 200); with 1 step of fuel
     * the comparison stops once past 127 */
    spx_value_t elements[1000];
    for (int i = 0; i < 1000; i++) {
        spx_block_hold(s);
        elements[i].b = s;
    }
    spx_value_block_t *big = NULL;
    fuel = PLENTY;
    CU_ASSERT_EQUAL_FATAL(spx_array_make(&heap, &fuel, 1, elements, 1000, &big), SPX_HEAP_OK);
    fuel = PLENTY;
    CU_ASSERT_EQUAL(spx_values_equal(&heap, &fuel, big, big, &equal, &n), SPX_HEAP_OK);
    CU_ASSERT_EQUAL(n, 265000);
    CU_ASSERT_EQUAL(PLENTY - fuel, 265000 / 64);
    fuel = 1;
    CU_ASSERT_EQUAL(spx_values_equal(&heap, &fuel, big, big, &equal, &n), SPX_HEAP_OUT_OF_FUEL);
    CU_ASSERT_EQUAL(n, 265); /* one position and its string: past 127 */
    spx_block_release(&heap, big);
    spx_block_release(&heap, s);
    spx_block_release(&heap, t);
    finish(&heap);
}

/* A value nested 200,000 deep (struct Node { kids: [Node] }) is compared
 * and freed without C recursion: 130 x 200000 - 65 examined (2 positions and
 * 2 nested blocks a level, the innermost 1 and 1). */
static void test_deep_values(void)
{
    spx_heap_t heap = heap_of(SPX_LIMIT_MAX_MEMORY_DEFAULT);
    uint64_t fuel = PLENTY;
    spx_value_block_t *node = NULL;
    const int depth = 200000;
    for (int i = 0; i < depth; i++) {
        spx_value_block_t *kids =
            i == 0 ? block_array(&heap, 0, NULL) : block_array(&heap, 1, &node);
        spx_value_t field = block_value(kids);
        CU_ASSERT_EQUAL_FATAL(spx_struct_make(&heap, &fuel, &node_shape, &field, &node),
                              SPX_HEAP_OK);
    }
    CU_ASSERT_EQUAL(heap.live, (uint64_t)depth * (32 + 8) * 2 - 8);
    CU_ASSERT_EQUAL(examined_by(&heap, node, node, 1), 130 * (uint64_t)depth - 65);
    spx_block_release(&heap, node);
    finish(&heap);
}

/* ---- random operations against a model of plain copies ------------------------ */

/* Variables of type [[int]], changed at random; beside them, a model where
 * every assignment is a deep copy. After each operation every variable must
 * equal its model, every reachable block must have exactly as many holders
 * as there are references to it, and the measure must be the sum over the
 * reachable blocks: shared storage is never observable, and nothing leaks. */
enum { VARS = 5, ROWS = 6, COLUMNS = 6 };

typedef struct model_t {
    apr_size_t rows;
    apr_size_t length[ROWS];
    int64_t cell[ROWS][COLUMNS];
} model_t;

/* A deterministic generator (xorshift64), its state passed along. */
static uint64_t next_random(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

static apr_size_t below(uint64_t *state, apr_size_t n)
{
    return (apr_size_t)(next_random(state) % n);
}

typedef struct census_t {
    spx_value_block_t *block[VARS * (ROWS + 1) * 4];
    uint32_t references[VARS * (ROWS + 1) * 4];
    apr_size_t count;
} census_t;

static void count_reference(census_t *census, spx_value_block_t *block, int *is_new)
{
    for (apr_size_t i = 0; i < census->count; i++)
        if (census->block[i] == block) {
            census->references[i]++;
            *is_new = 0;
            return;
        }
    CU_ASSERT_FATAL(census->count < sizeof(census->block) / sizeof(census->block[0]));
    census->block[census->count] = block;
    census->references[census->count++] = 1;
    *is_new = 1;
}

static void check_against_model(spx_heap_t *heap, spx_value_block_t **vars, const model_t *models)
{
    census_t census;
    census.count = 0;
    for (int v = 0; v < VARS; v++) {
        const spx_value_block_t *outer = vars[v];
        CU_ASSERT_EQUAL_FATAL(outer->length, models[v].rows);
        for (apr_size_t r = 0; r < outer->length; r++) {
            const spx_value_block_t *row = outer->slots[r].b;
            CU_ASSERT_EQUAL_FATAL(row->length, models[v].length[r]);
            for (apr_size_t c = 0; c < row->length; c++)
                CU_ASSERT_EQUAL_FATAL(row->slots[c].i, models[v].cell[r][c]);
        }
        /* Each distinct outer block holds its rows once per slot. */
        int outer_is_new = 0, ignored = 0;
        count_reference(&census, vars[v], &outer_is_new);
        if (outer_is_new)
            for (apr_size_t r = 0; r < outer->length; r++)
                count_reference(&census, outer->slots[r].b, &ignored);
    }
    uint64_t measure = 0;
    for (apr_size_t i = 0; i < census.count; i++) {
        measure += spx_block_measure(census.block[i]);
        CU_ASSERT_EQUAL(census.block[i]->holders, census.references[i]);
    }
    CU_ASSERT_EQUAL(heap->live, measure);
    CU_ASSERT_EQUAL(heap->blocks, census.count);
}

/* What == examines between two models (the rule of spx_values_equal). */
static uint64_t model_examined(const model_t *a, const model_t *b, int *equal)
{
    uint64_t n = 0;
    *equal = 0;
    if (a->rows != b->rows)
        return 0;
    for (apr_size_t r = 0; r < a->rows; r++) {
        n += 1 + 64; /* the position, and the nested row it holds */
        if (a->length[r] != b->length[r])
            return n;
        for (apr_size_t c = 0; c < a->length[r]; c++) {
            n++;
            if (a->cell[r][c] != b->cell[r][c])
                return n;
        }
    }
    *equal = 1;
    return n;
}

static void test_random_operations(void)
{
    spx_heap_t heap = heap_of(SPX_LIMIT_MAX_MEMORY_DEFAULT);
    spx_value_block_t *vars[VARS];
    model_t models[VARS];
    memset(models, 0, sizeof(models));
    for (int v = 0; v < VARS; v++)
        vars[v] = block_array(&heap, 0, NULL);
    uint64_t state = 0x9E3779B97F4A7C15ull, fuel = PLENTY;
    int done[8] = {0};
    for (int round = 0; round < 20000; round++) {
        apr_size_t v = below(&state, VARS), w = below(&state, VARS);
        model_t *m = &models[v];
        int64_t x = (int64_t)below(&state, 4);
        /* mostly in range; one past the end now and then */
        apr_size_t r = below(&state, m->rows + 1);
        apr_size_t c = below(&state, (r < m->rows ? m->length[r] : 0) + 1);
        int64_t steps[2] = {(int64_t)r, (int64_t)c};
        int row_exists = r < m->rows;
        spx_heap_status_t status = SPX_HEAP_OK;
        apr_size_t operation = below(&state, 8);
        switch (operation) {
        case 0: /* v = w */
            spx_block_hold(vars[w]);
            spx_block_release(&heap, vars[v]);
            vars[v] = vars[w];
            models[v] = models[w];
            break;
        case 1: /* v[r][c] = x */
            status = spx_place_write(&heap, &fuel, &vars[v], steps, 2, int_value(x));
            if (row_exists && c < m->length[r]) {
                CU_ASSERT_EQUAL(status, SPX_HEAP_OK);
                m->cell[r][c] = x;
            } else {
                CU_ASSERT_EQUAL(status, SPX_HEAP_FAILED);
                CU_ASSERT_EQUAL(heap.code, SPX_R0511);
            }
            break;
        case 2: /* v[r].push(x) */
            if (row_exists && m->length[r] == COLUMNS)
                break;
            status = spx_place_push(&heap, &fuel, &vars[v], steps, 1, int_value(x));
            CU_ASSERT_EQUAL(status, row_exists ? SPX_HEAP_OK : SPX_HEAP_FAILED);
            if (row_exists)
                m->cell[r][m->length[r]++] = x;
            break;
        case 3: { /* v.push([x]) */
            if (m->rows == ROWS)
                break;
            spx_value_block_t *row = int_array(&heap, 1, &x);
            status = spx_place_push(&heap, &fuel, &vars[v], NULL, 0, block_value(row));
            CU_ASSERT_EQUAL(status, SPX_HEAP_OK);
            m->length[m->rows] = 1;
            m->cell[m->rows++][0] = x;
            break;
        }
        case 4: { /* v[r].pop(), or v.pop() when r is past the rows */
            spx_value_t out;
            if (row_exists) {
                status = spx_place_pop(&heap, &fuel, &vars[v], steps, 1, &out);
                CU_ASSERT_EQUAL(status, m->length[r] ? SPX_HEAP_OK : SPX_HEAP_FAILED);
                if (m->length[r]) {
                    CU_ASSERT_EQUAL(out.i, m->cell[r][m->length[r] - 1]);
                    m->length[r]--;
                } else {
                    CU_ASSERT_EQUAL(heap.code, SPX_R0514);
                }
            } else {
                status = spx_place_pop(&heap, &fuel, &vars[v], NULL, 0, &out);
                CU_ASSERT_EQUAL(status, m->rows ? SPX_HEAP_OK : SPX_HEAP_FAILED);
                if (status == SPX_HEAP_OK) {
                    CU_ASSERT_EQUAL(out.b->length, m->length[m->rows - 1]);
                    spx_block_release(&heap, out.b);
                    m->rows--;
                }
            }
            break;
        }
        case 5: { /* v = w[a..b] */
            apr_size_t a = below(&state, models[w].rows + 1);
            apr_size_t b = a + below(&state, models[w].rows - a + 1);
            spx_value_block_t *slice = NULL;
            CU_ASSERT_EQUAL_FATAL(
                spx_array_slice(&heap, &fuel, vars[w], (int64_t)a, (int64_t)b, &slice),
                SPX_HEAP_OK);
            spx_block_release(&heap, vars[v]);
            vars[v] = slice;
            model_t sliced;
            memset(&sliced, 0, sizeof(sliced));
            for (apr_size_t i = a; i < b; i++) {
                sliced.length[sliced.rows] = models[w].length[i];
                memcpy(sliced.cell[sliced.rows++], models[w].cell[i], sizeof(models[w].cell[i]));
            }
            models[v] = sliced;
            break;
        }
        case 6: { /* v[r] = w[s] */
            if (!row_exists || models[w].rows == 0)
                break;
            apr_size_t source = below(&state, models[w].rows);
            spx_value_t row;
            CU_ASSERT_EQUAL_FATAL(spx_array_get(&heap, vars[w], (int64_t)source, &row),
                                  SPX_HEAP_OK);
            status = spx_place_write(&heap, &fuel, &vars[v], steps, 1, row);
            CU_ASSERT_EQUAL(status, SPX_HEAP_OK);
            m->length[r] = models[w].length[source];
            memcpy(m->cell[r], models[w].cell[source], sizeof(m->cell[r]));
            break;
        }
        default: { /* v == w */
            int equal = -1, expected = -1;
            uint64_t n = 0;
            CU_ASSERT_EQUAL(spx_values_equal(&heap, &fuel, vars[v], vars[w], &equal, &n),
                            SPX_HEAP_OK);
            CU_ASSERT_EQUAL(n, model_examined(&models[v], &models[w], &expected));
            CU_ASSERT_EQUAL(equal, expected);
            break;
        }
        }
        done[operation] += status == SPX_HEAP_OK;
        check_against_model(&heap, vars, models);
    }
    for (int i = 0; i < 8; i++) /* every kind of operation ran, many times */
        CU_ASSERT_TRUE(done[i] > 200);
    CU_ASSERT_TRUE(heap.copies > 1000);
    for (int v = 0; v < VARS; v++)
        spx_block_release(&heap, vars[v]);
    finish(&heap);
}

/* ---- failures ----------------------------------------------------------------- */

static void expect_failure(spx_heap_t *heap, spx_heap_status_t status, spx_runtime_code_t code,
                           const char *message)
{
    CU_ASSERT_EQUAL(status, SPX_HEAP_FAILED);
    CU_ASSERT_EQUAL(heap->code, code);
    CU_ASSERT_STRING_EQUAL(heap->message, message);
}

static void test_index_and_slice_failures(void)
{
    spx_heap_t heap = heap_of(SPX_LIMIT_MAX_MEMORY_DEFAULT);
    spx_value_block_t *a = int_array(&heap, 3, NULL), *out = NULL;
    spx_value_t value;
    int64_t byte = 0;
    uint64_t fuel = PLENTY;
    expect_failure(&heap, spx_array_get(&heap, a, 7, &value), SPX_R0511,
                   "index 7 out of range for length 3");
    expect_failure(&heap, spx_array_get(&heap, a, -1, &value), SPX_R0511,
                   "index -1 out of range for length 3");
    expect_failure(&heap, spx_array_slice(&heap, &fuel, a, 2, 9, &out), SPX_R0512,
                   "slice 2..9 out of range for length 3");
    expect_failure(&heap, spx_array_slice(&heap, &fuel, a, 2, 1, &out), SPX_R0512,
                   "slice 2..1 out of range for length 3");
    expect_failure(&heap, spx_array_slice(&heap, &fuel, a, -1, 2, &out), SPX_R0512,
                   "slice -1..2 out of range for length 3");
    CU_ASSERT_EQUAL(spx_array_slice(&heap, &fuel, a, 3, 3, &out), SPX_HEAP_OK);
    CU_ASSERT_EQUAL(spx_block_length(out), 0);
    spx_block_release(&heap, out);

    /* "aé😀": a at 0, é at 1..3, 😀 at 3..7 */
    spx_value_block_t *s = literal(&heap, "a\xC3\xA9\xF0\x9F\x98\x80");
    CU_ASSERT_EQUAL(spx_str_index(&heap, s, 1, &byte), SPX_HEAP_OK);
    CU_ASSERT_EQUAL(byte, 0xC3);
    expect_failure(&heap, spx_str_index(&heap, s, 7, &byte), SPX_R0511,
                   "index 7 out of range for length 7");
    expect_failure(&heap, spx_str_slice(&heap, &fuel, s, 0, 8, &out), SPX_R0512,
                   "slice 0..8 out of range for length 7");
    expect_failure(&heap, spx_str_slice(&heap, &fuel, s, 0, 2, &out), SPX_R0513,
                   "slice 0..2 cuts the character at byte 1");
    expect_failure(&heap, spx_str_slice(&heap, &fuel, s, 2, 5, &out), SPX_R0513,
                   "slice 2..5 cuts the character at byte 1"); /* the start first */
    expect_failure(&heap, spx_str_slice(&heap, &fuel, s, 3, 6, &out), SPX_R0513,
                   "slice 3..6 cuts the character at byte 3");
    expect_failure(&heap, spx_str_slice(&heap, &fuel, s, 2, 2, &out), SPX_R0513,
                   "slice 2..2 cuts the character at byte 1");
    spx_value_block_t *e_acute = literal(&heap, "\xC3\xA9");
    expect_failure(&heap, spx_str_slice(&heap, &fuel, e_acute, 0, 1, &out), SPX_R0513,
                   "slice 0..1 cuts the character at byte 0");
    CU_ASSERT_EQUAL(spx_str_slice(&heap, &fuel, s, 1, 7, &out), SPX_HEAP_OK);
    CU_ASSERT_TRUE(str_is(out, "\xC3\xA9\xF0\x9F\x98\x80"));
    CU_ASSERT_EQUAL(heap.live, (32 + 24) + 32 + 32 + (32 + 6)); /* a, two literals, out */
    spx_block_release(&heap, out);
    CU_ASSERT_EQUAL(fuel, PLENTY);
    spx_block_release(&heap, e_acute);
    spx_block_release(&heap, s);
    spx_block_release(&heap, a);
    finish(&heap);
}

/* A write through a bad index, or a pop of an empty array, fails before any
 * copy or charge. */
static void test_place_failures(void)
{
    spx_heap_t heap = heap_of(SPX_LIMIT_MAX_MEMORY_DEFAULT);
    spx_value_t rows[2] = {block_value(int_array(&heap, 100, NULL)),
                           block_value(block_array(&heap, 0, NULL))};
    /* rows[1] is an empty [int]; make it one: */
    rows[1].b->elements_are_blocks = 0;
    uint64_t fuel = PLENTY;
    spx_value_block_t *m = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_array_make(&heap, &fuel, 1, rows, 2, &m), SPX_HEAP_OK);
    spx_value_block_t *alias = m;
    spx_block_hold(alias);
    uint64_t live = heap.live;
    int64_t steps[2] = {0, 100};
    fuel = 10;
    expect_failure(&heap, spx_place_write(&heap, &fuel, &m, steps, 2, int_value(1)), SPX_R0511,
                   "index 100 out of range for length 100");
    steps[0] = 2;
    expect_failure(&heap, spx_place_write(&heap, &fuel, &m, steps, 2, int_value(1)), SPX_R0511,
                   "index 2 out of range for length 2");
    expect_failure(&heap, spx_place_push(&heap, &fuel, &m, steps, 1, int_value(1)), SPX_R0511,
                   "index 2 out of range for length 2");
    steps[0] = 1;
    spx_value_t out;
    expect_failure(&heap, spx_place_pop(&heap, &fuel, &m, steps, 1, &out), SPX_R0514,
                   "pop of an empty array");
    CU_ASSERT_EQUAL(fuel, 10);
    CU_ASSERT_EQUAL(heap.copies, 0);
    CU_ASSERT_EQUAL(heap.live, live);
    CU_ASSERT_PTR_EQUAL(m, alias);
    spx_block_release(&heap, m);
    spx_block_release(&heap, alias);
    finish(&heap);
}

/* The string limit (R0506) and the array limit (R0519), and the order of a
 * size charge, then the length limit, then memory. */
static void test_length_limits_and_order(void)
{
    spx_heap_t heap = heap_of(SPX_LIMIT_MAX_MEMORY_MAXIMUM);
    unsigned char *text = calloc(SPX_LIMIT_STRING_BYTES, 1);
    spx_value_block_t *big = literal_of(&heap, text, SPX_LIMIT_STRING_BYTES);
    spx_value_block_t *one = literal(&heap, "1"), *out = NULL;
    uint64_t fuel = SPX_LIMIT_STRING_BYTES / 64 - 1; /* one short of (2^24 + 1) / 64 */
    CU_ASSERT_EQUAL(spx_str_concat(&heap, &fuel, big, one, &out), SPX_HEAP_OUT_OF_FUEL);
    CU_ASSERT_EQUAL(heap.charged_n, (uint64_t)SPX_LIMIT_STRING_BYTES + 1);
    fuel = PLENTY;
    heap.max_memory = 10; /* the length limit comes before memory */
    expect_failure(&heap, spx_str_concat(&heap, &fuel, big, one, &out), SPX_R0506,
                   "string too long: 16777217 bytes, over the limit of 16777216");
    expect_failure(&heap, spx_str_append(&heap, &fuel, &big, one), SPX_R0506,
                   "string too long: 16777217 bytes, over the limit of 16777216");
    expect_failure(&heap, spx_str_concat(&heap, &fuel, one, one, &out), SPX_R0521,
                   "memory limit exceeded: 98 bytes live, over max_memory 10");
    uint64_t little = 1;
    CU_ASSERT_EQUAL(spx_str_concat(&heap, &little, big, one, &out), SPX_HEAP_OUT_OF_FUEL);
    spx_block_release(&heap, big);
    spx_block_release(&heap, one);
    free(text);

    /* An array literal of 2^24 + 1 elements (its elements are not read when
     * it fails), and a push past 2^24 on an array of that length (its
     * length set by hand: push checks it before touching any slot). */
    spx_value_t dummy[1] = {int_value(0)};
    fuel = (SPX_LIMIT_ARRAY_LENGTH + 1) / 64 - 1;
    CU_ASSERT_EQUAL(spx_array_make(&heap, &fuel, 0, dummy, SPX_LIMIT_ARRAY_LENGTH + 1, &out),
                    SPX_HEAP_OUT_OF_FUEL);
    fuel = PLENTY;
    expect_failure(&heap, spx_array_make(&heap, &fuel, 0, dummy, SPX_LIMIT_ARRAY_LENGTH + 1, &out),
                   SPX_R0519, "array of 16777217 elements, over the limit of 16777216");
    heap.max_memory = 1000;
    spx_value_block_t *a = int_array(&heap, 0, NULL);
    spx_value_block_t *alias = a;
    spx_block_hold(alias);
    a->length = SPX_LIMIT_ARRAY_LENGTH;
    fuel = SPX_LIMIT_ARRAY_LENGTH / 64 - 1; /* the copy push would make */
    CU_ASSERT_EQUAL(spx_place_push(&heap, &fuel, &a, NULL, 0, int_value(1)), SPX_HEAP_OUT_OF_FUEL);
    fuel = PLENTY;
    /* the push with its copy is one operation: the copy's charge, then the
     * length limit, before the copy's memory (1000 bytes cannot hold it) */
    expect_failure(&heap, spx_place_push(&heap, &fuel, &a, NULL, 0, int_value(1)), SPX_R0519,
                   "array of 16777217 elements, over the limit of 16777216");
    heap.max_memory = SPX_LIMIT_MAX_MEMORY_MAXIMUM;
    expect_failure(&heap, spx_place_push(&heap, &fuel, &a, NULL, 0, int_value(1)), SPX_R0519,
                   "array of 16777217 elements, over the limit of 16777216");
    spx_block_release(&heap, alias); /* not shared: no copy, the length limit */
    expect_failure(&heap, spx_place_push(&heap, &fuel, &a, NULL, 0, int_value(1)), SPX_R0519,
                   "array of 16777217 elements, over the limit of 16777216");
    spx_block_hold(alias);
    a->length = 0;
    CU_ASSERT_EQUAL(heap.copies, 0);
    heap.max_memory = 63; /* a (32) and its copy: 32 */
    expect_failure(&heap, spx_place_push(&heap, &fuel, &a, NULL, 0, int_value(1)), SPX_R0521,
                   "memory limit exceeded: 64 bytes live, over max_memory 63");
    heap.max_memory = 64; /* then its growth: 4 slots, + 32 */
    expect_failure(&heap, spx_place_push(&heap, &fuel, &a, NULL, 0, int_value(1)), SPX_R0521,
                   "memory limit exceeded: 96 bytes live, over max_memory 64");
    CU_ASSERT_EQUAL(spx_block_length(a), 0);
    CU_ASSERT_PTR_EQUAL(a, alias);
    heap.max_memory = 96;
    CU_ASSERT_EQUAL(spx_place_push(&heap, &fuel, &a, NULL, 0, int_value(1)), SPX_HEAP_OK);
    CU_ASSERT_EQUAL(heap.live, 96);
    spx_block_release(&heap, a);
    spx_block_release(&heap, alias);
    finish(&heap);
}

/* A write drops the holder of what the slot held (freed at none), also
 * when it writes the same block back: var m = [[1]]; m[0] = m[0]; and
 * var p = P { x: 1, name: "abc" (grown) }; p.name = "z"; */
static void test_write_releases_the_old_value(void)
{
    spx_heap_t heap = heap_of(SPX_LIMIT_MAX_MEMORY_DEFAULT);
    int64_t one = 1;
    spx_value_block_t *row = int_array(&heap, 1, &one);
    spx_value_block_t *m = block_array(&heap, 1, &row);
    uint64_t fuel = PLENTY;
    spx_value_t same;
    CU_ASSERT_EQUAL_FATAL(spx_array_get(&heap, m, 0, &same), SPX_HEAP_OK);
    int64_t step = 0;
    CU_ASSERT_EQUAL(spx_place_write(&heap, &fuel, &m, &step, 1, same), SPX_HEAP_OK);
    CU_ASSERT_EQUAL(row->holders, 1);
    CU_ASSERT_EQUAL(heap.copies, 0);
    CU_ASSERT_EQUAL(heap.live, 40 + 40);

    spx_value_block_t *name = made(&heap, "abc");
    spx_value_block_t *p = p_make(&heap, 1, name);
    CU_ASSERT_EQUAL(heap.live, 80 + 35 + 48);
    step = 1;
    CU_ASSERT_EQUAL(spx_place_write(&heap, &fuel, &p, &step, 1, block_value(literal(&heap, "z"))),
                    SPX_HEAP_OK);
    CU_ASSERT_EQUAL(heap.live, 80 + 48 + 32); /* "abc" freed; the literal's header */
    CU_ASSERT_TRUE(str_is(p->slots[1].b, "z"));
    spx_block_release(&heap, p);
    spx_block_release(&heap, m);
    finish(&heap);
}

/* A new string as itos makes it: counted, within the limits. */
static void test_made_strings(void)
{
    spx_heap_t heap = heap_of(36);
    spx_value_block_t *s = NULL;
    CU_ASSERT_EQUAL(spx_str_make(&heap, (const unsigned char *)"1234", 4, &s), SPX_HEAP_OK);
    CU_ASSERT_EQUAL(heap.live, 36);
    expect_failure(&heap, spx_str_make(&heap, (const unsigned char *)"", 0, &s), SPX_R0521,
                   "memory limit exceeded: 68 bytes live, over max_memory 36");
    spx_block_release(&heap, s);
    finish(&heap);
}

/* ---- reuse of freed small blocks (SPX_SPARE_BLOCK_SLOTS) ------------------- */

/* A block of 1 to SPX_SPARE_BLOCK_SLOTS slots freed is the next one made
 * of that size; through many cycles of making, growing and freeing blocks
 * of every size (arrays, structs holding strings), each keeps its own
 * values, the measure is exact and at most SPX_SPARE_BLOCKS_PER_SIZE of a
 * size are kept. */
static void test_small_blocks_reused(void)
{
    spx_heap_t heap = heap_of(PLENTY);
    int64_t values[SPX_SPARE_BLOCK_SLOTS + 1] = {11, 12, 13, 14, 15};
    for (apr_size_t k = 1; k <= SPX_SPARE_BLOCK_SLOTS; k++) {
        spx_value_block_t *a = int_array(&heap, k, values);
        spx_value_block_t *was = a;
        spx_block_release(&heap, a);
        a = int_array(&heap, k, values);
        CU_ASSERT_PTR_EQUAL(a, was); /* reused */
        CU_ASSERT_EQUAL(a->length, k);
        CU_ASSERT_EQUAL(a->capacity, k);
        CU_ASSERT_EQUAL(a->holders, 1);
        CU_ASSERT_EQUAL(at(a, k - 1), values[k - 1]);
        spx_block_release(&heap, a);
    }
    /* an empty array has room for SPX_SPARE_BLOCK_SLOTS: its first pushes
     * stay in place, and it is kept for the next empty array */
    uint64_t push_fuel = PLENTY;
    spx_value_block_t *empty = int_array(&heap, 0, NULL);
    spx_value_block_t *empty_was = empty;
    for (int64_t i = 0; i < (int64_t)SPX_SPARE_BLOCK_SLOTS; i++)
        CU_ASSERT_EQUAL_FATAL(spx_place_push(&heap, &push_fuel, &empty, NULL, 0, int_value(i)),
                              SPX_HEAP_OK);
    CU_ASSERT_PTR_EQUAL(empty, empty_was);
    CU_ASSERT_EQUAL(empty->capacity, SPX_SPARE_BLOCK_SLOTS);
    CU_ASSERT_EQUAL(heap.live, 32 + 8 * SPX_SPARE_BLOCK_SLOTS);
    for (apr_size_t i = 0; i < SPX_SPARE_BLOCK_SLOTS; i++)
        CU_ASSERT_EQUAL(at(empty, i), (int64_t)i);
    spx_block_release(&heap, empty);
    empty = int_array(&heap, 0, NULL);
    CU_ASSERT_PTR_EQUAL(empty, empty_was);
    CU_ASSERT_EQUAL(empty->capacity, 0);
    CU_ASSERT_EQUAL(heap.live, 32);
    spx_block_release(&heap, empty);
    enum { LIVE = 150, CYCLES = 20000 };
    spx_value_block_t *live[LIVE] = {0};
    int64_t first[LIVE] = {0};
    uint64_t seed = 7, fuel = PLENTY;
    for (int64_t cycle = 0; cycle < CYCLES; cycle++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        apr_size_t slot = (apr_size_t)(seed >> 33) % LIVE;
        if (live[slot]) { /* it kept its values while others came and went */
            spx_value_block_t *old = live[slot];
            if (old->kind == SPX_BLOCK_STRUCT) {
                CU_ASSERT_EQUAL(old->slots[0].i, first[slot]);
                CU_ASSERT(str_is(old->slots[1].b, "name"));
            } else {
                for (uint32_t i = 0; i < old->length; i++)
                    CU_ASSERT_EQUAL(at(old, i), first[slot] + i);
            }
            spx_block_release(&heap, old);
            live[slot] = NULL;
        }
        apr_size_t size = (apr_size_t)(seed >> 40) % (SPX_SPARE_BLOCK_SLOTS + 2);
        first[slot] = cycle * 10;
        if ((seed >> 50) % 4 == 0) {
            spx_value_block_t *name = NULL;
            CU_ASSERT_EQUAL_FATAL(spx_str_make(&heap, (const unsigned char *)"name", 4, &name),
                                  SPX_HEAP_OK);
            live[slot] = p_make(&heap, first[slot], name);
        } else {
            int64_t elements[SPX_SPARE_BLOCK_SLOTS + 1];
            for (apr_size_t i = 0; i < size; i++)
                elements[i] = first[slot] + (int64_t)i;
            live[slot] = int_array(&heap, size, elements);
            if ((seed >> 45) % 3 == 0) /* grown past its size: storage of another size */
                CU_ASSERT_EQUAL_FATAL(spx_place_push(&heap, &fuel, &live[slot], NULL, 0,
                                                     int_value(first[slot] + (int64_t)size)),
                                      SPX_HEAP_OK);
        }
        for (apr_size_t k = 0; k < SPX_SPARE_BLOCK_SLOTS; k++)
            CU_ASSERT(heap.spare_small_count[k] <= SPX_SPARE_BLOCKS_PER_SIZE);
    }
    uint64_t measure = 0;
    for (apr_size_t slot = 0; slot < LIVE; slot++)
        if (live[slot])
            measure +=
                spx_block_measure(live[slot]) + (live[slot]->kind == SPX_BLOCK_STRUCT ? 32 + 4 : 0);
    CU_ASSERT_EQUAL(heap.live, measure);
    for (apr_size_t slot = 0; slot < LIVE; slot++)
        spx_block_release(&heap, live[slot]);
    finish(&heap);
}

/* An enum block says its variant in its header (spx_enum_variant, what
 * match reads), whichever variant the reused block was made for before. */
static void test_enum_variant_in_header(void)
{
    static const unsigned char one_int[] = {0}, two[] = {0, 1};
    static const spx_variant_shape_t ok = {3, 1, one_int, "calc.Value.Ok"};
    static const spx_variant_shape_t pair = {5, 2, two, "calc.Value.Pair"};
    static const spx_variant_shape_t other = {1, 1, one_int, "calc.Value.Other"};
    spx_heap_t heap = heap_of(PLENTY);
    uint64_t fuel = PLENTY;
    for (int64_t round = 0; round < 200; round++) {
        const spx_variant_shape_t *shape = round % 2 ? &ok : &other;
        spx_value_t payload = int_value(round);
        spx_value_block_t *e = NULL;
        CU_ASSERT_EQUAL_FATAL(spx_enum_make(&heap, &fuel, shape, &payload, &e), SPX_HEAP_OK);
        CU_ASSERT_EQUAL(spx_enum_variant(e), shape->variant);
        CU_ASSERT_EQUAL(spx_enum_payload(e, 0).i, round);
        spx_value_block_t *p = NULL;
        CU_ASSERT_EQUAL_FATAL(spx_enum_block(&heap, &fuel, &pair, &p), SPX_HEAP_OK);
        p->slots[0].i = round;
        CU_ASSERT_EQUAL_FATAL(spx_str_make(&heap, (const unsigned char *)"s", 1, &p->slots[1].b),
                              SPX_HEAP_OK);
        CU_ASSERT_EQUAL(spx_enum_variant(p), 5);
        /* which a free looks through: the pair's str is released with it */
        CU_ASSERT_EQUAL(e->elements_are_blocks, 0);
        CU_ASSERT_EQUAL(p->elements_are_blocks, 1);
        CU_ASSERT_EQUAL(spx_enum_variant(e), shape->variant);
        spx_block_release(&heap, e);
        spx_block_release(&heap, p);
    }
    CU_ASSERT_EQUAL(spx_enum_variant(spx_enum_constant(4)), 4);
    finish(&heap);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"assigning then writing copies once", test_assign_then_write},
        {"a nested write copies the shared path", test_nested_write_copies_the_path},
        {"structs, push and pop through aliases", test_struct_and_push_pop_through_aliases},
        {"an element read, then a write", test_element_read_then_write},
        {"for x in xs { xs.push(x); } copies xs once", test_for_push_copies_once},
        {"a.push(a.pop())", test_push_of_pop},
        {"pops give storage back", test_pop_gives_storage_back},
        {"t.kids.push(t)", test_push_of_self},
        {"append in place, concatenation when shared", test_append},
        {"appending grows one block", test_append_grows_one_block},
        {"size charges of each operation", test_size_charges},
        {"a write and its copies: one charge", test_write_charges_each_copy},
        {"memory measure exact at its limit", test_memory_limit_exact},
        {"memory of the copies along a path", test_memory_of_path_copies},
        {"literals grown to the memory limit", test_literals_to_the_memory_limit},
        {"what == examines", test_equality_examined},
        {"the charge of ==", test_equality_charge},
        {"deep values: no C recursion", test_deep_values},
        {"index and slice failures", test_index_and_slice_failures},
        {"place failures come before copies", test_place_failures},
        {"length limits and the order of failures", test_length_limits_and_order},
        {"random operations against a model of copies", test_random_operations},
        {"a write releases the old value", test_write_releases_the_old_value},
        {"strings as itos makes them", test_made_strings},
        {"freed small blocks reused", test_small_blocks_reused},
        {"an enum block's variant in its header", test_enum_variant_in_header},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("values of language v2", tests);
}
