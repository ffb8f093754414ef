/* Cancellation inside a long call: a per-thread abort probe.
 *
 * A caller that may want a call it makes to stop early (the engine's prove workers, around a
 * prover's start and finish) sets its thread's probe first; the long call (the prover
 * orchestration, src/groth16) asks abort_requested() at its stage boundaries (between a/b/c, H
 * and each MSM) and, when the probe answers nonzero, stops there with CUZK_ERR_CANCELLED, releasing
 * what it holds as on any failure. A thread without a probe is never aborted.
 *
 * The probe belongs to the calling thread only (thread-local): threads the call starts itself
 * (B_G2, parallel loops) do not see it. Thread-safety: the probe function is called on the thread
 * that set it and must be safe to call concurrently with whatever requests the abort (e.g. an
 * atomic load). */
#ifndef CUZK_UTIL_ABORT_H
#define CUZK_UTIL_ABORT_H

typedef int (*abort_probe_fn)(void *ctx);

/* Stage notes: the same long calls name the stage they are about to begin at each of those
 * boundaries (abort_stage_note, before abort_requested); a thread that set a note function hears
 * them (the engine's workers: a job's progress reports). Thread-local like the probe; the
 * function must be quick. */
typedef void (*abort_stage_fn)(void *ctx, const char *stage);
/* Sets (fn non-NULL) or clears (fn NULL) the calling thread's note function. */
void abort_stage_set(abort_stage_fn fn, void *ctx);
/* Tells the calling thread's note function (if any) that `stage` begins. */
void abort_stage_note(const char *stage);

/* Sets (fn non-NULL) or clears (fn NULL) the calling thread's probe. */
void abort_probe_set(abort_probe_fn fn, void *ctx);
/* 1 when the calling thread's probe says stop, 0 otherwise (no probe: 0). */
int abort_requested(void);

#endif
