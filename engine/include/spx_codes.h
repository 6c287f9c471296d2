/*
 * spx_codes.h: every code Semaprax reports, each once, with a short title.
 *
 * Two X-macro tables, one per code space, in ascending order:
 *   SPX_DIAGNOSTIC_CODES  E01xx manifest, E02xx lexical and syntax, E03xx
 *                         names and imports, E04xx types, W06xx warnings
 *                         (the diagnostics; a W code is a warning)
 *   SPX_RUNTIME_CODES     R05xx: why a run or test stopped (the `failure` of
 *                         an execution envelope, docs/execution.md)
 * Each row is X(CODE, "title"). CODE is the code as printed ("E0101" is its
 * name) and gives the enumerator SPX_CODE (SPX_E0101); the title says in a
 * few words what the rule is, after docs/diagnostics.md, which explains every
 * code with a program that gives it. Reporters name a code by its
 * enumerator; its text comes from the table alone. tests/engine/test_codes.c
 * checks that the tables and docs/diagnostics.md list the same codes.
 *
 * Adding a code: a row here (in order) and a row and an example in
 * docs/diagnostics.md.
 */
#ifndef SPX_CODES_H
#define SPX_CODES_H

#define SPX_DIAGNOSTIC_CODES(X)                                                                    \
    /* the manifest (docs/manifest-parser.md) */                                                   \
    X(E0101, "byte order mark after the start")                                                    \
    X(E0102, "CR not followed by LF")                                                              \
    X(E0103, "NUL byte")                                                                           \
    X(E0104, "invalid UTF-8")                                                                      \
    X(E0105, "manifest over the size limit")                                                       \
    X(E0106, "line starts with '=': no key")                                                       \
    X(E0107, "key that is not a bare key")                                                         \
    X(E0108, "dotted key or dotted table name")                                                    \
    X(E0109, "key without '='")                                                                    \
    X(E0110, "string not closed on its line")                                                      \
    X(E0111, "invalid escape in a string")                                                         \
    X(E0112, "control character in a string")                                                      \
    X(E0113, "more than a comment after a value or header")                                        \
    X(E0114, "value that is not a string, or no value")                                            \
    X(E0115, "inline table")                                                                       \
    X(E0116, "literal string")                                                                     \
    X(E0117, "multi-line string")                                                                  \
    X(E0118, "malformed table header")                                                             \
    X(E0119, "control character in a comment")                                                     \
    X(E0120, "manifest key missing or inside a table")                                             \
    X(E0121, "manifest value is not semaprax.project-manifest.v1")                                 \
    X(E0122, "no [project] table")                                                                 \
    X(E0123, "second [project] table")                                                             \
    X(E0124, "[project] after another table")                                                      \
    X(E0125, "unknown table")                                                                      \
    X(E0126, "unknown key")                                                                        \
    X(E0127, "key given twice in one table")                                                       \
    X(E0128, "required key missing")                                                               \
    X(E0129, "no [[source]]")                                                                      \
    X(E0130, "invalid project name")                                                               \
    X(E0131, "version is not MAJOR.MINOR.PATCH")                                                   \
    X(E0132, "entry is not MODULE.FUNCTION")                                                       \
    X(E0133, "entry names an undeclared module")                                                   \
    X(E0134, "invalid module name")                                                                \
    X(E0135, "two sources declare one module")                                                     \
    X(E0136, "two sources declare one path")                                                       \
    X(E0137, "source path breaks a path rule")                                                     \
    X(E0138, "invalid test name")                                                                  \
    X(E0139, "two tests share a name")                                                             \
    X(E0140, "test function is not MODULE.FUNCTION")                                               \
    X(E0141, "test function names an undeclared module")                                           \
    X(E0142, "too many [[source]] tables")                                                         \
    X(E0143, "too many [[test]] tables")                                                           \
    X(E0144, "too many problems in the manifest; the rest are not reported")                       \
    X(E0145, "manifest v2 feature in a v1 manifest")                                               \
    X(E0146, "invalid data name")                                                                  \
    X(E0147, "two data entries share a name")                                                      \
    X(E0148, "data path breaks a path rule")                                                       \
    X(E0149, "data path already declared")                                                         \
    /* linking the entry and tests; inputs */                                                      \
    X(E0150, "entry or test function is not fn() -> int")                                          \
    X(E0151, "entry or test function not declared")                                                \
    X(E0152, "too many [[data]] tables")                                                           \
    X(E0153, "limit value is not a decimal integer")                                               \
    X(E0154, "limit value out of range")                                                           \
    X(E0155, "data file is not valid UTF-8")                                                       \
    X(E0156, "second [limits] table")                                                              \
    X(E0160, "input cannot be authenticated")                                                      \
    /* lexical and syntax (docs/diagnostics-syntax.md) */                                          \
    X(E0201, "source file over the size limit")                                                    \
    X(E0202, "NUL byte")                                                                           \
    X(E0203, "invalid UTF-8")                                                                      \
    X(E0204, "CR not followed by LF")                                                              \
    X(E0205, "control byte")                                                                       \
    X(E0206, "character that starts no token")                                                     \
    X(E0207, "identifier too long")                                                                \
    X(E0208, "integer literal with a leading zero")                                                \
    X(E0209, "integer literal too large")                                                          \
    X(E0210, "string literal not closed before the end of the file")                               \
    X(E0211, "string literal not closed on its line")                                              \
    X(E0212, "unknown escape sequence")                                                            \
    X(E0213, "malformed \\u escape")                                                               \
    X(E0214, "\\u{...} that is no Unicode scalar value")                                           \
    X(E0215, "byte order mark after the start")                                                    \
    X(E0216, "malformed integer literal")                                                          \
    X(E0220, "syntax error: expected one thing, found another")                                    \
    X(E0221, "chained relational comparison")                                                      \
    X(E0222, "chained equality comparison")                                                        \
    X(E0223, "import after an item")                                                               \
    X(E0224, "expected a type")                                                                    \
    X(E0225, "nesting too deep")                                                                   \
    X(E0226, "too many functions in one module")                                                   \
    X(E0227, "too many syntax errors in one file; the rest is not read")                           \
    X(E0228, "keyword since language v2 used as a name")                                           \
    X(E0229, "left side of '=' is not a place")                                                    \
    X(E0230, "struct name does not start with a capital letter")                                   \
    X(E0231, "malformed byte literal")                                                             \
    /* names and imports (docs/diagnostics-checker.md) */                                          \
    X(E0301, "import of a module the manifest does not declare")                                   \
    X(E0302, "module imported twice")                                                              \
    X(E0303, "module imports itself")                                                              \
    X(E0304, "import cycle")                                                                       \
    X(E0305, "function defined twice in one module")                                               \
    X(E0306, "function takes a builtin's name")                                                    \
    X(E0307, "parameter or local declared twice")                                                  \
    X(E0308, "name is not a visible parameter or local")                                           \
    X(E0309, "unknown function")                                                                   \
    X(E0310, "call into a module that is not imported")                                            \
    X(E0311, "call of a function that is not exported")                                            \
    X(E0312, "assignment to a let or a parameter")                                                 \
    X(E0313, "break or continue outside a loop")                                                   \
    X(E0314, "name defined twice in one module's functions, structs and consts")                   \
    X(E0315, "const cycle")                                                                        \
    X(E0316, "unknown const")                                                                      \
    X(E0317, "const of another module that is not exported")                                       \
    X(E0318, "local takes the name of a const or struct of its module")                            \
    X(E0319, "unknown struct")                                                                     \
    X(E0320, "struct of another module that is not exported")                                      \
    X(E0321, "exported item mentions a struct that is not exported")                               \
    X(E0322, "field declared twice in one struct")                                                 \
    X(E0323, "struct contains itself by value")                                                    \
    X(E0324, "read_data's argument is not a string literal")                                       \
    X(E0325, "read_data names no declared data entry")                                             \
    X(E0326, "pattern or constructor names a variant the enum does not have")                      \
    X(E0327, "variant declared twice in one enum")                                                 \
    /* types and return paths */                                                                   \
    X(E0401, "annotation differs from the value's type")                                           \
    X(E0402, "unit value used as a value")                                                         \
    X(E0403, "wrong number of arguments")                                                          \
    X(E0404, "argument of the wrong type")                                                         \
    X(E0405, "operands of the wrong types")                                                        \
    X(E0406, "condition is not bool")                                                              \
    X(E0407, "returned value of the wrong type")                                                   \
    X(E0408, "return without a value in a function with a result type")                            \
    X(E0409, "return with a value in a unit function")                                             \
    X(E0410, "function with a result type can end without return")                                 \
    X(E0411, "assigned value of the wrong type")                                                   \
    X(E0412, "range bound is not int")                                                             \
    X(E0413, "for over a value that is not an array")                                              \
    X(E0414, "const of a type other than int, bool and str")                                       \
    X(E0415, "const expression fails at check time")                                               \
    X(E0416, "const expression holds a call, index, slice, field or literal")                      \
    X(E0417, "index or slice of a value that has none")                                            \
    X(E0418, "index or slice bound is not int")                                                    \
    X(E0419, "field of a value that has no fields")                                                \
    X(E0420, "method that the receiver's type does not have")                                      \
    X(E0421, "writing method on what is not a variable or part of one")                            \
    X(E0422, "assignment through a str")                                                           \
    X(E0423, "array literal without an element type")                                              \
    X(E0424, "struct literal names a field the struct does not have")                              \
    X(E0425, "struct literal gives a field twice")                                                 \
    X(E0426, "struct literal lacks a field")                                                       \
    X(E0427, "struct literal field value of the wrong type")                                       \
    X(E0428, "array literal element of the wrong type")                                            \
    X(E0429, "match on a value that is not an enum")                                               \
    X(E0430, "match that does not cover every variant")                                            \
    X(E0431, "variant matched twice")                                                              \
    X(E0432, "arm after a '_' arm")                                                                \
    X(E0433, "pattern binds other than its variant's payload count")                               \
    X(E0434, "map key type other than int, str and bool")                                          \
    X(E0435, "map literal without key and value types")                                            \
    X(E0436, "map literal entry of the wrong type")                                                \
    X(E0437, "literal or const key given twice in a map literal")                                  \
    X(E0438, "sort on an array of another element type than int, str or bool")                     \
    /* warnings: never stop admission (docs/diagnostics-checker.md) */                             \
    X(W0601, "import that nothing uses")                                                           \
    X(W0602, "parameter or local that is never used")                                              \
    X(W0603, "statement that can never run")                                                       \
    X(W0604, "private function that nothing calls or tests")                                       \
    X(W0605, "'_' arm after arms that name every variant")

#define SPX_RUNTIME_CODES(X)                                                                       \
    X(R0501, "integer overflow")                                                                   \
    X(R0502, "integer overflow in a negation")                                                     \
    X(R0503, "division by zero")                                                                   \
    X(R0504, "remainder by zero")                                                                  \
    X(R0505, "integer overflow in a division")                                                     \
    X(R0506, "string too long")                                                                    \
    X(R0508, "assertion failed")                                                                   \
    X(R0509, "fuel exhausted")                                                                     \
    X(R0510, "call depth exhausted")                                                               \
    X(R0511, "index out of range")                                                                 \
    X(R0512, "slice out of range")                                                                 \
    X(R0513, "string slice not on a character boundary")                                           \
    X(R0514, "pop of an empty array")                                                              \
    X(R0515, "chr of a non-scalar")                                                                \
    X(R0516, "stoi of bad text")                                                                   \
    X(R0517, "shift count out of range")                                                           \
    X(R0518, "shift overflow")                                                                     \
    X(R0519, "array longer than the array limit")                                                  \
    X(R0520, "stoi out of range")                                                                  \
    X(R0521, "memory limit exceeded")                                                              \
    X(R0522, "key not in the map")                                                                 \
    X(R0523, "empty separator or pattern")                                                         \
    X(R0524, "negative repeat count")                                                              \
    X(R0525, "map longer than the map limit")

#define SPX_CODE_ENUMERATOR_(code, title) SPX_##code,

typedef enum spx_diagnostic_code_t {
    SPX_DIAGNOSTIC_CODES(SPX_CODE_ENUMERATOR_) SPX_DIAGNOSTIC_CODE_COUNT
} spx_diagnostic_code_t;

typedef enum spx_runtime_code_t {
    SPX_RUNTIME_CODES(SPX_CODE_ENUMERATOR_) SPX_RUNTIME_CODE_COUNT
} spx_runtime_code_t;

#undef SPX_CODE_ENUMERATOR_

/* The code as printed ("E0101") and its title; NULL for a value outside the
 * table. The strings are static. */
const char *spx_diagnostic_code_name(spx_diagnostic_code_t code);
const char *spx_diagnostic_code_title(spx_diagnostic_code_t code);
const char *spx_runtime_code_name(spx_runtime_code_t code);
const char *spx_runtime_code_title(spx_runtime_code_t code);

/* The code named name ("E0101"): 1 and *code set, or 0 when the table has no
 * such code. */
int spx_diagnostic_code_parse(const char *name, spx_diagnostic_code_t *code);
int spx_runtime_code_parse(const char *name, spx_runtime_code_t *code);

#endif /* SPX_CODES_H */
