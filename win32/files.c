/*
 * files.c: the Windows half of the held-object interface (spx_files.h says
 * what platform/files.c does for both systems).
 *
 * The project root is opened with CreateFileW by the host's path (made a
 * "\\?\" path, following links there: the host chooses where the project
 * is). Every object below it is opened with NtCreateFile relative to its held
 * parent's handle (OBJECT_ATTRIBUTES.RootDirectory), by one name, so no
 * device name, trailing dot or length limit applies and the parent's path
 * plays no part. Held handles have GENERIC_READ; a directory shares reading
 * and writing, a file reading only, neither deleting (spx_win32.h): while a
 * session holds an object, other programs may read it and may work with the
 * files of a held folder that the session does not hold, but their writes to
 * a held file, and deleting, renaming or replacing a held file or folder, are
 * denied with a sharing violation (the intended retention authority of the
 * platform specification). FILE_OPEN_REPARSE_POINT opens a reparse point
 * itself: a name surrogate (symbolic link, junction, mount point) is refused,
 * any other (cloud file, deduplicated file, container layer) is opened again
 * without the flag, while the first handle still pins the name, so its filter
 * supplies the real data. Identities come from FileIdInfo (64-bit volume
 * serial number, 128-bit file id) with GetFileInformationByHandle as the
 * fallback. Names and paths are UTF-8 outside and UTF-16 here; invalid UTF-8
 * is refused. Win32 error codes (and NTSTATUS, through
 * RtlNtStatusToDosError) become apr_status_t here and nowhere else.
 *
 * The rename transaction's writes are here too: a sibling temporary file
 * created with NtCreateFile(FILE_CREATE, FILE_WRITE_THROUGH) relative to the
 * held directory, written, FlushFileBuffers()ed, then renamed over the
 * original through its own handle (FileRenameInformation with
 * ReplaceIfExists and RootDirectory = the held directory: MoveFileExW's
 * MOVEFILE_REPLACE_EXISTING without a path; tried again for a moment while
 * another program holds the original) once the session has let go of its
 * own handle of the original; a temp file that is not placed is deleted
 * through its handle (FileDispositionInfo).
 */
#include "spx_files.h"
#include "spx_win32.h"

#include <apr_strings.h>
#include <string.h>
#include <wchar.h>
#include <winternl.h>

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
    return spx_files_cannot(portable_status(error), APR_FROM_OS_ERROR(error), message, pool, what,
                            path);
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
    return spx_files_say(SPX_STATUS_BAD_NAME, message, pool, "'%s' is %s", path, "not valid UTF-8");
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

/* --- the decisions spx_win32.h declares ------------------------------------ */

spx_win32_reparse_t spx_win32_reparse_decision(DWORD attributes, DWORD tag)
{
    if (!(attributes & FILE_ATTRIBUTE_REPARSE_POINT))
        return SPX_WIN32_REPARSE_NONE;
    return IsReparseTagNameSurrogate(tag) ? SPX_WIN32_REPARSE_REFUSE : SPX_WIN32_REPARSE_FOLLOW;
}

/* Whether GetFileInformationByHandleEx's error means that the file system
 * (or the system) does not answer that class at all. */
static int class_unsupported(DWORD error)
{
    return error == ERROR_INVALID_PARAMETER || error == ERROR_INVALID_FUNCTION ||
           error == ERROR_NOT_SUPPORTED || error == ERROR_INVALID_LEVEL ||
           error == ERROR_CALL_NOT_IMPLEMENTED;
}

/* The low and high 64 bits of a FILE_ID_128, read little-endian (on NTFS the
 * low half is the 64-bit file index and the high half is 0). */
static void split_file_id(const FILE_ID_128 *id, uint64_t *low, uint64_t *high)
{
    *low = 0;
    *high = 0;
    for (int i = 7; i >= 0; i--) {
        *low = (*low << 8) | id->Identifier[i];
        *high = (*high << 8) | id->Identifier[i + 8];
    }
}

DWORD spx_win32_handle_identity(HANDLE handle, int use_file_id_info, spx_identity_t *identity)
{
    FILE_STANDARD_INFO standard;
    if (!GetFileInformationByHandleEx(handle, FileStandardInfo, &standard, sizeof(standard)))
        return GetLastError();
    int ids_done = 0;
    if (use_file_id_info) {
        FILE_ID_INFO id;
        if (GetFileInformationByHandleEx(handle, FileIdInfo, &id, sizeof(id))) {
            split_file_id(&id.FileId, &identity->object, &identity->object_high);
            identity->volume = (uint64_t)id.VolumeSerialNumber;
            /* A file system without 128-bit ids may answer with 0. */
            ids_done = identity->object != 0 || identity->object_high != 0;
        } else if (!class_unsupported(GetLastError()))
            return GetLastError();
    }
    if (!ids_done) {
        BY_HANDLE_FILE_INFORMATION info;
        if (!GetFileInformationByHandle(handle, &info))
            return GetLastError();
        identity->volume = (uint64_t)info.dwVolumeSerialNumber;
        identity->object = ((uint64_t)info.nFileIndexHigh << 32) | (uint64_t)info.nFileIndexLow;
        identity->object_high = 0;
    }
    /* What the handle is: a directory, a regular file on disk, or other (a
     * device or pipe behind the name). */
    identity->kind = GetFileType(handle) != FILE_TYPE_DISK ? SPX_OBJECT_OTHER
                     : standard.Directory                  ? SPX_OBJECT_DIR
                                                           : SPX_OBJECT_FILE;
    identity->size = identity->kind == SPX_OBJECT_FILE ? (uint64_t)standard.EndOfFile.QuadPart : 0;
    identity->links = (uint64_t)standard.NumberOfLinks;
    return 0;
}

DWORD spx_win32_open_relative(HANDLE *opened, HANDLE dir, const wchar_t *name, ACCESS_MASK access,
                              ULONG share, ULONG disposition, ULONG options, ULONG attributes)
{
    apr_size_t bytes = wcslen(name) * sizeof(wchar_t);
    if (bytes == 0 || bytes > 0xfffe)
        return ERROR_FILENAME_EXCED_RANGE;
    UNICODE_STRING object_name;
    object_name.Buffer = (PWSTR)name;
    object_name.Length = (USHORT)bytes;
    object_name.MaximumLength = (USHORT)bytes;
    OBJECT_ATTRIBUTES object;
    InitializeObjectAttributes(&object, &object_name, OBJ_CASE_INSENSITIVE, dir, NULL);
    IO_STATUS_BLOCK io;
    HANDLE handle = NULL;
    NTSTATUS status =
        NtCreateFile(&handle, access | SYNCHRONIZE, &object, &io, NULL, attributes, share,
                     disposition, options | FILE_SYNCHRONOUS_IO_NONALERT, NULL, 0);
    if (status < 0)
        return RtlNtStatusToDosError(status);
    *opened = handle;
    return 0;
}

/* NtSetInformationFile(FileRenameInformation) of file to name in dir,
 * replacing what is there. (FILE_RENAME_INFO has the layout of
 * FILE_RENAME_INFORMATION; SetFileInformationByHandle would do the same, but
 * Wine's refuses a RootDirectory.) */
static DWORD rename_by_handle(HANDLE file, HANDLE dir, const wchar_t *name)
{
    apr_size_t bytes = wcslen(name) * sizeof(wchar_t);
    apr_size_t size = sizeof(FILE_RENAME_INFO) + bytes;
    FILE_RENAME_INFO *info = HeapAlloc(GetProcessHeap(), HEAP_ZERO_MEMORY, size);
    if (!info)
        return ERROR_NOT_ENOUGH_MEMORY;
    info->ReplaceIfExists = TRUE;
    info->RootDirectory = dir;
    info->FileNameLength = (DWORD)bytes;
    memcpy(info->FileName, name, bytes);
    IO_STATUS_BLOCK io;
    NTSTATUS status = NtSetInformationFile(file, &io, info, (ULONG)size, FileRenameInformation);
    HeapFree(GetProcessHeap(), 0, info);
    return status < 0 ? RtlNtStatusToDosError(status) : 0;
}

/* One try of a replace or an exchange: 0 or the Win32 error. */
typedef DWORD (*replace_try_t)(void *context);

/* Try until it works, fails otherwise than by another program's brief hold
 * (ERROR_ACCESS_DENIED, ERROR_SHARING_VIOLATION, or ReplaceFileW's
 * ERROR_UNABLE_TO_REMOVE_REPLACED), or retry's attempts are spent. */
static DWORD with_retry(replace_try_t attempt, void *context, spx_replace_retry_t retry,
                        unsigned *tries, unsigned *paused_ms)
{
    unsigned attempts = retry.attempts > 0 ? retry.attempts : 1;
    DWORD pause = retry.first_pause_ms, error = 0;
    *tries = 0;
    *paused_ms = 0;
    for (;;) {
        ++*tries;
        error = attempt(context);
        if (!error)
            return 0;
        if ((error != ERROR_ACCESS_DENIED && error != ERROR_SHARING_VIOLATION &&
             error != ERROR_UNABLE_TO_REMOVE_REPLACED) ||
            *tries >= attempts)
            return error;
        Sleep(pause);
        *paused_ms += (unsigned)pause;
        pause *= 2;
    }
}

typedef struct rename_try_t {
    HANDLE file, dir;
    const wchar_t *name;
} rename_try_t;

static DWORD try_rename(void *context)
{
    const rename_try_t *rename = context;
    return rename_by_handle(rename->file, rename->dir, rename->name);
}

DWORD spx_win32_replace(HANDLE file, HANDLE dir, const wchar_t *name, spx_replace_retry_t retry,
                        unsigned *tries, unsigned *paused_ms)
{
    rename_try_t rename = {file, dir, name};
    return with_retry(try_rename, &rename, retry, tries, paused_ms);
}

/* The paths of an exchange: the file, the temp file, and the backup name
 * ReplaceFileW moves the file to. */
typedef struct exchange_try_t {
    const wchar_t *file, *temp, *backup;
} exchange_try_t;

/* ReplaceFileW puts the temp file in the file's place and the file under
 * the backup name, which then becomes the temp file's name: the two names
 * exchanged. */
static DWORD try_exchange(void *context)
{
    const exchange_try_t *paths = context;
    if (!ReplaceFileW(paths->file, paths->temp, paths->backup,
                      REPLACEFILE_IGNORE_MERGE_ERRORS | REPLACEFILE_IGNORE_ACL_ERRORS, NULL,
                      NULL)) {
        DWORD error = GetLastError();
        /* The file went to the backup name but the temp file could not
         * take its place: the file goes back. */
        if (error == ERROR_UNABLE_TO_MOVE_REPLACEMENT_2)
            MoveFileExW(paths->backup, paths->file, 0);
        return error;
    }
    if (!MoveFileExW(paths->backup, paths->temp, 0))
        return GetLastError();
    return 0;
}

DWORD spx_win32_exchange(const wchar_t *file, const wchar_t *temp, const wchar_t *backup,
                         spx_replace_retry_t retry, unsigned *tries, unsigned *paused_ms)
{
    exchange_try_t paths = {file, temp, backup};
    return with_retry(try_exchange, &paths, retry, tries, paused_ms);
}

/* --- held objects ------------------------------------------------------------ */

apr_status_t spx_native_close(void *data)
{
    HANDLE *handle = data;
    if (*handle != INVALID_HANDLE_VALUE) {
        CloseHandle(*handle);
        *handle = INVALID_HANDLE_VALUE;
    }
    return APR_SUCCESS;
}

/* How an object is opened: by the host's path (the root, following what is
 * there) or by one name relative to a held directory (never following a name
 * surrogate). */
typedef struct open_target_t {
    const wchar_t *native; /* the "\\?\" host path, or NULL */
    HANDLE dir;            /* the held directory, when native is NULL */
    const wchar_t *name;   /* the name in it */
} open_target_t;

/* Open target with access and share; reparse: whether a reparse point at the
 * name is opened itself (FILE_OPEN_REPARSE_POINT) rather than followed. */
static DWORD open_target(HANDLE *opened, const open_target_t *target, ACCESS_MASK access,
                         DWORD share, int reparse)
{
    if (target->native) {
        DWORD flags = FILE_FLAG_BACKUP_SEMANTICS | (reparse ? FILE_FLAG_OPEN_REPARSE_POINT : 0);
        HANDLE handle =
            CreateFileW(target->native, access, share, NULL, OPEN_EXISTING, flags, NULL);
        if (handle == INVALID_HANDLE_VALUE)
            return GetLastError();
        *opened = handle;
        return 0;
    }
    return spx_win32_open_relative(
        opened, target->dir, target->name, access, share, FILE_OPEN,
        FILE_OPEN_FOR_BACKUP_INTENT | (reparse ? FILE_OPEN_REPARSE_POINT : 0), 0);
}

/* Open target's name itself and decide about a reparse point there: *handle
 * is the object to use (a non-surrogate reparse point opened again without
 * the flag, while the first handle still keeps the name from being renamed
 * or replaced), or *surrogate is set and nothing is open. 0, or the Win32
 * error. */
static DWORD open_resolved(HANDLE *handle, int *surrogate, const open_target_t *target,
                           ACCESS_MASK access, DWORD share)
{
    *surrogate = 0;
    HANDLE first = INVALID_HANDLE_VALUE;
    DWORD error = open_target(&first, target, access, share, 1);
    if (error)
        return error;
    FILE_ATTRIBUTE_TAG_INFO tag;
    if (!GetFileInformationByHandleEx(first, FileAttributeTagInfo, &tag, sizeof(tag))) {
        error = GetLastError();
        CloseHandle(first);
        return error;
    }
    switch (spx_win32_reparse_decision(tag.FileAttributes, tag.ReparseTag)) {
    case SPX_WIN32_REPARSE_NONE:
        *handle = first;
        return 0;
    case SPX_WIN32_REPARSE_REFUSE:
        CloseHandle(first);
        *surrogate = 1;
        return 0;
    case SPX_WIN32_REPARSE_FOLLOW:
        break;
    }
    HANDLE second = INVALID_HANDLE_VALUE;
    error = open_target(&second, target, access, share, 0);
    CloseHandle(first);
    if (error)
        return error;
    *handle = second;
    return 0;
}

/* Open target to hold it, and check it is an object of the expected kind
 * that is not a name surrogate (follow: the root, where the host's path is
 * followed). */
static apr_status_t open_checked(HANDLE *opened, const open_target_t *target, int follow,
                                 spx_object_kind_t expected, const char *path, apr_pool_t *pool,
                                 const char **message)
{
    DWORD share = expected == SPX_OBJECT_DIR ? SPX_WIN32_SHARE_HELD_DIR : SPX_WIN32_SHARE_HELD_FILE;
    HANDLE handle = INVALID_HANDLE_VALUE;
    int surrogate = 0;
    DWORD error = follow ? open_target(&handle, target, GENERIC_READ, share, 0)
                         : open_resolved(&handle, &surrogate, target, GENERIC_READ, share);
    if (error)
        return say_error(error, message, pool, "open", path);
    if (surrogate)
        return spx_files_say(SPX_STATUS_LINK, message, pool, "'%s' is a symbolic link; %s", path,
                             "links are not followed inside a project");
    spx_identity_t identity;
    error = spx_win32_handle_identity(handle, 1, &identity);
    if (error) {
        CloseHandle(handle);
        return say_error(error, message, pool, "inspect", path);
    }
    if (identity.kind != expected) {
        CloseHandle(handle);
        return spx_files_say(SPX_STATUS_NOT_REGULAR, message, pool, "'%s' is not %s", path,
                             expected == SPX_OBJECT_DIR ? "a directory" : "a regular file");
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

apr_status_t spx_native_open_root(spx_dir_t *dir, const char *path, apr_pool_t *pool,
                                  const char **message)
{
    wchar_t *native = NULL;
    apr_status_t status = host_native_path(path, "open the project root", &native, pool, message);
    if (status != APR_SUCCESS)
        return status;
    open_target_t target = {native, NULL, NULL};
    status = open_checked(&dir->handle, &target, 1, SPX_OBJECT_DIR, path, pool, message);
    dir->native_path = native;
    return status;
}

/* The UTF-16 form of name (one component; path is its display path) in
 * parent, which must still be held. */
static apr_status_t wide_name(wchar_t **wide, const spx_dir_t *parent, const char *name,
                              const char *path, apr_pool_t *pool, const char **message)
{
    *wide = to_wide(name, pool);
    if (!*wide)
        return bad_utf8(message, pool, path);
    if (parent->handle == INVALID_HANDLE_VALUE)
        return spx_files_not_held(parent->path, pool, message);
    return APR_SUCCESS;
}

apr_status_t spx_native_open(spx_native_t *handle, spx_native_path_t *native_path,
                             const spx_dir_t *parent, const char *name, const char *path,
                             spx_object_kind_t kind, apr_pool_t *pool, const char **message)
{
    wchar_t *wide;
    apr_status_t status = wide_name(&wide, parent, name, path, pool, message);
    if (status != APR_SUCCESS)
        return status;
    open_target_t target = {NULL, parent->handle, wide};
    status = open_checked(handle, &target, 0, kind, path, pool, message);
    *native_path = native_child_path(parent->native_path, wide, pool);
    return status;
}

apr_status_t spx_native_identity(spx_native_t handle, const char *path, spx_identity_t *identity,
                                 apr_pool_t *pool, const char **message)
{
    DWORD error = spx_win32_handle_identity(handle, 1, identity);
    if (error)
        return say_error(error, message, pool, "inspect", path);
    return APR_SUCCESS;
}

apr_status_t spx_native_read_at(spx_native_t handle, uint64_t offset, void *buffer,
                                apr_size_t capacity, apr_size_t *got, const char *path,
                                apr_pool_t *pool, const char **message)
{
    /* ReadFile counts in DWORDs: read at most 1 GiB at a time. */
    DWORD wanted = capacity > 0x40000000u ? 0x40000000u : (DWORD)capacity;
    OVERLAPPED at;
    memset(&at, 0, sizeof(at));
    at.Offset = (DWORD)(offset & 0xffffffffu);
    at.OffsetHigh = (DWORD)(offset >> 32);
    DWORD count = 0;
    if (!ReadFile(handle, buffer, wanted, &count, &at)) {
        DWORD error = GetLastError();
        if (error != ERROR_HANDLE_EOF)
            return say_error(error, message, pool, "read", path);
        count = 0;
    }
    *got = (apr_size_t)count;
    return APR_SUCCESS;
}

/* What target is now, without keeping it open: attributes only, sharing
 * everything, so a lookup never disturbs another program. follow: the host's
 * path, followed; otherwise a name surrogate is SPX_NAME_LINK and another
 * reparse point is looked at through its filter, as spx_file_open holds it. */
static apr_status_t lookup_target(const open_target_t *target, int follow, spx_name_state_t *state,
                                  spx_identity_t *identity, const char *path, apr_pool_t *pool,
                                  const char **message)
{
    HANDLE handle = INVALID_HANDLE_VALUE;
    int surrogate = 0;
    DWORD share = FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE;
    DWORD error = follow ? open_target(&handle, target, FILE_READ_ATTRIBUTES, share, 0)
                         : open_resolved(&handle, &surrogate, target, FILE_READ_ATTRIBUTES, share);
    if (error == ERROR_FILE_NOT_FOUND || error == ERROR_PATH_NOT_FOUND) {
        *state = SPX_NAME_MISSING;
        return APR_SUCCESS;
    }
    if (error)
        return say_error(error, message, pool, "look up", path);
    if (surrogate) {
        *state = SPX_NAME_LINK;
        return APR_SUCCESS;
    }
    error = spx_win32_handle_identity(handle, 1, identity);
    CloseHandle(handle);
    if (error)
        return say_error(error, message, pool, "look up", path);
    *state = SPX_NAME_PRESENT;
    return APR_SUCCESS;
}

apr_status_t spx_native_lookup(const spx_dir_t *dir, const char *name, const char *path,
                               spx_name_state_t *state, spx_identity_t *identity, apr_pool_t *pool,
                               const char **message)
{
    wchar_t *wide;
    apr_status_t status = wide_name(&wide, dir, name, path, pool, message);
    if (status != APR_SUCCESS)
        return status;
    open_target_t target = {NULL, dir->handle, wide};
    return lookup_target(&target, 0, state, identity, path, pool, message);
}

apr_status_t spx_path_lookup(const char *path, spx_name_state_t *state, spx_identity_t *identity,
                             apr_pool_t *pool, const char **message)
{
    wchar_t *native = NULL;
    apr_status_t status = host_native_path(path, "look up", &native, pool, message);
    if (status != APR_SUCCESS)
        return status;
    open_target_t target = {native, NULL, NULL};
    return lookup_target(&target, 1, state, identity, path, pool, message);
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

apr_status_t spx_native_temp_create(spx_temp_t *temp, const spx_file_t *like, apr_pool_t *pool,
                                    const char **message)
{
    (void)like; /* a new file gets its directory's inherited security */
    wchar_t *wide;
    apr_status_t status = wide_name(&wide, temp->dir, temp->name, temp->path, pool, message);
    if (status != APR_SUCCESS)
        return status;
    /* FILE_CREATE: an existing name (a link included) is never opened. */
    HANDLE handle = INVALID_HANDLE_VALUE;
    DWORD error = spx_win32_open_relative(
        &handle, temp->dir->handle, wide, GENERIC_WRITE | DELETE, 0, FILE_CREATE,
        FILE_NON_DIRECTORY_FILE | FILE_WRITE_THROUGH, FILE_ATTRIBUTE_NORMAL);
    if (error)
        return say_error(error, message, pool, "create a temporary file", temp->path);
    temp->handle = handle;
    temp->native_path = native_child_path(temp->dir->native_path, wide, pool);
    return APR_SUCCESS;
}

apr_status_t spx_native_write(spx_native_t handle, const void *bytes, apr_size_t length,
                              apr_size_t *written, const char *path, apr_pool_t *pool,
                              const char **message)
{
    DWORD wanted = length > 0x40000000u ? 0x40000000u : (DWORD)length;
    DWORD count = 0;
    if (!WriteFile(handle, bytes, wanted, &count, NULL))
        return say_error(GetLastError(), message, pool, "write", path);
    *written = (apr_size_t)count;
    return APR_SUCCESS;
}

apr_status_t spx_native_flush(spx_native_t handle, const char *path, apr_pool_t *pool,
                              const char **message)
{
    if (!FlushFileBuffers(handle))
        return say_error(GetLastError(), message, pool, "flush", path);
    return APR_SUCCESS;
}

/* The message of a replace or exchange that failed after tries. */
static apr_status_t say_replace_failure(DWORD error, unsigned tries, unsigned paused_ms,
                                        const char *what, const char *path, apr_pool_t *pool,
                                        const char **message)
{
    apr_status_t status = say_error(error, message, pool, what, path);
    if (message && tries > 1)
        *message = apr_psprintf(pool,
                                "%s (tried %u times over %u ms: another program kept "
                                "the file open without sharing its deletion)",
                                *message, tries, paused_ms);
    return status;
}

apr_status_t spx_native_temp_replace(spx_temp_t *temp, const char *name, const char *path,
                                     spx_replace_retry_t retry, apr_pool_t *pool,
                                     const char **message)
{
    wchar_t *wide;
    apr_status_t status = wide_name(&wide, temp->dir, name, path, pool, message);
    if (status != APR_SUCCESS)
        return status;
    if (temp->handle == INVALID_HANDLE_VALUE)
        return spx_files_say(APR_EBADF, message, pool, "'%s' is %s", temp->path, "no longer there");
    unsigned tries = 0, paused_ms = 0;
    DWORD error =
        spx_win32_replace(temp->handle, temp->dir->handle, wide, retry, &tries, &paused_ms);
    if (error)
        return say_replace_failure(error, tries, paused_ms, "replace", path, pool, message);
    return APR_SUCCESS;
}

apr_status_t spx_native_temp_exchange(spx_temp_t *temp, const char *name, const char *path,
                                      spx_replace_retry_t retry, apr_pool_t *pool,
                                      const char **message)
{
    wchar_t *wide;
    apr_status_t status = wide_name(&wide, temp->dir, name, path, pool, message);
    if (status != APR_SUCCESS)
        return status;
    /* ReplaceFileW opens the temp file by its path: the handle, which
     * shares nothing, goes first. */
    spx_native_close(&temp->handle);
    const wchar_t *file = native_child_path(temp->dir->native_path, wide, pool);
    const wchar_t *backup = native_child_path(
        temp->dir->native_path, to_wide(apr_pstrcat(pool, temp->name, ".out", NULL), pool), pool);
    unsigned tries = 0, paused_ms = 0;
    DWORD error = spx_win32_exchange(file, temp->native_path, backup, retry, &tries, &paused_ms);
    if (error == ERROR_FILE_NOT_FOUND)
        return APR_ENOENT; /* the file is gone: changed meanwhile */
    if (error)
        return say_replace_failure(error, tries, paused_ms, "exchange", path, pool, message);
    return APR_SUCCESS;
}

/* Delete the temp file through its handle (FileDispositionInfo: it goes
 * when the handle closes), by its path only if the handle is gone. */
apr_status_t spx_native_temp_remove(spx_temp_t *temp, apr_pool_t *pool, const char **message)
{
    DWORD error = 0;
    if (temp->handle != INVALID_HANDLE_VALUE) {
        FILE_DISPOSITION_INFO disposition = {TRUE};
        if (!SetFileInformationByHandle(temp->handle, FileDispositionInfo, &disposition,
                                        sizeof(disposition)))
            error = GetLastError();
        spx_native_close(&temp->handle);
        if (!error)
            return APR_SUCCESS;
    }
    if (!DeleteFileW(temp->native_path)) {
        error = GetLastError();
        if (error != ERROR_FILE_NOT_FOUND && error != ERROR_PATH_NOT_FOUND)
            return say_error(error, message, pool, "remove", temp->path);
    }
    return APR_SUCCESS;
}

apr_status_t spx_dir_flush(spx_dir_t *dir, apr_pool_t *pool, const char **message)
{
    (void)dir;
    (void)pool;
    (void)message;
    /* Win32 offers no flush of a folder's entries to a program that holds
     * it for reading; NTFS journals the rename, which went through a
     * FILE_WRITE_THROUGH handle. */
    return APR_SUCCESS;
}

int spx_replace_needs_release(void)
{
    return 1; /* a held file does not share deleting: its handle must go */
}
