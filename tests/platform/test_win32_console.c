/*
 * test_win32_console.c (Windows only): the programs' UTF-8 console output.
 * spx_console_utf8 sets the console's output code page to CP_UTF8 and puts
 * the previous one back (explicitly, or when its pool goes); a process
 * without a console is left alone. The suite runs without a console of its
 * own (ctest gives it pipes), so it makes one: a pseudo console
 * (CreatePseudoConsole) with a waiting child process on it (this program,
 * run with --wait), which this process then attaches to.
 */
#include "spx_platform.h"
#include "spx_test.h"

#include <apr_strings.h>
#include <string.h>
#include <windows.h>

typedef struct pseudo_t {
    HPCON console;
    HANDLE input_read, input_write, output_read, output_write;
    PROCESS_INFORMATION child;
    HANDLE saved[3];
} pseudo_t;

static const DWORD std_ids[3] = {STD_INPUT_HANDLE, STD_OUTPUT_HANDLE, STD_ERROR_HANDLE};

/* A pseudo console with a child (this program, waiting) attached,
 * and this process attached to it instead of to nothing. */
static void attach_pseudo_console(pseudo_t *pseudo)
{
    memset(pseudo, 0, sizeof(*pseudo));
    for (int i = 0; i < 3; i++)
        pseudo->saved[i] = GetStdHandle(std_ids[i]);
    CU_ASSERT_TRUE_FATAL(CreatePipe(&pseudo->input_read, &pseudo->input_write, NULL, 0));
    CU_ASSERT_TRUE_FATAL(CreatePipe(&pseudo->output_read, &pseudo->output_write, NULL, 0));
    COORD size = {80, 25};
    CU_ASSERT_EQUAL_FATAL(
        CreatePseudoConsole(size, pseudo->input_read, pseudo->output_write, 0, &pseudo->console),
        S_OK);
    STARTUPINFOEXW startup;
    memset(&startup, 0, sizeof(startup));
    startup.StartupInfo.cb = sizeof(startup);
    SIZE_T bytes = 0;
    InitializeProcThreadAttributeList(NULL, 1, 0, &bytes);
    startup.lpAttributeList = HeapAlloc(GetProcessHeap(), 0, bytes);
    CU_ASSERT_PTR_NOT_NULL_FATAL(startup.lpAttributeList);
    CU_ASSERT_TRUE_FATAL(InitializeProcThreadAttributeList(startup.lpAttributeList, 1, 0, &bytes));
    CU_ASSERT_TRUE_FATAL(
        UpdateProcThreadAttribute(startup.lpAttributeList, 0, PROC_THREAD_ATTRIBUTE_PSEUDOCONSOLE,
                                  pseudo->console, sizeof(pseudo->console), NULL, NULL));
    /* Its standard handles are the console's, not this process's pipes. */
    startup.StartupInfo.dwFlags = STARTF_USESTDHANDLES;
    wchar_t self[MAX_PATH];
    DWORD length = GetModuleFileNameW(NULL, self, MAX_PATH);
    CU_ASSERT_FATAL(length > 0 && length < MAX_PATH);
    wchar_t command[MAX_PATH + 16];
    _snwprintf(command, sizeof(command) / sizeof(command[0]), L"\"%ls\" --wait", self);
    CU_ASSERT_TRUE_FATAL(CreateProcessW(self, command, NULL, NULL, FALSE,
                                        EXTENDED_STARTUPINFO_PRESENT, NULL, NULL,
                                        &startup.StartupInfo, &pseudo->child));
    DeleteProcThreadAttributeList(startup.lpAttributeList);
    HeapFree(GetProcessHeap(), 0, startup.lpAttributeList);
    FreeConsole();
    /* The child connects to its console as it starts: try for up to 10 s. */
    BOOL attached = FALSE;
    DWORD error = 0;
    for (int tries = 0; tries < 200 && !attached; tries++) {
        attached = AttachConsole(pseudo->child.dwProcessId);
        if (!attached) {
            error = GetLastError();
            Sleep(50);
        }
    }
    if (!attached)
        printf("\n  cannot attach to the pseudo console: error %lu\n", (unsigned long)error);
    CU_ASSERT_TRUE_FATAL(attached);
}

static void detach_pseudo_console(pseudo_t *pseudo)
{
    FreeConsole();
    TerminateProcess(pseudo->child.hProcess, 0);
    WaitForSingleObject(pseudo->child.hProcess, 10000);
    CloseHandle(pseudo->child.hThread);
    CloseHandle(pseudo->child.hProcess);
    /* The reading end goes first, so the console never waits to be read. */
    CloseHandle(pseudo->output_read);
    ClosePseudoConsole(pseudo->console);
    CloseHandle(pseudo->output_write);
    CloseHandle(pseudo->input_read);
    CloseHandle(pseudo->input_write);
    for (int i = 0; i < 3; i++)
        SetStdHandle(std_ids[i], pseudo->saved[i]);
}

static void test_console_output_is_utf8_then_restored(void)
{
    pseudo_t pseudo;
    attach_pseudo_console(&pseudo);
    UINT before = GetConsoleOutputCP();
    CU_ASSERT_NOT_EQUAL(before, 0);
    CU_ASSERT_NOT_EQUAL(before, CP_UTF8); /* or the test would prove nothing */

    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    spx_console_t *console = spx_console_utf8(pool);
    CU_ASSERT_PTR_NOT_NULL(console);
    CU_ASSERT_EQUAL(GetConsoleOutputCP(), CP_UTF8);
    spx_console_restore(console);
    CU_ASSERT_EQUAL(GetConsoleOutputCP(), before);
    spx_console_restore(console); /* idempotent */
    CU_ASSERT_EQUAL(GetConsoleOutputCP(), before);

    /* Without an explicit restore, the pool's end puts it back. */
    apr_pool_t *program = NULL;
    apr_pool_create(&program, pool);
    CU_ASSERT_PTR_NOT_NULL(spx_console_utf8(program));
    CU_ASSERT_EQUAL(GetConsoleOutputCP(), CP_UTF8);
    apr_pool_destroy(program);
    CU_ASSERT_EQUAL(GetConsoleOutputCP(), before);

    /* Already UTF-8: nothing to change, nothing to put back. */
    CU_ASSERT_TRUE(SetConsoleOutputCP(CP_UTF8));
    CU_ASSERT_PTR_NULL(spx_console_utf8(pool));
    CU_ASSERT_EQUAL(GetConsoleOutputCP(), CP_UTF8);
    CU_ASSERT_TRUE(SetConsoleOutputCP(before));
    apr_pool_destroy(pool);
    detach_pseudo_console(&pseudo);
}

static void test_no_console_is_left_alone(void)
{
    pseudo_t pseudo;
    attach_pseudo_console(&pseudo); /* so that there is a console to let go of */
    FreeConsole();
    CU_ASSERT_EQUAL(GetConsoleOutputCP(), 0);
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    CU_ASSERT_PTR_NULL(spx_console_utf8(pool));
    spx_console_restore(NULL);
    apr_pool_destroy(pool);
    detach_pseudo_console(&pseudo);
}

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--wait") == 0) {
        Sleep(60000); /* a process for the pseudo console; the test ends it */
        return 0;
    }
    CU_TestInfo tests[] = {
        {"console output is UTF-8, then restored", test_console_output_is_utf8_then_restored},
        {"a process without a console is left alone", test_no_console_is_left_alone},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("win32 console", tests);
}
