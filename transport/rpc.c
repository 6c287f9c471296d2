/*
 * rpc.c: the fixed messages of the JSON-RPC error codes (spx_rpc.h).
 */
#include "spx_rpc.h"

#include <stddef.h>

/* A switch: two rows with one code do not compile. */
#define SPX_RPC_MESSAGE_(name, code, message)                                                      \
    case SPX_RPC_##name:                                                                           \
        return message;

const char *spx_rpc_message(int code)
{
    switch (code) {
        SPX_RPC_CODES(SPX_RPC_MESSAGE_)
    default:
        return NULL;
    }
}
