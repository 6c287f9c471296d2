/*
 * response.c: the bounded response writer (spx_response.h).
 *
 * A response is rendered by Jansson with the canonical flags into a growing
 * buffer through json_dump_callback; the callback refuses to grow the text
 * past the budget (LF excluded), which stops the rendering at once. The LF is
 * appended to the same buffer so the response goes out in one write.
 */
#include "spx_response.h"

#include "spx_allocation.h"
#include "spx_canonical.h"
#include "spx_detail.h"
#include "spx_limits.h"
#include "spx_rpc.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct spx_response_writer_t {
    spx_response_write_fn write;
    spx_response_flush_fn flush;
    void *context;
    apr_size_t max_bytes;
    int explain_errors;    /* v2, v3: every error but -32001 says why */
    apr_size_t last_bytes; /* of the last response written, LF included */
};

apr_status_t spx_response_writer_create(spx_response_writer_t **writer, spx_response_write_fn write,
                                        spx_response_flush_fn flush, void *context,
                                        apr_size_t max_bytes, apr_pool_t *pool)
{
    if (max_bytes == 0 || max_bytes > SPX_LIMIT_RESPONSE_BYTES_MAXIMUM)
        return APR_EINVAL;
    spx_response_writer_t *created = apr_pcalloc(pool, sizeof(*created));
    created->write = write;
    created->flush = flush;
    created->context = context;
    created->max_bytes = max_bytes;
    *writer = created;
    return APR_SUCCESS;
}

static apr_status_t write_stdio(void *context, const void *bytes, apr_size_t length)
{
    return spx_stdio_write(context, bytes, length);
}

static apr_status_t flush_stdio(void *context)
{
    return spx_stdio_flush(context);
}

apr_status_t spx_response_writer_create_stdio(spx_response_writer_t **writer, spx_stdio_t *stdio,
                                              apr_size_t max_bytes, apr_pool_t *pool)
{
    return spx_response_writer_create(writer, write_stdio, flush_stdio, stdio, max_bytes, pool);
}

/* A response being rendered: text[0..length), room for the LF kept. */
typedef struct rendering_t {
    char *text;
    size_t length;
    size_t capacity;
    size_t limit; /* most text bytes allowed, LF excluded */
    int over;     /* the text passed limit */
} rendering_t;

/* Write one whole response and flush it. */
static apr_status_t send_line(spx_response_writer_t *writer, const char *bytes, apr_size_t length)
{
    writer->last_bytes = length;
    apr_status_t status = writer->write(writer->context, bytes, length);
    if (status == APR_SUCCESS)
        status = writer->flush(writer->context);
    return status;
}

apr_size_t spx_response_writer_last_bytes(const spx_response_writer_t *writer)
{
    return writer->last_bytes;
}

static int append(const char *buffer, size_t size, void *data)
{
    rendering_t *rendering = data;
    if (size > rendering->limit - rendering->length) {
        rendering->over = 1;
        return -1;
    }
    size_t needed = rendering->length + size + 1; /* + the LF */
    if (needed > rendering->capacity) {
        size_t capacity = rendering->capacity ? rendering->capacity : 256;
        while (capacity < needed)
            capacity *= 2;
        if (capacity > rendering->limit + 1)
            capacity = rendering->limit + 1;
        rendering->text = spx_reallocate(rendering->text, capacity);
        rendering->capacity = capacity;
    }
    memcpy(rendering->text + rendering->length, buffer, size);
    rendering->length += size;
    return 0;
}

/* Render document canonically, within limit text bytes, and write it with
 * its LF. *over is set (and nothing written) when it does not fit; *withheld
 * (and nothing written) when it fits but gate, if any, refuses it. */
static apr_status_t render_and_send(spx_response_writer_t *writer, json_t *document, size_t limit,
                                    const spx_response_gate_t *gate, int *over, int *withheld)
{
    rendering_t rendering = {NULL, 0, 0, limit, 0};
    *over = 0;
    *withheld = 0;
    if (!document)
        return APR_ENOMEM;
    int failed = json_dump_callback(document, append, &rendering, SPX_CANONICAL_FLAGS);
    apr_status_t status = APR_SUCCESS;
    if (rendering.over) {
        *over = 1;
    } else if (failed) {
        status = APR_ENOMEM;
    } else if (gate && !gate->pass(gate->context)) {
        *withheld = 1;
    } else {
        rendering.text[rendering.length++] = '\n';
        status = send_line(writer, rendering.text, rendering.length);
    }
    free(rendering.text);
    json_decref(document);
    return status;
}

/* The fixed replacement for an oversized response. It is written whole even
 * if a tiny budget could not hold it (only an id string of many control
 * characters makes it longer than the smallest budget allowed). */
static apr_status_t send_too_large(spx_response_writer_t *writer, json_t *id)
{
    json_t *replacement =
        json_pack("{s:{s:i,s:s},s:O?,s:s}", "error", "code", SPX_RPC_RESPONSE_TOO_LARGE, "message",
                  spx_rpc_message(SPX_RPC_RESPONSE_TOO_LARGE), "id", id, "jsonrpc", "2.0");
    int over = 0, withheld = 0;
    return render_and_send(writer, replacement, SIZE_MAX - 1, NULL, &over, &withheld);
}

static apr_status_t send_response(spx_response_writer_t *writer, json_t *id, json_t *response,
                                  const spx_response_gate_t *gate, spx_response_outcome_t *outcome)
{
    int over = 0, withheld = 0;
    *outcome = SPX_RESPONSE_SENT;
    apr_status_t status =
        render_and_send(writer, response, writer->max_bytes - 1, gate, &over, &withheld);
    if (withheld)
        *outcome = SPX_RESPONSE_WITHHELD;
    if (status != APR_SUCCESS || !over)
        return status;
    *outcome = SPX_RESPONSE_STOP;
    return send_too_large(writer, id);
}

apr_status_t spx_response_write_result(spx_response_writer_t *writer, json_t *id, json_t *result,
                                       spx_response_outcome_t *outcome)
{
    return spx_response_write_result_gated(writer, id, result, NULL, outcome);
}

apr_status_t spx_response_write_result_gated(spx_response_writer_t *writer, json_t *id,
                                             json_t *result, const spx_response_gate_t *gate,
                                             spx_response_outcome_t *outcome)
{
    json_t *response = json_pack("{s:O?,s:s,s:O}", "id", id, "jsonrpc", "2.0", "result", result);
    return send_response(writer, id, response, gate, outcome);
}

/* {"id":ID,"jsonrpc":"2.0","result":RESULT} into line: the keys in
 * canonical order; the LF is not the writer's. */
static spx_json_status_t write_result_line(spx_json_writer_t *line, json_t *id,
                                           spx_response_result_fn write, void *context)
{
    json_t *null_id = json_null();
    spx_json_object_begin(line);
    spx_json_key(line, "id");
    spx_json_value(line, id ? id : null_id);
    spx_json_key(line, "jsonrpc");
    spx_json_string(line, "2.0");
    spx_json_key(line, "result");
    write(context, line);
    spx_json_object_end(line);
    json_decref(null_id);
    return spx_json_writer_finish(line);
}

static apr_status_t write_through(void *context, const char *bytes, apr_size_t length)
{
    spx_response_writer_t *writer = context;
    return writer->write(writer->context, bytes, length);
}

/* The line is written twice: counted first, for the budget and the gate,
 * then streamed to the output in chunks of SPX_LIMIT_JSON_CHUNK_BYTES. No
 * copy of the whole line is held: a 1M-line project's graph is 29 MB. The
 * result writers (graph, source graph) take no memory, so once the first
 * chunk is out nothing can fail for want of it: an out-of-memory stop
 * still leaves no part of the line written. */
apr_status_t spx_response_write_result_streamed(spx_response_writer_t *writer, json_t *id,
                                                spx_response_result_fn write, void *context,
                                                const spx_response_gate_t *gate,
                                                spx_response_outcome_t *outcome)
{
    apr_pool_t *pool = NULL;
    apr_pool_create_ex(&pool, NULL, spx_out_of_memory_abort, NULL);
    /* The LF is excluded from the budget and put in the spare byte. */
    spx_json_writer_t *counted = spx_json_writer_counting(writer->max_bytes - 1, pool);
    spx_json_status_t written = write_result_line(counted, id, write, context);
    apr_status_t status = APR_SUCCESS;
    *outcome = SPX_RESPONSE_SENT;
    if (written == SPX_JSON_OVER_LIMIT) {
        *outcome = SPX_RESPONSE_STOP;
        status = send_too_large(writer, id);
    } else if (written != SPX_JSON_OK) {
        status = APR_ENOMEM;
    } else if (gate && !gate->pass(gate->context)) {
        *outcome = SPX_RESPONSE_WITHHELD;
    } else {
        apr_size_t length = spx_json_writer_length(counted);
        spx_json_writer_t *line =
            spx_json_writer_stream(write_through, writer, writer->max_bytes - 1, pool);
        written = write_result_line(line, id, write, context);
        if (written == SPX_JSON_OK && spx_json_writer_length(line) == length) {
            writer->last_bytes = length + 1;
            status = writer->write(writer->context, "\n", 1);
            if (status == APR_SUCCESS)
                status = writer->flush(writer->context);
        } else {
            status = written == SPX_JSON_WRITE_FAILED ? APR_EGENERAL : APR_ENOMEM;
        }
    }
    apr_pool_destroy(pool);
    return status;
}

/* A result line is RESULT_HEAD ID RESULT_MIDDLE TEXT "}\n": the keys sort as
 * id, jsonrpc, result, so the result text comes last. */
static const char result_head[] = "{\"id\":";
static const char result_middle[] = ",\"jsonrpc\":\"2.0\",\"result\":";

static size_t result_frame_bytes(size_t id_length)
{
    return sizeof(result_head) - 1 + id_length + sizeof(result_middle) - 1 + 2;
}

apr_size_t spx_response_result_frame_bytes(const json_t *id)
{
    json_t *null_id = json_null();
    char *id_text = json_dumps(id ? id : null_id, SPX_CANONICAL_FLAGS);
    json_decref(null_id);
    apr_size_t bytes = result_frame_bytes(id_text ? strlen(id_text) : 0);
    free(id_text);
    return bytes;
}

apr_status_t spx_response_write_result_text(spx_response_writer_t *writer, json_t *id,
                                            const char *text, apr_size_t length,
                                            const spx_response_gate_t *gate,
                                            spx_response_outcome_t *outcome)
{
    json_t *null_id = json_null();
    char *id_text = json_dumps(id ? id : null_id, SPX_CANONICAL_FLAGS);
    json_decref(null_id);
    if (!id_text)
        return APR_ENOMEM;
    size_t id_length = strlen(id_text);
    size_t frame = result_frame_bytes(id_length);
    size_t prefix = frame - 2; /* the head, the id and the middle */
    *outcome = SPX_RESPONSE_SENT;
    apr_status_t status = APR_SUCCESS;
    if (length > writer->max_bytes || frame + length > writer->max_bytes) {
        free(id_text);
        *outcome = SPX_RESPONSE_STOP;
        return send_too_large(writer, id);
    }
    if (gate && !gate->pass(gate->context)) {
        free(id_text);
        *outcome = SPX_RESPONSE_WITHHELD;
        return APR_SUCCESS;
    }
    char *response = spx_allocate(frame + length);
    char *at = response;
    memcpy(at, result_head, sizeof(result_head) - 1);
    at += sizeof(result_head) - 1;
    memcpy(at, id_text, id_length);
    at += id_length;
    memcpy(at, result_middle, sizeof(result_middle) - 1);
    memcpy(response + prefix, text, length);
    response[prefix + length] = '}';
    response[prefix + length + 1] = '\n';
    free(id_text);
    status = send_line(writer, response, frame + length);
    free(response);
    return status;
}

apr_status_t spx_response_write_error(spx_response_writer_t *writer, json_t *id, int code,
                                      json_t *data, spx_response_outcome_t *outcome)
{
    return spx_response_write_error_gated(writer, id, code, data, NULL, outcome);
}

apr_status_t spx_response_write_error_gated(spx_response_writer_t *writer, json_t *id, int code,
                                            json_t *data, const spx_response_gate_t *gate,
                                            spx_response_outcome_t *outcome)
{
    return spx_response_write_error_said(writer, id, code, data, NULL, gate, outcome);
}

apr_status_t spx_response_write_error_said(spx_response_writer_t *writer, json_t *id, int code,
                                           json_t *data, const char *sentence,
                                           const spx_response_gate_t *gate,
                                           spx_response_outcome_t *outcome)
{
    const char *fixed = spx_rpc_message(code);
    if (!fixed)
        return APR_EINVAL;
    char buffer[SPX_DETAIL_MESSAGE_BUFFER_BYTES];
    const char *message =
        code == SPX_RPC_RESPONSE_TOO_LARGE ? fixed : spx_detail_message(fixed, sentence, buffer);
    json_t *response = json_pack("{s:{s:i,s:s,s:O*},s:O?,s:s}", "error", "code", code, "message",
                                 message, "data", data, "id", id, "jsonrpc", "2.0");
    return send_response(writer, id, response, gate, outcome);
}

void spx_response_writer_explain_errors(spx_response_writer_t *writer)
{
    writer->explain_errors = 1;
}

apr_status_t spx_response_write_error_explained(spx_response_writer_t *writer, json_t *id, int code,
                                                json_t *data, const char *reason,
                                                const char *detail, const spx_response_gate_t *gate,
                                                spx_response_outcome_t *outcome)
{
    if (code == SPX_RPC_RESPONSE_TOO_LARGE) {
        /* A method that stopped building its answer past the budget: the
         * fixed replacement, and the session ends, as if it had been built. */
        *outcome = SPX_RESPONSE_STOP;
        return send_too_large(writer, id);
    }
    if (!writer->explain_errors)
        return spx_response_write_error_gated(writer, id, code, data, gate, outcome);
    json_t *explained = data ? json_copy(data) : json_object();
    if (!explained)
        return APR_ENOMEM;
    const char *why = reason ? reason : spx_rpc_default_reason(code);
    const char *sentence = detail ? detail : spx_rpc_default_detail(code);
    json_object_set_new(explained, "reason", json_string(why ? why : "internal_error"));
    char cut[SPX_DETAIL_BUFFER_BYTES];
    const char *bounded = spx_detail_bounded(sentence ? sentence : "", cut);
    json_object_set_new(explained, "detail", json_string(bounded));
    apr_status_t status =
        spx_response_write_error_said(writer, id, code, explained, bounded, gate, outcome);
    json_decref(explained);
    return status;
}
