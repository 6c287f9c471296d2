/*
 * spx_ast.h: the syntax tree of one Semaprax module, and after checking, the
 * program's HIR.
 *
 * The parser (parser.c, over lexer.c) builds one spx_module_t per declared
 * source, with every node's exact span. The checker (checker*.c) then
 * resolves imports, names and calls across modules, types every expression,
 * numbers every function's locals, and checks return paths: the checked tree,
 * with those annotations filled, is the linked HIR that the index, the graph
 * and the interpreter read. Every node lives in the arena it was parsed into
 * (spx_arena.h); nothing in it is freed on its own.
 *
 * Fields marked "checker" are zero/NULL until the checker has run over them:
 * a module's names and imports once it is declared (spx_checker_declare),
 * its bodies once they are checked (spx_checker_check_bodies); Phase A
 * (project.c) takes the modules one at a time.
 *
 * Language v2 (arrays, structs, consts, for, break/continue, indexing,
 * slicing, bitwise operators) is read by the parser into the nodes marked
 * "v2" below; the checker fills their "checker" fields like v1's, and the
 * index, the compiler and the interpreter read them (docs/language.md).
 */
#ifndef SPX_AST_H
#define SPX_AST_H

#include "spx_arena.h"
#include "spx_builtins.h"
#include "spx_diagnostics.h"

#include <apr_hash.h>
#include <stdint.h>

typedef enum spx_type_t {
    SPX_TYPE_ERROR = 0, /* unknown because of an earlier diagnostic: never reported again */
    SPX_TYPE_INT,
    SPX_TYPE_BOOL,
    SPX_TYPE_STR,
    SPX_TYPE_UNIT, /* a function without "->"; cannot be named or stored */
    /* v2, the kinds of a spx_vtype_t only (see there) */
    SPX_TYPE_ARRAY,  /* [T] */
    SPX_TYPE_STRUCT, /* a struct declaration's values */
    /* v3 */
    SPX_TYPE_ENUM, /* an enum declaration's values */
    SPX_TYPE_MAP   /* {K: V} */
} spx_type_t;

typedef enum spx_operator_t {
    SPX_OP_OR,  /* || */
    SPX_OP_AND, /* && */
    SPX_OP_EQ,  /* == */
    SPX_OP_NE,  /* != */
    SPX_OP_LT,  /* <  */
    SPX_OP_LE,  /* <= */
    SPX_OP_GT,  /* >  */
    SPX_OP_GE,  /* >= */
    SPX_OP_ADD, /* +  */
    SPX_OP_SUB, /* -  */
    SPX_OP_MUL, /* *  */
    SPX_OP_DIV, /* /  */
    SPX_OP_REM, /* %  */
    SPX_OP_NEG, /* unary - */
    SPX_OP_NOT, /* unary ! */
    /* v2 (after v1's, so tables indexed by v1's operators keep their places) */
    SPX_OP_BIT_OR,  /* |  */
    SPX_OP_BIT_XOR, /* ^  */
    SPX_OP_BIT_AND, /* &  */
    SPX_OP_SHL,     /* << */
    SPX_OP_SHR,     /* >> */
    SPX_OP_BIT_NOT  /* unary ~ */
} spx_operator_t;

/* The builtins, one per row of spx_builtins.h, in its order. */
typedef enum spx_builtin_t {
    SPX_BUILTIN_NONE = 0,
#define SPX_BUILTIN_ID(id, ...) SPX_BUILTIN_##id,
    SPX_BUILTINS(SPX_BUILTIN_ID)
#undef SPX_BUILTIN_ID
} spx_builtin_t;

/* How many builtins there are: SPX_BUILTIN_COUNT is the last. */
#define SPX_BUILTIN_ONE(...) +1
#define SPX_BUILTIN_COUNT (0 SPX_BUILTINS(SPX_BUILTIN_ONE))

/* How a builtin is called (spx_builtins.h, "form"). */
typedef enum spx_builtin_form_t {
    SPX_BUILTIN_FORM_CALL,  /* name(...) */
    SPX_BUILTIN_FORM_METHOD /* a.name(...), on an array */
} spx_builtin_form_t;

/* One row of spx_builtins.h (which says what each field means). */
typedef struct spx_builtin_info_t {
    spx_builtin_t builtin;
    const char *name;
    spx_builtin_form_t form;
    int since;
    apr_size_t arity;
    apr_size_t optional;
    spx_type_t parameters[2]; /* first, second */
    int arrays;
    spx_type_t result;
    const char *signature;
    const char *v1_signature;
} spx_builtin_info_t;

/* builtin's row (builtin is not SPX_BUILTIN_NONE). */
const spx_builtin_info_t *spx_builtin_info(spx_builtin_t builtin);

/* The builtin that name(...) calls, or NULL: a CALL row's, never a
 * METHOD's. */
const spx_builtin_info_t *spx_builtin_called(const char *name);

/* An identifier as written, with its span. */
typedef struct spx_name_t {
    const char *text;
    spx_span_t span;
} spx_name_t;

struct spx_function_t;
struct spx_module_t;

/* v2: a type as written where more than int, bool and str may stand
 * (parameters, results, annotations, fields, consts). */
typedef enum spx_type_syntax_kind_t {
    SPX_TYPE_SYNTAX_BASIC,  /* int, bool, str: see basic */
    SPX_TYPE_SYNTAX_ARRAY,  /* "[" type "]" */
    SPX_TYPE_SYNTAX_STRUCT, /* TYPENAME, or IDENT "." TYPENAME */
    SPX_TYPE_SYNTAX_MAP     /* v3: "{" type ":" type "}": key, and element the value type */
} spx_type_syntax_kind_t;

typedef struct spx_type_syntax_t {
    spx_type_syntax_kind_t kind;
    spx_span_t span;                         /* the whole type, brackets included */
    spx_type_t basic;                        /* BASIC: the type */
    const struct spx_type_syntax_t *element; /* ARRAY: the element type */
    spx_name_t module;                       /* STRUCT: "geo" of geo.Point; text NULL if none */
    spx_name_t name;                         /* STRUCT: the TYPENAME */
    const struct spx_type_syntax_t *key;     /* MAP (v3): the key type */
} spx_type_syntax_t;

typedef enum spx_expr_kind_t {
    SPX_EXPR_INT,    /* integer literal */
    SPX_EXPR_STRING, /* string literal, escapes decoded */
    SPX_EXPR_BOOL,   /* true / false */
    SPX_EXPR_NAME,   /* a local or parameter */
    SPX_EXPR_CALL,   /* f(args), m.f(args), builtin(args) */
    SPX_EXPR_UNARY,  /* - ! ~ */
    SPX_EXPR_BINARY, /* everything else */
    /* v2 */
    SPX_EXPR_INDEX,          /* base[index] */
    SPX_EXPR_SLICE,          /* base[from..to] */
    SPX_EXPR_FIELD,          /* base.name: a field, or m.X a const of module m (checker decides) */
    SPX_EXPR_ARRAY,          /* [e, ...] */
    SPX_EXPR_STRUCT_LITERAL, /* Name { f: e, ... } or m.Name { ... } */
    /* v3: a variant constructor, E.V, E.V(e, ...), m.E.V(...). The parser
     * reads these as FIELD and CALL chains; the checker turns the node into
     * a VARIANT once it has resolved E to an enum (docs/language.md). */
    SPX_EXPR_VARIANT,
    /* v3 */
    SPX_EXPR_MAP /* {k: v, ...} */
} spx_expr_kind_t;

struct spx_call_t;

typedef struct spx_expr_t {
    spx_expr_kind_t kind;
    spx_span_t span; /* the whole expression, parentheses included when written */
    spx_type_t type; /* checker */
    /* checker, v2: the whole type when type is SPX_TYPE_ARRAY or
     * SPX_TYPE_STRUCT (v3: or SPX_TYPE_MAP) (a spx_vtype_t of the checker's
     * table), else unused */
    const struct spx_vtype_t *vtype;
    /* Only the member of kind is written (the parser leaves the union's
     * other bytes unwritten): read no other. */
    union {
        int64_t integer;
        int boolean;
        struct {
            const char *bytes; /* decoded; may contain NUL */
            apr_size_t length;
        } string;
        struct {
            spx_name_t name;
            int slot; /* checker: index of the local in its function, -1 if unresolved */
            const struct spx_const_t *constant; /* checker (v2): the const it names, or NULL */
            int moves; /* checker (v3): a move on last use (checker_moves.c) */
        } name;
        struct spx_call_t *call; /* its own node: calls are rarer than the rest */
        struct {
            spx_operator_t op;
            spx_span_t op_span;
            struct spx_expr_t *operand;
        } unary;
        struct {
            spx_operator_t op;
            spx_span_t op_span;
            struct spx_expr_t *left;
            struct spx_expr_t *right;
        } binary;
        struct {
            struct spx_expr_t *base;
            struct spx_expr_t *index; /* INDEX: the index; SLICE: from */
            struct spx_expr_t *to;    /* SLICE: to; INDEX: NULL */
        } index;                      /* INDEX and SLICE */
        struct {
            struct spx_expr_t *base;
            spx_name_t name;
            const struct spx_const_t *constant; /* checker: m.X, a const of module m; or NULL */
        } field;
        struct {
            struct spx_expr_t **elements;
            apr_size_t count;
        } array;
        struct spx_struct_literal_t *literal;
        struct {
            struct spx_expr_t **payloads; /* as written, evaluated left to right */
            apr_size_t count;
            const struct spx_enum_t *enumeration;
            uint32_t variant;     /* its index in the enum's declaration */
            spx_span_t name_span; /* the variant's name as written */
            spx_span_t enum_span; /* E (or m.E) as written */
        } variant;
        struct {
            struct spx_expr_t **keys;   /* v3: a map literal's keys, as written */
            struct spx_expr_t **values; /* and its values (a key or value may be NULL after
                                           a syntax error) */
            apr_size_t count;
        } map;
    } as;
} spx_expr_t;

/* v2: one "name: value" of a struct literal. */
typedef struct spx_field_init_t {
    spx_name_t name;
    spx_expr_t *value;
} spx_field_init_t;

typedef struct spx_struct_literal_t {
    spx_name_t module;        /* "geo" of geo.Point { ... }; text NULL if none */
    spx_name_t name;          /* the TYPENAME */
    spx_field_init_t *fields; /* in source order, at least one */
    apr_size_t field_count;
} spx_struct_literal_t;

/* f(args), m.f(args), and in v2 the methods x.push(v), e.pop(): for
 * IDENT "." IDENT "(" the first name is in module, whether it names a module
 * or a local (x.push(v): the checker decides by the name rule of
 * language.md); for any other receiver e "." IDENT "(", receiver is e. */
typedef struct spx_call_t {
    spx_name_t module;           /* text NULL for an unqualified call */
    spx_name_t function;         /* the called name */
    struct spx_expr_t *receiver; /* v2: e of e.push(v) when e is not a plain name; else NULL */
    spx_expr_t **arguments;
    apr_size_t argument_count;
    struct spx_function_t *target; /* checker: the user function, or NULL */
    spx_builtin_t builtin;         /* checker: the builtin, or NONE */
    int receiver_slot; /* checker, x.push(v) / x.pop() on a local x: its slot (receiver NULL) */
    int on_map;        /* checker (v3): a method of a map (its receiver is a map) */
    const struct spx_data_entry_t *data; /* checker, v3 read_data("name"): its entry, or NULL */
} spx_call_t;

struct spx_stmt_t;

typedef struct spx_block_t {
    struct spx_stmt_t **statements;
    apr_size_t count;
    spx_span_t span; /* from "{" to "}" inclusive */
} spx_block_t;

typedef enum spx_stmt_kind_t {
    SPX_STMT_LET,    /* let x [: T] = e; */
    SPX_STMT_VAR,    /* var x [: T] = e; */
    SPX_STMT_ASSIGN, /* x = e; (v3: also x op= e;) */
    SPX_STMT_IF,     /* if c { } [else { } | else if ...] */
    SPX_STMT_WHILE,  /* while c { } */
    SPX_STMT_RETURN, /* return [e]; */
    SPX_STMT_EXPR,   /* e; */
    /* v2 */
    SPX_STMT_FOR,      /* for x in a..b { }, for x in xs { } */
    SPX_STMT_BREAK,    /* break; */
    SPX_STMT_CONTINUE, /* continue; */
    /* v3 */
    SPX_STMT_MATCH /* match e { Pattern => { } ... } */
} spx_stmt_kind_t;

/* v3: a binder of a match pattern, an immutable local of its arm. */
typedef struct spx_binder_t {
    spx_name_t name; /* "_" binds nothing */
    int slot;        /* checker: its local, or -1 for "_" */
} spx_binder_t;

/* v3: one arm of a match: pattern "=>" block. */
typedef struct spx_match_arm_t {
    spx_name_t pattern;    /* the variant's name, or "_" */
    spx_span_t span;       /* the whole pattern, binders included */
    int wildcard;          /* the pattern is "_" */
    int has_parens;        /* binders were written in ( ) */
    spx_binder_t *binders; /* in order */
    apr_size_t binder_count;
    spx_block_t body;
    int variant; /* checker: the variant's index, -1 for "_" or an unknown name */
} spx_match_arm_t;

typedef struct spx_stmt_t {
    spx_stmt_kind_t kind;
    spx_span_t span; /* the whole statement, ";" or "}" included */
    union {
        struct {
            spx_name_t name;
            int has_type;
            spx_type_t declared;
            spx_span_t type_span;
            const spx_type_syntax_t *type_syntax; /* v2: a type beyond int/bool/str, else NULL
                                                     (declared is then SPX_TYPE_ERROR) */
            spx_expr_t *value;
            int slot; /* checker */
        } binding;    /* LET and VAR */
        struct {
            spx_name_t name; /* the variable, or the root of the place */
            /* v2: the place a[i].f, a chain of INDEX and FIELD nodes down to
             * the NAME of name; NULL for "x = e;" */
            spx_expr_t *place;
            spx_expr_t *value;
            int slot; /* checker */
            /* v3: "P op= e;": the operation "P op e", a BINARY whose left
             * operand is P (the place node, or the variable's NAME) and
             * whose right operand is value, spanning "P op= e"; NULL for
             * "P = e;". Walkers visit the place and the value only. */
            spx_expr_t *compound;
        } assign;
        struct {
            spx_expr_t *condition;
            spx_block_t then_block;
            spx_block_t *else_block;    /* "else { }", or NULL */
            struct spx_stmt_t *else_if; /* "else if ...", or NULL */
        } if_stmt;
        struct {
            spx_expr_t *condition;
            spx_block_t body;
        } while_stmt;
        struct {
            spx_expr_t *value; /* NULL for "return;" */
        } return_stmt;
        struct {
            spx_expr_t *expression;
        } expr_stmt;
        struct {
            spx_name_t variable;
            spx_expr_t *from; /* a of a..b, or the array of "for x in xs" */
            spx_expr_t *to;   /* b of a..b; NULL for "for x in xs" */
            spx_block_t body;
            int slot; /* checker */
        } for_stmt;
        struct {
            spx_expr_t *scrutinee;
            spx_match_arm_t *arms;
            apr_size_t arm_count;
            const struct spx_enum_t *enumeration; /* checker: the scrutinee's enum, or NULL */
        } match_stmt;
    } as;
} spx_stmt_t;

/* A parameter, and in v2 a struct's field (the same "name: type"). */
typedef struct spx_param_t {
    spx_name_t name;
    spx_type_t type;
    spx_span_t type_span;
    const spx_type_syntax_t *type_syntax; /* v2: a type beyond int/bool/str, else NULL (type is
                                             then SPX_TYPE_ERROR) */
} spx_param_t;

/* Phase A keeps one per function of the project: the fields are in an
 * order that leaves no padding. */
typedef struct spx_function_t {
    spx_name_t name;
    spx_param_t *params;
    apr_size_t param_count;
    const spx_type_syntax_t *result_syntax; /* v2: a result beyond int/bool/str, else NULL */
    spx_block_t body;
    struct spx_module_t *module;
    apr_size_t local_count; /* checker: parameters first, then every let/var */
    spx_span_t result_span; /* the type after "->"; the name's span when unit */
    spx_span_t span;        /* the whole item, from "export"/"fn" to the closing "}" */
    spx_type_t result;      /* SPX_TYPE_UNIT when there is no "->" */
    int exported;
    uint32_t code_index; /* compile.c: 1 + the function's index in the program; 0 before */
    uint32_t index_node; /* index.c: 1 + the position of its node in the index builder */
    /* parser: a statement was left out after a syntax error (its names and
     * returns are missing), so later passes may skip checks that need the body */
    int incomplete;
    int called; /* checker: another function calls it (for W0604) */
} spx_function_t;

/* v2: ["export"] "struct" TYPENAME "{" field ("," field)* [","] "}". */
typedef struct spx_struct_t {
    spx_name_t name;
    int exported;
    spx_param_t *fields; /* in declaration order, at least one */
    apr_size_t field_count;
    spx_span_t span; /* the whole item */
    struct spx_module_t *module;
} spx_struct_t;

/* v3: a variant of an enum: TYPENAME ["(" type ("," type)* ")"]. The
 * payloads are spx_param_t with no name (type, type_span, type_syntax). */
typedef struct spx_variant_t {
    spx_name_t name;
    spx_param_t *payloads;
    apr_size_t payload_count;
} spx_variant_t;

/* v3: ["export"] "enum" TYPENAME "{" variant ("," variant)* [","] "}". */
typedef struct spx_enum_t {
    spx_name_t name;
    int exported;
    spx_variant_t *variants; /* in declaration order, at least one */
    apr_size_t variant_count;
    spx_span_t span; /* the whole item */
    struct spx_module_t *module;
} spx_enum_t;

/* v2: ["export"] "const" IDENT ":" type "=" expr ";". The value lives with
 * the declarations (arena), not with the bodies. */
typedef struct spx_const_t {
    spx_name_t name;
    int exported;
    spx_type_t type;
    spx_span_t type_span;
    const spx_type_syntax_t *type_syntax; /* a type beyond int/bool/str, else NULL */
    spx_expr_t *value;
    spx_span_t span; /* the whole item */
    struct spx_module_t *module;
    /* checker: the value, evaluated at check time (spx_checker_finish);
     * value_type is SPX_TYPE_ERROR when it could not be (a diagnostic says
     * why). bytes (a str) live in the checker's pool. */
    int state; /* checker: 0 not yet evaluated, 1 being evaluated, 2 evaluated */
    spx_type_t value_type;
    int64_t integer;
    int boolean;
    const char *bytes;
    apr_size_t length;
} spx_const_t;

typedef struct spx_import_t {
    spx_name_t module;
    spx_span_t span;             /* "import" to ";" */
    struct spx_module_t *target; /* checker: the imported module, or NULL */
    int used;                    /* checker: a call, const or struct names the module */
} spx_import_t;

typedef struct spx_module_t {
    const char *name; /* from the manifest */
    const char *path; /* the source path, relative to the root */
    const unsigned char *text;
    apr_size_t length;
    spx_import_t *imports;
    apr_size_t import_count;
    spx_function_t **functions; /* in source order */
    apr_size_t function_count;
    spx_struct_t **structs; /* v2: in source order */
    apr_size_t struct_count;
    spx_const_t **consts; /* v2: in source order */
    apr_size_t const_count;
    spx_enum_t **enums; /* v3: in source order */
    apr_size_t enum_count;
    /* The names of functions whose header did not parse (the item is left
     * out, its syntax error reported): calls to them are not reported again. */
    const char **unreadable_functions;
    apr_size_t unreadable_function_count;
    /* checker: the functions by name, the first declared of each name
     * (spx_module_function): open addressing over function numbers + 1
     * (0: an empty slot), at most half full, a power of two slots; NULL
     * until the checker has collected them. */
    uint32_t *function_slots;
    apr_size_t function_slot_count;
    apr_hash_t *unreadable_by_name; /* checker: the unreadable_functions as a set; NULL if none */
    /* v2: the same for structs and consts whose syntax failed (the item is
     * left out, its error reported): uses of their names need no report. */
    const char **unreadable_items;
    apr_size_t unreadable_item_count;
} spx_module_t;

/* The function of module named name (the first declared of that name),
 * or NULL: none, or the checker has not collected the module's functions
 * (spx_module_collect_functions). */
spx_function_t *spx_module_function(const spx_module_t *module, const char *name);

/* Make module's table of functions by name (in pool), the first declared of
 * each name kept; the functions without a name are left out. */
void spx_module_collect_functions(spx_module_t *module, apr_pool_t *pool);

/* A module before parsing (parser.c): its manifest name, its source path
 * and its text (held by the caller for the module's life); name and path
 * are copied into arena. */
spx_module_t *spx_module_make(const char *name, const char *path, const unsigned char *text,
                              apr_size_t length, spx_arena_t *arena);

/* Parse the module's text (parser.c): imports, function declarations and
 * (v2) structs and consts, with their types and a const's value, go to
 * arena, names are interned there; function bodies (blocks, statements,
 * expressions, string literals) go to bodies, which may be the same arena
 * or one the caller clears once the bodies are checked and indexed. pool
 * only lends scratch memory, given back before this returns. Every lexical
 * and syntax error is added to diagnostics (E02xx) with its exact span; the
 * parser recovers at the next statement or item, so one mistake gives one
 * diagnostic, and the module holds every item it could read. Never recurses
 * deeper than SPX_LIMIT_PARSE_DEPTH. */
void spx_parse_module(spx_module_t *module, spx_arena_t *arena, spx_arena_t *bodies,
                      apr_pool_t *pool, spx_diagnostics_t *diagnostics);

/* The names of the imports at the head of the module's text, as far as they
 * read "import NAME;" (parser.c): a quick look that lets Phase A take
 * imported modules first. It reports nothing (the full parse does) and may
 * miss imports that the full parse finds (after an error, or after an
 * item). Names are interned in arena; the list (and any scratch) is in
 * pool. */
apr_array_header_t *spx_scan_imports(const spx_module_t *module, spx_arena_t *arena,
                                     apr_pool_t *pool);

/* The checker of one program (checker.c and its files): imports (undeclared, twice,
 * itself, cycles reported in order), names, calls, types, mutability and
 * return paths (E03xx, E04xx). It fills every "checker" field. An error's
 * consequences are not reported again (SPX_TYPE_ERROR absorbs them).
 * modules are the program's modules, all made (spx_module_make) but not
 * necessarily parsed yet; pool holds what outlives the checker
 * (functions_by_name). */
typedef struct spx_checker_t spx_checker_t;
/* v3: one [[data]] entry that read_data may name, with its bytes as
 * authenticated (held by the project's input set, never copied). */
typedef struct spx_data_entry_t {
    const char *name;
    const char *path;
    const unsigned char *bytes;
    apr_size_t length;
} spx_data_entry_t;

/* Give the checker the project's data entries (a checker without them, as
 * for `semaprax serve`, reports every read_data as E0325). entries stays
 * valid as long as the program. */
void spx_checker_set_data(spx_checker_t *checker, const spx_data_entry_t *entries,
                          apr_size_t count);

spx_checker_t *spx_checker_make(spx_module_t **modules, apr_size_t module_count, apr_pool_t *pool,
                                spx_diagnostics_t *diagnostics);

/* Once module_index is parsed: its imports are resolved and its functions
 * named, so the bodies of modules that import it can be checked. */
void spx_checker_declare(spx_checker_t *checker, apr_size_t module_index);

/* Check every body of module_index; the module and every module it imports
 * must be declared. After this the bodies may go (the index and the code
 * are made from them first). The same as spx_checker_check_items, then
 * spx_checker_check_functions. */
void spx_checker_check_bodies(spx_checker_t *checker, apr_size_t module_index);

/* The two halves of spx_checker_check_bodies. The items: each struct's
 * fields and each enum's variants, which the modules that import it read
 * (a field's type); the functions: every function's body, which nothing
 * outside the module reads but the "called" mark of its own functions
 * (W0604) and the "used" mark of its imports (W0601). A diagnostics-only
 * rebuild that reuses a module's previous findings checks its items only
 * (project_reuse.c). */
void spx_checker_check_items(spx_checker_t *checker, apr_size_t module_index);
void spx_checker_check_functions(spx_checker_t *checker, apr_size_t module_index);

/* Once every module is declared and its bodies checked: the import cycles
 * (E0304) and the structs that contain themselves (E0323) are reported,
 * every const is evaluated (its value and value_type filled; const cycles
 * E0315, check-time failures E0415 and the consts' other errors), the
 * imports that nothing names are reported (W0601) and the checker's scratch
 * memory is given back. The warnings are kept: whoever drives the checker
 * drops them when the program has an error (beside an error they are often
 * its echo), Phase A once the entry and the tests are linked. */
void spx_checker_finish(spx_checker_t *checker);

/* All of the above for modules that are all parsed and kept: the white-box
 * tests' and the fuzz targets' way in (tests/engine/test_checker.c,
 * tests/fuzz/fuzz_show_program.c). No product path calls it: Phase A
 * (project.c, walk_program) drives the steps above one module at a time, so
 * that a module's bodies can go once it is checked, indexed and compiled. */
void spx_check_program(spx_module_t **modules, apr_size_t module_count, apr_pool_t *pool,
                       spx_diagnostics_t *diagnostics);

/* Call visit(context, e) for every expression that a statement of block
 * holds directly (a value, a condition, a returned value), in source order,
 * nested blocks included; what is inside an expression is the visitor's to
 * walk. Blocks nest only as deep as the parser allowed
 * (SPX_LIMIT_PARSE_DEPTH); "else if" chains are followed without recursion. */
typedef void (*spx_expression_visitor_t)(void *context, const spx_expr_t *expression);
void spx_block_visit_expressions(const spx_block_t *block, spx_expression_visitor_t visit,
                                 void *context);

/* The same walk, and also annotation(context, syntax) for the type written
 * on a let or var (v2: a type beyond int, bool and str), just before its
 * value's expression. */
typedef void (*spx_annotation_visitor_t)(void *context, const spx_type_syntax_t *syntax);
void spx_block_visit(const spx_block_t *block, spx_expression_visitor_t visit,
                     spx_annotation_visitor_t annotation, void *context);

/* Call visit(context, child) for every expression that e holds directly, in
 * source order, whatever e's kind: a unary operand; a binary's left then
 * right; a call's receiver (v2) then its arguments; an index's or a slice's
 * base, then its index or bounds; a field's base; an array literal's
 * elements; a struct literal's field values as written. Literals and names
 * hold none. What is inside a child is the visitor's to walk (so a walk that
 * recurses through this goes as deep as the parser allowed,
 * SPX_LIMIT_PARSE_DEPTH). A child left out after a syntax error is skipped.
 * Inline: a walker's own function, passed as visit, is then called
 * directly. */
/* The child at a slot the parser may have left empty after an error. */
static inline void spx_expr_visit_child(const spx_expr_t *child, spx_expression_visitor_t visit,
                                        void *context)
{
    if (child)
        visit(context, child);
}

static inline void spx_expr_visit_children(const spx_expr_t *e, spx_expression_visitor_t visit,
                                           void *context)
{
    switch (e->kind) {
    case SPX_EXPR_INT:
    case SPX_EXPR_STRING:
    case SPX_EXPR_BOOL:
    case SPX_EXPR_NAME:
        break;
    case SPX_EXPR_CALL:
        spx_expr_visit_child(e->as.call->receiver, visit, context);
        for (apr_size_t i = 0; i < e->as.call->argument_count; i++)
            spx_expr_visit_child(e->as.call->arguments[i], visit, context);
        break;
    case SPX_EXPR_UNARY:
        spx_expr_visit_child(e->as.unary.operand, visit, context);
        break;
    case SPX_EXPR_BINARY:
        spx_expr_visit_child(e->as.binary.left, visit, context);
        spx_expr_visit_child(e->as.binary.right, visit, context);
        break;
    case SPX_EXPR_INDEX:
    case SPX_EXPR_SLICE:
        spx_expr_visit_child(e->as.index.base, visit, context);
        spx_expr_visit_child(e->as.index.index, visit, context);
        spx_expr_visit_child(e->as.index.to, visit, context);
        break;
    case SPX_EXPR_FIELD:
        spx_expr_visit_child(e->as.field.base, visit, context);
        break;
    case SPX_EXPR_ARRAY:
        for (apr_size_t i = 0; i < e->as.array.count; i++)
            spx_expr_visit_child(e->as.array.elements[i], visit, context);
        break;
    case SPX_EXPR_STRUCT_LITERAL:
        for (apr_size_t i = 0; i < e->as.literal->field_count; i++)
            spx_expr_visit_child(e->as.literal->fields[i].value, visit, context);
        break;
    case SPX_EXPR_VARIANT:
        for (apr_size_t i = 0; i < e->as.variant.count; i++)
            spx_expr_visit_child(e->as.variant.payloads[i], visit, context);
        break;
    case SPX_EXPR_MAP: /* each key, then its value */
        for (apr_size_t i = 0; i < e->as.map.count; i++) {
            spx_expr_visit_child(e->as.map.keys[i], visit, context);
            spx_expr_visit_child(e->as.map.values[i], visit, context);
        }
        break;
    }
}

/* "int", "bool", "str", "unit" (and "<error>"); "array" and "struct" for
 * the v2 kinds, which messages name by spx_vtype_name instead. */
const char *spx_type_name(spx_type_t type);

/* v2: a value's type for the checker (types.c). kind is one of spx_type_t;
 * an ARRAY has its element type, a STRUCT its declaration. Types are made by
 * a spx_types_t, once each, so two types of one table are equal exactly
 * when their pointers are. */
typedef struct spx_vtype_t {
    spx_type_t kind;
    const struct spx_vtype_t *element;  /* ARRAY */
    const spx_struct_t *structure;      /* STRUCT */
    const struct spx_vtype_t *array_of; /* the table's: [this], once made */
    const spx_enum_t *enumeration;      /* v3: ENUM */
    const struct spx_vtype_t *key;      /* MAP (v3): the key type; element is the value type */
} spx_vtype_t;

/* The types of one program's check, in pool. */
typedef struct spx_types_t spx_types_t;
spx_types_t *spx_types_make(apr_pool_t *pool);
/* int, bool, str, unit, error (any other kind gives error); these five are
 * one array, indexed by kind from SPX_TYPE_ERROR's (the checker reads it
 * so). */
const spx_vtype_t *spx_types_basic(spx_types_t *types, spx_type_t kind);
/* [element]; element must be of this table. */
const spx_vtype_t *spx_types_array(spx_types_t *types, const spx_vtype_t *element);
/* The values of the struct declaration structure. */
const spx_vtype_t *spx_types_struct(spx_types_t *types, const spx_struct_t *structure);
/* v3: the values of the enum declaration enumeration. */
const spx_vtype_t *spx_types_enum(spx_types_t *types, const spx_enum_t *enumeration);
/* v3: an enum as messages name it: "geo.Shape" (MOD.Name). */
const char *spx_enum_full_name(const spx_enum_t *enumeration, apr_pool_t *pool);
/* v3: {key: value}; both of this table (key int, str or bool). */
const spx_vtype_t *spx_types_map(spx_types_t *types, const spx_vtype_t *key,
                                 const spx_vtype_t *value);
/* A struct as messages and cycles name it: "geo.Point" (MOD.Name). */
const char *spx_struct_full_name(const spx_struct_t *structure, apr_pool_t *pool);
/* As messages write it: "int", "[str]", "[[geo.Point]]" (MOD.Name). */
const char *spx_vtype_name(const spx_vtype_t *type, apr_pool_t *pool);

/* "fn(a: int, b: str) -> int"; a unit function has no "-> ...". A struct
 * type is spelled MOD.Name wherever it is written, its own module included:
 * "fn(p: geo.Point, xs: [int]) -> [geo.Point]". */
const char *spx_function_signature(const spx_function_t *function, apr_pool_t *pool);

/* A type as written in module (a parameter, result, field or const), spelled
 * as signatures spell it: basic ("int") when syntax is NULL, else "[int]",
 * "[[geo.Point]]", a struct as MOD.Name ("Point" written in geo is
 * "geo.Point"). */
const char *spx_written_type_name(const spx_type_syntax_t *syntax, spx_type_t basic,
                                  const struct spx_module_t *module, apr_pool_t *pool);

/* inner in depth brackets: "[[int]]" for ("int", 2); inner itself (the same
 * pointer, not a copy) for 0. */
const char *spx_array_type_name(const char *inner, size_t depth, apr_pool_t *pool);

#endif /* SPX_AST_H */
