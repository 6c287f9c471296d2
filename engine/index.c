/*
 * index.c: builds the semantic index from the checked HIR, and gives the
 * graph's shape (spx_graph_shape: the counts and the module import graph,
 * typed). The graph and context documents are written from the index by
 * index_write.c and context.c alone.
 *
 * Phase A hands each module's checked bodies to the builder
 * (spx_index_builder_add_calls) before it lets them go, so the builder keeps
 * only what the bodies say: each function's calls, the structs it uses and
 * the consts it reads, with their sites. spx_index_build then adds the nodes
 * and the other edges from the declarations, which stay: containment,
 * imports, the structs a signature or a struct's fields name, the consts a
 * const reads, tests and the entry.
 */
#include "index_internal.h"

#include "spx_array.h"
#include "spx_assert.h"
#include "spx_limits.h"
#include "spx_name_table.h"

#include <apr_strings.h>
#include <stdlib.h>
#include <string.h>

/* What the builder collects before sorting. Nodes are made when first
 * needed (a call may name a function of a module not indexed yet) and
 * edges refer to them by their position in nodes. */
struct spx_index_builder_t {
    apr_pool_t *pool;
    spx_arena_t *arena; /* the lists of nodes and edges, sites */
    /* The nodes in the order made, then sorted in place: the index's. */
    spx_index_node_t *nodes;
    int node_count, node_capacity;
    spx_word_table_t *node_of; /* a module, struct or const (its address) -> position + 1 */
    /* By spx_builtin_t: the builtin's node position, or -1 until made. */
    int builtin_node[SPX_BUILTIN_COUNT + 1];
    apr_array_header_t *references; /* reference_t: those of the item being walked */
    /* The edges in the order made, then sorted in place: the index's. */
    spx_index_edge_t *edges;
    int edge_count, edge_capacity;
    int first_nodes, first_edges; /* the lists' first room (room_for_one) */
    apr_array_header_t *spine;    /* const spx_expr_t *: operator chains being walked */
    spx_word_table_t *scrutinees; /* v3: a match's scrutinee (its address) -> its enum */
    const spx_module_t *module;   /* the module of the item being walked */
    uint8_t *packing;             /* an edge's sites being packed */
    size_t packing_capacity;
};
typedef spx_index_builder_t builder_t;

/* One site of the item being walked that names another: a call (of a
 * function, or of a builtin), a struct named or whose field is read or
 * written, a const read. */
typedef struct reference_t {
    spx_index_edge_kind_t kind; /* calls, uses, reads */
    const void *target;    /* spx_function_t, spx_struct_t or spx_const_t; NULL for a builtin */
    spx_builtin_t builtin; /* the builtin when target is NULL */
    unsigned char target_is_enum; /* v3: a "uses" whose target is an spx_enum_t */
    size_t order;                 /* keeps the sites of one target in source order */
    spx_index_site_t site;
} reference_t;

/* list (of *capacity items of size bytes, count of them used, in arena)
 * with room for one more: when full, a copy twice as long. The first room
 * is for first items (the builder's estimate from the sources,
 * spx_index_builder_make), so a list normally never grows, and a grown
 * list's old copies, which stay in the arena, are together smaller than
 * it. One item is always left over (the index's lists end with room for
 * one). */
static void *room_for_one(spx_arena_t *arena, void *list, int count, int *capacity, int first,
                          size_t size)
{
    if (count + 1 < *capacity)
        return list;
    *capacity = *capacity ? 2 * *capacity : first;
    void *moved = spx_arena_alloc(arena, (size_t)*capacity * size, SPX_ARENA_ANY_ALIGNMENT);
    if (count)
        memcpy(moved, list, (size_t)count * size);
    return moved;
}

/* A node's position stays; its address may move when another is added. */
static int add_node(builder_t *builder, const char *id, const char *kind, const char *name)
{
    builder->nodes =
        room_for_one(builder->arena, builder->nodes, builder->node_count, &builder->node_capacity,
                     builder->first_nodes, sizeof(*builder->nodes));
    spx_index_node_t *node = &builder->nodes[builder->node_count];
    memset(node, 0, sizeof(*node));
    node->id = id;
    node->kind = kind;
    node->name = name;
    return builder->node_count++;
}

static spx_index_node_t *node_at(builder_t *builder, int position)
{
    return &builder->nodes[position];
}

static void add_edge(builder_t *builder, int from, spx_index_edge_kind_t kind, int to)
{
    builder->edges =
        room_for_one(builder->arena, builder->edges, builder->edge_count, &builder->edge_capacity,
                     builder->first_edges, sizeof(*builder->edges));
    spx_index_edge_t *edge = &builder->edges[builder->edge_count++];
    edge->from = from;
    edge->kind = (uint8_t)kind;
    edge->to = to;
    edge->sites = NULL;
    edge->site_count = 0;
}

/* The node of a module, struct or const made before, or -1. */
static int known_node(builder_t *builder, const void *owner)
{
    return (int)(uintptr_t)spx_word_table_get(builder->node_of, SPX_WORD_OF(owner)) - 1;
}

static void remember_node(builder_t *builder, const void *owner, int position)
{
    spx_word_table_put(builder->node_of, SPX_WORD_OF(owner), (void *)(uintptr_t)(position + 1));
}

static int module_node(builder_t *builder, const spx_module_t *module)
{
    int position = known_node(builder, module);
    if (position < 0) {
        position = add_node(builder, apr_pstrcat(builder->pool, "module:", module->name, NULL),
                            "module", module->name);
        node_at(builder, position)->module = module;
        remember_node(builder, module, position);
    }
    return position;
}

/* "function:MODULE.NAME", made once per function. */
static int function_node(builder_t *builder, spx_function_t *function)
{
    int position = (int)function->index_node - 1;
    if (position < 0) {
        position = add_node(builder,
                            apr_pstrcat(builder->pool, "function:", function->module->name, ".",
                                        function->name.text, NULL),
                            "function", function->name.text);
        spx_index_node_t *node = node_at(builder, position);
        node->module = function->module;
        node->item.function = function;
        node->item_kind = SPX_INDEX_ITEM_FUNCTION;
        node->signature = spx_function_signature(function, builder->pool);
        function->index_node = (uint32_t)position + 1;
    }
    return position;
}

/* "KIND:MODULE.NAME" of a struct or const (owner), made once each. */
static int item_node(builder_t *builder, const void *owner, const char *kind,
                     const spx_module_t *module, const char *name)
{
    int position = known_node(builder, owner);
    if (position < 0) {
        position =
            add_node(builder, apr_pstrcat(builder->pool, kind, ":", module->name, ".", name, NULL),
                     kind, name);
        node_at(builder, position)->module = module;
        remember_node(builder, owner, position);
    }
    return position;
}

static int struct_node(builder_t *builder, const spx_struct_t *structure)
{
    int position = item_node(builder, structure, "struct", structure->module, structure->name.text);
    node_at(builder, position)->item.structure = structure;
    node_at(builder, position)->item_kind = SPX_INDEX_ITEM_STRUCT;
    return position;
}

static int const_node(builder_t *builder, const spx_const_t *constant)
{
    int position = item_node(builder, constant, "const", constant->module, constant->name.text);
    node_at(builder, position)->item.constant = constant;
    node_at(builder, position)->item_kind = SPX_INDEX_ITEM_CONST;
    return position;
}

/* v3: "enum:MODULE.NAME". */
static int enum_node(builder_t *builder, const spx_enum_t *enumeration)
{
    int position =
        item_node(builder, enumeration, "enum", enumeration->module, enumeration->name.text);
    node_at(builder, position)->item.enumeration = enumeration;
    node_at(builder, position)->item_kind = SPX_INDEX_ITEM_ENUM;
    return position;
}

/* v3: "data:NAME" of a [[data]] entry, made once each; no module contains
 * it. */
static int data_node(builder_t *builder, const spx_data_entry_t *entry)
{
    int position = known_node(builder, entry);
    if (position < 0) {
        position = add_node(builder, apr_pstrcat(builder->pool, "data:", entry->name, NULL), "data",
                            entry->name);
        node_at(builder, position)->item.data = entry;
        node_at(builder, position)->item_kind = SPX_INDEX_ITEM_DATA;
        remember_node(builder, entry, position);
    }
    return position;
}

static int builtin_node(builder_t *builder, spx_builtin_t builtin)
{
    if (builder->builtin_node[builtin] < 0) {
        const spx_builtin_info_t *info = spx_builtin_info(builtin);
        int position = add_node(builder, apr_pstrcat(builder->pool, "builtin:", info->name, NULL),
                                "builtin", info->name);
        node_at(builder, position)->signature = info->signature;
        builder->builtin_node[builtin] = position;
    }
    return builder->builtin_node[builtin];
}

static void add_reference(builder_t *builder, spx_index_edge_kind_t kind, const void *target,
                          spx_builtin_t builtin, spx_span_t span)
{
    reference_t *reference = apr_array_push(builder->references);
    reference->kind = kind;
    reference->target = target;
    reference->builtin = builtin;
    reference->target_is_enum = 0;
    reference->order = (size_t)builder->references->nelts;
    reference->site.start = span.start.offset;
    reference->site.end = span.end.offset;
}

static void record_call(builder_t *builder, const spx_expr_t *call)
{
    if (!call->as.call->target && call->as.call->builtin == SPX_BUILTIN_NONE)
        return; /* unresolved: cannot happen in an admitted project */
    add_reference(builder, SPX_EDGE_CALLS, call->as.call->target, call->as.call->builtin,
                  call->span);
    if (call->as.call->builtin == SPX_BUILTIN_READ_DATA && call->as.call->data) {
        data_node(builder, call->as.call->data); /* so that its reads edge finds it */
        add_reference(builder, SPX_EDGE_READS, call->as.call->data, SPX_BUILTIN_NONE, call->span);
    }
}

/* The struct that syntax (Name, or m.Name of an import m of the builder's
 * module) names, or NULL: a struct the checker could not resolve, which
 * cannot happen in an admitted project. */
static const spx_struct_t *written_struct(builder_t *builder, const spx_type_syntax_t *syntax)
{
    const spx_module_t *owner = syntax->module.text ? NULL : builder->module;
    for (apr_size_t i = 0; !owner && i < builder->module->import_count; i++)
        if (strcmp(builder->module->imports[i].module.text, syntax->module.text) == 0)
            owner = builder->module->imports[i].target;
    for (apr_size_t i = 0; owner && syntax->name.text && i < owner->struct_count; i++)
        if (strcmp(owner->structs[i]->name.text, syntax->name.text) == 0)
            return owner->structs[i];
    return NULL;
}

/* v3: a "uses" of an enum at span. */
static void add_enum_reference(builder_t *builder, const spx_enum_t *enumeration, spx_span_t span)
{
    add_reference(builder, SPX_EDGE_USES, enumeration, SPX_BUILTIN_NONE, span);
    APR_ARRAY_IDX(builder->references, builder->references->nelts - 1, reference_t).target_is_enum =
        1;
}

/* v3: the enum that syntax names (as written_struct), or NULL. */
static const spx_enum_t *written_enum(builder_t *builder, const spx_type_syntax_t *syntax)
{
    const spx_module_t *owner = syntax->module.text ? NULL : builder->module;
    for (apr_size_t i = 0; !owner && i < builder->module->import_count; i++)
        if (strcmp(builder->module->imports[i].module.text, syntax->module.text) == 0)
            owner = builder->module->imports[i].target;
    for (apr_size_t i = 0; owner && syntax->name.text && i < owner->enum_count; i++)
        if (strcmp(owner->enums[i]->name.text, syntax->name.text) == 0)
            return owner->enums[i];
    return NULL;
}

/* A type as written: the struct or enum it names, if any (through arrays,
 * and the values of maps, language v3: a map's key is never a struct). */
static void collect_type(void *context, const spx_type_syntax_t *syntax)
{
    builder_t *builder = context;
    while (syntax && (syntax->kind == SPX_TYPE_SYNTAX_ARRAY || syntax->kind == SPX_TYPE_SYNTAX_MAP))
        syntax = syntax->element;
    if (!syntax || syntax->kind != SPX_TYPE_SYNTAX_STRUCT)
        return;
    const spx_struct_t *structure = written_struct(builder, syntax);
    const spx_enum_t *enumeration = structure ? NULL : written_enum(builder, syntax);
    if (structure)
        add_reference(builder, SPX_EDGE_USES, structure, SPX_BUILTIN_NONE, syntax->span);
    else if (enumeration)
        add_enum_reference(builder, enumeration, syntax->span);
}

/* v3: every match scrutinee of block (its nested blocks too) remembered
 * with its enum, so that the walk in source order records each match as
 * one site of its enum. */
static void find_scrutinees(builder_t *builder, const spx_block_t *block)
{
    for (apr_size_t i = 0; i < block->count; i++) {
        for (const spx_stmt_t *s = block->statements[i]; s;
             s = s->kind == SPX_STMT_IF ? s->as.if_stmt.else_if : NULL) {
            if (s->kind == SPX_STMT_IF) {
                find_scrutinees(builder, &s->as.if_stmt.then_block);
                if (s->as.if_stmt.else_block)
                    find_scrutinees(builder, s->as.if_stmt.else_block);
            } else if (s->kind == SPX_STMT_WHILE) {
                find_scrutinees(builder, &s->as.while_stmt.body);
            } else if (s->kind == SPX_STMT_FOR) {
                find_scrutinees(builder, &s->as.for_stmt.body);
            } else if (s->kind == SPX_STMT_MATCH) {
                const spx_expr_t *scrutinee = s->as.match_stmt.scrutinee;
                if (s->as.match_stmt.enumeration)
                    spx_word_table_put(builder->scrutinees, SPX_WORD_OF(scrutinee),
                                       s->as.match_stmt.enumeration);
                for (apr_size_t a = 0; a < s->as.match_stmt.arm_count; a++)
                    find_scrutinees(builder, &s->as.match_stmt.arms[a].body);
            }
        }
    }
}

/* The struct of a value of e's type, or NULL. */
static const spx_struct_t *struct_of(const spx_expr_t *e)
{
    return e && e->type == SPX_TYPE_STRUCT && e->vtype ? e->vtype->structure : NULL;
}

static void collect_expression(void *context, const spx_expr_t *e);

/* What e is besides an operator chain: a call, a read of a const, a struct
 * literal, a field read or written; then, in source order, what its
 * children hold (spx_expr_visit_children), but for m.X, whose m is a module. */
static void collect_operand(builder_t *builder, const spx_expr_t *e)
{
    const spx_enum_t *matched = spx_word_table_get(builder->scrutinees, SPX_WORD_OF(e));
    if (matched) /* v3: a match on the enum, one site (its patterns are none) */
        add_enum_reference(builder, matched, e->span);
    if (e->kind == SPX_EXPR_VARIANT && e->as.variant.enumeration) {
        add_enum_reference(builder, e->as.variant.enumeration, e->as.variant.enum_span);
    } else if (e->kind == SPX_EXPR_CALL) {
        record_call(builder, e);
    } else if (e->kind == SPX_EXPR_NAME && e->as.name.constant) {
        add_reference(builder, SPX_EDGE_READS, e->as.name.constant, SPX_BUILTIN_NONE,
                      e->as.name.name.span);
    } else if (e->kind == SPX_EXPR_FIELD && e->as.field.constant) {
        add_reference(builder, SPX_EDGE_READS, e->as.field.constant, SPX_BUILTIN_NONE, e->span);
        return;
    } else if (e->kind == SPX_EXPR_FIELD && struct_of(e->as.field.base)) {
        add_reference(builder, SPX_EDGE_USES, struct_of(e->as.field.base), SPX_BUILTIN_NONE,
                      e->as.field.name.span);
    } else if (e->kind == SPX_EXPR_STRUCT_LITERAL && struct_of(e)) {
        spx_span_t named = e->as.literal->name.span; /* Name, or m.Name as written */
        if (e->as.literal->module.text)
            named.start = e->as.literal->module.span.start;
        add_reference(builder, SPX_EDGE_USES, struct_of(e), SPX_BUILTIN_NONE, named);
    }
    spx_expr_visit_children(e, collect_expression, builder);
}

/* Whether a sorts before b: by kind, target, builtin, enum or not, then
 * source order (unique, so the order is total and any sort gives it). */
static int reference_before(const reference_t *a, const reference_t *b)
{
    if (a->kind != b->kind)
        return a->kind < b->kind;
    if (a->target != b->target) /* any fixed order of targets will do: edges are sorted later */
        return (uintptr_t)a->target < (uintptr_t)b->target;
    if (a->builtin != b->builtin)
        return a->builtin < b->builtin;
    if (a->target_is_enum != b->target_is_enum)
        return a->target_is_enum < b->target_is_enum;
    return a->order < b->order;
}

static int compare_references(const void *left, const void *right)
{
    const reference_t *a = left, *b = right;
    return reference_before(a, b) ? -1 : reference_before(b, a);
}

/* A function's few references by insertion sort (no call per compare);
 * more than SORT_BY_INSERTION of them by qsort. */
enum { SORT_BY_INSERTION = 24 };
static void sort_references(reference_t *sites, int count)
{
    if (count > SORT_BY_INSERTION) {
        qsort(sites, (size_t)count, sizeof(reference_t), compare_references);
        return;
    }
    for (int i = 1; i < count; i++) {
        reference_t moving = sites[i];
        int at = i;
        for (; at > 0 && reference_before(&moving, &sites[at - 1]); at--)
            sites[at] = sites[at - 1];
        sites[at] = moving;
    }
}

/* The node a reference's edge goes to. */
static int reference_node(builder_t *builder, const reference_t *reference)
{
    if (reference->kind == SPX_EDGE_USES)
        return reference->target_is_enum ? enum_node(builder, reference->target)
                                         : struct_node(builder, reference->target);
    if (reference->kind == SPX_EDGE_READS) {
        int known = known_node(builder, reference->target); /* a data node, or a const's */
        return known >= 0 ? known : const_node(builder, reference->target);
    }
    return reference->target ? function_node(builder, (spx_function_t *)reference->target)
                             : builtin_node(builder, reference->builtin);
}

/* One edge from the node from per kind and target of the references
 * collected, with its sites in source order; the references are then
 * forgotten. */
static void add_reference_edges(builder_t *builder, int from)
{
    apr_array_header_t *references = builder->references;
    reference_t *sites = (reference_t *)references->elts;
    sort_references(sites, references->nelts);
    for (int first = 0, end; first < references->nelts; first = end) {
        for (end = first + 1;
             end < references->nelts && sites[end].kind == sites[first].kind &&
             sites[end].target == sites[first].target && sites[end].builtin == sites[first].builtin;
             end++)
            ;
        int to = reference_node(builder, &sites[first]);
        /* At most 5 bytes a number: packed in the builder's buffer, then
         * copied (index_internal.h). */
        if (builder->packing_capacity < (size_t)(end - first) * 10) {
            builder->packing_capacity = (size_t)(end - first) * 10 * 2;
            builder->packing = apr_palloc(builder->pool, builder->packing_capacity);
        }
        uint8_t *at = builder->packing;
        uint32_t start = 0;
        for (int i = first; i < end; i++) {
            spx_index_site_t site = sites[i].site;
            at = spx_leb128_put(at, site.start >= start ? (site.start - start) * 2
                                                        : (start - site.start) * 2 - 1);
            at = spx_leb128_put(at, site.end - site.start);
            start = site.start;
        }
        add_edge(builder, from, sites[first].kind, to);
        spx_index_edge_t *edge = &builder->edges[builder->edge_count - 1];
        edge->sites = SPX_ARENA_COPY(builder->arena, uint8_t, builder->packing,
                                     (size_t)(at - builder->packing));
        edge->site_count = end - first;
    }
    references->nelts = 0;
}

/* Records what e references, in source order. The chain of unary operators
 * and left operands below e is unrolled onto builder->spine, as the checker
 * does, so a long "a + b + c + ..." costs no C stack; every other operand
 * recurses, which the parse depth (SPX_LIMIT_PARSE_DEPTH) bounds. */
static void collect_expression(void *context, const spx_expr_t *e)
{
    builder_t *builder = context;
    if (e && e->kind != SPX_EXPR_UNARY && e->kind != SPX_EXPR_BINARY) {
        collect_operand(builder, e); /* most operands: no spine */
        return;
    }
    apr_array_header_t *spine = builder->spine;
    int base = spine->nelts;
    while (e && (e->kind == SPX_EXPR_UNARY || e->kind == SPX_EXPR_BINARY)) {
        SPX_ARRAY_PUSH(spine, const spx_expr_t *) = e;
        e = e->kind == SPX_EXPR_UNARY ? e->as.unary.operand : e->as.binary.left;
    }
    if (e) /* NULL: lost to a syntax error, in a project that is not admitted */
        collect_operand(builder, e);
    while (spine->nelts > base) {
        const spx_expr_t *top = APR_ARRAY_IDX(spine, spine->nelts - 1, const spx_expr_t *);
        spine->nelts--; /* popped before recursing: the recursion reuses the slot */
        if (top->kind == SPX_EXPR_BINARY)
            collect_expression(builder, top->as.binary.right);
    }
}

/* A node's id and where the builder made it, sorted by id. */
typedef struct node_order_t {
    const char *id;
    int made;
} node_order_t;

static int compare_node_orders(const void *left, const void *right)
{
    return strcmp(((const node_order_t *)left)->id, ((const node_order_t *)right)->id);
}

/* Whether edge number a goes before edge number b of the same from node:
 * by kind, then by to (sorted positions, which follow the ids' order), then
 * in the order made. */
static int edge_before(const spx_index_edge_t *edges, int a, int b)
{
    if (edges[a].kind != edges[b].kind)
        return edges[a].kind < edges[b].kind;
    if (edges[a].to != edges[b].to)
        return edges[a].to < edges[b].to;
    return a < b;
}

/* Moves items[at] down the heap of count items until its children go
 * before it. */
static void sift_down(const spx_index_edge_t *edges, int *items, int at, int count)
{
    for (;;) {
        int child = 2 * at + 1;
        if (child >= count)
            return;
        if (child + 1 < count && edge_before(edges, items[child], items[child + 1]))
            child++;
        if (!edge_before(edges, items[at], items[child]))
            return;
        int held = items[at];
        items[at] = items[child];
        items[child] = held;
        at = child;
    }
}

/* The count edge numbers at items in edge_before's order: a heap sort, in
 * place (no scratch as large as the edges, and no quadratic case however
 * many edges one node has). */
static void sort_edge_numbers(const spx_index_edge_t *edges, int *items, int count)
{
    for (int at = count / 2 - 1; at >= 0; at--)
        sift_down(edges, items, at, count);
    for (int end = count - 1; end > 0; end--) {
        int held = items[0];
        items[0] = items[end];
        items[end] = held;
        sift_down(edges, items, 0, end);
    }
}

static int compare_node_id(const void *key, const void *node)
{
    return strcmp((const char *)key, ((const spx_index_node_t *)node)->id);
}

int spx_index_find(const spx_index_t *index, const char *id)
{
    const spx_index_node_t *node = bsearch(id, index->nodes, (size_t)index->node_count,
                                           sizeof(spx_index_node_t), compare_node_id);
    return node ? (int)(node - index->nodes) : -1;
}

/* count items for source_bytes bytes of source at one per bytes_per_item,
 * at least SPX_INDEX_FIRST_ITEMS and at most SPX_INDEX_MOST_FIRST_ITEMS. */
static int first_items(apr_size_t source_bytes, apr_size_t bytes_per_item)
{
    apr_size_t count = source_bytes / bytes_per_item;
    if (count < SPX_INDEX_FIRST_ITEMS)
        return SPX_INDEX_FIRST_ITEMS;
    return count > SPX_INDEX_MOST_FIRST_ITEMS ? SPX_INDEX_MOST_FIRST_ITEMS : (int)count;
}

spx_index_builder_t *spx_index_builder_make(apr_pool_t *pool, apr_size_t source_bytes)
{
    builder_t *builder = apr_pcalloc(pool, sizeof(*builder));
    builder->pool = pool;
    builder->first_nodes = first_items(source_bytes, SPX_INDEX_SOURCE_BYTES_PER_NODE);
    builder->first_edges = first_items(source_bytes, SPX_INDEX_SOURCE_BYTES_PER_EDGE);
    builder->arena = spx_arena_make(pool);
    spx_arena_expect(builder->arena,
                     (apr_size_t)builder->first_nodes * sizeof(spx_index_node_t) +
                         (apr_size_t)builder->first_edges * sizeof(spx_index_edge_t));
    builder->node_of = spx_word_table_make(pool);
    for (int b = SPX_BUILTIN_NONE; b <= SPX_BUILTIN_COUNT; b++)
        builder->builtin_node[b] = -1;
    builder->references = apr_array_make(pool, 64, sizeof(reference_t));
    builder->spine = apr_array_make(pool, 64, sizeof(const spx_expr_t *));
    builder->scrutinees = spx_word_table_make(pool); /* cleared for each function */
    return builder;
}

void spx_index_builder_add_calls(spx_index_builder_t *builder, const spx_module_t *module)
{
    builder->module = module;
    for (apr_size_t f = 0; f < module->function_count; f++) {
        spx_function_t *function = module->functions[f];
        spx_word_table_clear(builder->scrutinees);
        find_scrutinees(builder, &function->body);
        for (apr_size_t i = 0; i < function->param_count; i++)
            collect_type(builder, function->params[i].type_syntax);
        collect_type(builder, function->result_syntax);
        spx_block_visit(&function->body, collect_expression, collect_type, builder);
        if (builder->references->nelts)
            add_reference_edges(builder, function_node(builder, function));
    }
}

/* The module's structs and consts, their containment, the structs their
 * fields name and the consts a const reads (declarations, which stay). */
static void add_items(builder_t *builder, const spx_module_t *module, int module_position)
{
    builder->module = module;
    for (apr_size_t i = 0; i < module->struct_count; i++) {
        const spx_struct_t *structure = module->structs[i];
        int position = struct_node(builder, structure);
        add_edge(builder, module_position, SPX_EDGE_CONTAINS, position);
        for (apr_size_t f = 0; f < structure->field_count; f++)
            collect_type(builder, structure->fields[f].type_syntax);
        add_reference_edges(builder, position);
    }
    for (apr_size_t i = 0; i < module->enum_count; i++) {
        const spx_enum_t *enumeration = module->enums[i];
        int position = enum_node(builder, enumeration);
        add_edge(builder, module_position, SPX_EDGE_CONTAINS, position);
        for (apr_size_t v = 0; v < enumeration->variant_count; v++)
            for (apr_size_t k = 0; k < enumeration->variants[v].payload_count; k++)
                collect_type(builder, enumeration->variants[v].payloads[k].type_syntax);
        add_reference_edges(builder, position);
    }
    for (apr_size_t i = 0; i < module->const_count; i++) {
        const spx_const_t *constant = module->consts[i];
        int position = const_node(builder, constant);
        add_edge(builder, module_position, SPX_EDGE_CONTAINS, position);
        if (constant->value)
            collect_expression(builder, constant->value);
        add_reference_edges(builder, position);
    }
}

/* Puts the count items of size bytes at list in order: the item at
 * list + size * from[i] goes to position i. Each cycle of the permutation is
 * followed once, with one item held aside (spare, size bytes), and from[i]
 * becomes i once position i holds its item (from is scratch). In place, so
 * the index takes the builder's lists as they are, and no second copy of
 * them is made. */
static void permute(char *list, size_t size, int *from, int count, char *spare)
{
    for (int i = 0; i < count; i++) {
        if (from[i] == i)
            continue;
        memcpy(spare, list + size * (size_t)i, size);
        int at = i;
        while (from[at] != i) {
            int next = from[at];
            memcpy(list + size * (size_t)at, list + size * (size_t)next, size);
            from[at] = at;
            at = next;
        }
        memcpy(list + size * (size_t)at, spare, size);
        from[at] = at;
    }
}

/* The nodes sorted by id, and every edge's ends moved to match; the
 * scratch it takes goes back before the edges are sorted. */
static void sort_nodes(builder_t *builder, spx_index_t *index)
{
    apr_pool_t *scratch;
    apr_pool_create(&scratch, builder->pool);
    int count = builder->node_count;
    node_order_t *order = apr_palloc(scratch, ((size_t)count + 1) * sizeof(*order));
    for (int i = 0; i < count; i++) {
        order[i].id = node_at(builder, i)->id;
        order[i].made = i;
    }
    qsort(order, (size_t)count, sizeof(*order), compare_node_orders);
    int *sorted_position = apr_palloc(scratch, ((size_t)count + 1) * sizeof(int));
    int *made = apr_palloc(scratch, ((size_t)count + 1) * sizeof(int));
    for (int i = 0; i < count; i++) {
        made[i] = order[i].made;
        sorted_position[order[i].made] = i;
    }
    spx_index_node_t spare;
    permute((char *)builder->nodes, sizeof(spx_index_node_t), made, count, (char *)&spare);
    index->nodes = builder->nodes;
    index->node_count = count;
    for (int i = 0; i < builder->edge_count; i++) {
        spx_index_edge_t *edge = &builder->edges[i];
        edge->from = sorted_position[edge->from];
        edge->to = sorted_position[edge->to];
    }
    apr_pool_destroy(scratch);
}

/* The edges sorted by (from, kind, to), and each node's lists of them.
 * The edges are grouped by from with a counting sort and each group sorted
 * on its own, into the memory of the in edges' list, which is filled only
 * once the permutation is done with it: the scratch is two counts per
 * node. */
static void sort_edges(builder_t *builder, spx_index_t *index)
{
    int count = builder->edge_count;
    spx_index_edge_t *edges = builder->edges;
    apr_pool_t *scratch;
    apr_pool_create(&scratch, builder->pool);
    int *out_count = apr_pcalloc(scratch, ((size_t)index->node_count + 1) * sizeof(int));
    int *in_count = apr_pcalloc(scratch, ((size_t)index->node_count + 1) * sizeof(int));
    for (int i = 0; i < count; i++) {
        out_count[edges[i].from]++;
        in_count[edges[i].to]++;
    }
    for (int n = 0, out_first = 0, in_first = 0; n < index->node_count; n++) {
        index->nodes[n].out_first = out_first;
        index->nodes[n].out_count = 0;
        index->nodes[n].in_first = in_first;
        index->nodes[n].in_count = 0;
        out_first += out_count[n];
        in_first += in_count[n];
    }
    int *from = apr_palloc(builder->pool, ((size_t)count + 1) * sizeof(int));
    for (int i = 0; i < count; i++) {
        spx_index_node_t *node = &index->nodes[edges[i].from];
        from[node->out_first + node->out_count++] = i;
    }
    for (int n = 0; n < index->node_count; n++)
        sort_edge_numbers(edges, from + index->nodes[n].out_first, index->nodes[n].out_count);
    spx_index_edge_t spare;
    permute((char *)edges, sizeof(spx_index_edge_t), from, count, (char *)&spare);
    index->edges = edges;
    index->edge_count = count;
    index->in_edges = from; /* done with as a permutation: now the in edges */
    for (int i = 0; i < count; i++) {
        spx_index_node_t *to = &index->nodes[edges[i].to];
        index->in_edges[to->in_first + to->in_count++] = i;
    }
    apr_pool_destroy(scratch);
}

/* A struct node's field types and a const node's value, as the graph
 * renders them; the consts are evaluated by now. */
static void describe_item(builder_t *builder, spx_index_node_t *node)
{
    const spx_struct_t *structure = spx_index_node_struct(node);
    if (structure) {
        node->types =
            apr_palloc(builder->pool, (structure->field_count + 1) * sizeof(*node->types));
        for (apr_size_t i = 0; i < structure->field_count; i++)
            node->types[i] =
                spx_written_type_name(structure->fields[i].type_syntax, structure->fields[i].type,
                                      structure->module, builder->pool);
    }
    const spx_enum_t *enumeration = spx_index_node_enum(node);
    if (enumeration) {
        apr_size_t count = 0;
        for (apr_size_t v = 0; v < enumeration->variant_count; v++)
            count += enumeration->variants[v].payload_count;
        node->types = apr_palloc(builder->pool, (count + 1) * sizeof(*node->types));
        count = 0;
        for (apr_size_t v = 0; v < enumeration->variant_count; v++)
            for (apr_size_t k = 0; k < enumeration->variants[v].payload_count; k++) {
                const spx_param_t *payload = &enumeration->variants[v].payloads[k];
                node->types[count++] = spx_written_type_name(payload->type_syntax, payload->type,
                                                             enumeration->module, builder->pool);
            }
    }
    const spx_const_t *constant = spx_index_node_const(node);
    if (constant && constant->value_type == SPX_TYPE_STR) {
        node->value = constant->bytes;
        node->value_length = constant->length;
    } else if (constant) {
        node->value =
            constant->value_type == SPX_TYPE_BOOL
                ? (constant->boolean ? "true" : "false")
                : apr_psprintf(builder->pool, "%" APR_INT64_T_FMT, (apr_int64_t)constant->integer);
        node->value_length = strlen(node->value);
    }
}

spx_index_t *spx_index_build(spx_index_builder_t *builder, const spx_project_t *project)
{
    apr_pool_t *pool = builder->pool;
    for (apr_size_t m = 0; m < project->module_count; m++) {
        const spx_module_t *module = project->modules[m];
        int module_position = module_node(builder, module);
        for (apr_size_t i = 0; i < module->import_count; i++)
            add_edge(builder, module_position, SPX_EDGE_IMPORTS,
                     module_node(builder, module->imports[i].target));
        for (apr_size_t f = 0; f < module->function_count; f++)
            add_edge(builder, module_position, SPX_EDGE_CONTAINS,
                     function_node(builder, module->functions[f]));
        add_items(builder, module, module_position);
    }
    for (int i = 0; i < builder->node_count; i++)
        describe_item(builder, node_at(builder, i));
    /* A single source is served by transport v1, whose bytes are frozen. */
    for (int b = SPX_BUILTIN_NONE + 1; !project->manifest && b <= SPX_BUILTIN_COUNT; b++)
        if (builder->builtin_node[b] >= 0 && spx_builtin_info((spx_builtin_t)b)->v1_signature)
            node_at(builder, builder->builtin_node[b])->signature =
                spx_builtin_info((spx_builtin_t)b)->v1_signature;
    const spx_manifest_t *manifest = project->manifest; /* NULL for a single source */
    for (apr_size_t t = 0; manifest && t < manifest->test_count; t++) {
        int test = add_node(builder, apr_pstrcat(pool, "test:", manifest->tests[t].name, NULL),
                            "test", manifest->tests[t].name);
        add_edge(builder, test, SPX_EDGE_TESTS, function_node(builder, project->tests[t]));
    }
    if (project->entry)
        add_edge(builder, add_node(builder, "entry", "entry", NULL), SPX_EDGE_ENTERS,
                 function_node(builder, project->entry));
    for (apr_size_t d = 0; d < project->data_entry_count; d++)
        data_node(builder, &project->data_entries[d]);

    spx_index_t *index = apr_pcalloc(pool, sizeof(*index));
    sort_nodes(builder, index);
    sort_edges(builder, index);
    return index;
}

const spx_span_t *spx_index_item_span(const spx_index_node_t *node)
{
    switch ((spx_index_item_kind_t)node->item_kind) {
    case SPX_INDEX_ITEM_FUNCTION:
        return &node->item.function->span;
    case SPX_INDEX_ITEM_STRUCT:
        return &node->item.structure->span;
    case SPX_INDEX_ITEM_CONST:
        return &node->item.constant->span;
    case SPX_INDEX_ITEM_ENUM:
        return &node->item.enumeration->span;
    case SPX_INDEX_ITEM_NONE:
    case SPX_INDEX_ITEM_DATA:
        break;
    }
    return NULL;
}

void spx_graph_shape(const spx_project_t *project, spx_graph_shape_t *shape, apr_pool_t *pool)
{
    const spx_index_t *index = project->index;
    memset(shape, 0, sizeof(*shape));
    if (!index)
        return; /* not admitted, or diagnostics only: nothing to count */
    shape->nodes = (apr_size_t)index->node_count;
    shape->edges = (apr_size_t)index->edge_count;
    spx_graph_module_t *modules =
        apr_pcalloc(pool, ((apr_size_t)index->node_count + 1) * sizeof(*modules));
    for (int i = 0; i < index->node_count; i++) {
        const spx_index_node_t *node = &index->nodes[i];
        if (strcmp(node->kind, "function") == 0)
            shape->functions++;
        else if (strcmp(node->kind, "struct") == 0)
            shape->structs++;
        else if (strcmp(node->kind, "const") == 0)
            shape->consts++;
        else if (strcmp(node->kind, "test") == 0)
            shape->tests++;
        else if (strcmp(node->kind, "builtin") == 0)
            shape->builtins++;
        if (strcmp(node->kind, "module") != 0)
            continue;
        spx_graph_module_t *module = &modules[shape->modules++];
        module->name = node->name;
        module->path = node->module->path;
        module->imports =
            apr_palloc(pool, ((apr_size_t)node->out_count + 1) * sizeof(*module->imports));
        for (int e = 0; e < node->out_count; e++) {
            const spx_index_edge_t *edge = &index->edges[node->out_first + e];
            if (edge->kind == SPX_EDGE_IMPORTS)
                module->imports[module->import_count++] = index->nodes[edge->to].name;
        }
    }
    for (int e = 0; e < index->edge_count; e++)
        if (index->edges[e].kind == SPX_EDGE_IMPORTS)
            shape->imports++;
    shape->module_list = modules;
}
