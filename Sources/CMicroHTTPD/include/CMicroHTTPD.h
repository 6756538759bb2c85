#ifndef STRATA_CMICROHTTPD_H
#define STRATA_CMICROHTTPD_H

// libmicrohttpd (Debian's libmicrohttpd-dev), loaded when the first server
// starts rather than linked: it brings GnuTLS and its eleven libraries, which
// every other command would load before `main` for nothing.
//
// The HTTP protocol is libmicrohttpd's; this target only starts a daemon with
// Strata's limits, hands each complete GET or HEAD request to one callback,
// and queues the response that callback gives. Requests with a body, other
// methods and too many headers are answered here, before the callback.

#include <stddef.h>
#include <stdint.h>

/// The limits a server runs under; see `strata_http_start`.
typedef struct strata_http_limits {
    /// Worker threads (libmicrohttpd's thread pool, each polling with epoll):
    /// a slow client holds a connection, never a thread.
    unsigned int threads;
    /// Open connections at most; more are refused at once.
    unsigned int connections;
    /// Open connections from one address at most.
    unsigned int connections_per_address;
    /// Seconds a connection may stay idle (a client that sends its request
    /// slowly is cut off).
    unsigned int timeout_seconds;
    /// Bytes of memory per connection, which bounds the request line and its
    /// headers (libmicrohttpd answers 414 or 431 beyond it).
    size_t connection_memory;
    /// Headers one request may carry (431 beyond it).
    unsigned int headers;
} strata_http_limits;

/// One header of a response.
typedef struct strata_http_header {
    const char *name;
    const char *value;
} strata_http_header;

/// A running server; opaque.
typedef struct strata_http_server strata_http_server;
/// A request being answered; opaque, valid during the callback only.
typedef struct strata_http_exchange strata_http_exchange;

/// Called on a worker thread for each GET or HEAD request, once its headers
/// are read; it must call `strata_http_respond` exactly once.
typedef void (*strata_http_handler)(void *context, strata_http_exchange *exchange);

/// Starts a server on `host` (an IPv4 or IPv6 address, not a name) and
/// `port` (0: any free port). Returns NULL with `failure` saying why.
strata_http_server *strata_http_start(const char *host, uint16_t port,
                                      strata_http_limits limits, strata_http_handler handler,
                                      void *context, char *failure, size_t failure_size);
/// The port the server listens on.
uint16_t strata_http_port(strata_http_server *server);
/// Stops the server: waits for the requests in progress, closes every
/// connection, frees the server.
void strata_http_stop(strata_http_server *server);

/// The request's method ("GET" or "HEAD").
const char *strata_http_method(strata_http_exchange *exchange);
/// The request's path, percent-decoded by libmicrohttpd, without its query.
const char *strata_http_path(strata_http_exchange *exchange);
/// What a value handed to a `strata_http_visitor` is.
typedef enum strata_http_value_kind {
    strata_http_value_header = 0,
    strata_http_value_query = 1,
    strata_http_value_cookie = 2,
} strata_http_value_kind;

/// Receives one header, query argument (percent-decoded; "" for an argument
/// given without `=`) or cookie of a request.
typedef void (*strata_http_visitor)(void *context, strata_http_value_kind kind, const char *name,
                                    const char *value);

/// Calls `visit` with every header, query argument and cookie of the
/// request, in the order they came.
void strata_http_values(strata_http_exchange *exchange, strata_http_visitor visit, void *context);

/// Queues the response: `status`, the headers, and `length` bytes of `body`
/// (copied; sent only for GET, while HEAD gets the same headers).
/// Returns 1 when queued.
int strata_http_respond(strata_http_exchange *exchange, unsigned int status,
                        const strata_http_header *headers, size_t header_count,
                        const void *body, size_t length);

#endif
