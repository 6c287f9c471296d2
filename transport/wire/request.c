/*
 * request.c: the request grammar (spx_request.h).
 *
 * Three stages. First a scan of the raw bytes, before any decoding: no NUL, no
 * CR, strictly valid UTF-8, nesting within SPX_LIMIT_REQUEST_JSON_DEPTH and at
 * most SPX_LIMIT_REQUEST_JSON_VALUES values (Jansson drops a NUL after a
 * number, takes CR for whitespace, has a depth limit of its own build, and
 * spends up to ~250 bytes on a 2-byte "{}"). Number tokens beyond a double's
 * range are tamed in a copy so that they decode. Then Jansson decodes the text, rejecting
 * duplicate keys at any depth, `\u0000` escapes, lone surrogates and trailing
 * bytes. Last the request rules, with the id checked on its raw token, found
 * by walking the top-level members of the (now known valid) text.
 */
#include "spx_request.h"

#include "spx_assert.h"
#include "spx_limits.h"
#include "spx_rpc.h"

#include <apr_strings.h>
#include <string.h>

static apr_status_t release_json(void *data)
{
    json_decref(data);
    return APR_SUCCESS;
}

/* Hand value (a new reference) to pool, which releases it when cleared. */
static json_t *pool_owned(apr_pool_t *pool, json_t *value)
{
    if (value)
        apr_pool_cleanup_register(pool, value, release_json, apr_pool_cleanup_null);
    return value;
}

static spx_request_status_t fail(spx_request_error_t *error, int code, json_t *id,
                                 const char *detail, apr_pool_t *pool)
{
    error->code = code;
    error->id = id ? id : pool_owned(pool, json_null());
    error->detail = detail;
    return SPX_REQUEST_INVALID;
}

/* --- stage 1: the raw bytes ------------------------------------------------ */

/* Length of the UTF-8 sequence at bytes[0..available), or 0 when it is not a
 * valid one (RFC 3629: no overlongs, no surrogates, nothing above U+10FFFF, no
 * truncated sequence). */
static apr_size_t utf8_sequence(const unsigned char *bytes, apr_size_t available)
{
    unsigned char lead = bytes[0];
    apr_size_t length;
    unsigned char low = 0x80, high = 0xBF; /* range of the first continuation byte */
    if (lead < 0x80)
        return 1;
    if (lead >= 0xC2 && lead <= 0xDF) {
        length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        if (lead == 0xE0)
            low = 0xA0; /* overlong below U+0800 */
        if (lead == 0xED)
            high = 0x9F; /* surrogates U+D800..U+DFFF */
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        if (lead == 0xF0)
            low = 0x90; /* overlong below U+10000 */
        if (lead == 0xF4)
            high = 0x8F; /* above U+10FFFF */
    } else {
        return 0; /* a continuation byte, C0/C1 (overlong), or F5..FF */
    }
    if (available < length)
        return 0;
    if (bytes[1] < low || bytes[1] > high)
        return 0;
    for (apr_size_t i = 2; i < length; i++)
        if (bytes[i] < 0x80 || bytes[i] > 0xBF)
            return 0;
    return length;
}

/* The end of the number token that starts at at (a '-' or a digit). */
static apr_size_t number_end(const unsigned char *bytes, apr_size_t length, apr_size_t at)
{
    while (at < length && (memchr("+-.eE", bytes[at], 5) || (bytes[at] >= '0' && bytes[at] <= '9')))
        at++;
    return at;
}

/* 1 when the number token bytes[from..to) has a decimal magnitude of at
 * least SPX_LIMIT_REQUEST_NUMBER_MAGNITUDE, which a double may not hold. The
 * token need not be valid JSON: the decoder judges that. */
static int number_is_huge(const unsigned char *bytes, apr_size_t from, apr_size_t to)
{
    apr_size_t at = from + (bytes[from] == '-');
    long magnitude = -1; /* of the first nonzero digit: 10^magnitude */
    long integer_digits = 0, fraction_zeros = 0;
    int nonzero = 0, in_fraction = 0;
    for (; at < to && bytes[at] != 'e' && bytes[at] != 'E'; at++) {
        if (bytes[at] == '.') {
            in_fraction = 1;
        } else if (!nonzero && bytes[at] == '0') {
            fraction_zeros += in_fraction;
        } else if (bytes[at] >= '0' && bytes[at] <= '9') {
            if (!nonzero)
                magnitude = in_fraction ? -(fraction_zeros + 1) : 0;
            nonzero = 1;
            if (!in_fraction && integer_digits++ > 0)
                magnitude++;
        }
    }
    if (!nonzero)
        return 0; /* zero, whatever its exponent */
    long exponent = 0;
    int negative = 0;
    if (at < to) { /* e[+-]digits, the exponent clamped far beyond any limit */
        at++;
        if (at < to && (bytes[at] == '+' || bytes[at] == '-'))
            negative = bytes[at++] == '-';
        for (; at < to && bytes[at] >= '0' && bytes[at] <= '9'; at++)
            if (exponent < 1000000)
                exponent = exponent * 10 + (bytes[at] - '0');
    }
    return magnitude + (negative ? -exponent : exponent) >= SPX_LIMIT_REQUEST_NUMBER_MAGNITUDE;
}

/* In *decodable, a copy of the frame made on the first call, the huge number
 * token bytes[from..to) becomes 1e300 (or -1e300), padded with spaces to the
 * token's length: the frame then decodes, and every offset stays that of the
 * raw bytes, so the id is still judged on its raw token, and a params value
 * that large is out of range for every method. */
static void tame_number(const unsigned char *bytes, apr_size_t length, apr_size_t from,
                        apr_size_t to, const unsigned char **decodable, apr_pool_t *pool)
{
    if (*decodable == bytes)
        *decodable = apr_pmemdup(pool, bytes, length);
    unsigned char *copy = (unsigned char *)*decodable;
    const char *tame = bytes[from] == '-' ? "-1e300" : "1e300";
    memset(copy + from, ' ', to - from);
    SPX_ASSERT(strlen(tame) <= to - from);
    memcpy(copy + from, tame, strlen(tame)); /* a huge token is never shorter */
}

/* NULL when the raw bytes may go to the decoder, else which rule they break.
 * *decodable is what the decoder gets: bytes, or a copy with its huge
 * numbers tamed (tame_number). */
static const char *scan_raw(const unsigned char *bytes, apr_size_t length, int carriage_returns,
                            const unsigned char **decodable, apr_pool_t *pool)
{
    int in_string = 0, escaped = 0;
    apr_size_t depth = 0, values = 0;
    *decodable = bytes;
    for (apr_size_t i = 0; i < length;) {
        unsigned char byte = bytes[i];
        if (byte == 0x00)
            return "NUL byte";
        if (byte == 0x0D && !carriage_returns)
            return "CR byte";
        if (byte >= 0x80) {
            apr_size_t sequence = utf8_sequence(bytes + i, length - i);
            if (sequence == 0)
                return "invalid UTF-8";
            i += sequence;
            escaped = 0;
            continue;
        }
        if (in_string) {
            if (escaped)
                escaped = 0;
            else if (byte == '\\')
                escaped = 1;
            else if (byte == '"')
                in_string = 0;
            i++;
            continue;
        }
        if (byte == '"' || byte == '[' || byte == '{' || byte == '-' ||
            (byte >= '0' && byte <= '9') || (byte >= 'a' && byte <= 'z')) {
            if (++values > SPX_LIMIT_REQUEST_JSON_VALUES)
                return "too many values";
        }
        if (byte == '"') {
            in_string = 1;
        } else if (byte == '[' || byte == '{') {
            if (++depth > SPX_LIMIT_REQUEST_JSON_DEPTH)
                return "nesting too deep";
        } else if ((byte == ']' || byte == '}') && depth > 0) {
            depth--;
        } else if (byte == '-' || (byte >= '0' && byte <= '9')) {
            apr_size_t end = number_end(bytes, length, i);
            if (number_is_huge(bytes, i, end))
                tame_number(bytes, length, i, end, decodable, pool);
            i = end;
            continue;
        } else if (byte >= 'a' && byte <= 'z') {
            while (i < length && bytes[i] >= 'a' && bytes[i] <= 'z')
                i++; /* a literal (true, false, null) is one value */
            continue;
        }
        i++;
    }
    return NULL;
}

/* --- stage 2: decoding ------------------------------------------------------ */

/* Decode the whole text as one JSON value. An integer beyond Jansson's range
 * is valid JSON, so the text is then decoded again with every integer as a
 * real (the id is judged on its raw token anyway; a params value that large is
 * out of range for every method). */
static json_t *decode(const unsigned char *bytes, apr_size_t length, int *integers_as_reals,
                      json_error_t *json_error)
{
    const size_t flags = JSON_DECODE_ANY | JSON_REJECT_DUPLICATES;
    *integers_as_reals = 0;
    json_t *value = json_loadb((const char *)bytes, length, flags, json_error);
    if (!value && json_error_code(json_error) == json_error_numeric_overflow) {
        *integers_as_reals = 1;
        value =
            json_loadb((const char *)bytes, length, flags | JSON_DECODE_INT_AS_REAL, json_error);
    }
    return value;
}

/* --- stage 3: the raw id token ------------------------------------------- */

static apr_size_t skip_space(const unsigned char *bytes, apr_size_t length, apr_size_t at)
{
    while (at < length && (bytes[at] == ' ' || bytes[at] == '\t' || bytes[at] == '\n'))
        at++;
    return at;
}

/* The end of the string token starting at its opening quote at. */
static apr_size_t skip_string(const unsigned char *bytes, apr_size_t length, apr_size_t at)
{
    for (at++; at < length && bytes[at] != '"'; at++)
        if (bytes[at] == '\\')
            at++;
    return at < length ? at + 1 : length;
}

/* The end of the value starting at at, in a text known to be valid JSON. */
static apr_size_t skip_value(const unsigned char *bytes, apr_size_t length, apr_size_t at)
{
    if (at >= length)
        return length;
    if (bytes[at] == '"')
        return skip_string(bytes, length, at);
    if (bytes[at] == '{' || bytes[at] == '[') {
        apr_size_t depth = 0;
        while (at < length) {
            unsigned char byte = bytes[at];
            if (byte == '"') {
                at = skip_string(bytes, length, at);
                continue;
            }
            at++;
            if (byte == '{' || byte == '[')
                depth++;
            else if ((byte == '}' || byte == ']') && --depth == 0)
                break;
        }
        return at;
    }
    while (at < length && !strchr(",]} \t\n", bytes[at]))
        at++;
    return at;
}

/* True when the key token bytes[from..to) (quotes included) means "id". */
static int key_is_id(const unsigned char *bytes, apr_size_t from, apr_size_t to)
{
    if (!memchr(bytes + from, '\\', to - from))
        return to - from == 4 && memcmp(bytes + from, "\"id\"", 4) == 0;
    json_t *key = json_loadb((const char *)bytes + from, to - from, JSON_DECODE_ANY, NULL);
    int is_id = json_is_string(key) && json_string_length(key) == 2 &&
                memcmp(json_string_value(key), "id", 2) == 0;
    json_decref(key);
    return is_id;
}

/* The raw token of the top-level member "id" of the valid JSON object in
 * bytes: *from and *to, or 0 when there is none. */
static int find_id_token(const unsigned char *bytes, apr_size_t length, apr_size_t *from,
                         apr_size_t *to)
{
    apr_size_t at = skip_space(bytes, length, 0) + 1; /* past '{' */
    for (;;) {
        at = skip_space(bytes, length, at);
        if (at >= length || bytes[at] != '"')
            return 0; /* '}' */
        apr_size_t key_end = skip_string(bytes, length, at);
        int is_id = key_is_id(bytes, at, key_end);
        at = skip_space(bytes, length, key_end) + 1; /* past ':' */
        at = skip_space(bytes, length, at);
        apr_size_t value_end = skip_value(bytes, length, at);
        if (is_id) {
            *from = at;
            *to = value_end;
            return 1;
        }
        at = skip_space(bytes, length, value_end) + 1; /* past ',' or '}' */
    }
}

/* The id to echo for the raw token bytes[from..to) whose decoded value is
 * decoded, or NULL when it is not a valid id (negative, valid with
 * negative_ids). */
static json_t *valid_id(const unsigned char *bytes, apr_size_t from, apr_size_t to, json_t *decoded,
                        int negative_ids)
{
    if (bytes[from] == '"')
        return json_string_length(decoded) <= SPX_LIMIT_ID_STRING_BYTES ? json_incref(decoded)
                                                                        : NULL;
    int negative = negative_ids && bytes[from] == '-';
    from += negative ? 1 : 0;
    apr_size_t digits = to - from;
    if (digits == 0 || digits > SPX_LIMIT_ID_INTEGER_DIGITS || (bytes[from] == '0' && digits > 1))
        return NULL;
    unsigned long long value = 0;
    for (apr_size_t i = from; i < to; i++) {
        if (bytes[i] < '0' || bytes[i] > '9')
            return NULL;
        value = value * 10u + (unsigned long long)(bytes[i] - '0');
    }
    if (value > SPX_LIMIT_ID_INTEGER_MAXIMUM || (negative && value == 0))
        return NULL;
    return json_integer(negative ? -(json_int_t)value : (json_int_t)value);
}

/* --- the request rules ------------------------------------------------------- */

static int is_top_level_key(const char *key)
{
    return strcmp(key, "jsonrpc") == 0 || strcmp(key, "id") == 0 || strcmp(key, "method") == 0 ||
           strcmp(key, "params") == 0;
}

/* NULL when the members other than id make a request, else the rule broken. */
static const char *check_members(json_t *document)
{
    const char *key;
    json_t *value;
    json_object_foreach(document, key, value)
    {
        if (!is_top_level_key(key))
            return "unknown top-level key";
    }
    json_t *version = json_object_get(document, "jsonrpc");
    if (!json_is_string(version) || json_string_length(version) != 3 ||
        memcmp(json_string_value(version), "2.0", 3) != 0)
        return "jsonrpc is not \"2.0\"";
    if (!json_is_string(json_object_get(document, "method")))
        return "method missing or not a string";
    json_t *params = json_object_get(document, "params");
    if (params && !json_is_object(params))
        return "params is not an object";
    return NULL;
}

/* A response object (a dialect with responses): no method, and a result
 * or an error. */
static int is_response(json_t *document)
{
    return !json_object_get(document, "method") &&
           (json_object_get(document, "result") || json_object_get(document, "error"));
}

spx_request_status_t spx_request_parse(const unsigned char *bytes, apr_size_t length,
                                       spx_request_t *request, spx_request_error_t *error,
                                       apr_pool_t *pool)
{
    return spx_request_parse_dialect(NULL, bytes, length, request, error, pool);
}

spx_request_status_t spx_request_parse_dialect(const spx_request_dialect_t *dialect,
                                               const unsigned char *bytes, apr_size_t length,
                                               spx_request_t *request, spx_request_error_t *error,
                                               apr_pool_t *pool)
{
    static const spx_request_dialect_t plain = {0, 0, 0, 0};
    if (!dialect)
        dialect = &plain;
    memset(request, 0, sizeof(*request));
    memset(error, 0, sizeof(*error));
    if (length == 0)
        return fail(error, SPX_RPC_PARSE_ERROR, NULL, "empty frame", pool);
    const unsigned char *decodable = bytes;
    const char *broken = scan_raw(bytes, length, dialect->carriage_returns, &decodable, pool);
    if (broken)
        return fail(error, SPX_RPC_PARSE_ERROR, NULL, broken, pool);

    json_error_t json_error;
    int integers_as_reals = 0;
    json_t *document = pool_owned(pool, decode(decodable, length, &integers_as_reals, &json_error));
    if (!document) {
        if (json_error_code(&json_error) == json_error_out_of_memory)
            return fail(error, SPX_RPC_INTERNAL_ERROR, NULL, "out of memory", pool);
        return fail(error, SPX_RPC_PARSE_ERROR, NULL, "invalid JSON", pool);
    }
    if (json_is_array(document))
        return fail(error, SPX_RPC_INVALID_REQUEST, NULL, "batch", pool);
    if (!json_is_object(document))
        return fail(error, SPX_RPC_INVALID_REQUEST, NULL, "not an object", pool);

    json_t *decoded_id = json_object_get(document, "id");
    json_t *id = NULL;
    if (decoded_id) {
        apr_size_t from = 0, to = 0;
        if (!find_id_token(bytes, length, &from, &to))
            return fail(error, SPX_RPC_INTERNAL_ERROR, NULL, "id token not found", pool);
        id = pool_owned(pool, valid_id(bytes, from, to, decoded_id, dialect->negative_ids));
    }
    if (dialect->responses && is_response(document)) {
        request->document = document;
        request->method = "";
        request->id = id;
        request->is_notification = 1;
        request->is_response = 1;
        return SPX_REQUEST_VALID;
    }
    if (dialect->null_params && json_is_null(json_object_get(document, "params")))
        json_object_del(document, "params");
    broken = check_members(document);
    if (broken)
        return fail(error, SPX_RPC_INVALID_REQUEST, id, broken, pool);
    if (decoded_id && !id)
        return fail(error, SPX_RPC_INVALID_REQUEST, NULL, "bad id", pool);

    json_t *method = json_object_get(document, "method");
    request->document = document;
    request->method = json_string_value(method);
    request->method_length = json_string_length(method);
    request->params = json_object_get(document, "params");
    request->id = id;
    request->is_notification = decoded_id == NULL;
    request->integers_as_reals = integers_as_reals;
    return SPX_REQUEST_VALID;
}

int spx_request_ends_session_silently(const spx_request_t *request)
{
    return request->is_notification && request->method_length == 8 &&
           memcmp(request->method, "shutdown", 8) == 0;
}

static int is_listed(const char *key, const char *const *allowed)
{
    for (; *allowed; allowed++)
        if (strcmp(key, *allowed) == 0)
            return 1;
    return 0;
}

int spx_request_params_known(const spx_request_t *request, const char *const *allowed,
                             const char **unknown)
{
    const char *first = NULL;
    const char *key;
    json_t *value;
    if (request->params) {
        json_object_foreach(request->params, key, value)
        {
            if (!is_listed(key, allowed) && (!first || strcmp(key, first) < 0))
                first = key;
        }
    }
    if (unknown)
        *unknown = first;
    return first == NULL;
}
