/*
 * call.c: the watch over one call to the daemon (spx_call.h): its deadline,
 * the cancellations read ahead from the input, and how many steps a run
 * takes between two questions.
 */
#include "spx_call.h"

#include "spx_limits.h"

#include <apr_strings.h>
#include <string.h>

struct spx_call_t {
    spx_run_interrupt_t interrupt;
    json_t *id; /* the request's, in the request's pool */
    apr_time_t deadline;
    apr_uint64_t max_seconds;
    spx_frame_reader_t *reader; /* NULL: no cancellation */
    apr_size_t examined;        /* pending bytes already looked at, whole frames */
    apr_pool_t *scratch;        /* a frame looked at is parsed here, then cleared */
    apr_time_t asked;           /* when the run asked last */
    uint64_t steps;             /* what the watch answered last */
    spx_call_stop_t stopped;
};

/* 1 when the frame bytes[0..length) is a notifications/cancelled for the
 * call's id. */
static int cancels_call(spx_call_t *call, const unsigned char *bytes, apr_size_t length)
{
    apr_pool_clear(call->scratch);
    spx_request_t request;
    spx_request_error_t error;
    if (length > spx_frame_reader_max_bytes(call->reader) ||
        spx_request_parse(bytes, length, &request, &error, call->scratch) != SPX_REQUEST_VALID ||
        !request.is_notification || strcmp(request.method, "notifications/cancelled") != 0 ||
        !request.params)
        return 0;
    json_t *id = json_object_get(request.params, "requestId");
    return id && json_equal(id, call->id);
}

/* Read what input is ready and look at each whole frame not looked at yet:
 * 1 when one cancels the call. */
static int cancellation_arrived(spx_call_t *call)
{
    spx_frame_reader_read_ahead(call->reader);
    const unsigned char *bytes = NULL;
    apr_size_t length = 0;
    spx_frame_reader_pending(call->reader, &bytes, &length);
    while (call->examined < length) {
        const unsigned char *frame = bytes + call->examined;
        const unsigned char *lf = memchr(frame, '\n', length - call->examined);
        if (!lf)
            return 0; /* the rest of a frame comes later */
        apr_size_t frame_length = (apr_size_t)(lf - frame);
        call->examined += frame_length + 1;
        if (cancels_call(call, frame, frame_length))
            return 1;
    }
    return 0;
}

/* The steps a run takes before it asks again: doubled while the questions
 * come closer together than SPX_CALL_POLL_MICROSECONDS / 2, cut in
 * proportion when they come further apart than SPX_CALL_POLL_MICROSECONDS. */
static uint64_t next_steps(uint64_t steps, apr_time_t since)
{
    const apr_time_t target = SPX_CALL_POLL_MICROSECONDS;
    if (since < target / 2)
        steps = steps * 2 > SPX_CALL_POLL_MAX_STEPS ? SPX_CALL_POLL_MAX_STEPS : steps * 2;
    else if (since > target)
        steps = steps * (uint64_t)target / (uint64_t)since; /* at most 2^24 x 10^4 */
    return steps ? steps : 1;
}

static uint64_t poll_call(void *context)
{
    spx_call_t *call = context;
    if (call->stopped != SPX_CALL_GOING)
        return 0;
    apr_time_t now = apr_time_now();
    if (now >= call->deadline) {
        call->stopped = SPX_CALL_PAST_DEADLINE;
        return 0;
    }
    if (call->reader && cancellation_arrived(call)) {
        call->stopped = SPX_CALL_CANCELLED;
        return 0;
    }
    call->steps = next_steps(call->steps, now - call->asked);
    call->asked = now;
    return call->steps;
}

spx_call_t *spx_call_watch(const spx_request_t *request, apr_time_t started,
                           apr_uint64_t max_seconds, spx_frame_reader_t *reader, apr_pool_t *pool)
{
    spx_call_t *call = apr_pcalloc(pool, sizeof(*call));
    call->interrupt.poll = poll_call;
    call->interrupt.context = call;
    call->id = request->id;
    call->deadline = started + apr_time_from_sec(max_seconds);
    call->max_seconds = max_seconds;
    call->reader = reader;
    if (reader)
        apr_pool_create(&call->scratch, pool); /* cannot fail: spx_allocation.h */
    call->asked = started;
    call->steps = SPX_CALL_POLL_FIRST_STEPS;
    return call;
}

const spx_run_interrupt_t *spx_call_interrupt(spx_call_t *call)
{
    return &call->interrupt;
}

spx_call_stop_t spx_call_stopped(const spx_call_t *call)
{
    return call->stopped;
}

const char *spx_call_too_long_sentence(const spx_call_t *call, apr_pool_t *pool)
{
    return apr_psprintf(pool,
                        "the call ran past --max-call-seconds %" APR_UINT64_T_FMT
                        " and was stopped between two steps of a run, so nothing of it is "
                        "answered: ask for less (fewer tests, a smaller max_steps), or start "
                        "semapraxd with a larger --max-call-seconds (at most %u)",
                        call->max_seconds, SPX_LIMIT_CALL_SECONDS_MAXIMUM);
}
