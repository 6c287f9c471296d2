/*
 * test_win32_retention.c (Windows only): what holding a file means on
 * Windows. While a file or directory is held (files share reading only,
 * folders reading and writing, neither deleting), opening a held file for
 * writing, deleting it and replacing it by rename, and renaming a held
 * folder, are denied, both in the holding process and from another one (the
 * real daemon holds the project while this process tries); identities are
 * FileIdInfo's volume serial number and file id (the volume serial number
 * and 64-bit file index where FileIdInfo is not answered; test_win32_files.c
 * checks both); names that are not valid UTF-8 or
 * that would reach an alternate data stream are refused; the programs'
 * standard output carries LF, never CRLF; and their arguments arrive as
 * UTF-8 whatever the ANSI code page.
 */
#include "spx_daemon.h"
#include "spx_platform.h"
#include "spx_process.h"
#include "spx_test.h"
#include "spx_test_win32.h"

#include <apr_strings.h>
#include <string.h>
#include <windows.h>

static const char *const no_extra[] = {NULL};

/* Opening relative for writing (sharing everything) fails: it is held. */
static void assert_write_denied(spx_fixture_t *fixture, const char *relative)
{
    HANDLE writer = CreateFileW(spx_test_native_path(fixture, relative), GENERIC_WRITE,
                                FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                                OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
    CU_ASSERT_EQUAL(writer, INVALID_HANDLE_VALUE);
    CU_ASSERT_EQUAL(GetLastError(), ERROR_SHARING_VIOLATION);
    if (writer != INVALID_HANDLE_VALUE)
        CloseHandle(writer);
}

/* Each of the three ways to change a held file by name must fail with the
 * error Windows gives for it; relative is held by someone at this point. */
static void assert_changes_denied(spx_fixture_t *fixture, const char *relative)
{
    assert_write_denied(fixture, relative);

    CU_ASSERT_FALSE(DeleteFileW(spx_test_native_path(fixture, relative)));
    DWORD delete_error = GetLastError();
    CU_ASSERT_TRUE(delete_error == ERROR_SHARING_VIOLATION || delete_error == ERROR_ACCESS_DENIED);

    spx_fixture_write(fixture, "replacement.tmp", "replaced");
    CU_ASSERT_FALSE(MoveFileExW(spx_test_native_path(fixture, "replacement.tmp"),
                                spx_test_native_path(fixture, relative),
                                MOVEFILE_REPLACE_EXISTING));
    DWORD rename_error = GetLastError();
    CU_ASSERT_TRUE(rename_error == ERROR_SHARING_VIOLATION || rename_error == ERROR_ACCESS_DENIED);
    /* The held name still has its own bytes. */
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, relative), "held bytes");
}

static void test_held_file_denies_changes(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_write(fixture, "a.spx", "held bytes");
    apr_pool_t *session = NULL;
    apr_pool_create(&session, fixture->pool);
    spx_dir_t *root = NULL;
    spx_file_t *file = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_dir_open_root(&root, fixture->root, session, NULL), APR_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(spx_file_open(&file, root, "a.spx", session, NULL), APR_SUCCESS);
    assert_changes_denied(fixture, "a.spx");
    /* Reading by name is still allowed. */
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "a.spx"), "held bytes");
    /* Once released, the same changes are allowed again. */
    apr_pool_destroy(session);
    spx_fixture_patch(fixture, "a.spx", 0, "HELD");
    spx_fixture_rename(fixture, "replacement.tmp", "a.spx");
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "a.spx"), "replaced");
    spx_fixture_free(fixture);
}

static void test_held_directory_cannot_be_renamed(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_write(fixture, "src/a.spx", "a");
    apr_pool_t *session = NULL;
    apr_pool_create(&session, fixture->pool);
    spx_dir_t *root = NULL, *src = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_dir_open_root(&root, fixture->root, session, NULL), APR_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(spx_dir_open_child(&src, root, "src", session, NULL), APR_SUCCESS);
    CU_ASSERT_FALSE(MoveFileExW(spx_test_native_path(fixture, "src"),
                                spx_test_native_path(fixture, "src-moved"), 0));
    apr_pool_destroy(session);
    CU_ASSERT_TRUE(MoveFileExW(spx_test_native_path(fixture, "src"),
                               spx_test_native_path(fixture, "src-moved"), 0));
    spx_fixture_free(fixture);
}

/* The daemon is another process: while its session is open, this process
 * cannot change the sources or the manifest it holds. */
static void test_daemon_session_denies_changes(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_daemon_copy_hello(fixture, "proj");
    spx_fixture_write(fixture, "proj/src/held.txt", "held bytes");
    spx_daemon_t *daemon = spx_daemon_start_on(fixture, "proj", no_extra);
    spx_daemon_open(daemon);

    assert_write_denied(fixture, "proj/src/app.spx");
    CU_ASSERT_FALSE(DeleteFileW(spx_test_native_path(fixture, "proj/src/math.spx")));
    spx_fixture_write(fixture, "proj/new.toml", spx_fixture_read(fixture, "proj/semaprax.toml"));
    CU_ASSERT_FALSE(MoveFileExW(spx_test_native_path(fixture, "proj/new.toml"),
                                spx_test_native_path(fixture, "proj/semaprax.toml"),
                                MOVEFILE_REPLACE_EXISTING));
    CU_ASSERT_FALSE(MoveFileExW(spx_test_native_path(fixture, "proj/src"),
                                spx_test_native_path(fixture, "proj/src-moved"), 0));
    /* A file the session does not hold can still be saved in a held folder
     * (created and written), and the folder still cannot be renamed. */
    HANDLE saved = CreateFileW(spx_test_native_path(fixture, "proj/src/notes.txt"), GENERIC_WRITE,
                               0, NULL, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, NULL);
    CU_ASSERT_NOT_EQUAL(saved, INVALID_HANDLE_VALUE);
    if (saved != INVALID_HANDLE_VALUE) {
        DWORD written = 0;
        CU_ASSERT_TRUE(WriteFile(saved, "notes", 5, &written, NULL));
        CU_ASSERT_EQUAL(written, 5);
        CloseHandle(saved);
    }
    CU_ASSERT_STRING_EQUAL(spx_fixture_read(fixture, "proj/src/notes.txt"), "notes");
    CU_ASSERT_FALSE(MoveFileExW(spx_test_native_path(fixture, "proj/src"),
                                spx_test_native_path(fixture, "proj/src-moved"), 0));

    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    /* The session has ended: the handles are gone with the process. */
    CU_ASSERT_TRUE(DeleteFileW(spx_test_native_path(fixture, "proj/src/math.spx")));
    spx_fixture_free(fixture);
}

static void test_identity_is_volume_serial_and_file_index(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_write(fixture, "a.spx", "one");
    spx_fixture_write(fixture, "b.spx", "one");
    spx_dir_t *root = NULL;
    spx_file_t *a = NULL, *again = NULL, *b = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_dir_open_root(&root, fixture->root, fixture->pool, NULL),
                          APR_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(spx_file_open(&a, root, "a.spx", fixture->pool, NULL), APR_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(spx_file_open(&again, root, "a.spx", fixture->pool, NULL), APR_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(spx_file_open(&b, root, "b.spx", fixture->pool, NULL), APR_SUCCESS);
    spx_identity_t first, second, other;
    CU_ASSERT_EQUAL_FATAL(spx_file_identity(a, &first, fixture->pool, NULL), APR_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(spx_file_identity(again, &second, fixture->pool, NULL), APR_SUCCESS);
    CU_ASSERT_EQUAL_FATAL(spx_file_identity(b, &other, fixture->pool, NULL), APR_SUCCESS);
    CU_ASSERT_TRUE(spx_identity_same_object(&first, &second));
    CU_ASSERT_FALSE(spx_identity_same_object(&first, &other));
    CU_ASSERT_EQUAL(first.volume, other.volume);

    /* The same numbers as an independent handle's. */
    HANDLE handle = CreateFileW(spx_test_native_path(fixture, "a.spx"), FILE_READ_ATTRIBUTES,
                                FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                                OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, NULL);
    CU_ASSERT_NOT_EQUAL_FATAL(handle, INVALID_HANDLE_VALUE);
    BY_HANDLE_FILE_INFORMATION info;
    CU_ASSERT_TRUE_FATAL(GetFileInformationByHandle(handle, &info));
    FILE_ID_INFO id;
    if (GetFileInformationByHandleEx(handle, FileIdInfo, &id, sizeof(id))) {
        uint64_t low = 0;
        for (int i = 7; i >= 0; i--)
            low = (low << 8) | id.FileId.Identifier[i];
        CU_ASSERT_EQUAL(first.volume, (uint64_t)id.VolumeSerialNumber);
        CU_ASSERT_EQUAL(first.object, low);
    } else {
        CU_ASSERT_EQUAL(first.volume, (uint64_t)info.dwVolumeSerialNumber);
        CU_ASSERT_EQUAL(first.object,
                        ((uint64_t)info.nFileIndexHigh << 32) | (uint64_t)info.nFileIndexLow);
    }
    CloseHandle(handle);
    CU_ASSERT_EQUAL(first.size, 3);

    /* A lookup by name gives the same identity without holding it. */
    spx_name_state_t state;
    spx_identity_t looked;
    CU_ASSERT_EQUAL(spx_dir_lookup(root, "a.spx", &state, &looked, fixture->pool, NULL),
                    APR_SUCCESS);
    CU_ASSERT_EQUAL(state, SPX_NAME_PRESENT);
    CU_ASSERT_TRUE(spx_identity_same_object(&first, &looked));
    spx_fixture_free(fixture);
}

static void test_names_windows_would_reinterpret_are_refused(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_fixture_write(fixture, "a.spx", "one");
    spx_dir_t *root = NULL;
    spx_file_t *file = NULL;
    const char *message = NULL;
    CU_ASSERT_EQUAL_FATAL(spx_dir_open_root(&root, fixture->root, fixture->pool, NULL),
                          APR_SUCCESS);
    CU_ASSERT_EQUAL(spx_file_open(&file, root, "a.spx:stream", fixture->pool, &message),
                    SPX_STATUS_BAD_NAME);
    CU_ASSERT_EQUAL(spx_file_open(&file, root, "src\\a.spx", fixture->pool, &message),
                    SPX_STATUS_BAD_NAME);
    CU_ASSERT_EQUAL(spx_file_open(&file, root, "a\xff.spx", fixture->pool, &message),
                    SPX_STATUS_BAD_NAME);
    spx_assert_contains(message, "not valid UTF-8");
    /* A device name is an ordinary (here missing) name below a held folder. */
    CU_ASSERT_NOT_EQUAL(spx_file_open(&file, root, "CON", fixture->pool, &message), APR_SUCCESS);
    CU_ASSERT_NOT_EQUAL(spx_file_open(&file, root, "NUL", fixture->pool, &message), APR_SUCCESS);
    spx_fixture_free(fixture);
}

static void assert_no_crlf(const char *out, apr_size_t length)
{
    CU_ASSERT_TRUE(length > 0);
    CU_ASSERT_PTR_NOT_NULL(memchr(out, '\n', length));
    CU_ASSERT_PTR_NULL(memchr(out, '\r', length));
}

static void test_stdout_carries_lf(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    spx_process_result_t help = SPX_RUN_SEMAPRAX(pool, "--help");
    CU_ASSERT_EQUAL(help.exit_code, 0);
    assert_no_crlf(help.out, help.out_length);
    spx_process_result_t version = SPX_RUN_SEMAPRAX(pool, "--version");
    CU_ASSERT_EQUAL(version.exit_code, 0);
    assert_no_crlf(version.out, version.out_length);
    apr_pool_destroy(pool);

    /* The daemon's responses too, every byte up to the end of its output. */
    spx_fixture_t *fixture = spx_fixture_new();
    spx_daemon_copy_hello(fixture, "proj");
    spx_daemon_t *daemon = spx_daemon_start_on(fixture, "proj", no_extra);
    spx_daemon_open(daemon);
    const char *ping = spx_request_line("1", "ping", "", fixture->pool);
    CU_ASSERT_PTR_NOT_NULL(strstr(spx_daemon_call(daemon, ping), "\"id\":1"));
    const char *unknown = "{\"id\":2,\"jsonrpc\":\"2.0\",\"method\":\"x\"}\n";
    CU_ASSERT_EQUAL(spx_daemon_send(daemon, unknown, strlen(unknown)), APR_SUCCESS);
    CU_ASSERT_EQUAL(spx_daemon_finish(daemon), 0);
    const char *rest = spx_daemon_rest(daemon);
    CU_ASSERT_PTR_NOT_NULL(strchr(rest, '\n'));
    CU_ASSERT_PTR_NULL(strchr(rest, '\r'));
    spx_fixture_free(fixture);
}

/* A manifest path outside the ANSI code page ("λ" is in none of the
 * Western ones) reaches the program intact: its arguments are decoded from
 * the UTF-16 command line, not taken from the C runtime's ANSI argv. */
static void test_arguments_outside_the_ansi_code_page(void)
{
    spx_fixture_t *fixture = spx_fixture_new();
    spx_daemon_copy_hello(fixture, "\xce\xbb");
    const char *manifest = spx_fixture_path(fixture, "\xce\xbb/semaprax.toml");
    spx_process_result_t check =
        SPX_RUN_SEMAPRAX(fixture->pool, "check", "--manifest-path", manifest);
    if (check.exit_code != 0)
        fprintf(stderr, "\n  %s\n", check.err);
    CU_ASSERT_EQUAL(check.exit_code, 0);
    spx_fixture_free(fixture);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"a held file denies write, delete, rename", test_held_file_denies_changes},
        {"a held directory cannot be renamed", test_held_directory_cannot_be_renamed},
        {"the daemon's session denies changes", test_daemon_session_denies_changes},
        {"identity: volume serial and file id", test_identity_is_volume_serial_and_file_index},
        {"names Windows would reinterpret are refused",
         test_names_windows_would_reinterpret_are_refused},
        {"stdout carries LF, never CRLF", test_stdout_carries_lf},
        {"arguments outside the ANSI code page", test_arguments_outside_the_ansi_code_page},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("win32 retention", tests);
}
