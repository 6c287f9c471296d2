/*
 * reaches_inside.c: the probe of ctest engine_boundary. A file built the
 * way a transport file is built that includes an engine-internal header
 * (the syntax tree): it must NOT build, because the engine target exports
 * only engine/include/.
 */
#include "spx_ast.h"

int spx_boundary_reaches_inside(const spx_module_t *module);

int spx_boundary_reaches_inside(const spx_module_t *module)
{
    return module != 0;
}
