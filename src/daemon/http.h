/* Plain HTTP endpoint (libmicrohttpd): GET /metrics (Prometheus text) and GET /status (JSON). */
#ifndef CUZKD_HTTP_H
#define CUZKD_HTTP_H

#include <stddef.h>
#include <sys/socket.h>

#include "service.h"

typedef struct dhttp dhttp;
/* addr: "host:port" (IPv4 or "[::1]:port"). NULL with a message in err on failure. */
/* The address check of dhttp_start alone (also run by the configuration loader, so that
 * --check-config refuses what the start would): addr "host:port", host an IPv4 address,
 * "localhost" or "[IPv6]", port 1..65535. 0 with *ss and *ipv6 set, or -1 with a message in err. */
int dhttp_parse_addr(const char *addr, struct sockaddr_storage *ss, int *ipv6, char *err, size_t cap);
dhttp *dhttp_start(const char *addr, service *s, char *err, size_t cap);
void dhttp_stop(dhttp *h);

#endif
