/* The per-thread abort probe (util/abort.h). */
#include "util/abort.h"

#include <stddef.h>

static _Thread_local abort_probe_fn g_fn;
static _Thread_local void *g_ctx;

void abort_probe_set(abort_probe_fn fn, void *ctx) {
    g_fn = fn;
    g_ctx = fn ? ctx : NULL;
}

int abort_requested(void) { return g_fn && g_fn(g_ctx) ? 1 : 0; }

static _Thread_local abort_stage_fn g_stage_fn;
static _Thread_local void *g_stage_ctx;

void abort_stage_set(abort_stage_fn fn, void *ctx) {
    g_stage_fn = fn;
    g_stage_ctx = fn ? ctx : NULL;
}

void abort_stage_note(const char *stage) {
    if (g_stage_fn && stage) g_stage_fn(g_stage_ctx, stage);
}
