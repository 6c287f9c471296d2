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

const spx_builtin_info_t *spx_builtin_called(const char *name)
{
    for (size_t i = 0; i < SPX_BUILTIN_COUNT; i++)
        if (builtins[i].form == SPX_BUILTIN_FORM_CALL && strcmp(builtins[i].name, name) == 0)
            return &builtins[i];
    return NULL;
}
