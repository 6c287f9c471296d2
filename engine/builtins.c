/*
 * builtins.c: the table of the builtins, expanded once from the rows of
 * spx_builtins.h, and its two lookups (spx_ast.h): by builtin, and by the
 * name a call writes.
 */
#include "spx_ast.h"

#include "spx_assert.h"

#include <string.h>

static const spx_builtin_info_t builtins[SPX_BUILTIN_COUNT] = {
#define BUILTIN_INFO(id, name, form, since, arity, optional, first, second, arrays, result,        \
                     signature, v1_signature)                                                      \
    {SPX_BUILTIN_##id,                                                                             \
     name,                                                                                         \
     SPX_BUILTIN_FORM_##form,                                                                      \
     since,                                                                                        \
     arity,                                                                                        \
     optional,                                                                                     \
     {SPX_TYPE_##first, SPX_TYPE_##second},                                                        \
     arrays,                                                                                       \
     SPX_TYPE_##result,                                                                            \
     signature,                                                                                    \
     v1_signature},
    SPX_BUILTINS(BUILTIN_INFO)
#undef BUILTIN_INFO
};

/* Each row's arguments fit spx_builtin_info_t, and the optional ones are
 * among them. */
#define BUILTIN_FITS(id, name, form, since, arity, optional, ...)                                  \
    _Static_assert((arity) <= sizeof(builtins[0].parameters) / sizeof(builtins[0].parameters[0]),  \
                   name ": more arguments than spx_builtin_info_t holds");                         \
    _Static_assert((optional) <= (arity), name ": more optional arguments than arguments");
SPX_BUILTINS(BUILTIN_FITS)
#undef BUILTIN_FITS

const spx_builtin_info_t *spx_builtin_info(spx_builtin_t builtin)
{
    SPX_ASSERT(builtin > SPX_BUILTIN_NONE && builtin <= SPX_BUILTIN_COUNT);
    return &builtins[builtin - 1];
}

/* The rows of the CALL builtins, the only ones a call may name, in
 * spx_builtin_t's order: spx_builtin_called runs once per call the checker
 * meets, so it compares a name's first byte before its rest, against these
 * rows only. */
#define CALL_ROW_CALL(id) SPX_BUILTIN_##id - 1,
#define CALL_ROW_METHOD(id)
#define CALL_ROW(id, name, form, ...) CALL_ROW_##form(id)
static const unsigned char call_rows[] = {SPX_BUILTINS(CALL_ROW)};
_Static_assert(SPX_BUILTIN_COUNT <= 256, "a row index fits call_rows' bytes");
#undef CALL_ROW
#undef CALL_ROW_METHOD
#undef CALL_ROW_CALL

const spx_builtin_info_t *spx_builtin_called(const char *name)
{
    for (size_t i = 0; i < sizeof(call_rows); i++) {
        const spx_builtin_info_t *row = &builtins[call_rows[i]];
        if (row->name[0] == name[0] && strcmp(row->name, name) == 0)
            return row;
    }
    return NULL;
}
