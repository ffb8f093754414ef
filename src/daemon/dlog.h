/* cuzkd's levelled log: one line per event on stderr (journald adds the time under systemd),
 * "cuzkd: <level>: <message>". Witness values and proof bytes are never logged: callers log
 * sizes, ids and statuses only. Thread-safe. */
#ifndef CUZKD_DLOG_H
#define CUZKD_DLOG_H

#include <stddef.h>

enum { DLOG_ERROR = 0, DLOG_WARN = 1, DLOG_INFO = 2, DLOG_DEBUG = 3 };

void dlog_set_level(int level);
int dlog_level(void);
/* "error", "warn", "info", "debug" -> level; -1 if unknown. */
int dlog_parse_level(const char *s);
/* One line at `level` (dropped above the configured level). Control characters in the message
 * (bytes < 0x20 and 0x7f: newlines, escapes of a terminal) are written as \xNN, so text from a
 * request can neither forge a log line nor drive a terminal. */
void dlog(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Copies src into dst (cap bytes, NUL-terminated, cut to fit) with the same escaping; returns dst. */
char *dlog_escape(char *dst, size_t cap, const char *src);

#endif
