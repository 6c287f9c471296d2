/*
 * signals.c: Windows has no SIGPIPE (a write to a closed pipe fails with an
 * error), so there is nothing to ignore, restore or send. Windows test build.
 */
#include "spx_process.h"

void spx_process_ignore_broken_pipes(void)
{
}

void spx_process_default_broken_pipes(void)
{
}

int spx_process_send_broken_pipe(int pid)
{
    (void)pid;
    return 0; /* Windows has no SIGPIPE */
}
