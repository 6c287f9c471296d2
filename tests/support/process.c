/*
 * process.c: starts a program under test with APR, feeds its standard input
 * (from a file, or through a pipe from a writer thread), and collects what
 * it said.
 */
#include "spx_process.h"
#include "spx_test.h"

#include <apr_file_io.h>
#include <apr_strings.h>
#include <apr_tables.h>
#include <apr_thread_proc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void spx_assert_contains(const char *text, const char *fragment)
{
    if (!strstr(text, fragment))
        fprintf(stderr, "\n  wanted '%s' in:\n%s\n", fragment, text);
    CU_ASSERT_PTR_NOT_NULL(strstr(text, fragment));
}

const char *spx_program_path(const char *variable)
{
    const char *path = getenv(variable);
    CU_ASSERT_PTR_NOT_NULL_FATAL(path);
    return path;
}

static const char *read_back(apr_file_t *file, apr_size_t *length, apr_pool_t *pool)
{
    apr_off_t end = 0;
    apr_file_seek(file, APR_END, &end);
    apr_off_t start = 0;
    apr_file_seek(file, APR_SET, &start);
    char *bytes = apr_palloc(pool, (apr_size_t)end + 1);
    apr_size_t got = 0;
    if (end > 0)
        apr_file_read_full(file, bytes, (apr_size_t)end, &got);
    bytes[got] = '\0';
    if (length)
        *length = got;
    return bytes;
}

const char **spx_process_argv(const char **program, const char *const *arguments, apr_pool_t *pool)
{
    /* valgrind's memcheck, as the valgrind build's ctest runs every suite */
    static const char *const memcheck[] = {"--quiet", "--error-exitcode=99", "--leak-check=full",
                                           "--errors-for-leak-kinds=definite,indirect"};
    const char *wrapper = getenv("SPX_PROGRAM_WRAPPER");
    apr_size_t options = wrapper ? 1 + sizeof(memcheck) / sizeof(memcheck[0]) : 0;
    apr_size_t count = 0;
    while (arguments[count])
        count++;
    const char **argv = apr_palloc(pool, (options + count + 2) * sizeof(*argv));
    if (wrapper) {
        argv[0] = wrapper;
        memcpy(argv + 1, memcheck, sizeof(memcheck));
    }
    argv[options] = *program;
    for (apr_size_t i = 0; i < count; i++)
        argv[options + 1 + i] = arguments[i];
    argv[options + count + 1] = NULL;
    if (wrapper)
        *program = wrapper;
    return argv;
}

spx_process_result_t spx_process_run(const char *program, const char *const *arguments,
                                     const char *working_dir, apr_pool_t *pool)
{
    return spx_process_run_input(program, arguments, working_dir, NULL, 0, pool);
}

/* A new temporary file (binary, read-write) and its name. */
static apr_file_t *temporary(const char *temp, const char *stem, char **name, apr_pool_t *pool)
{
    apr_file_t *file = NULL;
    *name = apr_pstrcat(pool, temp, "/spx-", stem, "-XXXXXX", NULL);
    CU_ASSERT_EQUAL_FATAL(apr_file_mktemp(&file, *name, 0, pool), APR_SUCCESS);
    return file;
}

/* Start program with arguments (argv[0] excluded) and attributes. */
static void start(const char *program, const char *const *arguments, const char *working_dir,
                  apr_procattr_t *attributes, apr_proc_t *process, apr_pool_t *pool)
{
    const char **argv = spx_process_argv(&program, arguments, pool);
    apr_procattr_cmdtype_set(attributes, APR_PROGRAM_ENV);
    if (working_dir)
        apr_procattr_dir_set(attributes, working_dir);
    CU_ASSERT_EQUAL_FATAL(apr_proc_create(process, program, argv, NULL, attributes, pool),
                          APR_SUCCESS);
}

/* The exit status of the process, -1 when it did not exit normally. */
static int wait_for(apr_proc_t *process)
{
    int code = 0;
    apr_exit_why_e why;
    apr_proc_wait(process, &code, &why, APR_WAIT);
    return why == APR_PROC_EXIT ? code : -1;
}

spx_process_result_t spx_process_run_input(const char *program, const char *const *arguments,
                                           const char *working_dir, const void *input,
                                           apr_size_t input_length, apr_pool_t *pool)
{
    spx_process_result_t result = {-1, "", 0, ""};
    const char *temp = NULL;
    CU_ASSERT_EQUAL_FATAL(apr_temp_dir_get(&temp, pool), APR_SUCCESS);
    char *out_name = NULL, *err_name = NULL, *in_name = NULL;
    apr_file_t *out = temporary(temp, "out", &out_name, pool);
    apr_file_t *err = temporary(temp, "err", &err_name, pool);
    apr_file_t *in = input ? temporary(temp, "in", &in_name, pool) : NULL;
    if (in) {
        apr_off_t start = 0;
        CU_ASSERT_EQUAL_FATAL(apr_file_write_full(in, input, input_length, NULL), APR_SUCCESS);
        CU_ASSERT_EQUAL_FATAL(apr_file_seek(in, APR_SET, &start), APR_SUCCESS);
    }

    apr_procattr_t *attributes = NULL;
    CU_ASSERT_EQUAL_FATAL(apr_procattr_create(&attributes, pool), APR_SUCCESS);
    apr_procattr_child_out_set(attributes, out, NULL);
    apr_procattr_child_err_set(attributes, err, NULL);
    if (in)
        apr_procattr_child_in_set(attributes, in, NULL);
    apr_proc_t process;
    start(program, arguments, working_dir, attributes, &process, pool);
    result.exit_code = wait_for(&process);
    result.out = read_back(out, &result.out_length, pool);
    result.err = read_back(err, NULL, pool);
    apr_file_close(out);
    apr_file_close(err);
    apr_file_remove(out_name, pool);
    apr_file_remove(err_name, pool);
    if (in) {
        apr_file_close(in);
        apr_file_remove(in_name, pool);
    }
    return result;
}

/* What the writer thread sends. */
typedef struct feed_t {
    apr_file_t *pipe;
    const void *bytes;
    apr_size_t length;
} feed_t;

static void *APR_THREAD_FUNC write_feed(apr_thread_t *thread, void *data)
{
    feed_t *feed = data;
    /* A failed write means the program stopped reading: it may. */
    apr_file_write_full(feed->pipe, feed->bytes, feed->length, NULL);
    apr_file_close(feed->pipe);
    apr_thread_exit(thread, APR_SUCCESS);
    return NULL;
}

spx_process_result_t spx_process_run_piped(const char *program, const char *const *arguments,
                                           const void *input, apr_size_t input_length,
                                           apr_pool_t *pool)
{
    spx_process_result_t result = {-1, "", 0, ""};
    spx_process_ignore_broken_pipes();
    const char *temp = NULL;
    CU_ASSERT_EQUAL_FATAL(apr_temp_dir_get(&temp, pool), APR_SUCCESS);
    char *err_name = NULL;
    apr_file_t *err = temporary(temp, "err", &err_name, pool);
    apr_procattr_t *attributes = NULL;
    CU_ASSERT_EQUAL_FATAL(apr_procattr_create(&attributes, pool), APR_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(
        apr_procattr_io_set(attributes, APR_FULL_BLOCK, APR_FULL_BLOCK, APR_NO_PIPE), APR_SUCCESS);
    apr_procattr_child_err_set(attributes, err, NULL);
    apr_proc_t process;
    start(program, arguments, NULL, attributes, &process, pool);

    feed_t feed = {process.in, input, input_length};
    apr_thread_t *writer = NULL;
    CU_ASSERT_EQUAL_FATAL(apr_thread_create(&writer, NULL, write_feed, &feed, pool), APR_SUCCESS);
    apr_array_header_t *out = apr_array_make(pool, 4096, 1);
    char chunk[4096];
    apr_size_t got = sizeof(chunk);
    while (apr_file_read(process.out, chunk, &got) == APR_SUCCESS) {
        for (apr_size_t i = 0; i < got; i++)
            APR_ARRAY_PUSH(out, char) = chunk[i];
        got = sizeof(chunk);
    }
    apr_file_close(process.out);
    apr_status_t thread_status = APR_SUCCESS;
    apr_thread_join(&thread_status, writer);
    result.exit_code = wait_for(&process);
    result.out_length = (apr_size_t)out->nelts;
    APR_ARRAY_PUSH(out, char) = '\0';
    result.out = out->elts;
    result.err = read_back(err, NULL, pool);
    apr_file_close(err);
    apr_file_remove(err_name, pool);
    return result;
}
