/*
 * fuzz_frame.c: libFuzzer target of the transport's request path: the frame
 * reader, the request grammar, the shared request loop and the response
 * writer (spx_loop_run over memory, with a stand-in dispatcher).
 *
 * The first three bytes choose the request bound (1..1017 bytes or the 1 MiB
 * default), the size of the reads (1..255 bytes or whole chunks) and the
 * response budget; the rest is the input stream. The output is checked
 * against a model that splits the stream at LFs with memchr: every response
 * is the one the specification allows for its frame, byte for byte
 * (canonical JSON, one LF, within the budget or replaced by the fixed
 * -32001), none is written for a notification or unterminated bytes, the
 * loop ends where the model says, and a frame with a NUL, a CR or invalid
 * UTF-8 (by a second, decoding validator) is -32700 with id null.
 */
#include "spx_canonical.h"
#include "spx_fuzz.h"
#include "spx_limits.h"
#include "spx_loop.h"
#include "spx_rpc.h"

#include <stdlib.h>
#include <string.h>

typedef struct stream_t {
    const uint8_t *in;
    size_t in_length, in_at, read_size;
    char *out;
    size_t out_length, out_capacity;
} stream_t;

static apr_status_t read_in(void *context, void *buffer, apr_size_t capacity, apr_size_t *got)
{
    stream_t *stream = context;
    size_t count = stream->in_length - stream->in_at;
    if (count > capacity)
        count = capacity;
    if (count > stream->read_size)
        count = stream->read_size;
    memcpy(buffer, stream->in + stream->in_at, count);
    stream->in_at += count;
    *got = count;
    return APR_SUCCESS;
}

static apr_status_t write_out(void *context, const void *bytes, apr_size_t length)
{
    stream_t *stream = context;
    if (stream->out_length + length > stream->out_capacity) {
        size_t capacity = stream->out_capacity ? stream->out_capacity : 4096;
        while (capacity < stream->out_length + length)
            capacity *= 2;
        char *grown = realloc(stream->out, capacity);
        if (!grown)
            return APR_ENOMEM;
        stream->out = grown;
        stream->out_capacity = capacity;
    }
    memcpy(stream->out + stream->out_length, bytes, length);
    stream->out_length += length;
    return APR_SUCCESS;
}

static apr_status_t flush_out(void *context)
{
    (void)context;
    return APR_SUCCESS;
}

/* ping: a fixed result; echo: its params (any decoded JSON, rendered back);
 * stop: a result, then the loop ends; anything else: -32601. */
static void dispatch(void *context, const spx_request_t *request, spx_answer_t *answer,
                     apr_pool_t *pool)
{
    (void)context;
    (void)pool;
    if (strcmp(request->method, "ping") == 0 || strcmp(request->method, "stop") == 0) {
        answer->result = json_pack("{s:b}", "pong", 1);
        answer->stop = request->method[0] == 's';
    } else if (strcmp(request->method, "echo") == 0) {
        answer->result = request->params ? json_incref(request->params) : json_object();
    } else {
        answer->error_code = SPX_RPC_METHOD_NOT_FOUND;
    }
}

/* Strictly valid UTF-8 (RFC 3629), by decoding each code point. */
static int valid_utf8(const uint8_t *bytes, size_t length)
{
    size_t i = 0;
    while (i < length) {
        uint32_t c = bytes[i];
        size_t extra;
        uint32_t least;
        if (c < 0x80) {
            i++;
            continue;
        } else if ((c & 0xE0) == 0xC0) {
            extra = 1, least = 0x80, c &= 0x1F;
        } else if ((c & 0xF0) == 0xE0) {
            extra = 2, least = 0x800, c &= 0x0F;
        } else if ((c & 0xF8) == 0xF0) {
            extra = 3, least = 0x10000, c &= 0x07;
        } else {
            return 0;
        }
        if (length - i <= extra)
            return 0;
        for (size_t k = 1; k <= extra; k++) {
            if ((bytes[i + k] & 0xC0) != 0x80)
                return 0;
            c = (c << 6) | (bytes[i + k] & 0x3F);
        }
        if (c < least || c > 0x10FFFF || (c >= 0xD800 && c <= 0xDFFF))
            return 0;
        i += extra + 1;
    }
    return 1;
}

/* The response line the model expects: canonical JSON plus LF, malloc'd. */
static char *expected_line(json_t *id, int code, json_t *result, size_t *length)
{
    json_t *response =
        result ? json_pack("{s:O, s:s, s:O}", "id", id, "jsonrpc", "2.0", "result", result)
               : json_pack("{s:{s:i, s:s}, s:O, s:s}", "error", "code", code, "message",
                           spx_rpc_message(code), "id", id, "jsonrpc", "2.0");
    SPX_FUZZ_CHECK(response != NULL);
    char *text = json_dumps(response, SPX_CANONICAL_FLAGS);
    json_decref(response);
    SPX_FUZZ_CHECK(text != NULL);
    *length = strlen(text);
    char *line = realloc(text, *length + 2);
    SPX_FUZZ_CHECK(line != NULL);
    line[(*length)++] = '\n';
    line[*length] = '\0';
    return line;
}

typedef struct model_t {
    const char *out;
    size_t out_length, at; /* the next response line starts at out + at */
    size_t max_response;
} model_t;

/* The next written line must be this response, or (over the budget) the
 * fixed -32001 with the same id, which ends the loop: 1 when it does. */
static int expect(model_t *model, json_t *id, int code, json_t *result)
{
    size_t length = 0;
    char *line = expected_line(id, code, result, &length);
    int over = length > model->max_response;
    if (over) {
        free(line);
        line = expected_line(id, SPX_RPC_RESPONSE_TOO_LARGE, NULL, &length);
    }
    SPX_FUZZ_CHECK(model->out_length - model->at >= length);
    SPX_FUZZ_CHECK(memcmp(model->out + model->at, line, length) == 0);
    model->at += length;
    free(line);
    return over;
}

/* Walk the input as the model reads it; the loop's end it predicts. */
static spx_loop_end_t walk(model_t *model, const uint8_t *in, size_t length, size_t max_request,
                           apr_pool_t *scratch)
{
    size_t at = 0;
    json_t *null = json_null();
    while (at < length) {
        const uint8_t *lf = memchr(in + at, '\n', length - at);
        size_t frame_length = lf ? (size_t)(lf - (in + at)) : length - at;
        if (frame_length > max_request) {
            expect(model, null, SPX_RPC_REQUEST_TOO_LARGE, NULL);
            return SPX_LOOP_REQUEST_TOO_LARGE;
        }
        if (!lf)
            return SPX_LOOP_END_OF_INPUT; /* unterminated: dropped, never answered */
        const uint8_t *frame = in + at;
        at += frame_length + 1;
        apr_pool_clear(scratch);
        spx_request_t request;
        spx_request_error_t error;
        if (spx_request_parse(frame, frame_length, &request, &error, scratch) ==
            SPX_REQUEST_INVALID) {
            if (frame_length == 0 || memchr(frame, 0, frame_length) ||
                memchr(frame, '\r', frame_length) || !valid_utf8(frame, frame_length)) {
                SPX_FUZZ_CHECK(error.code == SPX_RPC_PARSE_ERROR);
                SPX_FUZZ_CHECK(json_is_null(error.id));
            }
            SPX_FUZZ_CHECK(error.code == SPX_RPC_PARSE_ERROR ||
                           error.code == SPX_RPC_INVALID_REQUEST);
            if (error.code == SPX_RPC_PARSE_ERROR)
                SPX_FUZZ_CHECK(json_is_null(error.id));
            if (expect(model, error.id, error.code, NULL))
                return SPX_LOOP_RESPONSE_TOO_LARGE;
            continue;
        }
        SPX_FUZZ_CHECK(frame_length > 0 && !memchr(frame, '\r', frame_length) &&
                       !memchr(frame, 0, frame_length) && valid_utf8(frame, frame_length));
        SPX_FUZZ_CHECK(request.is_notification == (request.id == NULL));
        if (request.is_notification) {
            if (spx_request_ends_session_silently(&request))
                return SPX_LOOP_SILENT_SHUTDOWN;
            continue;
        }
        SPX_FUZZ_CHECK(json_is_string(request.id) || json_is_integer(request.id));
        int over;
        if (strcmp(request.method, "ping") == 0 || strcmp(request.method, "stop") == 0) {
            json_t *result = json_pack("{s:b}", "pong", 1);
            over = expect(model, request.id, 0, result);
            json_decref(result);
            if (!over && request.method[0] == 's')
                return SPX_LOOP_SHUTDOWN;
        } else if (strcmp(request.method, "echo") == 0) {
            json_t *result = request.params ? json_incref(request.params) : json_object();
            over = expect(model, request.id, 0, result);
            json_decref(result);
        } else {
            over = expect(model, request.id, SPX_RPC_METHOD_NOT_FOUND, NULL);
        }
        if (over)
            return SPX_LOOP_RESPONSE_TOO_LARGE;
    }
    return SPX_LOOP_END_OF_INPUT;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    size_t max_request =
        (data[0] & 0x80) ? SPX_LIMIT_REQUEST_BYTES_DEFAULT : 1 + (size_t)(data[0] & 0x7F) * 8;
    size_t read_size = data[1] ? data[1] : SPX_LIMIT_READ_CHUNK_BYTES;
    size_t max_response = SPX_LIMIT_RESPONSE_BYTES_MINIMUM + (size_t)data[2] * 8;
    stream_t stream = {data + 3, size - 3, 0, read_size, NULL, 0, 0};

    apr_pool_t *pool = NULL, *scratch = NULL;
    SPX_FUZZ_CHECK(apr_pool_create(&pool, NULL) == APR_SUCCESS);
    SPX_FUZZ_CHECK(apr_pool_create(&scratch, pool) == APR_SUCCESS);
    spx_frame_reader_t *reader = NULL;
    spx_response_writer_t *writer = NULL;
    SPX_FUZZ_CHECK(spx_frame_reader_create(&reader, read_in, &stream, max_request, pool) ==
                   APR_SUCCESS);
    SPX_FUZZ_CHECK(spx_response_writer_create(&writer, write_out, flush_out, &stream, max_response,
                                              pool) == APR_SUCCESS);
    spx_loop_report_t report;
    spx_loop_run(reader, writer, dispatch, NULL, pool, &report);
    SPX_FUZZ_CHECK(spx_frame_reader_capacity(reader) <= max_request + SPX_LIMIT_READ_CHUNK_BYTES);

    model_t model = {stream.out, stream.out_length, 0, max_response};
    spx_loop_end_t end = walk(&model, data + 3, size - 3, max_request, scratch);
    SPX_FUZZ_CHECK(model.at == stream.out_length); /* nothing more was written */
    SPX_FUZZ_CHECK(report.end == end);
    SPX_FUZZ_CHECK(spx_loop_exit_status(report.end) ==
                   (end == SPX_LOOP_REQUEST_TOO_LARGE || end == SPX_LOOP_RESPONSE_TOO_LARGE));
    free(stream.out);
    apr_pool_destroy(pool);
    return 0;
}
