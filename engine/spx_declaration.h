/*
 * spx_declaration.h: the one wording of a declaration as a person reads it
 * in one line ("export fn fib(n: int) -> int", "struct Point { x: int, y:
 * int }", "const LIMIT: int = 10"): what a hover shows (lookup.c) and what
 * the outline of `semaprax graph --format text` and `context --format
 * text` prints for a graph node (spx_graph_declaration, index_walk.c), so
 * the two cannot word an item differently. Private to the engine.
 */
#ifndef SPX_DECLARATION_H
#define SPX_DECLARATION_H

#include "spx_ast.h"

#include <apr_pools.h>

const char *spx_declaration_function(const spx_function_t *function, apr_pool_t *pool);
const char *spx_declaration_struct(const spx_struct_t *structure, apr_pool_t *pool);
const char *spx_declaration_enum(const spx_enum_t *enumeration, apr_pool_t *pool);
/* A variant as its enum declares it: "Circle(int)", "Empty". */
const char *spx_declaration_variant(const spx_enum_t *enumeration, const spx_variant_t *variant,
                                    apr_pool_t *pool);
/* With its value once the checker has evaluated it, a str's quoted and
 * escaped (spx_declaration_escaped). */
const char *spx_declaration_const(const spx_const_t *constant, apr_pool_t *pool);
/* "builtin fn len(x: str) -> int", or "builtin NAME" for a name no row has. */
const char *spx_declaration_builtin(const char *name, apr_pool_t *pool);
const char *spx_declaration_module(const spx_module_t *module, apr_pool_t *pool);

/* bytes[0..length) as one line a person reads: printable UTF-8 as it is; a
 * quote and a backslash escaped when quoted (and the quotes around it); a
 * control byte, an invalid byte and every line end as an escape (\n, \t,
 * \r, \xNN); a character a terminal would take for a control rather than
 * draw (a C1 control, a byte order mark, a bidirectional override or
 * isolate) as \u{H}. */
const char *spx_declaration_escaped(const char *bytes, apr_size_t length, int quoted,
                                    apr_pool_t *pool);

#endif /* SPX_DECLARATION_H */
