/*
 * spx_limits.h: every limit of Semaprax, in one place, and the tuning knobs.
 *
 * Two sections. Limits say what untrusted input (a manifest, sources, a
 * program's run, a request) may not exceed: each has a name, a value and a
 * one-line reason, and going over any of them is a diagnostic or an error
 * response, never a crash, a hang or unbounded memory. The values are those
 * of the specification's limits page; the few the specification leaves open
 * are marked "project decision" and explained in docs/limits.md. Tuning
 * knobs are settings of how the work is done (chunk sizes, threads, retries,
 * headroom), not limits on input.
 *
 * Lower layers (platform/) never include this header: the engine and
 * transport pass the values down as parameters.
 */
#ifndef SPX_LIMITS_H
#define SPX_LIMITS_H

/* ========================================================================
 * LIMITS: what untrusted input may not exceed
 * ======================================================================== */

/* --- a project's inputs --------------------------------------------------- */

/* The manifest is small text; 1 MiB is far beyond any real project. */
#define SPX_LIMIT_MANIFEST_BYTES (1024u * 1024u)

/* Declared sources per manifest: bounds held handles and Phase A work. */
#define SPX_LIMIT_SOURCES 4096u

/* One source file: keeps every offset and span comfortably in range. */
#define SPX_LIMIT_SOURCE_BYTES (16u * 1024u * 1024u)

/* All sources together: bounds the retained session memory. */
#define SPX_LIMIT_TOTAL_SOURCE_BYTES (256u * 1024u * 1024u)

/* Tests in a manifest: bounds the test closure. */
#define SPX_LIMIT_TESTS 4096u

/* One identifier, in bytes. */
#define SPX_LIMIT_IDENTIFIER_BYTES 64u

/* A source path in the manifest, in bytes (project decision: keeps every
 * held path usable on Windows and bounds directory nesting). */
#define SPX_LIMIT_SOURCE_PATH_BYTES 1024u

/* [[data]] entries per manifest (v2): bounds held handles. */
#define SPX_LIMIT_DATA_ENTRIES 4096u

/* A data name: [a-z][a-z0-9_-]{0,63}. */
#define SPX_LIMIT_DATA_NAME_BYTES 64u

/* One data file, and all data files together (read_data retains them). */
#define SPX_LIMIT_DATA_BYTES (16u * 1024u * 1024u)
#define SPX_LIMIT_TOTAL_DATA_BYTES (256u * 1024u * 1024u)

/* A data path is at most SPX_LIMIT_SOURCE_PATH_BYTES, as a source path. */

/* The arguments of `semaprax run`: how many, and their bytes together. */
#define SPX_LIMIT_RUN_ARGUMENTS 4096u
#define SPX_LIMIT_RUN_ARGUMENT_BYTES (1024u * 1024u)

/* Blocks plus expressions nested inside one another: the parser never
 * recurses deeper than this, so hostile input cannot overflow the C stack. */
#define SPX_LIMIT_PARSE_DEPTH 256u

/* Functions declared in one module. */
#define SPX_LIMIT_FUNCTIONS_PER_MODULE 65536u

/* Lexical and syntax diagnostics kept per source, then one "too many errors"
 * (project decision: one mistake per line of a hostile file must not mean
 * millions of diagnostics). */
#define SPX_LIMIT_SYNTAX_DIAGNOSTICS 100u

/* Diagnostics kept from one manifest, then one "too many problems" (project
 * decision: a hostile 1 MiB manifest must not mean half a million diagnostics). */
#define SPX_LIMIT_MANIFEST_DIAGNOSTICS 100u

/* A project version string, in bytes (project decision: MAJOR.MINOR.PATCH
 * never needs more, and it is copied into every graph document). */
#define SPX_LIMIT_VERSION_BYTES 64u

/* --- a run ---------------------------------------------------------------- */

/* Active user-function calls (max_call_depth); the entry or test function
 * is depth 1. The maximum is a project decision: the interpreter keeps its
 * frames on the heap, never on the C stack (engine/vm.c), at 32 bytes a
 * frame, so 65536 frames are 2 MiB; their registers are bounded apart from
 * the depth by SPX_LIMIT_FRAME_REGISTERS below. */
#define SPX_LIMIT_CALL_DEPTH_DEFAULT 256u
#define SPX_LIMIT_CALL_DEPTH_MAXIMUM 65536u

/* Fuel of one run, in steps (language.md counts them). */
#define SPX_LIMIT_MAX_STEPS_DEFAULT 1000000ull
#define SPX_LIMIT_MAX_STEPS_MAXIMUM 10000000000ull

/* Output kept per test or run, in bytes; more sets output_truncated. */
#define SPX_LIMIT_MAX_BYTES_DEFAULT 4096u
#define SPX_LIMIT_MAX_BYTES_MAXIMUM 1048576u

/* One string value at run time. */
#define SPX_LIMIT_STRING_BYTES (16u * 1024u * 1024u)

/* Elements of one array value (language v2; over it is R0519). */
#define SPX_LIMIT_ARRAY_LENGTH (1u << 24)

/* max_memory of one run (language v2): the memory measure of its live
 * strings, arrays and structs, what they really hold: a block's header (32
 * bytes, a literal's too) and its whole capacity (docs/execution.md); over
 * it is R0521. The default is v1's live string limit. */
#define SPX_LIMIT_MAX_MEMORY_DEFAULT (256u * 1024u * 1024u)
#define SPX_LIMIT_MAX_MEMORY_MAXIMUM (1024u * 1024u * 1024u)

/* What an assertion failure's message shows of assert(c, message): its
 * first bytes, cut at a character boundary, then "..." (project decision:
 * a failure is one line of a report, not a copy of a 16 MiB value). */
#define SPX_LIMIT_ASSERT_MESSAGE_BYTES 1024u

/* Language v3: what a failure message shows of one value (assert_eq's two
 * sides; a map key in R0522's message and E0437's diagnostic): its text's
 * first bytes, cut at a character boundary, then "..."; rendering stops
 * there, so it is O(this) work whatever the value. */
#define SPX_LIMIT_RENDER_BYTES 256u

/* The value of one str const, in bytes (language v2, checked when the const
 * is evaluated at check time). */
#define SPX_LIMIT_STR_CONST_BYTES (64u * 1024u)

/* Registers of one function in each of its two register files, and its
 * instructions (project decision). */
#define SPX_LIMIT_FUNCTION_REGISTERS 16384u
#define SPX_LIMIT_FUNCTION_INSTRUCTIONS (1u << 24)

/* What one element of an array of blocks (strings, arrays, structs, maps,
 * enums) counts in the n of a slice, a concatenation, an append and the copy
 * a write forces, where an int counts 1 (project decision,
 * docs/execution.md, "Holding elements that are blocks"): each is a holder
 * added to a header that may lie anywhere in memory, a cache miss when the
 * elements are scattered. */
#define SPX_LIMIT_HELD_ELEMENT_N 8u

/* The nodes of a statement's own expressions that one more step pays for
 * (project decision, docs/execution.md, "A statement's nodes"): a statement,
 * or a while loop's check, costs one more step per this many, so that the
 * work of one step stays bounded however long the statement is. */
#define SPX_LIMIT_STATEMENT_NODES_PER_STEP 64u

/* Registers of all active frames together, in each of the two register
 * files (project decision): the default depth times the largest function,
 * 256 x 16384, so at the default depth no call can reach it, and whatever
 * --max-call-depth allows the frames' registers stay within 2 x 4194304 x 8
 * bytes = 64 MiB. A call that would need more stops the run as
 * depth_exhausted (R0510), saying the frames are full. */
#define SPX_LIMIT_FRAME_REGISTERS (SPX_LIMIT_CALL_DEPTH_DEFAULT * SPX_LIMIT_FUNCTION_REGISTERS)

/* An envelope read by `verify` (project decision: far above what the test
 * closure of any real project produces). */
#define SPX_LIMIT_ENVELOPE_BYTES (256u * 1024u * 1024u)

/* --- a context query ------------------------------------------------------ */

/* Context query: breadth-first depth, node count and document size. */
#define SPX_LIMIT_CONTEXT_DEPTH_DEFAULT 1u
#define SPX_LIMIT_CONTEXT_DEPTH_MAXIMUM 16u
#define SPX_LIMIT_CONTEXT_NODES_DEFAULT 64u
#define SPX_LIMIT_CONTEXT_NODES_MAXIMUM 65536u
#define SPX_LIMIT_CONTEXT_BYTES_DEFAULT 65536u
/* The context byte maximum is the response limit in force. */

/* Edge kinds a context query may name to follow (the seven kinds, with
 * room for repeats; project decision). */
#define SPX_LIMIT_CONTEXT_EDGE_KINDS 16u

/* Ids listed in a context document's frontier. */
#define SPX_LIMIT_CONTEXT_FRONTIER 64u

/* Nearest names (engine/include/spx_suggest.h; project decision): at most
 * this many names suggested for an unknown one, none further than this many
 * edits (and never more than a third of the name's length, at least 1), and
 * names longer than this many bytes are neither matched nor suggested, so a
 * hostile name costs a bounded amount of work per candidate. */
#define SPX_LIMIT_SUGGESTIONS 3u
#define SPX_LIMIT_SUGGEST_DISTANCE 3u
#define SPX_LIMIT_SUGGEST_NAME_BYTES 128u

/* Names the checker examines for one unknown name (project decision): the
 * innermost visible locals first, then the module's items, examined where
 * they lie and never copied, so the time and memory one unknown name costs
 * are bounded however many locals, consts or functions the source declares
 * (a 10,000-line function of unknown names took gigabytes when each copied
 * every local). A name further away than this is not suggested. */
#define SPX_LIMIT_SUGGEST_CANDIDATES 256u

/* `semaprax new NAME` (transport/cli/cli_project.c): how many temporary folder
 * names (.NAME.new-0, .NAME.new-1, ...) it tries beside NAME before giving up. */
#define SPX_LIMIT_NEW_TEMPORARY_NAMES 100u

/* --- the streaming canonical JSON writer ---------------------------------- */

/* Arrays and objects open at once in one document written by the streaming
 * writer (engine/include/spx_json_writer.h; project decision: the graph and
 * context documents nest five deep: document, nodes, node, span, position). */
#define SPX_LIMIT_JSON_WRITER_DEPTH 32u
/* A stream sink gathers this many bytes before each write to its stream. */
#define SPX_LIMIT_JSON_CHUNK_BYTES 65536u
/* A growing buffer sink starts with this many bytes, then doubles (never
 * past its limit and one spare byte). */
#define SPX_LIMIT_JSON_BUFFER_FIRST_BYTES 4096u

/* --- requests and responses ----------------------------------------------- */

/* Request frame, LF excluded: --max-request-bytes default and range. */
#define SPX_LIMIT_REQUEST_BYTES_DEFAULT (1024u * 1024u)
#define SPX_LIMIT_REQUEST_BYTES_MINIMUM 256u
#define SPX_LIMIT_REQUEST_BYTES_MAXIMUM (64u * 1024u * 1024u)

/* Response frame, LF included: --max-response-bytes default and range. */
#define SPX_LIMIT_RESPONSE_BYTES_DEFAULT (16u * 1024u * 1024u)
#define SPX_LIMIT_RESPONSE_BYTES_MINIMUM 1024u
#define SPX_LIMIT_RESPONSE_BYTES_MAXIMUM (1024u * 1024u * 1024u)
/* semapraxd's own minimum (project decision): every fixed answer of v2 and
 * v3 (protocol is the largest, about 1,500 bytes in v3 with a short
 * manifest path) with a 256-byte string id fits, with room to spare.
 * `semaprax serve` (v1, frozen) keeps 1024. */
#define SPX_LIMIT_SESSION_RESPONSE_BYTES_MINIMUM 4096u

/* semapraxd --lsp (docs/editors.md): an LSP message's header block (its
 * lines and the empty line ending it) is at most this many bytes (project
 * decision: the headers LSP defines, Content-Length and Content-Type, take
 * under 100); its body is at most --max-request-bytes, whose default with
 * --lsp is the range's maximum, so that a didOpen of a source of
 * SPX_LIMIT_SOURCE_BYTES fits even when JSON escapes much of it. */
#define SPX_LIMIT_LSP_HEADER_BYTES 4096u
#define SPX_LIMIT_LSP_BODY_BYTES_DEFAULT SPX_LIMIT_REQUEST_BYTES_MAXIMUM
/* The open documents an LSP client may hold at once (project decision: one
 * per source a project may have); a didOpen past it is logged and ignored. */
#define SPX_LIMIT_LSP_DOCUMENTS SPX_LIMIT_SOURCES
/* The contentChanges of one didChange (project decision), and the work
 * they may take together: each change scans and copies the document as it
 * stands, so their count times its length is bounded (1 GiB: a second or
 * so; thousands of changes to a small buffer, 64 to one at the source
 * limit), and a notification past it is refused, never a hang. */
#define SPX_LIMIT_LSP_CHANGES 4096u
#define SPX_LIMIT_LSP_CHANGE_WORK_BYTES (1024ull * 1024u * 1024u)

/* semapraxd --mcp (transport/mcp/mcp.c; project decision): its default
 * --max-response-bytes, below the 10 MiB that the MCP TypeScript SDK's stdio
 * transport buffers for one line; the context tool's default and largest
 * byte budget (the default is what an agent's context window takes without
 * noticing); the modules graph_summary lists by default and at most; the
 * times a tools/call opens the project again when it changed while the
 * call was answered; the drift records a result lists (the rest counted);
 * and the diagnostics an error's text lists one per line. */
#define SPX_LIMIT_MCP_RESPONSE_BYTES_DEFAULT (8u * 1024u * 1024u)
/* Its own minimum: tools/list with every tool (about 10 KiB) and the
 * context tool's default budget, twice (structured and as text), fit. */
#define SPX_LIMIT_MCP_RESPONSE_BYTES_MINIMUM (64u * 1024u)
#define SPX_LIMIT_MCP_CONTEXT_BYTES_DEFAULT (16u * 1024u)
/* The context tool's largest max_bytes, and less when --max-response-bytes
 * is smaller: half of what it leaves around a result to the longest id
 * (mcp_tools.c), which its inputSchema says. */
#define SPX_LIMIT_MCP_CONTEXT_BYTES_MAXIMUM (1024u * 1024u)
#define SPX_LIMIT_MCP_GRAPH_MODULES_DEFAULT 64u
#define SPX_LIMIT_MCP_GRAPH_MODULES_MAXIMUM SPX_LIMIT_SOURCES
#define SPX_LIMIT_MCP_DRIFT_RETRIES 3u
#define SPX_LIMIT_MCP_DRIFT_LISTED 32u
#define SPX_LIMIT_MCP_DIAGNOSTICS_IN_TEXT 20u

/* The sentence that names a test run's failing tests (MCP's test summary,
 * the last line of `semaprax test`; transport/operations/run.c): at most
 * this many tests named, then "and N more", and of each the first line of
 * its failure's message at most this many bytes, cut at a UTF-8 boundary
 * and marked "..." (project decision: enough to act on, short enough to
 * read). */
#define SPX_LIMIT_FAILING_TESTS_NAMED 10u
#define SPX_LIMIT_FAILING_TEST_MESSAGE_BYTES 200u

/* Arrays and objects nested inside one another in one request frame, the
 * top-level object being depth 1 (project decision: requests of this protocol
 * need 3; checked on the raw bytes before Jansson, whose own limit is a
 * constant of the library's build, ever sees the frame). */
#define SPX_LIMIT_REQUEST_JSON_DEPTH 64u

/* JSON values in one request frame (every object, array, string, key, number
 * and literal), counted on the raw bytes before Jansson decodes anything
 * (project decision: a request of this protocol holds a few dozen; a decoded
 * value costs Jansson up to about 250 bytes, so this bounds a frame's decoded
 * form to about 4 MiB whatever --max-request-bytes allows). */
#define SPX_LIMIT_REQUEST_JSON_VALUES 16384u

/* A number token whose decimal magnitude reaches this is beyond what the
 * decoder can hold (a double ends near 1.8e308): it is read as 1e300, and
 * judged on its raw token (transport.md, The request grammar). */
#define SPX_LIMIT_REQUEST_NUMBER_MAGNITUDE 300

/* A JSON-RPC id given as a string, in bytes. */
#define SPX_LIMIT_ID_STRING_BYTES 256u

/* A JSON-RPC id given as an integer: at most 2^53 - 1 (a double holds every
 * integer up to it), so at most 16 digits. */
#define SPX_LIMIT_ID_INTEGER_MAXIMUM 9007199254740991ull
#define SPX_LIMIT_ID_INTEGER_DIGITS 16u

/* The wall-clock time one call to the daemon may take, in seconds:
 * semapraxd's --max-call-seconds, with --stdio and --mcp alike (project
 * decision). Only running tests can take long: a run past it is stopped
 * between two steps, and the call is answered with an error that names the
 * option (-32017 in v2 and v3, a tool error in MCP). The default is half
 * the 60 s after which the MCP TypeScript SDK gives up on a request; the
 * maximum, a day, is past what the most fuel takes at a plain loop's rate. */
#define SPX_LIMIT_CALL_SECONDS_DEFAULT 30u
#define SPX_LIMIT_CALL_SECONDS_MINIMUM 1u
#define SPX_LIMIT_CALL_SECONDS_MAXIMUM 86400u

/* What project/rename allows for the sentence of a failed commit (its
 * data.detail) when it makes sure, before writing, that even the failure's
 * answer fits the response limit (transport/daemon/session_v3.c; an OS message and
 * a path are far shorter, and a longer detail is cut to
 * SPX_LIMIT_ERROR_DETAIL_BYTES, the same). */
#define SPX_LIMIT_RENAME_REASON_BYTES 1024u

/* The data.detail sentence of an error of transports v2 and v3, in bytes
 * (project decision): a longer one, which only a request's own long strings
 * can make, is cut at a UTF-8 boundary and ends with "...", so an error's
 * answer stays small whatever the request. The rename reason above fits. */
#define SPX_LIMIT_ERROR_DETAIL_BYTES 1024u

/* The sentence an error's message carries after its code's fixed text and
 * ": " (v2, v3 and MCP; docs/protocol.md, Errors), in bytes (project
 * decision): data.detail's sentence, cut at a UTF-8 boundary and marked
 * "..." past this, so that a host that shows only the message shows why. */
#define SPX_LIMIT_ERROR_MESSAGE_SENTENCE_BYTES 200u

/* What of one string the client sent (a method's name, a param's key, a
 * target) an error's detail repeats, in bytes (project decision), in v2,
 * v3 and MCP alike (transport/wire/spx_detail.h, which cuts an MCP tool
 * error that carries such a string to SPX_LIMIT_ERROR_DETAIL_BYTES, as
 * --stdio cuts data.detail). */
#define SPX_LIMIT_DETAIL_ECHO_BYTES 128u

/* What the daemon says on stderr in a session without --verbose
 * (transport/wire/spx_log.h; project decision): at most this many lines of its
 * own events, each cut to this many bytes, LF included, then one line saying
 * the rest is not shown: 16 x 200 bytes and that line stay under 4 KiB, the
 * smallest pipe buffer of Linux, macOS and Windows, so a client that never
 * reads the daemon's stderr never blocks it. */
#define SPX_LIMIT_LOG_LINES 16u
#define SPX_LIMIT_LOG_LINE_BYTES 200u

/* --- a unified diff (`semaprax fmt --diff`, MCP's fmt tool) ----------------- */

/* The edit trace a line diff may keep (engine/diff.c, project decision):
 * Myers' search keeps one diagonal row per edit, (D + 1)^2 entries of 4
 * bytes for D edits, so 16 MiB allows about 2,000 changed lines after the
 * common first and last lines are set aside. Past it, or past the steps
 * below, the diff is one hunk that replaces the whole changed middle: still
 * a correct patch, only not the shortest. */
#define SPX_LIMIT_DIFF_TRACE_BYTES (16u * 1024u * 1024u)

/* Line comparisons the search may make (project decision): bounds its time
 * as the trace bounds its memory; 64 Mi comparisons take well under a
 * second. */
#define SPX_LIMIT_DIFF_STEPS (64ull * 1024u * 1024u)

/* Lines of context around each change, as `diff -u` gives. */
#define SPX_LIMIT_DIFF_CONTEXT_LINES 3u

/* --- what a terminal shows ------------------------------------------------ */

/* Bytes of a source line that `semaprax check` shows under a diagnostic on a
 * terminal, around the span's start (project decision: a minified line of
 * megabytes must not flood a person's screen). */
#define SPX_LIMIT_VIEW_LINE_BYTES 160u

/* ========================================================================
 * TUNING KNOBS: how the work is done, not limits on input
 * ======================================================================== */

/* Chunk in which files are hashed or compared and oversized frames are
 * drained (project decision: large enough to be fast, small enough to stay
 * flat). */
#define SPX_LIMIT_READ_CHUNK_BYTES (64u * 1024u)

/* Free memory a program's pools keep for reuse (APR's allocator max_free);
 * whatever a freed pool gives back beyond it goes back to the C library, and
 * from there to the system, so that a daemon's memory falls again after a
 * large answer (project decision: a few requests' scratch). */
#define SPX_LIMIT_POOL_FREE_KEPT_BYTES (4u * 1024u * 1024u)

/* A session gives its freed memory back to the system (spx_memory_give_back)
 * after each response of at least this many bytes (project decision: the
 * giving back costs a few microseconds, too much after every ping, nothing
 * beside a graph or a context of this size). */
#define SPX_LIMIT_GIVE_BACK_AFTER_RESPONSE_BYTES (64u * 1024u)

/* Re-authentication reads every held file twice per semantic request. When
 * the held files come to at least SPX_PARALLEL_REHASH_BYTES, the files are
 * shared among up to SPX_LIMIT_REHASH_THREADS threads (the caller and helpers
 * kept for the session, no more than the processors), each helper with a
 * stack of SPX_WORKER_STACK_BYTES (project decision: below 512 KiB waking a
 * helper costs more than it saves; hashing needs little stack). */
#define SPX_PARALLEL_REHASH_BYTES (512u * 1024u)
#define SPX_LIMIT_REHASH_THREADS 4u
#define SPX_WORKER_STACK_BYTES (256u * 1024u)

/* Chunks in which Phase A takes memory for its sources' bytes, syntax
 * nodes, index and code (project decision): an arena's first chunk is
 * 256 KiB from its pool, so a small project stays small; later ones are
 * 4 MiB of bulk memory, which the platform backs with huge pages where it
 * can. Every fresh page costs a page fault, and on a virtual machine a
 * fault costs about 13 us: at 100k lines the 4 KiB pages of the sources and
 * of two 1 MiB chunks were 1,200 of a check's 1,870 faults and a fifth of
 * its time (docs/performance.md). A request of more than a quarter of the
 * chunk being filled gets memory of its own: from the pool while the arena
 * is small, bulk memory after. */
#define SPX_ARENA_CHUNK_BYTES (256u * 1024u)
#define SPX_ARENA_SMALL_CHUNKS 1u
#define SPX_ARENA_LARGE_CHUNK_BYTES (4u * 1024u * 1024u)

/* The index builder's lists of nodes and edges start with room for one
 * node per SPX_INDEX_SOURCE_BYTES_PER_NODE bytes of source and one edge per
 * SPX_INDEX_SOURCE_BYTES_PER_EDGE (at least SPX_INDEX_FIRST_ITEMS, at most
 * SPX_INDEX_MOST_FIRST_ITEMS), in the builder's arena (told to expect them,
 * so a large project's lists are in bulk memory), and double when full
 * (project decision): they are sorted in place into the index, so the
 * builder makes no second copy. The estimate is about twice what the bench
 * projects use (536 and 92 bytes of source a node and an edge at 1M lines,
 * 357 to 397 and 120 to 212 in the examples), so a list normally never
 * grows; when one does, its smaller copies stay in the arena, and together
 * they are smaller than it. */
#define SPX_INDEX_FIRST_ITEMS 256
#define SPX_INDEX_MOST_FIRST_ITEMS (1 << 20)
#define SPX_INDEX_SOURCE_BYTES_PER_NODE 256u
#define SPX_INDEX_SOURCE_BYTES_PER_EDGE 64u

/* The engine's name and word tables (engine/spx_name_table.h) take this
 * many slots for their first entry and double when an entry would make
 * them more than half full (project decision: most of Phase A's tables,
 * a module's consts or a function's int literals, hold a handful). */
#define SPX_NAME_TABLE_FIRST_SLOTS 8u

/* A diagnostics-only rebuild over the previous one (project_reuse.c) looks
 * for each private function of a module that an edit added, removed or
 * changed in the text of every module that imports it; past this many
 * such names in one module it looks for none and checks every importer
 * again (project decision: a typical edit changes a name or two, and the
 * search stays within this many passes over the importers' texts). */
#define SPX_REUSE_NAMES_SEARCHED 64

/* Handles kept beyond the held inputs when the open-file limit is checked
 * (project decision: stdio, the process tests' pipes, and some slack). */
#define SPX_LIMIT_SPARE_HANDLES 64u

/* Header-only blocks a run keeps for reuse by string literals (each
 * evaluation of a literal is a block of its own, language v2: reusing the
 * freed ones spares a malloc and free per evaluation in a loop). */
#define SPX_SPARE_LITERAL_BLOCKS 64u

/* Freed small blocks (arrays, structs and enum variants of 1 to
 * SPX_SPARE_BLOCK_SLOTS slots of capacity) a run keeps for reuse, at most
 * SPX_SPARE_BLOCKS_PER_SIZE of each slot count: an evaluation that makes and
 * drops a variant or a short array in a loop spares a malloc and a free
 * each time; 256, the longest place (SPX_LIMIT_PARSE_DEPTH), lets a write
 * through a shared path of small blocks reuse the path it dropped. Nothing
 * observable depends on them (the measure counts a block while it lives). */
#define SPX_SPARE_BLOCK_SLOTS 4u
#define SPX_SPARE_BLOCKS_PER_SIZE 256u

/* How many slots ahead a pass over an array of blocks that adds or drops a
 * holder of each (a slice, a copy, freeing) fetches the element's header
 * (SPX_PREFETCH_WRITE): scattered elements cost a cache miss each, and
 * fetching ahead lets many be under way at once. */
#define SPX_PREFETCH_SLOTS 16u

/* A map of at most this many entries is searched by comparing its keys in
 * order rather than hashing the key (values_map.c): cheaper for so few,
 * and the answer is the same. */
#define SPX_MAP_SCAN_ENTRIES 8u

/* How often a run under a daemon call's deadline asks whether it may go on
 * (spx_run_interrupt_t of spx_vm.h, answered by transport/wire/call.c; project
 * decision): after SPX_CALL_POLL_FIRST_STEPS steps first; then the interval
 * doubles while two questions come closer together than
 * SPX_CALL_POLL_MICROSECONDS and shrinks in proportion when they come
 * further apart, never past SPX_CALL_POLL_MAX_STEPS steps. So a plain loop
 * asks about every 10 ms (a clock read per some million steps), and a
 * statement of milliseconds asks after each step. A comparison (==, !=)
 * also asks every SPX_COMPARE_POLL_POSITIONS positions it examines, since
 * one comparison may take many steps. */
#define SPX_CALL_POLL_FIRST_STEPS 16u
#define SPX_CALL_POLL_MICROSECONDS 10000u
#define SPX_CALL_POLL_MAX_STEPS (1u << 24)
#define SPX_COMPARE_POLL_POSITIONS 65536u

/* Random names tried for one temporary file of the rename transaction
 * before giving up (each is created exclusively; a clash is already rare). */
#define SPX_LIMIT_TEMP_ATTEMPTS 16u

/* How often the rename transaction tries to put a temp file in its
 * original's place, and the pause after the first failed try (doubled after
 * each: 20, 40, 80, 160, 320 ms, so a replace gives up after about 0.62 s).
 * On Windows an antivirus scanner, the search indexer or a backup agent may
 * open a file just written without sharing deletion for a moment, and
 * MoveFileExW then fails with ERROR_ACCESS_DENIED or ERROR_SHARING_VIOLATION;
 * only those two errors are tried again. POSIX tries once (project decision:
 * long enough for a scan of a 16 MiB source, short enough that a file held
 * for good fails the request in well under a second). */
#define SPX_LIMIT_REPLACE_ATTEMPTS 6u
#define SPX_LIMIT_REPLACE_FIRST_PAUSE_MS 20u

/* Entries of one map value (language v3; over it is R0525). */
#define SPX_LIMIT_MAP_ENTRIES (1u << 24)

/* The position queries (spx_lookup.h, docs/lookup.md): the most sites a
 * references answer lists, items a symbol list gives (a source's, or the
 * project's by name), completions one answer offers, semantic tokens of one
 * source, and bytes of a hover's leading comment. Each list says when it
 * was cut. A source holds at most SPX_LIMIT_SOURCE_BYTES, so even the
 * tokens' limit (a token every 8 bytes of the largest source) stays within
 * about 64 MiB of answer. */
#define SPX_LIMIT_LOOKUP_REFERENCES 65536u
#define SPX_LIMIT_LOOKUP_SYMBOLS 65536u
#define SPX_LIMIT_LOOKUP_COMPLETIONS 4096u
#define SPX_LIMIT_LOOKUP_TOKENS (1u << 21)
#define SPX_LIMIT_LOOKUP_COMMENT_BYTES 4096u

#endif /* SPX_LIMITS_H */
