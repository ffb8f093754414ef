/* Plain HTTP endpoint (libmicrohttpd): GET /metrics (Prometheus text) and GET /status (JSON). */
#ifndef CUZKD_HTTP_H
#define CUZKD_HTTP_H

#include <stddef.h>

#include "service.h"

typedef struct dhttp dhttp;
/* addr: "host:port" (IPv4 or "[::1]:port"). NULL with a message in err on failure. */
dhttp *dhttp_start(const char *addr, service *s, char *err, size_t cap);
void dhttp_stop(dhttp *h);

#endif
