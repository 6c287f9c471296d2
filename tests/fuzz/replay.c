/*
 * replay.c: a main for the fuzz targets in the normal, sanitizer and
 * valgrind builds, where libFuzzer is not linked: it runs the target once on
 * every file of the folders (or files) named on its command line, in name
 * order, so the seed corpus and every input that once broke a target
 * (tests/fuzz/regressions/) run as an ordinary ctest suite. A broken
 * invariant aborts, which fails the test.
 *
 *   replay PATH...      each file, and each file of each folder
 *   replay --random N   N fixed pseudo-random inputs of 64..2,111 bytes
 *                       (input n is the same in every build and run), so
 *                       the suite also runs a generator-driven target
 *                       (fuzz_interpreter) on inputs no corpus holds
 */
#include "spx_fuzz.h"

#include <apr_file_info.h>
#include <apr_file_io.h>
#include <apr_strings.h>
#include <apr_tables.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void cannot_read(const char *path)
{
    fprintf(stderr, "replay: cannot read %s\n", path);
    exit(1);
}

/* Run the target on the file at path; 1 (an input replayed). */
static int replay_file(const char *path, apr_pool_t *pool)
{
    apr_file_t *file = NULL;
    apr_finfo_t info;
    if (apr_file_open(&file, path, APR_FOPEN_READ | APR_FOPEN_BINARY, 0, pool) != APR_SUCCESS ||
        apr_file_info_get(&info, APR_FINFO_SIZE, file) != APR_SUCCESS)
        cannot_read(path);
    apr_size_t size = (apr_size_t)info.size, got = 0;
    /* An exact-size copy, as libFuzzer hands it over, so any read past the
     * end is caught by the sanitizers and valgrind. */
    uint8_t *data = malloc(size ? size : 1);
    if (!data || (size && apr_file_read_full(file, data, size, &got) != APR_SUCCESS))
        cannot_read(path);
    apr_file_close(file);
    LLVMFuzzerTestOneInput(data, size);
    free(data);
    return 1;
}

/* The n-th fixed pseudo-random input (a linear congruential sequence, as
 * fuzz_show_program --check makes its own); 1. */
static int replay_random(unsigned long n)
{
    uint64_t state = 0x5eed5eed5eedULL + n * 0x9e3779b97f4a7c15ULL;
    size_t size = 64 + (size_t)(n * 37 % 2048);
    uint8_t *data = malloc(size);
    if (!data)
        abort();
    for (size_t i = 0; i < size; i++) {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        data[i] = (uint8_t)(state >> 56);
    }
    LLVMFuzzerTestOneInput(data, size);
    free(data);
    return 1;
}

/* Every regular file of dir (names starting with '.' left out); how many. */
static int replay_dir(const char *dir, apr_pool_t *pool)
{
    apr_dir_t *handle = NULL;
    if (apr_dir_open(&handle, dir, pool) != APR_SUCCESS)
        cannot_read(dir);
    apr_array_header_t *names = apr_array_make(pool, 64, sizeof(const char *));
    apr_finfo_t entry;
    while (apr_dir_read(&entry, APR_FINFO_NAME | APR_FINFO_TYPE, handle) == APR_SUCCESS)
        if (entry.filetype == APR_REG && entry.name[0] != '.')
            APR_ARRAY_PUSH(names, const char *) = apr_pstrdup(pool, entry.name);
    apr_dir_close(handle);
    qsort(names->elts, (size_t)names->nelts, sizeof(const char *), compare_names);
    int count = 0;
    for (int i = 0; i < names->nelts; i++)
        count += replay_file(
            apr_pstrcat(pool, dir, "/", APR_ARRAY_IDX(names, i, const char *), NULL), pool);
    return count;
}

int main(int argc, char **argv)
{
    LLVMFuzzerInitialize(&argc, &argv);
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    int total = 0;
    if (argc == 3 && strcmp(argv[1], "--random") == 0) {
        unsigned long count = strtoul(argv[2], NULL, 10);
        for (unsigned long n = 0; n < count; n++)
            total += replay_random(n);
        argc = 1;
    }
    for (int i = 1; i < argc; i++) {
        apr_finfo_t info;
        if (apr_stat(&info, argv[i], APR_FINFO_TYPE, pool) != APR_SUCCESS) {
            fprintf(stderr, "replay: no such file or folder: %s\n", argv[i]);
            return 1;
        }
        total += info.filetype == APR_DIR ? replay_dir(argv[i], pool) : replay_file(argv[i], pool);
    }
    printf("replay: %d inputs, no invariant broken\n", total);
    apr_pool_destroy(pool);
    apr_terminate();
    return total > 0 ? 0 : 1;
}
