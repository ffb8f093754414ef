/* The CLI's progress line on a terminal (the library itself never prints, it reports progress
 * through callbacks such as cuzk_progress_fn; the CLI draws it with this helper).
 *
 *   stage      [##########..........]  51.2%   68.7M/134.2M   1.31M/s  ETA 50s
 *
 * On a TTY the line is redrawn in place (at most every 100 ms) and each stage's last state is
 * kept when the next stage starts; otherwise (a log file, a pipe) one plain line is printed
 * every PROGRESS_LOG_SECONDS seconds of a stage, so logs stay short. Rate and ETA count from the
 * first update of the stage. Disabled (quiet) bars print nothing.
 * Thread-safety: progress_update may be called from several threads (a mutex serializes drawing);
 * progress_free must not race with updates.
 */
#ifndef CUZK_CLI_PROGRESS_H
#define CUZK_CLI_PROGRESS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define PROGRESS_LOG_SECONDS 5.0

typedef struct progress progress;

/* A bar writing to f (usually stderr). tty: -1 = detect with isatty, 0 = plain lines,
 * 1 = redraw in place. enabled = false: every call is a no-op. NULL on allocation failure (the
 * functions accept NULL and do nothing). */
progress *progress_new(FILE *f, int tty, bool enabled);

/* Stage `stage` (a short name; a new name starts a new stage) has done `done` of `total` units
 * (total 0: unknown, no percentage). */
void progress_update(progress *p, const char *stage, uint64_t done, uint64_t total);

/* A short text shown after the current stage's numbers ("partition 0: MSM L"), kept until the next
 * call (NULL or "": none); it starts no stage and draws nothing by itself. */
void progress_detail(progress *p, const char *detail);

/* Draws the current stage again with the time spent in it, also when no update came (a long step
 * inside the stage) and before any rate is known (the elapsed time then stands for the ETA): on a
 * TTY at most every 100 ms, otherwise one plain line every PROGRESS_LOG_SECONDS. For a caller's
 * timer thread; nothing before the first stage. */
void progress_tick(progress *p);

/* A line of normal output while a bar may be on screen: on a TTY the bar is cleared, the line
 * printed, the bar drawn again below it; otherwise just the line. line has no newline. */
void progress_message(progress *p, const char *line);

/* Ends the current line (on a TTY) so that normal output can follow; frees p. NULL: no-op. */
void progress_free(progress *p);

/* Formats a count with a k/M/G suffix ("1.31M") into buf (cap >= 16). */
const char *progress_fmt_count(char *buf, size_t cap, double v);

#endif
