#include "dlog.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static int g_level = DLOG_INFO;
static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;

void dlog_set_level(int level) { g_level = level; }
int dlog_level(void) { return g_level; }

int dlog_parse_level(const char *s) {
    static const char *names[] = {"error", "warn", "info", "debug"};
    for (int i = 0; i < 4; i++)
        if (strcmp(s, names[i]) == 0) return i;
    return -1;
}

char *dlog_escape(char *dst, size_t cap, const char *src) {
    static const char hex[] = "0123456789abcdef";
    size_t n = 0;
    if (!cap) return dst;
    for (; *src; src++) {
        unsigned char c = (unsigned char)*src;
        if (c < 0x20 || c == 0x7f) {
            if (n + 4 >= cap) break;
            dst[n++] = '\\';
            dst[n++] = 'x';
            dst[n++] = hex[c >> 4];
            dst[n++] = hex[c & 15];
        } else {
            if (n + 1 >= cap) break;
            dst[n++] = (char)c;
        }
    }
    dst[n] = 0;
    return dst;
}

void dlog(int level, const char *fmt, ...) {
    static const char *names[] = {"error", "warn", "info", "debug"};
    if (level > g_level) return;
    if (level < 0) level = 0;
    char raw[1024], line[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    dlog_escape(line, sizeof line, raw);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    struct tm tm;
    gmtime_r(&ts.tv_sec, &tm);
    pthread_mutex_lock(&g_mu);
    fprintf(stderr, "%04d-%02d-%02dT%02d:%02d:%02d.%03ldZ cuzkd: %s: %s\n", tm.tm_year + 1900, tm.tm_mon + 1,
            tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, ts.tv_nsec / 1000000, names[level], line);
    fflush(stderr);
    pthread_mutex_unlock(&g_mu);
}
