/* The cuzk.v1.ProvingEngine service: protobuf (protobuf-c) <-> the job table. */
#ifndef CUZKD_SERVICE_H
#define CUZKD_SERVICE_H

#include "cgrpc.h"
#include "config.h"
#include "jobs.h"

typedef struct service {
    const dcfg *cfg;
    jobs *J;
    cgrpc_server *server; /* for call counters in metrics; may be NULL */
} service;

cgrpc_mode service_classify(void *svc, const char *method);
void service_handle(void *svc, cgrpc_call *call, const char *method, const uint8_t *req, size_t len,
                    cgrpc_reply *out);
/* GetMetrics text: the job table's metrics plus the server's call counters; malloc'd. */
char *service_metrics_text(service *s);

#endif
