/*
 * log.c: the daemon's bounded standard error (spx_log.h).
 */
#include "spx_log.h"

#include "spx_limits.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void spx_log_init(spx_log_t *log, const char *program, int verbose)
{
    log->program = program;
    log->verbose = verbose;
    log->lines = 0;
}

/* Write one line: whole with --verbose, otherwise cut to
 * SPX_LIMIT_LOG_LINE_BYTES with "..." where it was cut. */
static void write_line(const spx_log_t *log, const char *format, va_list arguments)
{
    fprintf(stderr, "%s: ", log->program);
    if (log->verbose) {
        vfprintf(stderr, format, arguments);
    } else {
        /* The program's name, ": ", "..." and the LF are in the budget. */
        char text[SPX_LIMIT_LOG_LINE_BYTES];
        size_t room = sizeof(text) - strlen(log->program) - 5;
        int length = vsnprintf(text, room + 1, format, arguments);
        if (length < 0)
            text[0] = '\0';
        fputs(text, stderr);
        if (length > 0 && (size_t)length > room)
            fputs("...", stderr);
    }
    fputc('\n', stderr);
    fflush(stderr);
}

void spx_log_event(spx_log_t *log, const char *format, ...)
{
    if (!log->verbose && log->lines > SPX_LIMIT_LOG_LINES)
        return;
    log->lines++;
    if (!log->verbose && log->lines > SPX_LIMIT_LOG_LINES) {
        fprintf(stderr, "%s: further messages are not shown (--verbose shows them)\n",
                log->program);
        fflush(stderr);
        return;
    }
    va_list arguments;
    va_start(arguments, format);
    write_line(log, format, arguments);
    va_end(arguments);
}

void spx_log_request(spx_log_t *log, const char *format, ...)
{
    if (!log->verbose)
        return;
    va_list arguments;
    va_start(arguments, format);
    write_line(log, format, arguments);
    va_end(arguments);
}
