/*
 * signals.c: SIGPIPE in the process tests, POSIX test build. A test that
 * writes to a child's standard input through a pipe must survive the child
 * exiting first (the write then fails with EPIPE instead of killing the
 * test); a daemon must be started with SIGPIPE's default action, as from a
 * shell; and a test may send the daemon SIGPIPE.
 */
#define _POSIX_C_SOURCE 200809L

#include "spx_process.h"

#include <signal.h>
#include <sys/types.h>

void spx_process_ignore_broken_pipes(void)
{
    signal(SIGPIPE, SIG_IGN);
}

void spx_process_default_broken_pipes(void)
{
    signal(SIGPIPE, SIG_DFL);
}

int spx_process_send_broken_pipe(int pid)
{
    return kill((pid_t)pid, SIGPIPE) == 0;
}
