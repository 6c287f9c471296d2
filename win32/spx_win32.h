/*
 * spx_win32.h: what the win32/ files share, private to the Windows
 * implementation of platform/spx_platform.h: the share modes of held
 * handles, the reparse-point decision, identities (FileIdInfo with its
 * fallback), opens relative to a held directory handle (NtCreateFile), and
 * the replace with its bounded retry. The Windows-only test suites
 * (tests/platform/test_win32_*.c) call these directly, to check each
 * decision where Wine cannot make the situation it is for.
 */
#ifndef SPX_WIN32_H
#define SPX_WIN32_H

#include "spx_platform.h"

#include <windows.h>

/* A held directory lets others read it and write it (create, save, rename
 * and delete the files in it that the session does not hold) but never
 * delete or rename it; a held file lets others read it only: its writes,
 * deletion, renaming and replacement are denied with a sharing violation. */
#define SPX_WIN32_SHARE_HELD_DIR (FILE_SHARE_READ | FILE_SHARE_WRITE)
#define SPX_WIN32_SHARE_HELD_FILE FILE_SHARE_READ

/* What to do with an object opened with FILE_FLAG_OPEN_REPARSE_POINT (or
 * FILE_OPEN_REPARSE_POINT), given its attributes and reparse tag
 * (FILE_ATTRIBUTE_TAG_INFO). */
typedef enum spx_win32_reparse_t {
    SPX_WIN32_REPARSE_NONE = 0,   /* not a reparse point: use the handle */
    SPX_WIN32_REPARSE_REFUSE = 1, /* a name surrogate (IsReparseTagNameSurrogate:
                                   * symbolic link, junction, mount point, WSL
                                   * link): it names another object, refused */
    SPX_WIN32_REPARSE_FOLLOW = 2  /* any other tag (cloud files, deduplication,
                                   * container layers, ...): the object itself,
                                   * whose filter supplies the data; open again
                                   * without the reparse flag to read it */
} spx_win32_reparse_t;

spx_win32_reparse_t spx_win32_reparse_decision(DWORD attributes, DWORD tag);

/* The identity of an open handle: volume and 128-bit object from
 * GetFileInformationByHandleEx(FileIdInfo) when use_file_id_info is set and
 * the file system answers it with a non-zero id; otherwise (or when it says
 * the class is not supported) the volume serial number and 64-bit file index
 * of GetFileInformationByHandle. Kind, size and links from FileStandardInfo
 * and GetFileType. 0, or the Win32 error. */
DWORD spx_win32_handle_identity(HANDLE handle, int use_file_id_info, spx_identity_t *identity);

/* Open the one-component name relative to the directory handle dir with
 * NtCreateFile (OBJECT_ATTRIBUTES.RootDirectory = dir, case-insensitive as
 * CreateFileW is, not inheritable, synchronous I/O). disposition and options
 * are NtCreateFile's (FILE_OPEN, FILE_CREATE; FILE_OPEN_REPARSE_POINT, ...).
 * 0, or the Win32 error (RtlNtStatusToDosError). */
DWORD spx_win32_open_relative(HANDLE *opened, HANDLE dir, const wchar_t *name, ACCESS_MASK access,
                              ULONG share, ULONG disposition, ULONG options, ULONG attributes);

/* Rename the open file (opened with DELETE access) to name in the
 * directory dir, replacing what is there: NtSetInformationFile with
 * FileRenameInformation (ReplaceIfExists, RootDirectory = dir), the
 * handle-based form of MoveFileExW(MOVEFILE_REPLACE_EXISTING). Tried again after
 * ERROR_ACCESS_DENIED or ERROR_SHARING_VIOLATION as retry says (pauses of
 * first_pause_ms, doubled each time). 0, or the last Win32 error; *tries and
 * *paused_ms say how many tries were made and how long was waited between
 * them. */
DWORD spx_win32_replace(HANDLE file, HANDLE dir, const wchar_t *name, spx_replace_retry_t retry,
                        unsigned *tries, unsigned *paused_ms);

/* Exchange the file at the path file with the temp file at the path temp:
 * ReplaceFileW(file, temp, backup) puts the temp file in the file's place
 * (keeping the file's attributes) and the file under backup, which
 * MoveFileExW then renames to temp. Tried again as spx_win32_replace is
 * (and after ERROR_UNABLE_TO_REMOVE_REPLACED). 0, or the last Win32 error,
 * with *tries and *paused_ms as for spx_win32_replace. Not atomic as
 * POSIX's exchange is: win32/README.md says what remains. */
DWORD spx_win32_exchange(const wchar_t *file, const wchar_t *temp, const wchar_t *backup,
                         spx_replace_retry_t retry, unsigned *tries, unsigned *paused_ms);

#endif /* SPX_WIN32_H */
