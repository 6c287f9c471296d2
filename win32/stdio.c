/*
 * stdio.c: the Windows side of binary standard streams and program
 * arguments (and, for symmetry with POSIX, broken pipes, which need nothing
 * here): the C runtime opens stdin, stdout and stderr in text mode, which
 * would turn every LF the programs print into CRLF (and drop CR on input);
 * _setmode makes them binary, so the bytes are the same as on POSIX. And its
 * argv is in the ANSI code page: the arguments are taken again, as UTF-8,
 * from the UTF-16 command line. A terminal is a console, with its
 * virtual-terminal processing switched on for ANSI colour sequences, and its
 * output code page set to UTF-8 while the program runs (put back after: the
 * code page belongs to the console, and the shell the user typed in keeps it).
 * Whether standard input has something to read is what PeekNamedPipe says
 * of a pipe; a file always has, and a console is never asked.
 */
#include "spx_platform.h"

#include <fcntl.h>
#include <io.h>
#include <stdio.h>
#include <stdint.h>
#include <wchar.h>
#include <windows.h>

#include <shellapi.h>

#ifndef ENABLE_VIRTUAL_TERMINAL_PROCESSING /* older mingw-w64 headers */
#define ENABLE_VIRTUAL_TERMINAL_PROCESSING 0x0004
#endif

void spx_stdio_binary_mode(void)
{
    fflush(stdout);
    fflush(stderr);
    (void)_setmode(_fileno(stdin), _O_BINARY);
    (void)_setmode(_fileno(stdout), _O_BINARY);
    (void)_setmode(_fileno(stderr), _O_BINARY);
}

int spx_stdio_input_ready(spx_stdio_t *stdio)
{
    (void)stdio; /* its input is the process's standard input handle */
    HANDLE input = GetStdHandle(STD_INPUT_HANDLE);
    if (input == INVALID_HANDLE_VALUE || input == NULL)
        return 0;
    DWORD type = GetFileType(input);
    if (type == FILE_TYPE_DISK)
        return 1; /* a read of a file never waits */
    if (type != FILE_TYPE_PIPE)
        return 0; /* a console: a read might wait for a line */
    DWORD available = 0;
    if (!PeekNamedPipe(input, NULL, 0, NULL, &available, NULL))
        return GetLastError() == ERROR_BROKEN_PIPE; /* the read says end of input at once */
    return available > 0;
}

void spx_stdio_ignore_broken_pipe(void)
{
    /* Windows has no SIGPIPE: a write to a pipe whose reader has gone
     * already fails (ERROR_NO_DATA), and APR returns that as an error. */
}

int spx_stream_is_terminal(spx_stream_t stream)
{
    HANDLE handle =
        GetStdHandle(stream == SPX_STREAM_STDOUT ? STD_OUTPUT_HANDLE : STD_ERROR_HANDLE);
    DWORD mode = 0;
    if (handle == INVALID_HANDLE_VALUE || handle == NULL || !GetConsoleMode(handle, &mode))
        return 0; /* a file or a pipe */
    if (mode & ENABLE_VIRTUAL_TERMINAL_PROCESSING)
        return 1;
    return SetConsoleMode(handle, mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING) != 0;
}

/* wide (NUL-terminated UTF-16) as UTF-8, from pool. A surrogate without its
 * pair (possible in a Windows command line, which is not checked UTF-16)
 * becomes its own three-byte sequence (ED A0 80..ED BF BF), which no UTF-8
 * decoder accepts: the program's UTF-8 check then refuses the argument,
 * naming it, instead of WideCharToMultiByte's silent U+FFFD. */
static const char *utf8_of_wide(const wchar_t *wide, apr_pool_t *pool)
{
    apr_size_t units = wcslen(wide);
    unsigned char *out = apr_palloc(pool, 3 * units + 1), *at = out;
    for (apr_size_t i = 0; i < units; i++) {
        uint32_t c = (uint16_t)wide[i];
        if (c >= 0xD800 && c <= 0xDBFF && i + 1 < units && (uint16_t)wide[i + 1] >= 0xDC00 &&
            (uint16_t)wide[i + 1] <= 0xDFFF)
            c = 0x10000 + ((c - 0xD800) << 10) + ((uint16_t)wide[++i] - 0xDC00);
        if (c < 0x80) {
            *at++ = (unsigned char)c;
        } else if (c < 0x800) {
            *at++ = (unsigned char)(0xC0 | (c >> 6));
            *at++ = (unsigned char)(0x80 | (c & 0x3F));
        } else if (c < 0x10000) {
            *at++ = (unsigned char)(0xE0 | (c >> 12));
            *at++ = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
            *at++ = (unsigned char)(0x80 | (c & 0x3F));
        } else {
            *at++ = (unsigned char)(0xF0 | (c >> 18));
            *at++ = (unsigned char)(0x80 | ((c >> 12) & 0x3F));
            *at++ = (unsigned char)(0x80 | ((c >> 6) & 0x3F));
            *at++ = (unsigned char)(0x80 | (c & 0x3F));
        }
    }
    *at = 0;
    return (const char *)out;
}

const char *const *spx_arguments_utf8(int argc, const char *const *argv, apr_pool_t *pool)
{
    int count = 0;
    wchar_t **wide = CommandLineToArgvW(GetCommandLineW(), &count);
    if (!wide || count != argc) {
        if (wide)
            LocalFree(wide);
        return argv; /* not the command line the C runtime split: keep its argv */
    }
    const char **utf8 = apr_pcalloc(pool, ((apr_size_t)argc + 1) * sizeof(*utf8));
    for (int i = 0; i < argc; i++)
        utf8[i] = utf8_of_wide(wide[i], pool);
    LocalFree(wide);
    return utf8;
}

struct spx_console_t {
    UINT previous; /* the console's output code page before */
    int restored;
    apr_pool_t *pool;
};

static apr_status_t restore_code_page(void *data)
{
    spx_console_t *console = data;
    if (!console->restored)
        SetConsoleOutputCP(console->previous);
    console->restored = 1;
    return APR_SUCCESS;
}

spx_console_t *spx_console_utf8(apr_pool_t *pool)
{
    UINT previous = GetConsoleOutputCP(); /* 0: the process has no console */
    if (previous == 0 || previous == CP_UTF8 || !SetConsoleOutputCP(CP_UTF8))
        return NULL;
    spx_console_t *console = apr_palloc(pool, sizeof(*console));
    console->previous = previous;
    console->restored = 0;
    console->pool = pool;
    apr_pool_cleanup_register(pool, console, restore_code_page, apr_pool_cleanup_null);
    return console;
}

void spx_console_restore(spx_console_t *console)
{
    if (console && !console->restored)
        apr_pool_cleanup_run(console->pool, console, restore_code_page);
}
