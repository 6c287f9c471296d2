/*
 * name_table.c: the engine's name and word tables (spx_name_table.h):
 * making, clearing, growing and filling them; their lookups are inline in
 * the header.
 */
#include "spx_name_table.h"

#include "spx_limits.h"

#include <string.h>

spx_name_table_t *spx_name_table_make(apr_pool_t *pool)
{
    spx_name_table_t *table = apr_pcalloc(pool, sizeof(*table));
    table->pool = pool;
    table->generation = 1;
    return table;
}

spx_word_table_t *spx_word_table_make(apr_pool_t *pool)
{
    spx_word_table_t *table = apr_pcalloc(pool, sizeof(*table));
    table->pool = pool;
    table->generation = 1;
    return table;
}

/* The next generation; when the count wraps, every slot is emptied
 * instead (a slot of generation 0 is empty in every later one). */
static uint32_t next_generation(uint32_t generation, void *slots, size_t bytes)
{
    if (++generation != 0)
        return generation;
    if (slots)
        memset(slots, 0, bytes);
    return 1;
}

void spx_name_table_clear(spx_name_table_t *table)
{
    size_t slots = table->slots ? (size_t)table->mask + 1 : 0;
    table->generation =
        next_generation(table->generation, table->slots, slots * sizeof(*table->slots));
    table->count = 0;
}

void spx_word_table_clear(spx_word_table_t *table)
{
    size_t slots = table->slots ? (size_t)table->mask + 1 : 0;
    table->generation =
        next_generation(table->generation, table->slots, slots * sizeof(*table->slots));
    table->count = 0;
}

/* Room for one more entry at most half full: the first slots, or twice as
 * many with the live entries moved in (the old ones stay in the pool). A
 * cleared table's slots of an older generation are empty, so they are
 * reused as they are. */
static void grow_names(spx_name_table_t *table)
{
    size_t capacity = table->slots ? (size_t)table->mask + 1 : 0;
    if (2 * ((size_t)table->count + 1) <= capacity)
        return;
    size_t grown = capacity ? 2 * capacity : SPX_NAME_TABLE_FIRST_SLOTS;
    spx_name_slot_t *slots = apr_pcalloc(table->pool, grown * sizeof(*slots));
    uint32_t mask = (uint32_t)(grown - 1);
    for (size_t i = 0; i < capacity; i++) {
        const spx_name_slot_t *slot = &table->slots[i];
        if (slot->generation != table->generation)
            continue;
        uint32_t at = slot->hash & mask;
        while (slots[at].generation)
            at = (at + 1) & mask;
        slots[at] = *slot;
        slots[at].generation = 1;
    }
    table->slots = slots;
    table->mask = mask;
    table->generation = 1;
}

void spx_name_table_put(spx_name_table_t *table, const char *name, uint32_t hash, const void *value)
{
    grow_names(table);
    uint32_t at = hash & table->mask;
    for (;; at = (at + 1) & table->mask) {
        spx_name_slot_t *slot = &table->slots[at];
        if (slot->generation != table->generation)
            break;
        if (slot->hash == hash && (slot->name == name || strcmp(slot->name, name) == 0)) {
            slot->value = (void *)value;
            return;
        }
    }
    table->slots[at] = (spx_name_slot_t){name, (void *)value, hash, table->generation};
    table->count++;
}

static void grow_words(spx_word_table_t *table)
{
    size_t capacity = table->slots ? (size_t)table->mask + 1 : 0;
    if (2 * ((size_t)table->count + 1) <= capacity)
        return;
    size_t grown = capacity ? 2 * capacity : SPX_NAME_TABLE_FIRST_SLOTS;
    spx_word_table_t moved = *table;
    moved.slots = apr_pcalloc(table->pool, grown * sizeof(*moved.slots));
    moved.mask = (uint32_t)(grown - 1);
    moved.generation = 1;
    moved.shift = 64;
    for (size_t bits = grown; bits > 1; bits /= 2)
        moved.shift--;
    for (size_t i = 0; i < capacity; i++) {
        const spx_word_slot_t *slot = &table->slots[i];
        if (slot->generation != table->generation)
            continue;
        uint32_t at = spx_word_table_start(&moved, slot->key);
        while (moved.slots[at].generation)
            at = (at + 1) & moved.mask;
        moved.slots[at] = *slot;
        moved.slots[at].generation = 1;
    }
    *table = moved;
}

void spx_word_table_put(spx_word_table_t *table, uint64_t key, const void *value)
{
    grow_words(table);
    uint32_t at = spx_word_table_start(table, key);
    for (;; at = (at + 1) & table->mask) {
        spx_word_slot_t *slot = &table->slots[at];
        if (slot->generation != table->generation)
            break;
        if (slot->key == key) {
            slot->value = (void *)value;
            return;
        }
    }
    table->slots[at] = (spx_word_slot_t){key, (void *)value, table->generation};
    table->count++;
}
