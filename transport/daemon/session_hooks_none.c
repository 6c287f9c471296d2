/*
 * session_hooks_none.c: the hooks of the product daemon semapraxd
 * (spx_session_hooks.h): none. The session never pauses, and no point of a
 * rename's commit fails but by itself.
 */
#include "spx_session_hooks.h"

const spx_session_hooks_t *spx_session_hooks(void)
{
    static const spx_session_hooks_t none = {NULL, NULL};
    return &none;
}
