/* Internal logging and error helpers. */
#ifndef CUZK_UTIL_LOG_H
#define CUZK_UTIL_LOG_H
#include "cuzk/cuzk.h"

void cuzk_log(cuzk_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* return ERR(err, CUZK_ERR_FORMAT, "zkey: section %u truncated", id); */
#define ERR(err, code, ...) cuzk_error_set((err), (code), __FILE__, __LINE__, __VA_ARGS__)

#endif
