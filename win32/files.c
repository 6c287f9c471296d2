/*
 * files.c: the Windows implementation of the held-object interface.
 *
 * Every object is opened with CreateFileW by its full path (the held parent's
 * path joined with one name, as a "\\?\" path, so no device name, trailing dot
 * or 260-character limit applies), with GENERIC_READ and the share mode
 * FILE_SHARE_READ only: while a session holds a file or a directory, other
 * programs may read it but their writes, deletes and replace-by-rename are
 * denied with a sharing violation (the intended retention authority of the
 * platform specification). FILE_FLAG_OPEN_REPARSE_POINT opens a reparse point
 * (symbolic link, junction) itself, which is then refused by its attributes;
 * directories need FILE_FLAG_BACKUP_SEMANTICS. Identities come from
 * GetFileInformationByHandle (volume serial number, 64-bit file index).
 * Names and paths are UTF-8 outside and UTF-16 here; invalid UTF-8 is refused.
 * Win32 error codes become apr_status_t here and nowhere else.
 *
 * The rename transaction's writes are here too: a sibling temporary file
 * created with CREATE_NEW by the held directory's path, written,
 * FlushFileBuffers()ed, then moved over the original with MoveFileExW
 * (MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH) once the session has
 * let go of its own handles that would deny it.
 */
#include "spx_platform.h"

#include <apr_general.h>
#include <apr_strings.h>
#include <string.h>
#include <wchar.h>
#include <windows.h>

struct spx_dir_t {
    HANDLE handle;
    const char *path;         /* display path */
    const char *child_prefix; /* "" for the root, "path/" below it */
    const wchar_t *native;    /* "\\?\" path of the directory */
};

struct spx_file_t {
    HANDLE handle;
    const char *path;
};

static apr_status_t say(apr_status_t status, const char **message, apr_pool_t *pool,
                        const char *format, const char *path, const char *detail)
{
    if (message)
        *message = apr_psprintf(pool, format, path, detail);
    return status;
}

/* The portable status for a Win32 error: the POSIX code where one means the
 * same (so the layers above compare with APR_ENOENT and APR_EACCES on both
 * platforms), APR's wrapping of the Win32 code otherwise. */
static apr_status_t portable_status(DWORD error)
{
    switch (error) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
        return APR_ENOENT;
    case ERROR_ACCESS_DENIED:
    case ERROR_SHARING_VIOLATION:
        return APR_EACCES;
    default:
        return APR_FROM_OS_ERROR(error);
    }
}

static apr_status_t say_error(DWORD error, const char **message, apr_pool_t *pool, const char *what,
                              const char *path)
{
    char text[256];
    apr_status_t status = portable_status(error);
    apr_strerror(APR_FROM_OS_ERROR(error), text, sizeof(text));
    if (message)
        *message = apr_psprintf(pool, "cannot %s '%s': %s", what, path, text);
    return status;
}

/* UTF-8 to NUL-terminated UTF-16 in pool; NULL for invalid UTF-8. */
static wchar_t *to_wide(const char *text, apr_pool_t *pool)
{
    int units = MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, text, -1, NULL, 0);
    if (units <= 0)
        return NULL;
    wchar_t *wide = apr_palloc(pool, (apr_size_t)units * sizeof(wchar_t));
    if (MultiByteToWideChar(CP_UTF8, MB_ERR_INVALID_CHARS, text, -1, wide, units) != units)
        return NULL;
    return wide;
}

static apr_status_t bad_utf8(const char **message, apr_pool_t *pool, const char *path)
{
    return say(SPX_STATUS_BAD_NAME, message, pool, "'%s' is %s", path, "not valid UTF-8");
}

/* The absolute "\\?\" form of a host path (drive, UNC or already "\\?\"). */
static wchar_t *native_host_path(const wchar_t *path, apr_pool_t *pool)
{
    if (wcsncmp(path, L"\\\\?\\", 4) == 0)
        return apr_pmemdup(pool, path, (wcslen(path) + 1) * sizeof(wchar_t));
    DWORD units = GetFullPathNameW(path, 0, NULL, NULL);
    if (units == 0)
        return NULL;
    wchar_t *full = apr_palloc(pool, (apr_size_t)units * sizeof(wchar_t));
    DWORD written = GetFullPathNameW(path, units, full, NULL);
    if (written == 0 || written >= units)
        return NULL;
    int unc = full[0] == L'\\' && full[1] == L'\\';
    const wchar_t *prefix = unc ? L"\\\\?\\UNC" : L"\\\\?\\";
    const wchar_t *rest = unc ? full + 1 : full;
    apr_size_t length = wcslen(prefix) + wcslen(rest);
    wchar_t *native = apr_palloc(pool, (length + 1) * sizeof(wchar_t));
    wcscpy(native, prefix);
    wcscat(native, rest);
    return native;
}

/* parent's native path, a backslash, and name (already UTF-16). */
static wchar_t *native_child_path(const wchar_t *parent, const wchar_t *name, apr_pool_t *pool)
{
    apr_size_t parent_length = wcslen(parent);
    int separator = parent_length > 0 && parent[parent_length - 1] != L'\\';
    apr_size_t length = parent_length + (apr_size_t)separator + wcslen(name);
    wchar_t *native = apr_palloc(pool, (length + 1) * sizeof(wchar_t));
    wcscpy(native, parent);
    if (separator)
        wcscat(native, L"\\");
    wcscat(native, name);
    return native;
}

static spx_object_kind_t kind_of(const BY_HANDLE_FILE_INFORMATION *info)
{
    return (info->dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) ? SPX_OBJECT_DIR : SPX_OBJECT_FILE;
}

static void identity_from_info(const BY_HANDLE_FILE_INFORMATION *info, spx_object_kind_t kind,
                               spx_identity_t *identity)
{
    identity->volume = (uint64_t)info->dwVolumeSerialNumber;
    identity->object = ((uint64_t)info->nFileIndexHigh << 32) | (uint64_t)info->nFileIndexLow;
    identity->kind = kind;
    identity->size = kind == SPX_OBJECT_FILE
                         ? ((uint64_t)info->nFileSizeHigh << 32) | (uint64_t)info->nFileSizeLow
                         : 0;
    identity->links = (uint64_t)info->nNumberOfLinks;
}

/* What the handle is: a directory, a regular file on disk, or other (a
 * device or pipe behind the name). */
static spx_object_kind_t kind_of_handle(HANDLE handle, const BY_HANDLE_FILE_INFORMATION *info)
{
    if (GetFileType(handle) != FILE_TYPE_DISK)
        return SPX_OBJECT_OTHER;
    return kind_of(info);
}

/* A name must be exactly one component: not empty, not "." or "..", and
 * without '/', '\' or ':' (which would name an alternate data stream). */
static int is_single_component(const char *name)
{
    return name[0] != '\0' && strcmp(name, ".") != 0 && strcmp(name, "..") != 0 &&
           strpbrk(name, "/\\:") == NULL;
}

static apr_status_t close_handle(void *data)
{
    HANDLE *handle = data;
    if (*handle != INVALID_HANDLE_VALUE) {
        CloseHandle(*handle);
        *handle = INVALID_HANDLE_VALUE;
    }
    return APR_SUCCESS;
}

static const char *child_path(const spx_dir_t *parent, const char *name, apr_pool_t *pool)
{
    return apr_pstrcat(pool, parent->child_prefix, name, NULL);
}

/* Open native for reading, sharing reading only. follow: whether a reparse
 * point at the last component is followed (only for the host's root path). */
static HANDLE open_held(const wchar_t *native, int follow)
{
    DWORD flags = FILE_FLAG_BACKUP_SEMANTICS | (follow ? 0 : FILE_FLAG_OPEN_REPARSE_POINT);
    return CreateFileW(native, GENERIC_READ, FILE_SHARE_READ, NULL, OPEN_EXISTING, flags, NULL);
}

/* Open native, check it is a non-reparse object of the expected kind, and
 * give back the handle or why not. */
static apr_status_t open_checked(HANDLE *opened, const wchar_t *native, int follow,
                                 spx_object_kind_t expected, const char *path, apr_pool_t *pool,
                                 const char **message)
{
    HANDLE handle = open_held(native, follow);
    if (handle == INVALID_HANDLE_VALUE)
        return say_error(GetLastError(), message, pool, "open", path);
    BY_HANDLE_FILE_INFORMATION info;
    if (!GetFileInformationByHandle(handle, &info)) {
        DWORD error = GetLastError();
        CloseHandle(handle);
        return say_error(error, message, pool, "inspect", path);
    }
    apr_status_t status = APR_SUCCESS;
    if (!follow && (info.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT))
        status = say(SPX_STATUS_LINK, message, pool, "'%s' is a symbolic link; %s", path,
                     "links are not followed inside a project");
    else if (kind_of_handle(handle, &info) != expected)
        status = say(SPX_STATUS_NOT_REGULAR, message, pool, "'%s' is not %s", path,
                     expected == SPX_OBJECT_DIR ? "a directory" : "a regular file");
    if (status != APR_SUCCESS) {
        CloseHandle(handle);
        return status;
    }
    *opened = handle;
    return APR_SUCCESS;
}

/* A path as the host gave it (UTF-8, relative or absolute) in the native
 * \\?\ form; what names the failed action in the message. */
static apr_status_t host_native_path(const char *path, const char *what, wchar_t **native,
                                     apr_pool_t *pool, const char **message)
{
    wchar_t *wide = to_wide(path, pool);
    if (!wide)
        return bad_utf8(message, pool, path);
    *native = native_host_path(wide, pool);
    if (!*native)
        return say_error(GetLastError(), message, pool, what, path);
    return APR_SUCCESS;
}

apr_status_t spx_dir_open_root(spx_dir_t **dir, const char *path, apr_pool_t *pool,
                               const char **message)
{
    wchar_t *native = NULL;
    apr_status_t status = host_native_path(path, "open the project root", &native, pool, message);
    if (status != APR_SUCCESS)
        return status;
    HANDLE handle;
    status = open_checked(&handle, native, 1, SPX_OBJECT_DIR, path, pool, message);
    if (status == SPX_STATUS_NOT_REGULAR)
        return say(status, message, pool, "project root '%s' is not %s", path, "a directory");
    if (status != APR_SUCCESS)
        return status;
    spx_dir_t *held = apr_palloc(pool, sizeof(*held));
    held->handle = handle;
    held->path = apr_pstrdup(pool, path);
    held->child_prefix = "";
    held->native = native;
    apr_pool_cleanup_register(pool, &held->handle, close_handle, apr_pool_cleanup_null);
    *dir = held;
    return APR_SUCCESS;
}

/* Check name and build the display and native paths of a child of parent. */
static apr_status_t child_paths(const spx_dir_t *parent, const char *name, const char **path,
                                wchar_t **native, apr_pool_t *pool, const char **message)
{
    *path = child_path(parent, name, pool);
    if (!is_single_component(name))
        return say(SPX_STATUS_BAD_NAME, message, pool, "'%s' is not %s", *path,
                   "a single path component");
    wchar_t *wide = to_wide(name, pool);
    if (!wide)
        return bad_utf8(message, pool, *path);
    if (parent->handle == INVALID_HANDLE_VALUE)
        return say(APR_EBADF, message, pool, "'%s' is %s", parent->path, "no longer held");
    *native = native_child_path(parent->native, wide, pool);
    return APR_SUCCESS;
}

/* Open and check the child called name of parent, of the expected kind. */
static apr_status_t open_child(HANDLE *handle, const char **path, wchar_t **native,
                               spx_dir_t *parent, const char *name, spx_object_kind_t expected,
                               apr_pool_t *pool, const char **message)
{
    apr_status_t status = child_paths(parent, name, path, native, pool, message);
    if (status != APR_SUCCESS)
        return status;
    return open_checked(handle, *native, 0, expected, *path, pool, message);
}

apr_status_t spx_dir_open_child(spx_dir_t **dir, spx_dir_t *parent, const char *name,
                                apr_pool_t *pool, const char **message)
{
    spx_dir_t *held = apr_palloc(pool, sizeof(*held));
    wchar_t *native;
    apr_status_t status = open_child(&held->handle, &held->path, &native, parent, name,
                                     SPX_OBJECT_DIR, pool, message);
    if (status != APR_SUCCESS)
        return status;
    held->child_prefix = apr_pstrcat(pool, held->path, "/", NULL);
    held->native = native;
    apr_pool_cleanup_register(pool, &held->handle, close_handle, apr_pool_cleanup_null);
    *dir = held;
    return APR_SUCCESS;
}

apr_status_t spx_file_open(spx_file_t **file, spx_dir_t *parent, const char *name, apr_pool_t *pool,
                           const char **message)
{
    spx_file_t *held = apr_palloc(pool, sizeof(*held));
    wchar_t *native;
    apr_status_t status = open_child(&held->handle, &held->path, &native, parent, name,
                                     SPX_OBJECT_FILE, pool, message);
    if (status != APR_SUCCESS)
        return status;
    apr_pool_cleanup_register(pool, &held->handle, close_handle, apr_pool_cleanup_null);
    *file = held;
    return APR_SUCCESS;
}

void spx_dir_close(spx_dir_t *dir)
{
    close_handle(&dir->handle);
}

void spx_file_close(spx_file_t *file)
{
    close_handle(&file->handle);
}

const char *spx_dir_path(const spx_dir_t *dir)
{
    return dir->path;
}

const char *spx_file_path(const spx_file_t *file)
{
    return file->path;
}

static apr_status_t identity_of_handle(HANDLE handle, const char *path, spx_identity_t *identity,
                                       apr_pool_t *pool, const char **message)
{
    BY_HANDLE_FILE_INFORMATION info;
    if (handle == INVALID_HANDLE_VALUE)
        return say(APR_EBADF, message, pool, "'%s' is %s", path, "no longer held");
    if (!GetFileInformationByHandle(handle, &info))
        return say_error(GetLastError(), message, pool, "inspect", path);
    identity_from_info(&info, kind_of_handle(handle, &info), identity);
    return APR_SUCCESS;
}

apr_status_t spx_dir_identity(spx_dir_t *dir, spx_identity_t *identity, apr_pool_t *pool,
                              const char **message)
{
    return identity_of_handle(dir->handle, dir->path, identity, pool, message);
}

apr_status_t spx_file_identity(spx_file_t *file, spx_identity_t *identity, apr_pool_t *pool,
                               const char **message)
{
    return identity_of_handle(file->handle, file->path, identity, pool, message);
}

apr_status_t spx_file_read_at(spx_file_t *file, uint64_t offset, void *buffer, apr_size_t capacity,
                              apr_size_t *got, apr_pool_t *pool, const char **message)
{
    if (file->handle == INVALID_HANDLE_VALUE)
        return say(APR_EBADF, message, pool, "'%s' is %s", file->path, "no longer held");
    /* ReadFile counts in DWORDs: read at most 1 GiB at a time. */
    DWORD wanted = capacity > 0x40000000u ? 0x40000000u : (DWORD)capacity;
    OVERLAPPED at;
    memset(&at, 0, sizeof(at));
    at.Offset = (DWORD)(offset & 0xffffffffu);
    at.OffsetHigh = (DWORD)(offset >> 32);
    DWORD count = 0;
    if (!ReadFile(file->handle, buffer, wanted, &count, &at)) {
        DWORD error = GetLastError();
        if (error != ERROR_HANDLE_EOF)
            return say_error(error, message, pool, "read", file->path);
        count = 0;
    }
    *got = (apr_size_t)count;
    return APR_SUCCESS;
}

/* What native is now, without keeping it open: attributes only, sharing
 * everything, so a lookup never disturbs another program. */
static apr_status_t lookup_native(const wchar_t *native, int follow, spx_name_state_t *state,
                                  spx_identity_t *identity, const char *path, apr_pool_t *pool,
                                  const char **message)
{
    DWORD flags = FILE_FLAG_BACKUP_SEMANTICS | (follow ? 0 : FILE_FLAG_OPEN_REPARSE_POINT);
    HANDLE handle = CreateFileW(native, FILE_READ_ATTRIBUTES,
                                FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, NULL,
                                OPEN_EXISTING, flags, NULL);
    if (handle == INVALID_HANDLE_VALUE) {
        DWORD error = GetLastError();
        if (error == ERROR_FILE_NOT_FOUND || error == ERROR_PATH_NOT_FOUND) {
            *state = SPX_NAME_MISSING;
            return APR_SUCCESS;
        }
        return say_error(error, message, pool, "look up", path);
    }
    BY_HANDLE_FILE_INFORMATION info;
    if (!GetFileInformationByHandle(handle, &info)) {
        DWORD error = GetLastError();
        CloseHandle(handle);
        return say_error(error, message, pool, "look up", path);
    }
    if (!follow && (info.dwFileAttributes & FILE_ATTRIBUTE_REPARSE_POINT))
        *state = SPX_NAME_LINK;
    else {
        *state = SPX_NAME_PRESENT;
        identity_from_info(&info, kind_of_handle(handle, &info), identity);
    }
    CloseHandle(handle);
    return APR_SUCCESS;
}

apr_status_t spx_dir_lookup(spx_dir_t *dir, const char *name, spx_name_state_t *state,
                            spx_identity_t *identity, apr_pool_t *pool, const char **message)
{
    const char *path;
    wchar_t *native;
    apr_status_t status = child_paths(dir, name, &path, &native, pool, message);
    if (status != APR_SUCCESS)
        return status;
    return lookup_native(native, 0, state, identity, path, pool, message);
}

apr_status_t spx_path_lookup(const char *path, spx_name_state_t *state, spx_identity_t *identity,
                             apr_pool_t *pool, const char **message)
{
    wchar_t *native = NULL;
    apr_status_t status = host_native_path(path, "look up", &native, pool, message);
    if (status != APR_SUCCESS)
        return status;
    return lookup_native(native, 1, state, identity, path, pool, message);
}

/* Windows has no per-process limit to raise: a process may hold 2^24
 * handles (the kernel handle table's bound), so anything up to that is
 * available and anything over it never will be. */
apr_status_t spx_handles_reserve(uint64_t wanted, apr_pool_t *pool, const char **message)
{
    const uint64_t most = (uint64_t)1 << 24;
    if (wanted <= most)
        return APR_SUCCESS;
    if (message)
        *message =
            apr_psprintf(pool,
                         "the open-file limit is %" APR_UINT64_T_FMT
                         " handles per process on Windows but this project needs %" APR_UINT64_T_FMT
                         " held handles",
                         (apr_uint64_t)most, (apr_uint64_t)wanted);
    return SPX_STATUS_HANDLE_LIMIT;
}

/* --- replacing a held file ------------------------------------------------ */

struct spx_temp_t {
    HANDLE handle;         /* INVALID_HANDLE_VALUE once closed */
    const wchar_t *native; /* its "\\?\" path */
    const wchar_t *dir_native;
    const char *dir_prefix; /* display path of its directory, "" or "path/" */
    const char *path;       /* display path */
    int placed;             /* it replaced its file, or was deleted */
    apr_pool_t *pool;       /* whose cleanup deletes it */
};

static apr_status_t discard_temp(void *data)
{
    spx_temp_t *temp = data;
    close_handle(&temp->handle);
    if (!temp->placed) {
        DeleteFileW(temp->native);
        temp->placed = 1;
    }
    return APR_SUCCESS;
}

apr_status_t spx_temp_create(spx_temp_t **out, spx_dir_t *dir, const char *name, spx_file_t *like,
                             unsigned attempts, apr_pool_t *pool, const char **message)
{
    (void)like; /* a new file gets its directory's inherited security */
    DWORD error = ERROR_FILE_EXISTS;
    const char *temp_name = NULL;
    for (unsigned attempt = 0;
         attempt < attempts && (error == ERROR_FILE_EXISTS || error == ERROR_ALREADY_EXISTS);
         attempt++) {
        unsigned char random[6];
        apr_status_t status = apr_generate_random_bytes(random, sizeof(random));
        if (status != APR_SUCCESS)
            return say(status, message, pool, "cannot make a temporary name for '%s'%s",
                       child_path(dir, name, pool), "");
        temp_name = apr_psprintf(pool, ".%s.%02x%02x%02x%02x%02x%02x.spx-tmp", name, random[0],
                                 random[1], random[2], random[3], random[4], random[5]);
        const char *path = child_path(dir, temp_name, pool);
        if (!is_single_component(name))
            return say(SPX_STATUS_BAD_NAME, message, pool, "'%s' is not %s", path,
                       "a single path component");
        wchar_t *wide = to_wide(temp_name, pool);
        if (!wide)
            return bad_utf8(message, pool, path);
        wchar_t *native = native_child_path(dir->native, wide, pool);
        HANDLE handle =
            CreateFileW(native, GENERIC_WRITE, 0, NULL, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, NULL);
        if (handle != INVALID_HANDLE_VALUE) {
            spx_temp_t *temp = apr_pcalloc(pool, sizeof(*temp));
            temp->handle = handle;
            temp->native = native;
            temp->dir_native = dir->native;
            temp->dir_prefix = dir->child_prefix;
            temp->path = path;
            temp->pool = pool;
            apr_pool_cleanup_register(pool, temp, discard_temp, apr_pool_cleanup_null);
            *out = temp;
            return APR_SUCCESS;
        }
        error = GetLastError();
    }
    return say_error(error, message, pool, "create a temporary file",
                     child_path(dir, temp_name ? temp_name : name, pool));
}

const char *spx_temp_path(const spx_temp_t *temp)
{
    return temp->path;
}

apr_status_t spx_temp_write(spx_temp_t *temp, const void *bytes, apr_size_t length,
                            apr_pool_t *pool, const char **message)
{
    const char *at = bytes;
    while (length > 0) {
        if (temp->handle == INVALID_HANDLE_VALUE)
            return say(APR_EBADF, message, pool, "'%s' is %s", temp->path, "closed");
        DWORD wanted = length > 0x40000000u ? 0x40000000u : (DWORD)length;
        DWORD count = 0;
        if (!WriteFile(temp->handle, at, wanted, &count, NULL))
            return say_error(GetLastError(), message, pool, "write", temp->path);
        at += count;
        length -= (apr_size_t)count;
    }
    return APR_SUCCESS;
}

apr_status_t spx_temp_flush(spx_temp_t *temp, apr_pool_t *pool, const char **message)
{
    if (temp->handle == INVALID_HANDLE_VALUE)
        return say(APR_EBADF, message, pool, "'%s' is %s", temp->path, "closed");
    if (!FlushFileBuffers(temp->handle))
        return say_error(GetLastError(), message, pool, "flush", temp->path);
    return APR_SUCCESS;
}

apr_status_t spx_temp_replace(spx_temp_t *temp, const char *name, apr_pool_t *pool,
                              const char **message)
{
    const char *path = apr_pstrcat(pool, temp->dir_prefix, name, NULL);
    if (!is_single_component(name))
        return say(SPX_STATUS_BAD_NAME, message, pool, "'%s' is not %s", path,
                   "a single path component");
    wchar_t *wide = to_wide(name, pool);
    if (!wide)
        return bad_utf8(message, pool, path);
    if (temp->placed)
        return say(APR_EBADF, message, pool, "'%s' is %s", temp->path, "no longer there");
    if (temp->handle != INVALID_HANDLE_VALUE && !CloseHandle(temp->handle)) {
        temp->handle = INVALID_HANDLE_VALUE;
        return say_error(GetLastError(), message, pool, "close", temp->path);
    }
    temp->handle = INVALID_HANDLE_VALUE;
    if (!MoveFileExW(temp->native, native_child_path(temp->dir_native, wide, pool),
                     MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH))
        return say_error(GetLastError(), message, pool, "replace", path);
    temp->placed = 1;
    apr_pool_cleanup_kill(temp->pool, temp, discard_temp);
    return APR_SUCCESS;
}

apr_status_t spx_temp_discard(spx_temp_t *temp, apr_pool_t *pool, const char **message)
{
    close_handle(&temp->handle);
    if (temp->placed)
        return APR_SUCCESS;
    if (!DeleteFileW(temp->native)) {
        DWORD error = GetLastError();
        if (error != ERROR_FILE_NOT_FOUND && error != ERROR_PATH_NOT_FOUND)
            return say_error(error, message, pool, "remove", temp->path);
    }
    temp->placed = 1;
    apr_pool_cleanup_kill(temp->pool, temp, discard_temp);
    return APR_SUCCESS;
}

apr_status_t spx_dir_flush(spx_dir_t *dir, apr_pool_t *pool, const char **message)
{
    (void)dir;
    (void)pool;
    (void)message;
    return APR_SUCCESS; /* MOVEFILE_WRITE_THROUGH returned once the move was on disk */
}

void spx_release_for_replace(spx_dir_t *dir, spx_file_t *file)
{
    if (file)
        close_handle(&file->handle);
    if (dir)
        close_handle(&dir->handle);
}

int spx_replace_needs_release(void)
{
    return 1;
}
