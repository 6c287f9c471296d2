/*
 * spx_platform.h: the one file-identity interface of Semaprax.
 *
 * Everything above the platform layer (engine, transport, programs) reaches
 * the file system and the standard streams only through this header. It is
 * implemented twice, in posix/ and win32/, and the build picks one by target
 * system; platform/ itself holds the code common to both (the held objects'
 * bookkeeping in files.c, whole-file reads, streaming digests, binary stdio
 * over APR).
 *
 * The model: a *held* directory or file is an open handle kept for the life of
 * its pool. Directories below the root and every file are opened relative to a
 * held parent, by one name, never following a link. An identity (volume,
 * object, kind) names the object behind a handle; a lookup says what a name in
 * a held directory is *now*, so callers can tell when a name was replaced.
 *
 * Errors are apr_status_t (native codes are translated at the boundary). A
 * failing call also sets *message, when message is not NULL, to a sentence an
 * end user understands, naming the path and what was wrong, allocated in the
 * pool the call was given.
 */
#ifndef SPX_PLATFORM_H
#define SPX_PLATFORM_H

#include <apr_errno.h>
#include <apr_pools.h>
#include <stdint.h>

/* Statuses of our own, in APR's application range, one X-macro table per
 * layer: X(NAME, offset, message) gives SPX_STATUS_NAME, and the message is
 * what spx_platform_strerror (and above the platform, spx_strerror) says of
 * it. The platform layer uses offsets 1..99 from APR_OS_START_USERERR; the
 * engine's statuses (engine/spx_status.h) start at SPX_STATUS_ENGINE_BASE. */
#define SPX_PLATFORM_STATUSES(X)                                                                   \
    X(LINK, 1, "a symbolic link (or a reparse point), which is not followed")                      \
    X(NOT_REGULAR, 2, "not a regular file, or not a directory where one is needed")                \
    X(TOO_LARGE, 3, "over the size the caller allows")                                             \
    X(CHANGED, 4, "changed while it was being read")                                               \
    X(BAD_NAME, 5, "not a single path component")                                                  \
    X(HANDLE_LIMIT, 6, "the open-file limit is too low for the held handles")

#define SPX_PLATFORM_STATUS_(name, offset, message)                                                \
    SPX_STATUS_##name = APR_OS_START_USERERR + (offset),
enum {
    SPX_PLATFORM_STATUSES(SPX_PLATFORM_STATUS_) SPX_STATUS_ENGINE_BASE = APR_OS_START_USERERR + 100
};
#undef SPX_PLATFORM_STATUS_

/* One row of a table of statuses. */
typedef struct spx_status_info_t {
    apr_status_t status;
    const char *name;    /* "SPX_STATUS_LINK" */
    const char *message; /* "a symbolic link (or a reparse point), which is not followed" */
} spx_status_info_t;

/* A table's X row as a spx_status_info_t initializer. */
#define SPX_STATUS_INFO_ROW(name, offset, message)                                                 \
    {SPX_STATUS_##name, "SPX_STATUS_" #name, message},

/* The row of status among the count rows of table; NULL when it has none. */
const spx_status_info_t *spx_status_find(const spx_status_info_t *table, apr_size_t count,
                                         apr_status_t status);

/* In buffer (size bytes, at least 1), which it returns: info's message, or
 * apr_strerror's text of status when info is NULL. */
char *spx_status_describe(const spx_status_info_t *info, apr_status_t status, char *buffer,
                          apr_size_t size);

/* The row of a platform status; NULL for any other status. */
const spx_status_info_t *spx_platform_status_info(apr_status_t status);

/* What status means, in buffer (size bytes, at least 1), which it returns:
 * the table's message for a platform status, apr_strerror's text for any
 * other. */
char *spx_platform_strerror(apr_status_t status, char *buffer, apr_size_t size);

typedef enum spx_object_kind_t {
    SPX_OBJECT_FILE = 1, /* a regular file */
    SPX_OBJECT_DIR = 2,  /* a directory */
    SPX_OBJECT_OTHER = 3 /* anything else: device, fifo, socket, ... */
} spx_object_kind_t;

/* What names an object: volume and object are st_dev/st_ino on POSIX (where
 * object_high is always 0); on Windows the 64-bit volume serial number and
 * the 128-bit file id of FILE_ID_INFO (object its low 64 bits, object_high
 * its high 64 bits, 0 on NTFS), or, where a file system does not answer
 * FileIdInfo, the 32-bit volume serial number and 64-bit file index of
 * BY_HANDLE_FILE_INFORMATION. */
typedef struct spx_identity_t {
    uint64_t volume;
    uint64_t object;      /* low 64 bits of the object id */
    uint64_t object_high; /* high 64 bits of a 128-bit object id, else 0 */
    spx_object_kind_t kind;
    uint64_t size;  /* bytes, for files */
    uint64_t links; /* hard links; 0 once a held file has been deleted */
} spx_identity_t;

/* What a name in a held directory is now. */
typedef enum spx_name_state_t {
    SPX_NAME_PRESENT = 1, /* an object that is not a link; identity filled */
    SPX_NAME_MISSING = 2, /* nothing by that name */
    SPX_NAME_LINK = 3     /* a symbolic link (or reparse point) */
} spx_name_state_t;

typedef struct spx_dir_t spx_dir_t;
typedef struct spx_file_t spx_file_t;

/* True when a and b are the same object: same volume, object (all 128 bits)
 * and kind. */
int spx_identity_same_object(const spx_identity_t *a, const spx_identity_t *b);

/* Room for an object id in lowercase hex with its NUL: 32 digits. */
#define SPX_IDENTITY_OBJECT_HEX 33

/* The object id as lowercase hex without leading zeros, as workspace_revision
 * renders it: the 64-bit object alone while object_high is 0 (always on
 * POSIX, so the text is st_ino's), else object_high then object as 16 digits
 * (up to 32 digits). */
void spx_identity_object_hex(const spx_identity_t *identity, char text[SPX_IDENTITY_OBJECT_HEX]);

/* Hold the directory at path (the project root). The path is the host's
 * choice and may pass through links; only what is opened below it is checked.
 * The handle closes when pool is cleared or destroyed. */
apr_status_t spx_dir_open_root(spx_dir_t **dir, const char *path, apr_pool_t *pool,
                               const char **message);

/* Hold the directory called name in parent, without following a link. The
 * display path is parent's path joined with name. */
apr_status_t spx_dir_open_child(spx_dir_t **dir, spx_dir_t *parent, const char *name,
                                apr_pool_t *pool, const char **message);

/* Hold the regular file called name in parent, read-only, without following a
 * link. A fifo or device is refused without blocking on it. */
apr_status_t spx_file_open(spx_file_t **file, spx_dir_t *parent, const char *name, apr_pool_t *pool,
                           const char **message);

/* Release a held handle before its pool goes (needed only where a platform
 * must let go of a file before replacing it). Idempotent. */
void spx_dir_close(spx_dir_t *dir);
void spx_file_close(spx_file_t *file);

/* The path the object was opened by: the root's path as given, children
 * relative to the root ("" for the root itself is never returned: the root's
 * display path is the path it was opened with). */
const char *spx_dir_path(const spx_dir_t *dir);
const char *spx_file_path(const spx_file_t *file);

/* The identity of the object behind the held handle. */
apr_status_t spx_dir_identity(spx_dir_t *dir, spx_identity_t *identity, apr_pool_t *pool,
                              const char **message);
apr_status_t spx_file_identity(spx_file_t *file, spx_identity_t *identity, apr_pool_t *pool,
                               const char **message);

/* Read up to capacity bytes at offset through the held handle (never through
 * the path); *got is 0 only at end of file. */
apr_status_t spx_file_read_at(spx_file_t *file, uint64_t offset, void *buffer, apr_size_t capacity,
                              apr_size_t *got, apr_pool_t *pool, const char **message);

/* What the name in dir is now, without following a link and without keeping
 * it open. identity is filled only for SPX_NAME_PRESENT. */
apr_status_t spx_dir_lookup(spx_dir_t *dir, const char *name, spx_name_state_t *state,
                            spx_identity_t *identity, apr_pool_t *pool, const char **message);

/* What the host path is now (following links, as spx_dir_open_root does). */
apr_status_t spx_path_lookup(const char *path, spx_name_state_t *state, spx_identity_t *identity,
                             apr_pool_t *pool, const char **message);

/* Make room for at least wanted open handles (raising the soft limit towards
 * the hard one where the system has such limits); SPX_STATUS_HANDLE_LIMIT with
 * a message when that is not possible. */
apr_status_t spx_handles_reserve(uint64_t wanted, apr_pool_t *pool, const char **message);

/* --- replacing a held file (the rename transaction, docs/protocol-v3.md) -- */

/* A new file beside the ones a held directory holds, written and flushed
 * before it atomically takes the place of one of them. */
typedef struct spx_temp_t spx_temp_t;

/* Create a new file in dir, exclusively (an existing name is never opened:
 * another random name is tried, at most attempts times), named
 * ".NAME.RANDOM.spx-tmp" after the file it will replace (NAME must be a
 * single component, as for spx_file_open: SPX_STATUS_BAD_NAME otherwise),
 * open for writing, not inherited by child processes, without following a
 * link. On POSIX it
 * gets the permission bits of like (the held file it will replace). It is
 * closed and deleted when pool is cleared, unless it replaced its file. */
apr_status_t spx_temp_create(spx_temp_t **temp, spx_dir_t *dir, const char *name, spx_file_t *like,
                             unsigned attempts, apr_pool_t *pool, const char **message);

/* The temp file's path, relative to the root like every held path. */
const char *spx_temp_path(const spx_temp_t *temp);

/* Write all of the bytes or fail. */
apr_status_t spx_temp_write(spx_temp_t *temp, const void *bytes, apr_size_t length,
                            apr_pool_t *pool, const char **message);

/* Push the written bytes to the storage device (fsync, FlushFileBuffers). */
apr_status_t spx_temp_flush(spx_temp_t *temp, apr_pool_t *pool, const char **message);

/* How long a replace keeps trying while another program briefly holds the
 * file it replaces (the engine passes SPX_LIMIT_REPLACE_*). */
typedef struct spx_replace_retry_t {
    unsigned attempts;       /* tries in all (0 counts as 1) */
    unsigned first_pause_ms; /* the pause after the first failed try, doubled after each */
} spx_replace_retry_t;

/* Atomically put the temp file in the place of the file called name in its
 * directory, and close it: a reader of that name sees the old file or the
 * new one, never a mix and never nothing (renameat(2); on Windows a rename
 * through the temp file's handle with ReplaceIfExists, relative to the held
 * directory's handle, as MoveFileExW(MOVEFILE_REPLACE_EXISTING) does by
 * path). On Windows a replace
 * denied with ERROR_ACCESS_DENIED or ERROR_SHARING_VIOLATION (an antivirus
 * scanner or indexer holding the file a moment) is tried again as retry
 * says, and the message of a final failure says how many tries over how
 * long; POSIX tries once (rename(2) does not fail that way). After a failure
 * the temp file still exists (spx_temp_discard removes it). */
apr_status_t spx_temp_replace(spx_temp_t *temp, const char *name, spx_replace_retry_t retry,
                              apr_pool_t *pool, const char **message);

/* What spx_temp_swap_in compares, and how it may go about it. */
typedef struct spx_swap_t {
    /* The bytes the caller planned against: what the file called name must
     * still hold for the temp file to take its place. */
    const unsigned char *expected;
    apr_size_t expected_length;
    spx_replace_retry_t retry; /* as for spx_temp_replace */
    /* Tests only: take the fallback (compare, then replace) even where the
     * system can exchange two names. */
    int without_exchange;
    /* Set by the call: 1 when the names were exchanged atomically, 0 when
     * the fallback ran (or nothing was done). */
    int exchanged;
} spx_swap_t;

/* Put the temp file in the place of the file called name, as
 * spx_temp_replace does, unless that file no longer holds swap->expected:
 * a concurrent save is never overwritten. Where the system exchanges two
 * names atomically (Linux renameat2(RENAME_EXCHANGE), macOS
 * renameatx_np(RENAME_SWAP), Windows ReplaceFileW with a backup name that
 * then takes the temp file's name), the temp file and the file are
 * exchanged, the bytes swapped out (now under the temp file's name) are
 * compared with swap->expected, and on a difference exchanged back, so the
 * file holds the other program's bytes again. Where it cannot (an old
 * kernel, a file system without the exchange: EINVAL, ENOSYS, ENOTSUP,
 * EXDEV) the file's bytes are read and compared immediately before the
 * replace, which leaves the time between that comparison and the rename.
 * With the exchange, what remains is a second save landing between the
 * exchange and the exchange back (it is then under the temp file's name,
 * which is deleted) and a writer that opened the file before the exchange
 * and writes after the comparison (into the swapped-out file, which is
 * deleted): docs/protocol-v3.md. A file that is gone counts as changed.
 * APR_SUCCESS: the
 * new bytes are in place and the ones they replaced were expected.
 * SPX_STATUS_CHANGED, with a message naming the file: it held other bytes,
 * and holds them still; the temp file still exists (spx_temp_discard
 * removes it). Any other status: as spx_temp_replace (the file is as it
 * was), except when an exchange back failed, which the message says, with
 * where the other program's bytes are (the temp file is then kept). */
apr_status_t spx_temp_swap_in(spx_temp_t *temp, const char *name, spx_swap_t *swap,
                              apr_pool_t *pool, const char **message);

/* Push the held directory's entries to the storage device, so a name just
 * replaced survives a crash (fsync of the directory on POSIX, where a file
 * system that cannot flush a directory is not an error; nothing on Windows,
 * where NTFS logs the rename and a folder's entries cannot be flushed). */
apr_status_t spx_dir_flush(spx_dir_t *dir, apr_pool_t *pool, const char **message);

/* Close the temp file and delete it, unless it replaced its file. 0 when
 * that worked (or there was nothing to do), otherwise why not in *message
 * (pool is for the message). Idempotent. */
apr_status_t spx_temp_discard(spx_temp_t *temp, apr_pool_t *pool, const char **message);

/* Let go of what the session holds that would stop the file in dir from
 * being replaced: on Windows the file's own handle (a handle that does not
 * share deleting denies the rename even to its own process; the directory's
 * handle shares writing and stays held); on POSIX nothing (a held descriptor
 * never stands in the way). Whoever calls it must hold the inputs again
 * afterwards. */
void spx_release_for_replace(spx_dir_t *dir, spx_file_t *file);

/* Whether spx_release_for_replace lets anything go on this platform. */
int spx_replace_needs_release(void);

/* --- common code (platform/held.c) ------------------------------------- */

/* Read the whole held file from offset 0 into a buffer from pool. The file
 * must hold at most max_bytes (SPX_STATUS_TOO_LARGE otherwise) and must keep
 * its size while being read (SPX_STATUS_CHANGED otherwise). The buffer has one
 * extra NUL byte after *length bytes, not counted. */
apr_status_t spx_file_read_all(spx_file_t *file, apr_size_t max_bytes, unsigned char **bytes,
                               apr_size_t *length, apr_pool_t *pool, const char **message);

/* Where spx_file_read_all_into puts a file's bytes: a buffer of size bytes
 * that lives as long as the caller needs it (never NULL). */
typedef void *spx_buffer_fn(void *context, apr_size_t size);

/* spx_file_read_all, with the buffer from buffer_for(buffer_context, ...)
 * instead of pool (which still holds any message): the input set keeps its
 * files' bytes together in bulk memory (engine/inputs.c). */
apr_status_t spx_file_read_all_into(spx_file_t *file, apr_size_t max_bytes,
                                    spx_buffer_fn *buffer_for, void *buffer_context,
                                    unsigned char **bytes, apr_size_t *length, apr_pool_t *pool,
                                    const char **message);

/* Whether the held file holds exactly the expected_length bytes at
 * expected, read from offset 0 through the handle into buffer (capacity
 * bytes, at least 1: a file smaller than capacity is read in one call) and
 * compared as they come; the reading stops at the first difference, and a
 * file longer than expected is seen by reading one byte past its end. The
 * end of the file is a read that returns nothing or a short read that ends
 * exactly at expected_length. No digest is made. */
apr_status_t spx_file_same_bytes(spx_file_t *file, const unsigned char *expected,
                                 apr_size_t expected_length, unsigned char *buffer,
                                 apr_size_t capacity, int *same, apr_pool_t *pool,
                                 const char **message);

/* Open the regular file called name in dir (spx_file_open), read it whole
 * (spx_file_read_all) and let it go again. */
apr_status_t spx_file_read_named(spx_dir_t *dir, const char *name, apr_size_t max_bytes,
                                 unsigned char **bytes, apr_size_t *length, apr_pool_t *pool,
                                 const char **message);

/* --- binary standard streams (platform/stdio.c) ------------------------ */

typedef struct spx_stdio_t spx_stdio_t;

/* Unbuffered, binary (no CRLF translation) standard input and output. */
apr_status_t spx_stdio_open(spx_stdio_t **stdio, apr_pool_t *pool);

/* Read what is available, up to capacity; *got is 0 only at end of input. */
apr_status_t spx_stdio_read(spx_stdio_t *stdio, void *buffer, apr_size_t capacity, apr_size_t *got);

/* 1 when a read of standard input would not wait: bytes, end of input or
 * an error are there (POSIX: poll(); Windows: PeekNamedPipe on a pipe, and
 * a file is always ready); 0 when it would wait, or cannot be known (a
 * console). It never waits itself. (posix/ or win32/) */
int spx_stdio_input_ready(spx_stdio_t *stdio);

/* Write all of the bytes or fail. */
apr_status_t spx_stdio_write(spx_stdio_t *stdio, const void *bytes, apr_size_t length);

/* Push written bytes to the reader now. */
apr_status_t spx_stdio_flush(spx_stdio_t *stdio);

/* Put the C library's stdin, stdout and stderr in binary mode, so printf and
 * fwrite write LF as LF (Windows translates it to CRLF in text mode; POSIX has
 * nothing to do). Programs call it first thing in main. (posix/ or win32/) */
void spx_stdio_binary_mode(void);

/* Let a write to a pipe or socket whose reader has gone fail with an error
 * (EPIPE, which spx_stdio_write returns) instead of ending the process: on
 * POSIX, SIGPIPE is ignored from here on; Windows has no such signal, and
 * its writes already fail. The programs call it first thing in main, so a
 * client that closes the daemon's standard output makes the daemon say so
 * on stderr and exit 1 (docs/reliability.md) rather than die by a signal.
 * (posix/ or win32/) */
void spx_stdio_ignore_broken_pipe(void);

/* ---- terminals ----------------------------------------------------------- */

typedef struct spx_console_t spx_console_t;

/* Make the console show the UTF-8 the programs print: on Windows the
 * console's output code page becomes CP_UTF8 (SetConsoleOutputCP) when the
 * process has a console, and the code page it had is put back when pool is
 * cleared or destroyed, or earlier by spx_console_restore (the code page
 * belongs to the console, which outlives the program); POSIX terminals take
 * the bytes as they are. The programs call it first thing in main. NULL when
 * there was nothing to change. (posix/ or win32/) */
spx_console_t *spx_console_utf8(apr_pool_t *pool);

/* Put back the console's output code page now (NULL: nothing). Idempotent. */
void spx_console_restore(spx_console_t *console);

typedef enum spx_stream_t { SPX_STREAM_STDOUT, SPX_STREAM_STDERR } spx_stream_t;

/* Whether the standard stream is a terminal that a person reads, able to
 * show ANSI colour sequences: isatty on POSIX; on Windows a console
 * (GetConsoleMode), whose virtual-terminal processing is switched on so that
 * it shows the sequences (0 when it refuses). 0 for files and pipes: the
 * programs print plain text there. (posix/ or win32/) */
int spx_stream_is_terminal(spx_stream_t stream);

/* ---- program arguments --------------------------------------------------- */

/* The program's arguments as UTF-8, argc of them plus a NULL, from pool. On
 * Windows the C runtime's argv is in the ANSI code page (a path outside it
 * arrives with '?' in it), so they are decoded again from the UTF-16 command
 * line (a surrogate without its pair, which that line may hold, becomes
 * bytes no UTF-8 decoder accepts, so a program's UTF-8 check refuses it);
 * on POSIX they are argv itself, the bytes the system gave. */
const char *const *spx_arguments_utf8(int argc, const char *const *argv, apr_pool_t *pool);

/* ---- bulk memory ------------------------------------------------------- */

/* size bytes of zeroed memory for an allocator of large, long-lived data
 * (the engine's arena), given back when pool is cleared or destroyed. Where
 * the system offers it (Linux transparent huge pages) the memory is asked to
 * be backed by large pages, so that filling it takes a few page faults
 * instead of one per 4 KiB. NULL when the system refuses. */
void *spx_bulk_memory(apr_size_t size, apr_pool_t *pool);

/* Ask the C library to give the memory it holds free back to the system
 * (glibc keeps freed memory inside its heap until asked; musl gives it back
 * by itself; on macOS the default zone is asked for pressure relief; on
 * Windows the C runtime's heap is compacted). Costs a walk of the free
 * lists: call it after large work, not after every request. */
void spx_memory_give_back(void);

/* ---- processors ------------------------------------------------------- */

/* How many processors the system has online for this process: at least 1,
 * at most maximum (at least 1; the caller's own bound, such as the threads
 * it would start, from spx_limits.h). */
unsigned spx_processor_count(unsigned maximum);

#endif /* SPX_PLATFORM_H */
