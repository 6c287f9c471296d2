/*
 * spx_values.h: the run-time values of language v2 (strings, arrays,
 * structs) as reference-counted blocks, with the spec's copy on write, size
 * charges and memory measure (language v2, Execution). Private to the
 * engine; the interpreter (vm.c) is its user. docs/execution.md, "The value
 * model of language v2", explains the rules and the decisions taken where
 * the specification is silent.
 *
 * A value is an spx_value_t: an int or bool in .i, or a block in .b (the
 * static type says which). A block is a string (bytes), an array (slots) or
 * a struct (slots, one per field in declaration order). Its holders are the
 * places that hold it: variables, slots of other blocks, and operands the
 * interpreter has evaluated and not yet consumed. Holding never copies; a
 * write through a place copies (one level) each block on its path that has
 * two or more holders, so a change made through one name is never seen
 * through another.
 *
 * Ownership, for every function below: "holds" means the caller gets one
 * holder it must drop with spx_block_release; "consumes" means one holder
 * the caller had passes into the callee (to a slot, or dropped); "reads"
 * means the caller keeps its holder. A function that fails consumes nothing
 * and changes no value: the run ends, and the interpreter releases what its
 * registers hold.
 *
 * Every operation with a size charge takes the fuel: it computes n (the
 * spec's Fuel section), records it in heap->charged_n and takes n / 64 steps
 * from *fuel in one piece (a write: one piece per copy it makes), or returns
 * SPX_HEAP_OUT_OF_FUEL leaving *fuel as it was. The order of the checks
 * is: range checks (index, slice, pop of an empty array), then the size
 * charge, then the length limit, then memory.
 */
#ifndef SPX_VALUES_H
#define SPX_VALUES_H

#include "spx_assert.h"
#include "spx_codes.h"
#include "spx_limits.h"
#include "spx_vm.h"

#include <apr.h>
#include <stdint.h>
#include <string.h>

typedef struct spx_value_block_t spx_value_block_t;

/* A value of any type but unit: an int or bool (.i, bools are 0 or 1) or a
 * block (.b) for str, arrays and structs. A slot of an array or struct is
 * one value; it counts 8 bytes in the memory measure. */
typedef union spx_value_t {
    int64_t i;
    spx_value_block_t *b;
} spx_value_t;

typedef enum spx_block_kind_t {
    SPX_BLOCK_STR = 1,
    SPX_BLOCK_ARRAY = 2,
    SPX_BLOCK_STRUCT = 3,
    SPX_BLOCK_ENUM = 4, /* v3: a variant with payloads (values_enum.c) */
    SPX_BLOCK_MAP = 5   /* language v3: see values_map.c */
} spx_block_kind_t;

/* v3: what a block of an enum's variant needs to know of it: the variant's
 * number (declaration order), its payload count (at least 1: a variant
 * without payloads is no block but a constant, spx_enum_constant) and which
 * payloads hold blocks. Owned by the program. */
typedef struct spx_variant_shape_t {
    uint32_t variant;
    uint32_t payload_count;
    const unsigned char *payload_is_block;
    /* HOOK(value renderer): "geo.Shape.Circle", as a failure message writes
     * the variant (language v3, assert_eq's message); the renderer, which is
     * not this file's, renders the payloads after it in ( ). A variant
     * without payloads has no shape: its text ("app.Shape.Empty") comes
     * from the value's static type and spx_enum_variant. */
    const char *name;
} spx_variant_shape_t;

/* What a block of a struct type needs to know of it: its fields, in
 * declaration order, and which of them hold blocks (str, array or struct
 * fields). Owned by the program; outlives every run. */
typedef struct spx_struct_shape_t {
    uint32_t field_count;                /* at least 1 */
    const unsigned char *field_is_block; /* field_count flags, 0 or 1 */
} spx_struct_shape_t;

struct spx_value_block_t {
    uint32_t holders;            /* 0 only while it is being freed */
    uint8_t kind;                /* spx_block_kind_t */
    uint8_t elements_are_blocks; /* arrays: the element type is str, array or struct (maps:
                                    the value type; enums: some payload's) */
    uint8_t owns_storage;        /* 0: a literal or const string not yet grown (the
                                    program's bytes) */
    uint8_t map_keys;            /* maps: the key type, SPX_MAP_KEYS_*; else 0 */
    uint32_t length;             /* string bytes, array elements or struct fields (maps: entries) */
    uint32_t capacity;           /* bytes or slots allocated after the header (a literal: 0; maps:
                                    entries) */
    union {
        uint32_t variant;    /* enums (v3): of.variant->variant, read by match at once */
        uint32_t key_hash;   /* strings (v3): 0, or the hash a map found for it as a key
                                (values_map.c: its top bit is always set); a string that
                                grows in place forgets it */
        uint32_t index_mask; /* maps (v3): the index's slot count - 1 (values_map.c), kept
                                so that a lookup does not compute it from the capacity */
    };
    union {
        const unsigned char *bytes;         /* strings: own storage (slots) or the literal's */
        const spx_struct_shape_t *shape;    /* structs */
        const spx_variant_shape_t *variant; /* enums (v3) */
        uint32_t hint; /* maps (v3): the position a lookup or insert found last, tried first */
    } of;
    spx_value_t slots[]; /* arrays and structs; a string's own bytes */
};

/* Language v3: a map's key type (spx_value_block_t.map_keys). */
enum { SPX_MAP_KEYS_INT = 0, SPX_MAP_KEYS_STR = 1, SPX_MAP_KEYS_BOOL = 2 };

typedef enum spx_heap_status_t {
    SPX_HEAP_OK = 0,
    SPX_HEAP_OUT_OF_FUEL, /* the size charge could not be paid: *fuel untouched */
    SPX_HEAP_FAILED,      /* a language failure: heap->code and heap->message */
    SPX_HEAP_INTERRUPTED  /* the run's interrupt stopped it (a comparison asks it) */
} spx_heap_status_t;

typedef struct spx_compare_frame_t spx_compare_frame_t;

/* The values of one run: the memory measure and its limit, the last
 * failure, and scratch stacks (so that freeing and comparing nested values
 * never recurse in C). No global state: one heap per run. */
typedef struct spx_heap_t {
    uint64_t live;           /* the memory measure: sum of the live blocks' sizes */
    uint64_t peak;           /* the highest live has been */
    uint64_t max_memory;     /* SPX_LIMIT_MAX_MEMORY_* */
    uint64_t charged_n;      /* the n of the latest operation's size charge (paid or not) */
    uint64_t copies;         /* one-level copies made by writes so far */
    uint64_t blocks;         /* blocks not yet freed */
    spx_runtime_code_t code; /* when SPX_HEAP_FAILED */
    char message[512];       /* when SPX_HEAP_FAILED: the spec's text, no final period (v3: room
                                for a rendered map key, 256 bytes and "...") */
    spx_value_block_t **dying;
    apr_size_t dying_capacity;
    spx_compare_frame_t *frames;
    apr_size_t frame_capacity;
    spx_value_block_t *spare[SPX_SPARE_LITERAL_BLOCKS]; /* freed literal blocks, for reuse */
    apr_size_t spare_count;
    /* freed small blocks by slot count - 1, for reuse: each list linked
     * through its blocks' first slot */
    spx_value_block_t *spare_small[SPX_SPARE_BLOCK_SLOTS];
    uint32_t spare_small_count[SPX_SPARE_BLOCK_SLOTS];
    spx_value_block_t ***path; /* the slots along a place being resolved */
    apr_size_t path_capacity;
    const spx_run_interrupt_t *interrupt; /* the run's (spx_vm.h), or NULL */
    /* language v3: the key of the maps' SipHash-1-3, random for each run
     * (the interpreter seeds it from the platform's random source); nothing
     * observable depends on it. Zero after spx_heap_init. */
    uint64_t hash_key[2];
    /* language v3: the most entries a map may hold, SPX_LIMIT_MAP_ENTRIES
     * (R0525); only white-box tests lower it, to reach it cheaply */
    uint32_t map_entries_limit;
} spx_heap_t;

/* A heap with nothing live. spx_heap_finish frees its scratch; every block
 * must have been released by then. */
void spx_heap_init(spx_heap_t *heap, uint64_t max_memory);
void spx_heap_finish(spx_heap_t *heap);

/* ---- holders -------------------------------------------------------------- */

/* v3: a variant without payloads is no block: the value in a block
 * register or slot is the constant 2 * variant + 1 (never a block's
 * address, which is aligned), which has no holders; holding and releasing
 * it does nothing. */
static inline int spx_value_is_constant(const spx_value_block_t *block)
{
    return ((uintptr_t)block & 1u) != 0;
}

static inline spx_value_block_t *spx_enum_constant(uint32_t variant)
{
    return (spx_value_block_t *)(uintptr_t)(2u * (uintptr_t)variant + 1u);
}

/* The variant number of an enum value (a constant or a block). */
static inline uint32_t spx_enum_variant(const spx_value_block_t *value)
{
    return spx_value_is_constant(value) ? (uint32_t)((uintptr_t)value >> 1) : value->variant;
}

/* Add a holder (binding, assigning, passing, returning, storing, a for
 * snapshot: never a copy). */
static inline void spx_block_hold(spx_value_block_t *block)
{
    if (!spx_value_is_constant(block))
        block->holders++;
}

/* Free a block whose last holder went (spx_block_release): it drops its
 * hold on the blocks in its slots, and so on, without C recursion. */
void spx_block_free(spx_heap_t *heap, spx_value_block_t *block);

/* Drop a holder; at none the block is freed (spx_block_free). NULL is
 * ignored. */
static inline void spx_block_release(spx_heap_t *heap, spx_value_block_t *block)
{
    if (block && !spx_value_is_constant(block) && --block->holders == 0)
        spx_block_free(heap, block);
}

/* What block counts in the memory measure now, what it really holds: 32
 * (its header) + the bytes of its capacity for a string (none for a
 * literal's block not yet grown), 32 + 8 x capacity for an array (its spare
 * slots too), 32 + 8 x fields for a struct. */
uint64_t spx_block_measure(const spx_value_block_t *block);

/* Whether the length bytes at a and b are equal: the same bytes at once,
 * a short run compared in line (no call), a longer one by memcmp. */
static inline int spx_bytes_equal(const unsigned char *a, const unsigned char *b, apr_size_t length)
{
    if (a == b)
        return 1;
    if (length > 16)
        return memcmp(a, b, length) == 0;
    for (apr_size_t i = 0; i < length; i++)
        if (a[i] != b[i])
            return 0;
    return 1;
}

/* len(x): bytes of a string, elements of an array. */
static inline int64_t spx_block_length(const spx_value_block_t *block)
{
    return (int64_t)block->length;
}

static inline const unsigned char *spx_str_bytes(const spx_value_block_t *string)
{
    return string->of.bytes;
}

/* ---- strings -------------------------------------------------------------- */

/* Evaluating a string literal or a str const: a new block over bytes (which
 * must outlive the heap: the program's), counting its header. Holds *out.
 * R0521; no size charge. */
spx_heap_status_t spx_str_literal(spx_heap_t *heap, const unsigned char *bytes, apr_size_t length,
                                  spx_value_block_t **out);

/* A new string of the given bytes, as itos and chr make (no size charge:
 * their results are under 64 bytes). Holds. R0506 over the string limit,
 * R0521. */
spx_heap_status_t spx_str_make(spx_heap_t *heap, const unsigned char *bytes, apr_size_t length,
                               spx_value_block_t **out);

/* a + b, a new string. Reads a and b; holds *out. n = len(a) + len(b);
 * R0506, R0521. */
spx_heap_status_t spx_str_concat(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *a,
                                 const spx_value_block_t *b, spx_value_block_t **out);

/* x = x + e, where *variable is the local variable x (its holder) and e an
 * operand the caller holds (reads e), both strings or (v3) both arrays.
 * When x's block has no holder but x this is an append: the block grows in
 * place and n = len(e) (its capacity doubling when short; a literal's
 * block gets storage of its own then, 32 + its new length, as a
 * concatenation's, and n = len(x) + len(e)). Otherwise it is a
 * concatenation assigned to x: n = len(x) + len(e), and x's old block loses
 * x's holder. R0506 (R0519 for arrays), R0521. */
spx_heap_status_t spx_str_append(spx_heap_t *heap, uint64_t *fuel, spx_value_block_t **variable,
                                 const spx_value_block_t *e);

/* s[i]: the byte at i as an int. R0511. */
spx_heap_status_t spx_str_index(spx_heap_t *heap, const spx_value_block_t *s, int64_t i,
                                int64_t *out);

/* s[i..j], a new string. Reads s; holds *out. R0512, R0513 (bounds not on a
 * character boundary), then n = j - i, R0521. */
spx_heap_status_t spx_str_slice(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *s,
                                int64_t i, int64_t j, spx_value_block_t **out);

/* chr(c): a new string, the UTF-8 encoding of the Unicode scalar value c.
 * Holds *out. R0515 for a non-scalar (negative, a surrogate, over
 * U+10FFFF), R0521. No size charge (under 64 bytes). */
spx_heap_status_t spx_str_chr(spx_heap_t *heap, int64_t c, spx_value_block_t **out);

/* stoi(s): s read as -?[0-9]+ exactly. Reads s. n = len(s); R0516 for any
 * other text, R0520 outside the int range. */
spx_heap_status_t spx_str_stoi(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *s,
                               int64_t *out);

/* ---- arrays --------------------------------------------------------------- */

/* [e0, e1, ...]: consumes the count elements (when they are blocks); holds
 * *out. n = count; R0519, R0521. */
spx_heap_status_t spx_array_make(spx_heap_t *heap, uint64_t *fuel, int elements_are_blocks,
                                 const spx_value_t *elements, apr_size_t count,
                                 spx_value_block_t **out);

/* a[i]. Reads a; *out holds when it is a block. R0511. */
spx_heap_status_t spx_array_get(spx_heap_t *heap, const spx_value_block_t *a, int64_t i,
                                spx_value_t *out);

/* a[i..j], a new array holding the same element values. Reads a; holds
 * *out. R0512, then n = j - i, R0521. */
spx_heap_status_t spx_array_slice(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *a,
                                  int64_t i, int64_t j, spx_value_block_t **out);

/* v3: a + b on two arrays of one type, a new array holding a's elements
 * then b's. Reads a and b; holds *out. n = len(a) + len(b); R0519, R0521. */
spx_heap_status_t spx_array_concat(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *a,
                                   const spx_value_block_t *b, spx_value_block_t **out);

/* a + b on two strings (spx_str_concat) or two arrays (spx_array_concat). */
spx_heap_status_t spx_value_concat(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *a,
                                   const spx_value_block_t *b, spx_value_block_t **out);

/* ---- structs -------------------------------------------------------------- */

/* S { ... }: fields in declaration order (the interpreter evaluates them in
 * source order and puts each in its place); consumes them; holds *out.
 * n = field count; R0521. */
spx_heap_status_t spx_struct_make(spx_heap_t *heap, uint64_t *fuel, const spx_struct_shape_t *shape,
                                  const spx_value_t *fields, spx_value_block_t **out);

/* p.f: field number field (declaration order). Reads p; holds the result
 * when it is a block. In line: the interpreter's field reads are this. */
static inline spx_value_t spx_struct_get(const spx_value_block_t *p, uint32_t field)
{
    SPX_ASSERT(p->kind == SPX_BLOCK_STRUCT && field < p->length);
    spx_value_t value = p->slots[field];
    if (p->of.shape->field_is_block[field])
        spx_block_hold(value.b);
    return value;
}

/* ---- enums (v3, values_enum.c) --------------------------------------------
 * An enum value with k >= 1 payloads is a block of 16 + 8k in the measure;
 * one without payloads is a constant (spx_enum_constant) that counts 0. */

/* E.V(p, ...) of a variant with payloads: consumes them; holds *out.
 * n = the payload count; R0521. */
spx_heap_status_t spx_enum_make(spx_heap_t *heap, uint64_t *fuel, const spx_variant_shape_t *shape,
                                const spx_value_t *payloads, spx_value_block_t **out);

/* spx_enum_make's block, its checks and charge, with the payload slots
 * left for the caller to fill (each one consumed as it is stored). */
spx_heap_status_t spx_enum_block(spx_heap_t *heap, uint64_t *fuel, const spx_variant_shape_t *shape,
                                 spx_value_block_t **out);

/* Payload number k of an enum block (a match's binder). Reads e; holds the
 * result when it is a block. */
static inline spx_value_t spx_enum_payload(const spx_value_block_t *e, uint32_t k)
{
    SPX_ASSERT(!spx_value_is_constant(e) && e->kind == SPX_BLOCK_ENUM && k < e->length);
    spx_value_t value = e->slots[k];
    if (e->of.variant->payload_is_block[k])
        spx_block_hold(value.b);
    return value;
}

/* For spx_values_equal: when a and b (two values of one enum type, or of
 * another block type) are enums, adds 1 to *n (the variant examined) and
 * returns 1 when that decides the comparison (other variants: *same 0; two
 * constants of one variant: equal); 0 when they are not enums or are two
 * blocks of one variant, whose payloads are compared next. */
int spx_enum_heads_differ(const spx_value_block_t *a, const spx_value_block_t *b, uint64_t *n,
                          int *same);
/* Whether value is an enum's block (not a constant, not another kind). */
static inline int spx_enum_is_block(const spx_value_block_t *value)
{
    return !spx_value_is_constant(value) && value->kind == SPX_BLOCK_ENUM;
}

/* A size charge of its own: n / 64 steps in one piece (a match's, v3: n
 * the chosen variant's payload count). */
spx_heap_status_t spx_heap_charge(spx_heap_t *heap, uint64_t *fuel, uint64_t n);

/* A new block of kind with length slots (or bytes), no spare capacity,
 * after the checks of a creation: the size charge n, the length limit,
 * memory (R0521). Holds *out; its slots are the caller's to fill. */
spx_heap_status_t spx_block_make_checked(spx_heap_t *heap, uint64_t *fuel, uint64_t n,
                                         spx_block_kind_t kind, uint32_t length,
                                         spx_value_block_t **out);

/* ---- writes through places ----------------------------------------------
 * A place is a variable holding a block (*root) and steps: an array index
 * (checked: R0511) or a struct field number (trusted) for each "[i]" or
 * ".f" after the name. The interpreter evaluates the steps' indexes, then
 * the value, then calls one of these, which resolve the place: every index
 * is checked first (nothing is copied or charged when one is out of range),
 * then each block on the path that has two or more holders is replaced by a
 * one-level copy. Once a block is copied every block below it on the path
 * has two holders, so the copies are those from the first shared block
 * down. The write with its copies is one operation: n is the sum of the
 * copied blocks' lengths or field counts, rounded down once; it is checked
 * in the order of one operation: the charge, then push's length limit, then
 * the copies' memory in path order and push's growth's. All is
 * checked before anything changes: a write that fails changes no value.
 * The charges taken before a failing check stay paid (as a concatenation's
 * does when its length or memory fails); only a charge that cannot be paid
 * (SPX_HEAP_OUT_OF_FUEL) leaves *fuel as it was. heap->charged_n is then
 * the sum of the copies' n. */

/* place = value, with step_count >= 1 (the last step names the slot
 * written). Consumes value; the slot's old value loses its holder. */
spx_heap_status_t spx_place_write(spx_heap_t *heap, uint64_t *fuel, spx_value_block_t **root,
                                  const int64_t *steps, apr_size_t step_count, spx_value_t value);

/* place.push(value): the place (step_count >= 0) holds an array. Consumes
 * value. Growth charges nothing; a full array doubles its capacity (4 at
 * first), which counts 8 bytes a slot; R0519 past the array limit. */
spx_heap_status_t spx_place_push(spx_heap_t *heap, uint64_t *fuel, spx_value_block_t **root,
                                 const int64_t *steps, apr_size_t step_count, spx_value_t value);

/* place.pop(): removes the last element into *out (which holds it). R0514
 * for an empty array, checked with the indexes (before any copy). */
spx_heap_status_t spx_place_pop(spx_heap_t *heap, uint64_t *fuel, spx_value_block_t **root,
                                const int64_t *steps, apr_size_t step_count, spx_value_t *out);

/* v3: the value of a place (step_count >= 1) rooted at the variable's
 * block root, for a compound assignment's read: every index and map key
 * checked (R0511, R0522), nothing copied; n = the str map keys looked up.
 * *out holds when it is a block. */
spx_heap_status_t spx_place_read(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *root,
                                 const int64_t *steps, apr_size_t step_count, spx_value_t *out);

/* v3: P = P + e and P += e on a string or an array through a place
 * (step_count >= 0; 0 for the variable *root itself), after e is
 * evaluated; read is the block read from P for this statement (the
 * caller's holder), e an operand the caller holds. The append rule
 * (docs/execution.md, "Append"): when P resolves with every block above
 * P's own held once, and P's slot still holds read, held by nothing but the
 * slot and the read, the block grows in place (n = len(e); a literal's
 * first growth len(P) + len(e)) and copies nothing; otherwise read and e
 * are concatenated (n = len(read) + len(e)) and the result is written to P
 * by spx_place_write (its range checks and copies a second operation). On
 * success read's holder is consumed (the caller forgets the pointer: the
 * block may have moved); on failure nothing is. R0506, R0511, R0519, R0521. */
spx_heap_status_t spx_place_append(spx_heap_t *heap, uint64_t *fuel, spx_value_block_t **root,
                                   const int64_t *steps, apr_size_t step_count,
                                   spx_value_block_t *read, const spx_value_block_t *e);

/* ---- comparison ----------------------------------------------------------- */

/* a == b for two blocks of one type (str, array or struct); != is its
 * negation with the same charge. Reads both. n = what the comparison
 * examines: at each level, arrays of different lengths examine nothing;
 * otherwise each position or field up to and including the first
 * difference counts 1, and a block in it (a nested string, array or
 * struct, of which the comparison reads both headers) counts 64, one step,
 * and adds what it examines; strings examine the bytes up to and including
 * the first difference, or the shorter length. *examined (when not NULL)
 * is n. The comparison stops as soon as n / 64 exceeds *fuel, so its work
 * is bounded by the fuel; it asks heap->interrupt (when set) every
 * SPX_COMPARE_POLL_POSITIONS positions and answers SPX_HEAP_INTERRUPTED,
 * charging nothing, when that stops the run. */
spx_heap_status_t spx_values_equal(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *a,
                                   const spx_value_block_t *b, int *equal, uint64_t *examined);

/* v3: a < b, <=, >, >= on two strings, bytewise (a proper prefix first):
 * *order is -1, 0 or 1. Reads both. n = what == examines on them (the bytes
 * up to and including the first difference, or the shorter length). */
spx_heap_status_t spx_str_order(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *a,
                                const spx_value_block_t *b, int *order);
/* ---- maps (language v3, values_map.c) --------------------------------------
 * A map block keeps its entries in insertion order: entry i is slots[2i]
 * (the key: an int or bool in .i, or a str block) and slots[2i + 1] (the
 * value), then each entry's hash, then an index of positions (open
 * addressing). block->length is the entry count, block->capacity the
 * entries it has room for; it counts 32 + 24 x capacity in the measure.
 * A key operand is a spx_value_t of the key type: the str block is read,
 * never consumed, by a lookup; a map that stores it holds it once more.
 * Every lookup of a str key is charged len(k) (its hashing examines its
 * bytes); of an int or bool key, nothing. */

/* {k: v, ...} with keys of map_keys (SPX_MAP_KEYS_*): inserts the count pairs in order (a repeated
 * key replaces the value and keeps its first position); consumes the keys and the values. n = count
 * + the bytes of the str keys; R0525, R0521 (for the map of the distinct keys, no spare capacity).
 * Holds *out. */
spx_heap_status_t spx_map_make(spx_heap_t *heap, uint64_t *fuel, int map_keys,
                               int values_are_blocks, const spx_value_t *keys,
                               const spx_value_t *values, apr_size_t count,
                               spx_value_block_t **out);

/* m[k]: R0522 for a missing key (no charge), then n = len(k). Reads m and
 * k; *out holds when it is a block. */
spx_heap_status_t spx_map_get(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *map,
                              spx_value_t key, spx_value_t *out);

/* The slot of key's value in map, or NULL when key is no key of it: no
 * charge (the interpreter's in-line write m[k] = e to a map held once). */
spx_value_t *spx_map_slot(const spx_heap_t *heap, const spx_value_block_t *map, spx_value_t key);

/* The key at position (< length), for "for k in m": holds it when a str;
 * the position becomes the map's lookup hint (values_map.c). */
spx_value_t spx_map_key_at(const spx_value_block_t *map, uint32_t position);

/* m.has(k): n = len(k). */
spx_heap_status_t spx_map_has(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *map,
                              spx_value_t key, int *out);

/* m.get(k, d): the value of k, or d; n = len(k). Reads all; *out holds
 * when it is a block. */
spx_heap_status_t spx_map_get_or(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *map,
                                 spx_value_t key, spx_value_t fallback, spx_value_t *out);

/* m.keys() (values 0) and m.values() (values 1): a new array of them in
 * order, each block among them held once more. n = len(m); R0521. */
spx_heap_status_t spx_map_list(spx_heap_t *heap, uint64_t *fuel, const spx_value_block_t *map,
                               int values, spx_value_block_t **out);

/* place.remove(k) where the place (step_count >= 0) holds a map: the
 * place's indexes and keys checked; an absent key copies and changes
 * nothing but is charged its n; a present one's entry goes (later entries
 * move up) after the place's copies. n = the copies' entries + the place's
 * and k's str key bytes + (present) the entries after k's. *removed says
 * which. */
spx_heap_status_t spx_place_remove_key(spx_heap_t *heap, uint64_t *fuel, spx_value_block_t **root,
                                       const int64_t *steps, apr_size_t step_count, spx_value_t key,
                                       int *removed);

#endif /* SPX_VALUES_H */
