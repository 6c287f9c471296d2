/*
 * test_response.c: the response writer: canonical bytes with exactly one LF
 * in one write followed by a flush, the code table's messages, the budget
 * (LF included) at its exact edge, the fixed -32001 replacement and its stop,
 * write failures, results given as rendered text, and gates that withhold.
 */
#include "spx_canonical.h"
#include "spx_limits.h"
#include "spx_response.h"
#include "spx_rpc.h"
#include "spx_test.h"

#include <apr_strings.h>
#include <string.h>

/* Collects what the writer writes, and how. */
typedef struct sink_t {
    char *bytes;
    apr_size_t length;
    int writes;
    int flushes;
    int flushed_after_last_write;
    apr_status_t fail_with; /* returned by write when not APR_SUCCESS */
    apr_pool_t *pool;
} sink_t;

static apr_status_t sink_write(void *context, const void *bytes, apr_size_t length)
{
    sink_t *sink = context;
    if (sink->fail_with != APR_SUCCESS)
        return sink->fail_with;
    char *joined = apr_palloc(sink->pool, sink->length + length + 1);
    memcpy(joined, sink->bytes, sink->length);
    memcpy(joined + sink->length, bytes, length);
    sink->length += length;
    joined[sink->length] = '\0';
    sink->bytes = joined;
    sink->writes++;
    sink->flushed_after_last_write = 0;
    return APR_SUCCESS;
}

static apr_status_t sink_flush(void *context)
{
    sink_t *sink = context;
    sink->flushes++;
    sink->flushed_after_last_write = 1;
    return APR_SUCCESS;
}

typedef struct bench_t {
    apr_pool_t *pool;
    sink_t sink;
    spx_response_writer_t *writer;
} bench_t;

static bench_t *bench_new(apr_size_t max_bytes)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    bench_t *bench = apr_pcalloc(pool, sizeof(*bench));
    bench->pool = pool;
    bench->sink.pool = pool;
    bench->sink.bytes = "";
    CU_ASSERT_EQUAL_FATAL(spx_response_writer_create(&bench->writer, sink_write, sink_flush,
                                                     &bench->sink, max_bytes, pool),
                          APR_SUCCESS);
    return bench;
}

static void bench_free(bench_t *bench)
{
    apr_pool_destroy(bench->pool);
}

static json_t *parse(const char *text)
{
    json_t *value = json_loads(text, JSON_DECODE_ANY, NULL);
    CU_ASSERT_PTR_NOT_NULL_FATAL(value);
    return value;
}

static void test_result_is_canonical_with_one_lf_then_flushed(void)
{
    bench_t *bench = bench_new(SPX_LIMIT_RESPONSE_BYTES_DEFAULT);
    json_t *id = json_integer(1);
    json_t *result = parse("{\"zeta\":[1,2,{\"b\":\"/\\u00e9\",\"a\":null}],\"alpha\":true}");
    spx_response_outcome_t outcome = 0;
    CU_ASSERT_EQUAL(spx_response_write_result(bench->writer, id, result, &outcome), APR_SUCCESS);
    CU_ASSERT_EQUAL(outcome, SPX_RESPONSE_SENT);
    const char *expected = "{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{\"alpha\":true,"
                           "\"zeta\":[1,2,{\"a\":null,\"b\":\"/\xC3\xA9\"}]}}\n";
    CU_ASSERT_EQUAL(bench->sink.length, strlen(expected));
    CU_ASSERT_STRING_EQUAL(bench->sink.bytes, expected);
    CU_ASSERT_EQUAL(bench->sink.writes, 1);
    CU_ASSERT_TRUE(bench->sink.flushed_after_last_write);
    /* The same bytes as the engine's canonical text of the response. */
    json_t *response = json_pack("{s:O,s:s,s:O}", "id", id, "jsonrpc", "2.0", "result", result);
    CU_ASSERT_STRING_EQUAL(
        apr_pstrcat(bench->pool, spx_canonical_text(response, bench->pool), "\n", NULL),
        bench->sink.bytes);
    /* Nothing was consumed. */
    CU_ASSERT_EQUAL(id->refcount, 2);
    json_decref(response);
    json_decref(result);
    json_decref(id);
    bench_free(bench);
}

static void test_each_response_is_one_line(void)
{
    bench_t *bench = bench_new(SPX_LIMIT_RESPONSE_BYTES_DEFAULT);
    json_t *result = parse("{\"text\":\"two\\nlines\\r\"}");
    json_t *id = json_string("a");
    spx_response_outcome_t outcome = 0;
    CU_ASSERT_EQUAL(spx_response_write_result(bench->writer, id, result, &outcome), APR_SUCCESS);
    CU_ASSERT_EQUAL(spx_response_write_result(bench->writer, NULL, result, &outcome), APR_SUCCESS);
    CU_ASSERT_STRING_EQUAL(
        bench->sink.bytes,
        "{\"id\":\"a\",\"jsonrpc\":\"2.0\",\"result\":{\"text\":\"two\\nlines\\r\"}}\n"
        "{\"id\":null,\"jsonrpc\":\"2.0\",\"result\":{\"text\":\"two\\nlines\\r\"}}\n");
    CU_ASSERT_EQUAL(bench->sink.writes, 2);
    CU_ASSERT_EQUAL(bench->sink.flushes, 2);
    json_decref(id);
    json_decref(result);
    bench_free(bench);
}

static void test_errors_carry_the_table_messages(void)
{
    const struct {
        int code;
        const char *message;
    } table[] = {
        {-32700, "parse error"},           {-32600, "invalid request"},
        {-32601, "method not found"},      {-32602, "invalid params"},
        {-32603, "internal error"},        {-32001, "response too large"},
        {-32002, "request too large"},     {-32010, "session not open"},
        {-32011, "workspace unavailable"}, {-32012, "revision mismatch"},
        {-32013, "session invalidated"},   {-32014, "project not admitted"},
    };
    for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
        bench_t *bench = bench_new(SPX_LIMIT_RESPONSE_BYTES_DEFAULT);
        spx_response_outcome_t outcome = 0;
        CU_ASSERT_EQUAL(
            spx_response_write_error(bench->writer, NULL, table[i].code, NULL, &outcome),
            APR_SUCCESS);
        CU_ASSERT_EQUAL(outcome, SPX_RESPONSE_SENT);
        const char *expected = apr_psprintf(
            bench->pool,
            "{\"error\":{\"code\":%d,\"message\":\"%s\"},\"id\":null,\"jsonrpc\":\"2.0\"}\n",
            table[i].code, table[i].message);
        CU_ASSERT_STRING_EQUAL(bench->sink.bytes, expected);
        bench_free(bench);
    }
}

static void test_error_with_data_and_id(void)
{
    bench_t *bench = bench_new(SPX_LIMIT_RESPONSE_BYTES_DEFAULT);
    json_t *id = json_integer(9007199254740991);
    json_t *data = parse("{\"drift\":[\"src/b.spx\",\"src/a.spx\"]}");
    spx_response_outcome_t outcome = 0;
    CU_ASSERT_EQUAL(
        spx_response_write_error(bench->writer, id, SPX_RPC_SESSION_INVALIDATED, data, &outcome),
        APR_SUCCESS);
    CU_ASSERT_STRING_EQUAL(bench->sink.bytes,
                           "{\"error\":{\"code\":-32013,\"data\":{\"drift\":[\"src/b.spx\","
                           "\"src/a.spx\"]},\"message\":\"session invalidated\"},"
                           "\"id\":9007199254740991,\"jsonrpc\":\"2.0\"}\n");
    json_decref(data);
    json_decref(id);
    bench_free(bench);
}

static void test_unknown_code_is_refused(void)
{
    bench_t *bench = bench_new(SPX_LIMIT_RESPONSE_BYTES_DEFAULT);
    spx_response_outcome_t outcome = 0;
    CU_ASSERT_EQUAL(spx_response_write_error(bench->writer, NULL, -1, NULL, &outcome), APR_EINVAL);
    CU_ASSERT_EQUAL(bench->sink.length, 0);
    bench_free(bench);
}

/* {"id":7,"jsonrpc":"2.0","result":"xxx..."} plus LF, made exactly total bytes. */
static json_t *string_result_for_total(apr_size_t total, apr_pool_t *pool)
{
    const apr_size_t framing = strlen("{\"id\":7,\"jsonrpc\":\"2.0\",\"result\":\"\"}\n");
    apr_size_t length = total - framing;
    char *text = apr_palloc(pool, length + 1);
    memset(text, 'x', length);
    text[length] = '\0';
    return json_string(text);
}

static const char *fixed_replacement(const char *id_text, apr_pool_t *pool)
{
    return apr_pstrcat(
        pool, "{\"error\":{\"code\":-32001,\"message\":\"response too large\"},\"id\":", id_text,
        ",\"jsonrpc\":\"2.0\"}\n", NULL);
}

static void test_budget_includes_the_lf(void)
{
    const apr_size_t budget = SPX_LIMIT_RESPONSE_BYTES_MINIMUM;
    json_t *id = json_integer(7);
    /* Exactly the budget, LF included: sent. */
    bench_t *bench = bench_new(budget);
    json_t *result = string_result_for_total(budget, bench->pool);
    spx_response_outcome_t outcome = 0;
    CU_ASSERT_EQUAL(spx_response_write_result(bench->writer, id, result, &outcome), APR_SUCCESS);
    CU_ASSERT_EQUAL(outcome, SPX_RESPONSE_SENT);
    CU_ASSERT_EQUAL(bench->sink.length, budget);
    CU_ASSERT_EQUAL(bench->sink.bytes[budget - 1], '\n');
    json_decref(result);
    bench_free(bench);
    /* One byte more: replaced whole by the fixed error, and the session stops. */
    bench = bench_new(budget);
    result = string_result_for_total(budget + 1, bench->pool);
    CU_ASSERT_EQUAL(spx_response_write_result(bench->writer, id, result, &outcome), APR_SUCCESS);
    CU_ASSERT_EQUAL(outcome, SPX_RESPONSE_STOP);
    CU_ASSERT_STRING_EQUAL(bench->sink.bytes, fixed_replacement("7", bench->pool));
    CU_ASSERT_EQUAL(bench->sink.writes, 1);
    CU_ASSERT_TRUE(bench->sink.flushed_after_last_write);
    json_decref(result);
    json_decref(id);
    bench_free(bench);
}

static void test_large_response_is_replaced_with_its_id(void)
{
    bench_t *bench = bench_new(SPX_LIMIT_RESPONSE_BYTES_MINIMUM);
    /* About 10 MiB once rendered, against 1 KiB. */
    json_t *result = json_array();
    for (int i = 0; i < 100000; i++)
        json_array_append_new(result, json_string("0123456789012345678901234567890123456789"
                                                  "0123456789012345678901234567890123456789"));
    json_t *id = json_string("big \"one\"");
    spx_response_outcome_t outcome = 0;
    CU_ASSERT_EQUAL(spx_response_write_result(bench->writer, id, result, &outcome), APR_SUCCESS);
    CU_ASSERT_EQUAL(outcome, SPX_RESPONSE_STOP);
    CU_ASSERT_STRING_EQUAL(bench->sink.bytes,
                           fixed_replacement("\"big \\\"one\\\"\"", bench->pool));
    json_decref(id);
    json_decref(result);
    bench_free(bench);
}

static void test_oversized_error_is_replaced_too(void)
{
    bench_t *bench = bench_new(SPX_LIMIT_RESPONSE_BYTES_MINIMUM);
    json_t *data = json_object();
    json_object_set_new(data, "diagnostics", string_result_for_total(4096, bench->pool));
    spx_response_outcome_t outcome = 0;
    CU_ASSERT_EQUAL(
        spx_response_write_error(bench->writer, NULL, SPX_RPC_PROJECT_NOT_ADMITTED, data, &outcome),
        APR_SUCCESS);
    CU_ASSERT_EQUAL(outcome, SPX_RESPONSE_STOP);
    CU_ASSERT_STRING_EQUAL(bench->sink.bytes, fixed_replacement("null", bench->pool));
    json_decref(data);
    bench_free(bench);
}

static void test_write_failure_is_returned(void)
{
    bench_t *bench = bench_new(SPX_LIMIT_RESPONSE_BYTES_DEFAULT);
    bench->sink.fail_with = APR_EPIPE;
    json_t *result = json_object();
    spx_response_outcome_t outcome = 0;
    CU_ASSERT_EQUAL(spx_response_write_result(bench->writer, NULL, result, &outcome), APR_EPIPE);
    CU_ASSERT_EQUAL(bench->sink.flushes, 0);
    json_decref(result);
    bench_free(bench);
}

static int refuse(void *context)
{
    (*(int *)context)++;
    return 0;
}

/* A result given as text gives the bytes rendering it would, at every budget
 * around its size, with the same replacement; a gate that refuses withholds
 * it and nothing is written. */
static void test_result_text_matches_rendering(void)
{
    const char *ids[] = {"7", "null", "\"caf\\u00e9\\n\"", "9007199254740991"};
    const char *result_text = "{\"b\":[1,2,{\"c\":\"\xc3\xa9\"}],\"a\":\"x\"}";
    json_t *result = parse(result_text);
    const char *canonical = NULL;
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    canonical = spx_canonical_text(result, pool);
    for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
        json_t *id = parse(ids[i]);
        bench_t *reference = bench_new(SPX_LIMIT_RESPONSE_BYTES_MAXIMUM);
        spx_response_outcome_t outcome;
        CU_ASSERT_EQUAL(spx_response_write_result(reference->writer, id, result, &outcome),
                        APR_SUCCESS);
        apr_size_t size = reference->sink.length;
        for (apr_size_t budget = size - 2; budget <= size + 1; budget++) {
            bench_t *rendered = bench_new(budget), *spliced = bench_new(budget);
            spx_response_outcome_t rendered_outcome, spliced_outcome;
            CU_ASSERT_EQUAL(
                spx_response_write_result(rendered->writer, id, result, &rendered_outcome),
                APR_SUCCESS);
            CU_ASSERT_EQUAL(spx_response_write_result_text(spliced->writer, id, canonical,
                                                           strlen(canonical), NULL,
                                                           &spliced_outcome),
                            APR_SUCCESS);
            CU_ASSERT_EQUAL(rendered_outcome, spliced_outcome);
            CU_ASSERT_EQUAL(spliced_outcome,
                            budget >= size ? SPX_RESPONSE_SENT : SPX_RESPONSE_STOP);
            CU_ASSERT_STRING_EQUAL(rendered->sink.bytes, spliced->sink.bytes);
            CU_ASSERT_EQUAL(spliced->sink.writes, 1);
            CU_ASSERT_TRUE(spliced->sink.flushed_after_last_write);
            bench_free(rendered);
            bench_free(spliced);
        }
        int asked = 0;
        spx_response_gate_t gate = {refuse, &asked};
        bench_t *gated = bench_new(SPX_LIMIT_RESPONSE_BYTES_MAXIMUM);
        CU_ASSERT_EQUAL(spx_response_write_result_text(gated->writer, id, canonical,
                                                       strlen(canonical), &gate, &outcome),
                        APR_SUCCESS);
        CU_ASSERT_EQUAL(outcome, SPX_RESPONSE_WITHHELD);
        CU_ASSERT_EQUAL(asked, 1);
        CU_ASSERT_EQUAL(gated->sink.length, 0);
        CU_ASSERT_EQUAL(spx_response_write_result_gated(gated->writer, id, result, &gate, &outcome),
                        APR_SUCCESS);
        CU_ASSERT_EQUAL(outcome, SPX_RESPONSE_WITHHELD);
        CU_ASSERT_EQUAL(spx_response_write_error_gated(gated->writer, id, SPX_RPC_INVALID_PARAMS,
                                                       NULL, &gate, &outcome),
                        APR_SUCCESS);
        CU_ASSERT_EQUAL(outcome, SPX_RESPONSE_WITHHELD);
        CU_ASSERT_EQUAL(asked, 3);
        CU_ASSERT_EQUAL(gated->sink.writes, 0);
        bench_free(gated);
        bench_free(reference);
        json_decref(id);
    }
    json_decref(result);
    apr_pool_destroy(pool);
}

static void test_bad_budget_is_refused(void)
{
    apr_pool_t *pool = NULL;
    apr_pool_create(&pool, NULL);
    spx_response_writer_t *writer = NULL;
    CU_ASSERT_EQUAL(spx_response_writer_create(&writer, sink_write, sink_flush, NULL, 0, pool),
                    APR_EINVAL);
    CU_ASSERT_EQUAL(spx_response_writer_create(&writer, sink_write, sink_flush, NULL,
                                               (apr_size_t)SPX_LIMIT_RESPONSE_BYTES_MAXIMUM + 1,
                                               pool),
                    APR_EINVAL);
    CU_ASSERT_PTR_NULL(writer);
    apr_pool_destroy(pool);
}

int main(void)
{
    CU_TestInfo tests[] = {
        {"a result is canonical, one LF, flushed",
         test_result_is_canonical_with_one_lf_then_flushed},
        {"each response is one line", test_each_response_is_one_line},
        {"errors carry the table's messages", test_errors_carry_the_table_messages},
        {"an error with data and id", test_error_with_data_and_id},
        {"an unknown code is refused", test_unknown_code_is_refused},
        {"the budget includes the LF", test_budget_includes_the_lf},
        {"a large response is replaced, with its id", test_large_response_is_replaced_with_its_id},
        {"an oversized error is replaced too", test_oversized_error_is_replaced_too},
        {"a write failure is returned", test_write_failure_is_returned},
        {"a bad budget is refused", test_bad_budget_is_refused},
        {"a result given as text matches rendering; gates withhold",
         test_result_text_matches_rendering},
        CU_TEST_INFO_NULL,
    };
    return spx_test_run_suite("response", tests);
}
