/*
 * public_face.c: the control of ctest engine_boundary. A file built the way
 * a transport file is built (linked to spx_transport, so it sees only the
 * engine's public face, engine/include/) that includes every public header
 * and uses the opaque project through its accessors. It must build.
 */
#include "spx_canonical.h"
#include "spx_codes.h"
#include "spx_diagnostics.h"
#include "spx_envelope.h"
#include "spx_format.h"
#include "spx_index.h"
#include "spx_inputs.h"
#include "spx_limits.h"
#include "spx_project.h"
#include "spx_rename.h"
#include "spx_status.h"
#include "spx_utf8.h"
#include "spx_vm.h"

int spx_boundary_public_face(const spx_project_t *project);

int spx_boundary_public_face(const spx_project_t *project)
{
    return spx_project_admitted(project);
}
