/*
 * spx_process.h: running the real programs in process tests: start one with
 * arguments (and, optionally, bytes on its standard input), wait for it, and
 * collect its exit status, standard output and standard error (all through
 * files, so no pipe can fill up and block).
 */
#ifndef SPX_PROCESS_H
#define SPX_PROCESS_H

#include <apr_pools.h>

typedef struct spx_process_result_t {
    int exit_code; /* -1 when it did not exit normally */
    const char *out;
    apr_size_t out_length;
    const char *err;
} spx_process_result_t;

/* How many bytes of arguments a started program can be given on this
 * system (posix/ or win32/command_line.c): a test of a bound larger than a
 * command line can hold has nothing to start there. */
apr_size_t spx_command_line_limit(void);

/* 1 when a started program's arguments are bytes as given (POSIX), 0 when
 * they travel as UTF-16 (Windows: bytes that are not UTF-8 cannot be given;
 * tests/platform/test_win32_arguments.c shows what a bad command line
 * becomes there). */
int spx_command_line_takes_bytes(void);

/* The path of a program under test, from the environment variable that ctest
 * sets (SPX_SEMAPRAX, ...). */
const char *spx_program_path(const char *variable);

/* argv for *program: the program itself, then the NULL-terminated
 * arguments, then NULL. When the environment has SPX_PROGRAM_WRAPPER (valgrind,
 * set by the valgrind build's ctest), the program runs under memcheck
 * instead: argv starts with the wrapper and its options (an error or a leak
 * exits 99, which the tests' exit-status checks catch), and *program becomes
 * the wrapper. */
const char **spx_process_argv(const char **program, const char *const *arguments, apr_pool_t *pool);

/* Run program with the NULL-terminated arguments (argv[0] excluded) in
 * working_dir (NULL for the current one). */
spx_process_result_t spx_process_run(const char *program, const char *const *arguments,
                                     const char *working_dir, apr_pool_t *pool);

/* spx_process_run with input[0..input_length) as the program's standard
 * input (binary, followed by end of input). */
spx_process_result_t spx_process_run_input(const char *program, const char *const *arguments,
                                           const char *working_dir, const void *input,
                                           apr_size_t input_length, apr_pool_t *pool);

/* spx_process_run_input through pipes, as a client talks to a server: a
 * thread writes input to the program's standard input and closes it while
 * its standard output is read until it closes (standard error still goes
 * through a file). The program may exit before reading all of the input. */
spx_process_result_t spx_process_run_piped(const char *program, const char *const *arguments,
                                           const void *input, apr_size_t input_length,
                                           apr_pool_t *pool);

/* Let writes to a pipe whose reader has gone fail instead of ending the
 * test process (tests/support/posix/ and win32/). spx_process_run_piped
 * calls it. */
void spx_process_ignore_broken_pipes(void);
/* Give SIGPIPE back its default action (which a child started meanwhile
 * inherits: spx_daemon_start starts the daemon so, as a shell would, so that
 * the daemon must ignore SIGPIPE itself); nothing on Windows. */
void spx_process_default_broken_pipes(void);
/* Send SIGPIPE to the process: 1 when sent, 0 where there is no such signal
 * (Windows). */
int spx_process_send_broken_pipe(int pid);

/* Run the `semaprax` under test with the arguments, in the current folder. */
#define SPX_RUN_SEMAPRAX(pool, ...)                                                                \
    spx_process_run(spx_program_path("SPX_SEMAPRAX"), (const char *const[]){__VA_ARGS__, NULL},    \
                    NULL, pool)

/* The largest peak resident memory, in KiB, of the child processes this
 * process has waited for (getrusage RUSAGE_CHILDREN's ru_maxrss); -1 where
 * the system does not say (Windows). tests/support/posix/ and win32/. */
long spx_children_peak_kib(void);

/* Fail the running test unless fragment is in text (and show text). */
void spx_assert_contains(const char *text, const char *fragment);

#endif /* SPX_PROCESS_H */
