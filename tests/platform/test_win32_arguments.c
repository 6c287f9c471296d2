/*
 * test_win32_arguments.c (Windows only): spx_arguments_utf8 decodes the
 * UTF-16 command line exactly. This program starts itself (CreateProcessW)
 * with arguments that hold a character outside the ANSI code page, a
 * surrogate pair, and a surrogate without its pair; the child, run with
 * --child, checks the bytes spx_arguments_utf8 gives for each and exits 0
 * when every one is as expected: the pair as its four UTF-8 bytes, the lone
 * surrogate as bytes that are not UTF-8 (so `semaprax run -- ARG` refuses
 * it, naming the argument, as the language's Input section requires).
 */
#include "spx_platform.h"
#include "spx_test.h"
#include "spx_utf8.h"

#include <apr_general.h>
#include <string.h>
#include <windows.h>

/* The child: argv[2..4] as spx_arguments_utf8 decodes them. */
static int check_as_child(int argc, char **argv)
{
    if (apr_initialize() != APR_SUCCESS)
        return 3;
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    const char *const *utf8 = spx_arguments_utf8(argc, (const char *const *)argv, pool);
    int good = argc == 5 && strcmp(utf8[2], "caf\xc3\xa9") == 0 &&
               strcmp(utf8[3], "\xf0\x9f\x98\x80") == 0 &&
               spx_utf8_length((const unsigned char *)utf8[3], 4) == 4 &&
               strcmp(utf8[4], "a\xed\xa0\x80z") == 0 &&
               spx_utf8_invalid_length((const unsigned char *)utf8[4] + 1, 4) != 0;
    apr_terminate();
    return good ? 0 : 1;
}

static void test_command_line_decoded_exactly(void)
{
    wchar_t self[MAX_PATH];
    DWORD length = GetModuleFileNameW(NULL, self, MAX_PATH);
    CU_ASSERT_FATAL(length > 0 && length < MAX_PATH);
    wchar_t command[MAX_PATH + 64];
    _snwprintf(command, sizeof(command) / sizeof(command[0]),
               L"\"%ls\" --child caf\x00e9 \xd83d\xde00 a\xd800z", self);
    STARTUPINFOW startup;
    memset(&startup, 0, sizeof(startup));
    startup.cb = sizeof(startup);
    PROCESS_INFORMATION child;
    CU_ASSERT_TRUE_FATAL(
        CreateProcessW(self, command, NULL, NULL, FALSE, 0, NULL, NULL, &startup, &child));
    CU_ASSERT_EQUAL(WaitForSingleObject(child.hProcess, 60000), WAIT_OBJECT_0);
    DWORD status = 99;
    CU_ASSERT_TRUE(GetExitCodeProcess(child.hProcess, &status));
    CU_ASSERT_EQUAL(status, 0);
    CloseHandle(child.hThread);
    CloseHandle(child.hProcess);
}

int main(int argc, char **argv)
{
    if (argc >= 2 && strcmp(argv[1], "--child") == 0)
        return check_as_child(argc, argv);
    CU_TestInfo tests[] = {
        {"the UTF-16 command line is decoded exactly", test_command_line_decoded_exactly},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("win32 arguments", tests);
}
