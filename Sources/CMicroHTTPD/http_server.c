// libmicrohttpd, loaded when the first server starts (see include/CMicroHTTPD.h).
//
// Each function is looked up once (CLibraryLoader) by the soname the linker
// would have recorded. The daemon runs libmicrohttpd's own thread pool with
// epoll, so a client that sends slowly holds a connection slot until its
// timeout, never a worker.

#include "CMicroHTTPD.h"

#include <CLibraryLoader.h>
#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#define STRATA_MHD_FUNCTIONS(X) \
    X(struct MHD_Daemon *, MHD_start_daemon, \
      (unsigned int, uint16_t, MHD_AcceptPolicyCallback, void *, MHD_AccessHandlerCallback, \
       void *, ...)) \
    X(void, MHD_stop_daemon, (struct MHD_Daemon *)) \
    X(const union MHD_DaemonInfo *, MHD_get_daemon_info, \
      (struct MHD_Daemon *, enum MHD_DaemonInfoType, ...)) \
    X(int, MHD_get_connection_values, \
      (struct MHD_Connection *, enum MHD_ValueKind, MHD_KeyValueIterator, void *)) \
    X(const char *, MHD_lookup_connection_value, \
      (struct MHD_Connection *, enum MHD_ValueKind, const char *)) \
    X(struct MHD_Response *, MHD_create_response_from_buffer, \
      (size_t, void *, enum MHD_ResponseMemoryMode)) \
    X(enum MHD_Result, MHD_add_response_header, (struct MHD_Response *, const char *, const char *)) \
    X(enum MHD_Result, MHD_queue_response, \
      (struct MHD_Connection *, unsigned int, struct MHD_Response *)) \
    X(void, MHD_destroy_response, (struct MHD_Response *))

STRATA_LIBRARY(library, STRATA_MHD_FUNCTIONS, "libmicrohttpd.so.12",
               "libmicrohttpd (install the libmicrohttpd12 package)")

struct strata_http_server {
    struct MHD_Daemon *daemon;
    strata_http_handler handler;
    void *context;
    unsigned int header_limit;
};

struct strata_http_exchange {
    struct MHD_Connection *connection;
    const char *method;
    const char *path;
    int responded;
};

/// A response with a short plain-text body and the headers every response
/// carries, for the requests answered before the handler.
static enum MHD_Result refuse(struct MHD_Connection *connection, unsigned int status,
                              const char *text, const char *allow) {
    struct MHD_Response *response = library.MHD_create_response_from_buffer(
        strlen(text), (void *)text, MHD_RESPMEM_PERSISTENT);
    if (response == NULL) return MHD_NO;
    library.MHD_add_response_header(response, "Content-Type", "text/plain; charset=utf-8");
    library.MHD_add_response_header(response, "X-Content-Type-Options", "nosniff");
    library.MHD_add_response_header(response, "Content-Security-Policy",
                                    "default-src 'self'; script-src 'self'");
    if (allow != NULL) library.MHD_add_response_header(response, "Allow", allow);
    enum MHD_Result result = library.MHD_queue_response(connection, status, response);
    library.MHD_destroy_response(response);
    return result;
}

static int hex_value(char digit) {
    if (digit >= '0' && digit <= '9') return digit - '0';
    if (digit >= 'a' && digit <= 'f') return digit - 'a' + 10;
    if (digit >= 'A' && digit <= 'F') return digit - 'A' + 10;
    return -1;
}

/// Percent-decodes the path and query values in place, as libmicrohttpd's
/// own unescaping does, except that `%00` stays as it is: a decoded NUL
/// would cut the C string the handler reads, turning `/object/E/1%00x`
/// into `/object/E/1`.
static size_t unescape(void *cls, struct MHD_Connection *connection, char *text) {
    (void)cls;
    (void)connection;
    char *read = text, *write = text;
    while (*read != '\0') {
        int high, low;
        if (read[0] == '%' && (high = hex_value(read[1])) >= 0 && (low = hex_value(read[2])) >= 0 &&
            (high | low) != 0) {
            *write++ = (char)(high * 16 + low);
            read += 3;
        } else {
            *write++ = *read++;
        }
    }
    *write = '\0';
    return (size_t)(write - text);
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *connection, const char *url,
                              const char *method, const char *version, const char *upload_data,
                              size_t *upload_data_size, void **request_state) {
    (void)version;
    (void)upload_data;
    struct strata_http_server *server = cls;
    if (*request_state != NULL) {
        // A request with a body was refused on the first call; its body is
        // discarded as it arrives.
        *upload_data_size = 0;
        return MHD_YES;
    }
    *request_state = server;
    if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0) {
        return refuse(connection, 405, "Only GET and HEAD: the view is read-only.\n", "GET, HEAD");
    }
    const char *length =
        library.MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "Content-Length");
    if ((length != NULL && strcmp(length, "0") != 0) ||
        library.MHD_lookup_connection_value(connection, MHD_HEADER_KIND, "Transfer-Encoding") !=
            NULL) {
        return refuse(connection, 413, "A request to the view carries no body.\n", NULL);
    }
    int headers = library.MHD_get_connection_values(connection, MHD_HEADER_KIND, NULL, NULL);
    if (headers < 0 || (unsigned int)headers > server->header_limit) {
        return refuse(connection, 431, "Too many request headers.\n", NULL);
    }
    struct strata_http_exchange exchange = {connection, method, url, 0};
    server->handler(server->context, &exchange);
    return exchange.responded ? MHD_YES : MHD_NO;
}

strata_http_server *strata_http_start(const char *host, uint16_t port,
                                      strata_http_limits limits, strata_http_handler handler,
                                      void *context, char *failure, size_t failure_size) {
    const char *load_failure = library_load_error();
    if (load_failure != NULL) {
        snprintf(failure, failure_size, "%s", load_failure);
        return NULL;
    }
    struct sockaddr_in address4;
    struct sockaddr_in6 address6;
    const struct sockaddr *address;
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL;
    memset(&address4, 0, sizeof address4);
    memset(&address6, 0, sizeof address6);
    if (inet_pton(AF_INET, host, &address4.sin_addr) == 1) {
        address4.sin_family = AF_INET;
        address4.sin_port = htons(port);
        address = (const struct sockaddr *)&address4;
    } else if (inet_pton(AF_INET6, host, &address6.sin6_addr) == 1) {
        address6.sin6_family = AF_INET6;
        address6.sin6_port = htons(port);
        address = (const struct sockaddr *)&address6;
        flags |= MHD_USE_IPv6;
    } else {
        snprintf(failure, failure_size, "'%s' is not an IPv4 or IPv6 address", host);
        return NULL;
    }
    struct strata_http_server *server = calloc(1, sizeof *server);
    if (server == NULL) {
        snprintf(failure, failure_size, "out of memory");
        return NULL;
    }
    server->handler = handler;
    server->context = context;
    server->header_limit = limits.headers;
    server->daemon = library.MHD_start_daemon(
        flags, port, NULL, NULL, answer, server,                          //
        MHD_OPTION_SOCK_ADDR, address,                                    //
        MHD_OPTION_THREAD_POOL_SIZE, limits.threads,                      //
        MHD_OPTION_CONNECTION_LIMIT, limits.connections,                  //
        MHD_OPTION_PER_IP_CONNECTION_LIMIT, limits.connections_per_address,  //
        MHD_OPTION_CONNECTION_TIMEOUT, limits.timeout_seconds,            //
        MHD_OPTION_CONNECTION_MEMORY_LIMIT, limits.connection_memory,     //
        MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024u,                            //
        MHD_OPTION_UNESCAPE_CALLBACK, unescape, NULL,                     //
        MHD_OPTION_END);
    if (server->daemon == NULL) {
        snprintf(failure, failure_size, "cannot listen on %s port %u (in use, or not an address "
                 "of this machine)", host, (unsigned int)port);
        free(server);
        return NULL;
    }
    return server;
}

uint16_t strata_http_port(strata_http_server *server) {
    const union MHD_DaemonInfo *info =
        library.MHD_get_daemon_info(server->daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info == NULL ? 0 : info->port;
}

void strata_http_stop(strata_http_server *server) {
    library.MHD_stop_daemon(server->daemon);
    free(server);
}

const char *strata_http_method(strata_http_exchange *exchange) { return exchange->method; }

const char *strata_http_path(strata_http_exchange *exchange) { return exchange->path; }

struct visit {
    strata_http_visitor visit;
    void *context;
};

static enum MHD_Result visit_value(void *cls, enum MHD_ValueKind kind, const char *key,
                                   const char *value) {
    struct visit *visit = cls;
    strata_http_value_kind mapped = kind == MHD_GET_ARGUMENT_KIND ? strata_http_value_query
                                    : kind == MHD_COOKIE_KIND     ? strata_http_value_cookie
                                                                  : strata_http_value_header;
    if (key != NULL) visit->visit(visit->context, mapped, key, value == NULL ? "" : value);
    return MHD_YES;
}

void strata_http_values(strata_http_exchange *exchange, strata_http_visitor visit, void *context) {
    struct visit state = {visit, context};
    library.MHD_get_connection_values(exchange->connection,
                                      MHD_HEADER_KIND | MHD_GET_ARGUMENT_KIND | MHD_COOKIE_KIND,
                                      visit_value, &state);
}

int strata_http_respond(strata_http_exchange *exchange, unsigned int status,
                        const strata_http_header *headers, size_t header_count,
                        const void *body, size_t length) {
    if (exchange->responded) return 0;
    struct MHD_Response *response =
        library.MHD_create_response_from_buffer(length, (void *)body, MHD_RESPMEM_MUST_COPY);
    if (response == NULL) return 0;
    for (size_t index = 0; index < header_count; index++) {
        if (library.MHD_add_response_header(response, headers[index].name,
                                            headers[index].value) != MHD_YES) {
            library.MHD_destroy_response(response);
            return 0;
        }
    }
    enum MHD_Result result = library.MHD_queue_response(exchange->connection, status, response);
    library.MHD_destroy_response(response);
    exchange->responded = result == MHD_YES;
    return exchange->responded;
}
