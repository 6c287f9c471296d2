/*
 * stdio.c: the POSIX side of binary standard streams, broken pipes,
 * terminals and program arguments: POSIX never translates line ends, and argv
 * is already the bytes the system gave, so there is nothing to do for those;
 * SIGPIPE is ignored so that a write to a closed pipe fails with EPIPE; a
 * terminal is what isatty says, and takes UTF-8 as it is (no code page);
 * whether standard input has something to read is what poll() says.
 */
#define _POSIX_C_SOURCE 200809L /* sigaction(), isatty() and poll() under -std=c11 */

#include "spx_platform.h"

#include <poll.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

void spx_stdio_binary_mode(void)
{
}

int spx_stdio_input_ready(spx_stdio_t *stdio)
{
    (void)stdio; /* its input is descriptor 0, which APR reads unbuffered */
    struct pollfd input = {STDIN_FILENO, POLLIN, 0};
    return poll(&input, 1, 0) == 1 && input.revents != 0;
}

void spx_stdio_ignore_broken_pipe(void)
{
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_handler = SIG_IGN;
    sigemptyset(&action.sa_mask);
    sigaction(SIGPIPE, &action, NULL);
}

const char *const *spx_arguments_utf8(int argc, const char *const *argv, apr_pool_t *pool)
{
    (void)argc;
    (void)pool;
    return argv;
}

int spx_stream_is_terminal(spx_stream_t stream)
{
    return isatty(stream == SPX_STREAM_STDOUT ? STDOUT_FILENO : STDERR_FILENO) == 1;
}

spx_console_t *spx_console_utf8(apr_pool_t *pool)
{
    (void)pool;
    return NULL;
}

void spx_console_restore(spx_console_t *console)
{
    (void)console;
}
