/*
 * signals.c: Windows has no SIGPIPE (a write to a closed pipe fails with an
 * error), so there is nothing to ignore. Windows test build.
 */
#include "spx_process.h"

void spx_process_ignore_broken_pipes(void)
{
}
