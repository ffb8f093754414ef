/* Status strings, error detail and the log callback (include/cuzk/cuzk.h). */
#include "cuzk/cuzk.h"
#include "util/log.h"
#include "util/text.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

const char *cuzk_status_str(cuzk_status st) {
    switch (st) {
    case CUZK_OK: return "ok";
    case CUZK_ERR_ARG: return "invalid argument";
    case CUZK_ERR_IO: return "I/O error";
    case CUZK_ERR_FORMAT: return "file format error";
    case CUZK_ERR_CURVE: return "wrong or unsupported curve";
    case CUZK_ERR_POINT: return "invalid curve point";
    case CUZK_ERR_MISMATCH: return "inputs do not match";
    case CUZK_ERR_UNSAT: return "witness does not satisfy the constraints";
    case CUZK_ERR_INVALID: return "invalid proof";
    case CUZK_ERR_NOMEM: return "out of host memory";
    case CUZK_ERR_NOMEM_DEVICE: return "out of GPU memory";
    case CUZK_ERR_DEVICE: return "GPU error";
    case CUZK_ERR_UNSUPPORTED: return "unsupported";
    case CUZK_ERR_RANDOM: return "random number generator failed";
    case CUZK_ERR_CANCELLED: return "cancelled";
    case CUZK_ERR_BUSY: return "in use";
    }
    return "unknown status";
}

const char *cuzk_check_level_str(cuzk_check_level level) {
    switch (level) {
    case CUZK_CHECK_NONE: return "none";
    case CUZK_CHECK_DEFAULT:
    case CUZK_CHECK_CURVE: return "curve";
    case CUZK_CHECK_FULL: return "full";
    }
    return "unknown";
}

cuzk_status cuzk_error_set(cuzk_error *err, cuzk_status code, const char *file, int line,
                           const char *fmt, ...) {
    if (err) {
        int e = errno;
        err->code = code;
        err->sys_errno = (code == CUZK_ERR_IO || code == CUZK_ERR_NOMEM) ? e : 0;
        err->cuda_error = 0;
        err->detail = CUZK_DETAIL_NONE;
        err->file = file;
        err->line = line;
        /* messages quote strings from input files: control characters are escaped, so that an
         * error stays one line and cannot drive the terminal (util/text.h) */
        char raw[4096]; /* longer than msg: a cut is then marked by text_escape */
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(raw, sizeof raw, fmt, ap);
        va_end(ap);
        text_escape(err->msg, sizeof err->msg, raw, sizeof raw, 0);
    }
    return code;
}

static cuzk_log_fn g_log_fn;
static void *g_log_user;
static cuzk_log_level g_log_max = CUZK_LOG_INFO;

void cuzk_set_log(cuzk_log_fn fn, void *user, cuzk_log_level max_level) {
    g_log_fn = fn;
    g_log_user = user;
    g_log_max = max_level;
}

void cuzk_log(cuzk_log_level level, const char *fmt, ...) {
    if (!g_log_fn || level > g_log_max) return;
    char raw[1024], buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(raw, sizeof raw, fmt, ap);
    va_end(ap);
    text_escape(buf, sizeof buf, raw, sizeof raw, 0);
    g_log_fn(g_log_user, level, buf);
}
