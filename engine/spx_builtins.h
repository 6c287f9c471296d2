/*
 * spx_builtins.h: the builtins of Semaprax, each defined once (language.md,
 * "Builtins"), as one X-macro row per builtin:
 *
 *   X(ID, name, form, since, arity, optional, first, second, arrays, result,
 *     signature, v1_signature)
 *
 *   ID            the builtin is SPX_BUILTIN_<ID> (spx_builtin_t, spx_ast.h)
 *   name          as written in a program
 *   form          CALL: called as name(...); the checker resolves and
 *                 suggests it, and no function may take its name (E0306,
 *                 rename's name_is_builtin). METHOD: a method e.name(...) of its
 *                 receiver's type, typed by the checker's method table
 *                 (checker_methods.c); a function may take its name
 *   since         the language version that added it: 1, 2 or 3 (E0306's and
 *                 rename's "since language v2")
 *   arity         the most arguments it takes (a METHOD's: after its receiver;
 *                 assert_eq: its two values, its optional message and its
 *                 typing being checker_assert_eq.c's)
 *   optional      how many of the last ones may be left out
 *   first, second the types of its arguments (SPX_TYPE_<T>; UNIT: none);
 *                 ERROR for a METHOD, whose types come from its receiver
 *   arrays        1 when its first argument may be an array instead
 *   result        the type it gives (SPX_TYPE_<T>; ERROR for args, whose
 *                 [str] the checker makes)
 *   signature     its builtin node's signature in the semantic graph
 *   v1_signature  transport v1's, byte-frozen since before language v2, where
 *                 it differs (a single source's graph), or NULL
 *
 * Rows are in spx_builtin_t's order, which orders the graph's builtin
 * edges; a new builtin goes at the end. builtins.c expands the rows into the
 * table the checker, the index and rename read (spx_builtin_info,
 * spx_builtin_called); its implementation is the compiler's (compile.c,
 * compile_call) and the VM's.
 */
#ifndef SPX_BUILTINS_H
#define SPX_BUILTINS_H

#define SPX_BUILTINS(X)                                                                            \
    X(PRINT, "print", CALL, 1, 1, 0, STR, UNIT, 0, UNIT, "fn(s: str)", NULL)                       \
    X(ITOS, "itos", CALL, 1, 1, 0, INT, UNIT, 0, STR, "fn(i: int) -> str", NULL)                   \
    X(LEN, "len", CALL, 1, 1, 0, STR, UNIT, 1, INT, "fn(x: str | [T] | {K: V}) -> int",            \
      "fn(s: str) -> int")                                                                         \
    X(ASSERT, "assert", CALL, 1, 2, 1, BOOL, STR, 0, UNIT, "fn(c: bool, message: str)",            \
      "fn(c: bool)")                                                                               \
    X(CHR, "chr", CALL, 2, 1, 0, INT, UNIT, 0, STR, "fn(c: int) -> str", NULL)                     \
    X(STOI, "stoi", CALL, 2, 1, 0, STR, UNIT, 0, INT, "fn(s: str) -> int", NULL)                   \
    X(PUSH, "push", METHOD, 2, 1, 0, ERROR, ERROR, 0, ERROR, "fn(a: [T], v: T)", NULL)             \
    X(POP, "pop", METHOD, 2, 0, 0, ERROR, ERROR, 0, ERROR, "fn(a: [T]) -> T", NULL)                \
    X(SPLIT, "split", METHOD, 3, 1, 0, ERROR, ERROR, 0, ERROR, "fn(s: str, sep: str) -> [str]",    \
      NULL)                                                                                        \
    X(JOIN, "join", METHOD, 3, 1, 0, ERROR, ERROR, 0, ERROR, "fn(parts: [str], sep: str) -> str",  \
      NULL)                                                                                        \
    X(FIND, "find", METHOD, 3, 1, 0, ERROR, ERROR, 0, ERROR, "fn(s: str, t: str) -> int", NULL)    \
    X(CONTAINS, "contains", METHOD, 3, 1, 0, ERROR, ERROR, 0, ERROR,                               \
      "fn(x: str | [T], v: str | T) -> bool", NULL)                                                \
    X(STARTS_WITH, "starts_with", METHOD, 3, 1, 0, ERROR, ERROR, 0, ERROR,                         \
      "fn(s: str, t: str) -> bool", NULL)                                                          \
    X(ENDS_WITH, "ends_with", METHOD, 3, 1, 0, ERROR, ERROR, 0, ERROR,                             \
      "fn(s: str, t: str) -> bool", NULL)                                                          \
    X(TRIM, "trim", METHOD, 3, 0, 0, ERROR, ERROR, 0, ERROR, "fn(s: str) -> str", NULL)            \
    X(LOWER, "lower", METHOD, 3, 0, 0, ERROR, ERROR, 0, ERROR, "fn(s: str) -> str", NULL)          \
    X(UPPER, "upper", METHOD, 3, 0, 0, ERROR, ERROR, 0, ERROR, "fn(s: str) -> str", NULL)          \
    X(REPLACE, "replace", METHOD, 3, 2, 0, ERROR, ERROR, 0, ERROR,                                 \
      "fn(s: str, old: str, new: str) -> str", NULL)                                               \
    X(REPEAT, "repeat", METHOD, 3, 1, 0, ERROR, ERROR, 0, ERROR, "fn(s: str, count: int) -> str",  \
      NULL)                                                                                        \
    X(SORT, "sort", METHOD, 3, 0, 0, ERROR, ERROR, 0, ERROR, "fn(a: [T])", NULL)                   \
    X(REVERSE, "reverse", METHOD, 3, 0, 0, ERROR, ERROR, 0, ERROR, "fn(a: [T])", NULL)             \
    X(INSERT, "insert", METHOD, 3, 2, 0, ERROR, ERROR, 0, ERROR, "fn(a: [T], at: int, v: T)",      \
      NULL)                                                                                        \
    X(REMOVE, "remove", METHOD, 3, 1, 0, ERROR, ERROR, 0, ERROR,                                   \
      "fn(x: [T] | {K: V}, at: int | K) -> T | bool", NULL)                                        \
    X(INDEX_OF, "index_of", METHOD, 3, 1, 0, ERROR, ERROR, 0, ERROR, "fn(a: [T], v: T) -> int",    \
      NULL)                                                                                        \
    X(ABS, "abs", METHOD, 3, 0, 0, ERROR, ERROR, 0, ERROR, "fn(x: int) -> int", NULL)              \
    X(MIN, "min", METHOD, 3, 1, 0, ERROR, ERROR, 0, ERROR, "fn(x: int, y: int) -> int", NULL)      \
    X(MAX, "max", METHOD, 3, 1, 0, ERROR, ERROR, 0, ERROR, "fn(x: int, y: int) -> int", NULL)      \
    X(ASSERT_EQ, "assert_eq", CALL, 3, 2, 0, ERROR, ERROR, 0, UNIT,                                \
      "fn(left: T, right: T, message: str)", NULL)                                                 \
    X(HAS, "has", METHOD, 3, 1, 0, ERROR, ERROR, 0, BOOL, "fn(m: {K: V}, key: K) -> bool", NULL)   \
    X(GET, "get", METHOD, 3, 2, 0, ERROR, ERROR, 0, ERROR,                                         \
      "fn(m: {K: V}, key: K, default: V) -> V", NULL)                                              \
    X(KEYS, "keys", METHOD, 3, 0, 0, ERROR, ERROR, 0, ERROR, "fn(m: {K: V}) -> [K]", NULL)         \
    X(VALUES, "values", METHOD, 3, 0, 0, ERROR, ERROR, 0, ERROR, "fn(m: {K: V}) -> [V]", NULL)     \
    X(READ_DATA, "read_data", CALL, 3, 1, 0, STR, UNIT, 0, STR, "fn(name: str) -> str", NULL)      \
    X(ARGS, "args", CALL, 3, 0, 0, UNIT, UNIT, 0, ERROR, "fn() -> [str]", NULL)

#endif /* SPX_BUILTINS_H */
