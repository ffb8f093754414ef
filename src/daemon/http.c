#include "http.h"

#include "dlog.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdarg.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

struct dhttp {
    struct MHD_Daemon *d;
    service *s;
};

static enum MHD_Result answer(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                              const char *version, const char *upload, size_t *upload_size, void **con_cls) {
    (void)version;
    (void)upload;
    (void)upload_size;
    (void)con_cls;
    dhttp *h = cls;
    const char *type = "text/plain; charset=utf-8";
    char *body = NULL;
    unsigned code = MHD_HTTP_OK;
    if (strcmp(method, "GET") != 0 && strcmp(method, "HEAD") != 0) {
        code = MHD_HTTP_METHOD_NOT_ALLOWED;
        body = strdup("only GET\n");
    } else if (strcmp(url, "/metrics") == 0) {
        body = service_metrics_text(h->s);
        type = "text/plain; version=0.0.4; charset=utf-8";
    } else if (strcmp(url, "/status") == 0) {
        body = jobs_status_json(h->s->J);
        type = "application/json";
    } else {
        code = MHD_HTTP_NOT_FOUND;
        body = strdup("not found: try /metrics or /status\n");
    }
    if (!body) return MHD_NO;
    struct MHD_Response *r = MHD_create_response_from_buffer(strlen(body), body, MHD_RESPMEM_MUST_FREE);
    MHD_add_response_header(r, "Content-Type", type);
    enum MHD_Result ret = MHD_queue_response(c, code, r);
    MHD_destroy_response(r);
    return ret;
}

/* libmicrohttpd's own messages (MHD_USE_ERROR_LOG): through the daemon's log, as warnings (they
 * are errors of a connection or of the listener), one line each, never on stderr directly. */
static void mhd_log(void *cls, const char *fmt, va_list ap) {
    (void)cls;
    char line[512];
    vsnprintf(line, sizeof line, fmt, ap);
    size_t n = strlen(line);
    while (n && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = 0;
    dlog(DLOG_WARN, "http: %s", line);
}

int dhttp_parse_addr(const char *addr, struct sockaddr_storage *ss, int *ipv6, char *err, size_t cap) {
    char host[256];
    const char *colon = strrchr(addr, ':');
    if (!colon || colon == addr || (size_t)(colon - addr) >= sizeof host) {
        snprintf(err, cap, "http address %s: expected host:port", addr);
        return -1;
    }
    memcpy(host, addr, (size_t)(colon - addr));
    host[colon - addr] = 0;
    char *end;
    errno = 0;
    long port = colon[1] >= '0' && colon[1] <= '9' ? strtol(colon + 1, &end, 10) : -1;
    if (port < 1 || port > 65535 || errno || *end) {
        snprintf(err, cap, "http address %s: the port must be a number from 1 to 65535", addr);
        return -1;
    }
    memset(ss, 0, sizeof *ss);
    *ipv6 = 0;
    if (host[0] == '[') {
        struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)ss;
        size_t hl = strlen(host);
        if (hl < 3 || host[hl - 1] != ']') { snprintf(err, cap, "http address %s: bad IPv6 host", addr); return -1; }
        host[hl - 1] = 0;
        a6->sin6_family = AF_INET6;
        a6->sin6_port = htons((uint16_t)port);
        if (inet_pton(AF_INET6, host + 1, &a6->sin6_addr) != 1) {
            snprintf(err, cap, "http address %s: bad IPv6 host", addr);
            return -1;
        }
        *ipv6 = 1;
    } else {
        struct sockaddr_in *a4 = (struct sockaddr_in *)ss;
        a4->sin_family = AF_INET;
        a4->sin_port = htons((uint16_t)port);
        if (strcmp(host, "localhost") == 0) strcpy(host, "127.0.0.1");
        if (inet_pton(AF_INET, host, &a4->sin_addr) != 1) {
            snprintf(err, cap, "http address %s: host must be an IPv4 address, [IPv6] or localhost", addr);
            return -1;
        }
    }
    return 0;
}

dhttp *dhttp_start(const char *addr, service *s, char *err, size_t cap) {
    struct sockaddr_storage ss;
    int ipv6;
    if (dhttp_parse_addr(addr, &ss, &ipv6, err, cap)) return NULL;
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG;
    if (ipv6) flags |= MHD_USE_IPv6;
    int port = ntohs(ipv6 ? ((struct sockaddr_in6 *)&ss)->sin6_port : ((struct sockaddr_in *)&ss)->sin_port);
    dhttp *h = calloc(1, sizeof *h);
    if (!h) {
        snprintf(err, cap, "http: out of memory");
        return NULL;
    }
    h->s = s;
    /* the logger first: libmicrohttpd uses its own (stderr) for anything before it */
    h->d = MHD_start_daemon(flags, (uint16_t)port, NULL, NULL, answer, h, MHD_OPTION_EXTERNAL_LOGGER, mhd_log, NULL,
                            MHD_OPTION_SOCK_ADDR, &ss, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)30, MHD_OPTION_END);
    if (!h->d) {
        snprintf(err, cap, "http: cannot listen on %s (address in use?)", addr);
        free(h);
        return NULL;
    }
    return h;
}

void dhttp_stop(dhttp *h) {
    if (!h) return;
    MHD_stop_daemon(h->d);
    free(h);
}
