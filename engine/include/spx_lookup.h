/*
 * spx_lookup.h: position queries over a retained project, the engine's
 * answers to an editor (docs/lookup.md): what is at a byte offset of a
 * source, its definition, its references, its hover text, a source's
 * symbols, the project's symbols by name, completion, signature help and
 * semantic tokens. Each answer is typed (no JSON) and lives in the caller's
 * pool; every list is bounded by a limit of spx_limits.h and says when it
 * was cut.
 *
 * A source is named by its number in the project's manifest order (0 to
 * spx_project_module_count - 1) and an offset is a byte offset into the
 * bytes the project was built from (spx_project_rebuild gives a project
 * over an editor's texts). Phase A keeps no function bodies, so the queries
 * that need them (at, definition, references, hover, completion, semantic
 * tokens) parse and check the one source again, with the modules it
 * imports, in a scratch pool given back before they return (references:
 * the sources that spell the name, in one pass over the project):
 * docs/lookup.md gives the cost.
 */
#ifndef SPX_LOOKUP_H
#define SPX_LOOKUP_H

#include "spx_diagnostics.h"
#include "spx_project.h"

#include <apr_pools.h>

/* No source: a builtin's, or a name no source has. */
#define SPX_LOOKUP_NO_SOURCE ((apr_size_t)-1)

/* A source of the project by number: its module's name, its path (as the
 * manifest gives it, relative to the project's root), and the bytes the
 * project was built from (NULL past the last source); the number of the
 * source whose path or module is name, or SPX_LOOKUP_NO_SOURCE. */
const char *spx_lookup_source_module(const spx_project_t *project, apr_size_t source);
const char *spx_lookup_source_path(const spx_project_t *project, apr_size_t source);
const unsigned char *spx_lookup_source_text(const spx_project_t *project, apr_size_t source,
                                            apr_size_t *length);
apr_size_t spx_lookup_source_named(const spx_project_t *project, const char *name);

/* What a name names. */
typedef enum spx_lookup_kind_t {
    SPX_LOOKUP_MODULE = 0,
    SPX_LOOKUP_FUNCTION,
    SPX_LOOKUP_STRUCT,
    SPX_LOOKUP_ENUM,
    SPX_LOOKUP_VARIANT,
    SPX_LOOKUP_CONST,
    SPX_LOOKUP_FIELD,
    SPX_LOOKUP_LOCAL,
    SPX_LOOKUP_PARAMETER,
    SPX_LOOKUP_BUILTIN, /* a builtin function or method: declared nowhere */
    SPX_LOOKUP_TEST,    /* document symbols only: a manifest test of the source */
    SPX_LOOKUP_KEYWORD  /* completion only */
} spx_lookup_kind_t;

/* The kind's word: "module", "function", "struct", "enum", "variant",
 * "const", "field", "local", "parameter", "builtin", "test", "keyword". */
const char *spx_lookup_kind_name(spx_lookup_kind_t kind);

/* A declared thing. Two symbols are the same thing exactly when
 * spx_lookup_same says so. */
typedef struct spx_lookup_symbol_t {
    spx_lookup_kind_t kind;
    const char *name;
    /* The declaring module's name (a module's own); NULL for a builtin. */
    const char *module;
    /* The struct of a field, the enum of a variant, the function of a local
     * or parameter; else NULL. */
    const char *container;
    /* Where it is declared: the source's number and its name's span. A
     * module is declared by its whole source: span is empty at offset 0.
     * A builtin: SPX_LOOKUP_NO_SOURCE and a zero span. */
    apr_size_t source;
    spx_span_t span;
} spx_lookup_symbol_t;

int spx_lookup_same(const spx_lookup_symbol_t *a, const spx_lookup_symbol_t *b);

/* One place a symbol is written. */
typedef struct spx_lookup_site_t {
    apr_size_t source;
    spx_span_t span; /* the name as written */
    int declaration; /* 1 where the symbol is declared */
} spx_lookup_site_t;

/* How a query went. */
typedef enum spx_lookup_status_t {
    SPX_LOOKUP_FOUND = 0,
    SPX_LOOKUP_NOTHING,    /* no name at the offset (whitespace, a comment, a literal...) */
    SPX_LOOKUP_BAD_SOURCE, /* source is not a number of the project's sources */
    SPX_LOOKUP_BAD_OFFSET  /* offset is past the source's last byte */
} spx_lookup_status_t;

/* What is at offset: the name whose bytes hold it (from its first byte to
 * its last) and what it names. */
typedef struct spx_lookup_at_t {
    spx_lookup_symbol_t symbol;
    spx_lookup_site_t site;
} spx_lookup_at_t;

spx_lookup_status_t spx_lookup_at(const spx_project_t *project, apr_size_t source,
                                  apr_size_t offset, spx_lookup_at_t *at, apr_pool_t *pool);

/* The declaration of what is at offset (locals and parameters included):
 * *site is where its name is declared. NOTHING for a builtin. */
spx_lookup_status_t spx_lookup_definition(const spx_project_t *project, apr_size_t source,
                                          apr_size_t offset, spx_lookup_site_t *site,
                                          apr_pool_t *pool);

/* Every site in the project that names what is at offset, by source
 * number then offset, the declaration included when include_declaration;
 * at most SPX_LIMIT_LOOKUP_REFERENCES (truncated says when more were
 * left out). */
typedef struct spx_lookup_references_t {
    spx_lookup_symbol_t symbol;
    spx_lookup_site_t *sites;
    apr_size_t count;
    int truncated;
} spx_lookup_references_t;

spx_lookup_status_t spx_lookup_references(const spx_project_t *project, apr_size_t source,
                                          apr_size_t offset, int include_declaration,
                                          spx_lookup_references_t *references, apr_pool_t *pool);

/* Hover: what is at offset, its declaration as the graph's outline words
 * it ("export fn fib(n: int) -> int", "struct Point { x: int, y: int }",
 * "const LIMIT: int = 10", "module app (src/app.spx)"; a local "let x:
 * int" or "var x: [int]", a parameter "n: int", a field "Point.x: int", a
 * variant "Shape.Box(int, int)", a builtin "builtin fn len(...)"), and the
 * // lines right above its declaration, without their "//" and one space
 * after it, joined by LF (NULL when there are none), at most
 * SPX_LIMIT_LOOKUP_COMMENT_BYTES. */
typedef struct spx_lookup_hover_t {
    spx_lookup_symbol_t symbol;
    spx_lookup_site_t site;
    const char *declaration;
    const char *comment;
} spx_lookup_hover_t;

spx_lookup_status_t spx_lookup_hover(const spx_project_t *project, apr_size_t source,
                                     apr_size_t offset, spx_lookup_hover_t *hover,
                                     apr_pool_t *pool);

/* A declared item of a source: its kind (function, struct, enum, const,
 * test, and the field and variant members), name, whole span, name span,
 * and parent (the number of its struct or enum in the same list; -1 for an
 * item). Tests are the manifest's, spanning their function. */
typedef struct spx_lookup_item_t {
    spx_lookup_kind_t kind;
    const char *name;
    const char *module;
    apr_size_t source;
    spx_span_t span;
    spx_span_t name_span;
    long parent;
    /* Document symbols only: the item as declared, in one line (a hover's
     * wording: "export fn fib(n: int) -> int", "x: int", "Circle(int)"; a
     * test's function); NULL for workspace symbols. */
    const char *declaration;
} spx_lookup_item_t;

typedef struct spx_lookup_items_t {
    spx_lookup_item_t *items;
    apr_size_t count;
    int truncated;
} spx_lookup_items_t;

/* A source's items in source order, each struct followed by its fields and
 * each enum by its variants, then its tests; at most
 * SPX_LIMIT_LOOKUP_SYMBOLS. */
spx_lookup_status_t spx_lookup_document_symbols(const spx_project_t *project, apr_size_t source,
                                                spx_lookup_items_t *items, apr_pool_t *pool);

/* The items (functions, structs, enums, consts) of every source whose name
 * contains query, ASCII letters compared without case, by source number
 * then source order; at most max (and SPX_LIMIT_LOOKUP_SYMBOLS). An empty
 * query matches every item. */
void spx_lookup_workspace_symbols(const spx_project_t *project, const char *query, apr_size_t max,
                                  spx_lookup_items_t *items, apr_pool_t *pool);

/* One completion: the name to insert, what it is, and a detail (a
 * signature or a type; NULL when there is none). */
typedef struct spx_lookup_completion_t {
    const char *label;
    spx_lookup_kind_t kind;
    const char *detail;
} spx_lookup_completion_t;

/* Completion at offset: prefix is the part of a name already written
 * before offset; after "m." the exported items of the imported module m;
 * after "E." or "m.E." the variants of
 * the enum E (of the module, or of the imported module m); after "x." the fields of x's struct
 * type or the library's methods of its type (str, array, map, int);
 * otherwise the names in scope: the locals and parameters declared before
 * offset and still visible, the module's items, its imported modules, the
 * builtins and the keywords. Only names starting with prefix, at most
 * SPX_LIMIT_LOOKUP_COMPLETIONS. */
typedef struct spx_lookup_completions_t {
    const char *prefix;
    spx_lookup_completion_t *list;
    apr_size_t count;
    int truncated;
} spx_lookup_completions_t;

spx_lookup_status_t spx_lookup_complete(const spx_project_t *project, apr_size_t source,
                                        apr_size_t offset, spx_lookup_completions_t *completions,
                                        apr_pool_t *pool);

/* Signature help: the innermost call whose "(" is before offset and not
 * closed before it; label is the callee's declaration ("fn add(a: int, b:
 * int) -> int", "Shape.Box(int, int)"), each parameter's bytes in label
 * (parameter_starts, parameter_ends), and the active argument (the number
 * of top-level commas between "(" and offset). */
typedef struct spx_lookup_signature_t {
    spx_lookup_symbol_t symbol;
    const char *label;
    apr_size_t parameter_count;
    apr_size_t *parameter_starts;
    apr_size_t *parameter_ends;
    apr_size_t active;
} spx_lookup_signature_t;

spx_lookup_status_t spx_lookup_signature(const spx_project_t *project, apr_size_t source,
                                         apr_size_t offset, spx_lookup_signature_t *signature,
                                         apr_pool_t *pool);

/* A semantic token's kind. */
typedef enum spx_lookup_token_kind_t {
    SPX_TOKEN_KIND_KEYWORD = 0,
    SPX_TOKEN_KIND_FUNCTION, /* functions and builtins */
    SPX_TOKEN_KIND_TYPE,     /* structs, and int, bool, str */
    SPX_TOKEN_KIND_ENUM,
    SPX_TOKEN_KIND_VARIANT,
    SPX_TOKEN_KIND_CONST,
    SPX_TOKEN_KIND_PARAMETER,
    SPX_TOKEN_KIND_LOCAL,
    SPX_TOKEN_KIND_FIELD,
    SPX_TOKEN_KIND_MODULE,
    SPX_TOKEN_KIND_STRING, /* string and byte literals */
    SPX_TOKEN_KIND_NUMBER,
    SPX_TOKEN_KIND_COMMENT, /* a // comment, to its line's end */
    SPX_TOKEN_KIND_OPERATOR
} spx_lookup_token_kind_t;

const char *spx_lookup_token_kind_name(spx_lookup_token_kind_t kind);

typedef struct spx_lookup_token_t {
    spx_span_t span;
    spx_lookup_token_kind_t kind;
    int declaration; /* the name is declared here */
} spx_lookup_token_t;

/* Every token of a source in order, with its comments; brackets and
 * separators ( ) { } [ ] , ; : . are not tokens of this list, nor are names
 * that resolve to nothing. At most SPX_LIMIT_LOOKUP_TOKENS. */
typedef struct spx_lookup_tokens_t {
    spx_lookup_token_t *tokens;
    apr_size_t count;
    int truncated;
} spx_lookup_tokens_t;

spx_lookup_status_t spx_lookup_tokens(const spx_project_t *project, apr_size_t source,
                                      spx_lookup_tokens_t *tokens, apr_pool_t *pool);

#endif /* SPX_LOOKUP_H */
