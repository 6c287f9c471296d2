/*
 * spx_call.h: the watch over one call to the daemon (semapraxd
 * --max-call-seconds, docs/protocol-v2.md and docs/agents.md): the call's
 * wall-clock deadline and, for MCP, a notifications/cancelled naming the
 * call's id, read ahead from the input while the call runs. The watch
 * answers the interrupt a run asks between steps (spx_run_interrupt_t of
 * spx_vm.h): it reads the clock (apr_time_now), and with a frame reader it
 * reads what input is ready without waiting (spx_frame_reader_read_ahead)
 * and looks at each whole frame once. The frames read ahead stay pending, in
 * order, for the request loop, which answers them after the call (a
 * notification, the cancellation too, is never answered); the server stays
 * sequential.
 */
#ifndef SPX_CALL_H
#define SPX_CALL_H

#include "spx_frame.h"
#include "spx_request.h"
#include "spx_vm.h"

#include <apr_pools.h>
#include <apr_time.h>

/* Why a call was stopped, if it was. */
typedef enum spx_call_stop_t {
    SPX_CALL_GOING = 0,     /* not stopped */
    SPX_CALL_PAST_DEADLINE, /* it ran past its max_seconds */
    SPX_CALL_CANCELLED      /* a notifications/cancelled named its id (MCP) */
} spx_call_stop_t;

typedef struct spx_call_t spx_call_t;

/* Watch the call answering request (not a notification), begun at started
 * (apr_time_now()) and allowed max_seconds. With reader (NULL: no
 * cancellation), a notifications/cancelled whose params.requestId is the
 * request's id stops it too. Lives in pool, the request's. */
spx_call_t *spx_call_watch(const spx_request_t *request, apr_time_t started,
                           apr_uint64_t max_seconds, spx_frame_reader_t *reader, apr_pool_t *pool);

/* The interrupt the call's runs ask (spx_vm.h): it answers stop once the
 * call is past its deadline or cancelled, and otherwise a number of steps
 * that keeps two questions about SPX_CALL_POLL_MICROSECONDS apart
 * (spx_limits.h). */
const spx_run_interrupt_t *spx_call_interrupt(spx_call_t *call);

/* Whether, and why, the call was stopped. */
spx_call_stop_t spx_call_stopped(const spx_call_t *call);

/* Why a call past its deadline is answered with an error, in one sentence
 * naming --max-call-seconds (v2's data.detail, MCP's tool error). */
const char *spx_call_too_long_sentence(const spx_call_t *call, apr_pool_t *pool);

#endif /* SPX_CALL_H */
