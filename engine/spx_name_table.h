/*
 * spx_name_table.h: the engine's small lookup tables for Phase A's hot
 * lookups: a name table (a NUL-terminated name -> a value) for the
 * checker's scopes and module namespaces, and a word table (an address or
 * a 64-bit integer -> a value) for the index's and the compiler's.
 *
 * Both are open addressing with linear probing, at most half full, so a
 * miss ends at an empty slot after a probe or two. A name's hash (FNV-1a
 * over its bytes) can be computed once and given to several tables
 * (spx_name_hash, spx_name_table_find): a local's declaration asks four.
 * Names are equal by their bytes: two interned names of one arena are
 * equal exactly when their pointers are, which short-cuts the comparison,
 * but a name may come from another arena (a reused module's), so a
 * different pointer with the same hash is still compared byte by byte.
 *
 * Memory: a table's slots come from the pool it was made in (nothing
 * before its first entry). When an entry would make it more than half
 * full, the slots are copied into twice as many and the old ones are left
 * in the pool: the slots ever taken are less than twice the live ones. A
 * clear forgets every entry in constant time (each slot carries the
 * generation it was filled in) and keeps the slots, so a table reused per
 * function or per scope is as large as the largest one it held.
 *
 * Values are never NULL (a get's NULL says "absent"; a value put const is
 * given back as it was, as APR's hash does); keys are not copied:
 * a name must outlive the table's use of it. No table is ever iterated, so
 * the order of its slots reaches no output.
 */
#ifndef SPX_NAME_TABLE_H
#define SPX_NAME_TABLE_H

#include <apr_pools.h>
#include <stdint.h>
#include <string.h>

typedef struct spx_name_slot_t {
    const char *name;
    void *value;
    uint32_t hash;
    uint32_t generation; /* filled now when equal to the table's */
} spx_name_slot_t;

typedef struct spx_name_table_t {
    apr_pool_t *pool;
    spx_name_slot_t *slots;
    uint32_t mask; /* slots - 1 (a power of two), or 0 before the first entry */
    uint32_t count;
    uint32_t generation;
} spx_name_table_t;

typedef struct spx_word_slot_t {
    uint64_t key;
    void *value;
    uint32_t generation;
} spx_word_slot_t;

typedef struct spx_word_table_t {
    apr_pool_t *pool;
    spx_word_slot_t *slots;
    uint32_t mask;
    uint32_t count;
    uint32_t generation;
    unsigned shift; /* 64 - log2(slots): the top bits of the key's product */
} spx_word_table_t;

/* An empty table whose slots will come from pool. */
spx_name_table_t *spx_name_table_make(apr_pool_t *pool);
spx_word_table_t *spx_word_table_make(apr_pool_t *pool);

/* Forgets every entry; the slots stay for the next ones. */
void spx_name_table_clear(spx_name_table_t *table);
void spx_word_table_clear(spx_word_table_t *table);

/* Sets name's value (hash is spx_name_hash(name)), replacing any. */
void spx_name_table_put(spx_name_table_t *table, const char *name, uint32_t hash,
                        const void *value);
/* Sets key's value, replacing any. */
void spx_word_table_put(spx_word_table_t *table, uint64_t key, const void *value);

/* Phase A's one hash of a name's bytes, 32-bit FNV-1a (the name tables, a
 * module's functions by name, the identifier table's long names): from
 * SPX_NAME_HASH_START, one step per byte. */
#define SPX_NAME_HASH_START 2166136261u
static inline uint32_t spx_name_hash_step(uint32_t hash, unsigned char byte)
{
    return (hash ^ byte) * 16777619u;
}

/* The hash of size bytes at text. */
static inline uint32_t spx_bytes_hash(const char *text, apr_size_t size)
{
    uint32_t hash = SPX_NAME_HASH_START;
    for (apr_size_t i = 0; i < size; i++)
        hash = spx_name_hash_step(hash, (unsigned char)text[i]);
    return hash;
}

/* The hash of name's bytes (not its terminating NUL), in one pass. */
static inline uint32_t spx_name_hash(const char *name)
{
    uint32_t hash = SPX_NAME_HASH_START;
    for (const unsigned char *at = (const unsigned char *)name; *at; at++)
        hash = spx_name_hash_step(hash, *at);
    return hash;
}

/* name's value (hash is spx_name_hash(name)), or NULL. */
static inline void *spx_name_table_find(const spx_name_table_t *table, const char *name,
                                        uint32_t hash)
{
    if (!table->count)
        return NULL;
    for (uint32_t at = hash & table->mask;; at = (at + 1) & table->mask) {
        const spx_name_slot_t *slot = &table->slots[at];
        if (slot->generation != table->generation)
            return NULL;
        if (slot->hash == hash && (slot->name == name || strcmp(slot->name, name) == 0))
            return slot->value;
    }
}

static inline void *spx_name_table_get(const spx_name_table_t *table, const char *name)
{
    return table->count ? spx_name_table_find(table, name, spx_name_hash(name)) : NULL;
}

/* The slot a word key starts its probe at: Fibonacci hashing, the top
 * bits of the key times 2^64 / phi, which spreads aligned addresses and
 * small integers alike. */
static inline uint32_t spx_word_table_start(const spx_word_table_t *table, uint64_t key)
{
    return (uint32_t)((key * UINT64_C(0x9E3779B97F4A7C15)) >> table->shift);
}

/* key's value, or NULL. */
static inline void *spx_word_table_get(const spx_word_table_t *table, uint64_t key)
{
    if (!table->count)
        return NULL;
    for (uint32_t at = spx_word_table_start(table, key);; at = (at + 1) & table->mask) {
        const spx_word_slot_t *slot = &table->slots[at];
        if (slot->generation != table->generation)
            return NULL;
        if (slot->key == key)
            return slot->value;
    }
}

/* An address as a word table's key. */
#define SPX_WORD_OF(address) ((uint64_t)(uintptr_t)(address))

#endif /* SPX_NAME_TABLE_H */
