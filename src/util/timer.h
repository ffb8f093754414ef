/* Monotonic wall clock in milliseconds. */
#ifndef CUZK_UTIL_TIMER_H
#define CUZK_UTIL_TIMER_H
#include <time.h>
static inline double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}
#endif
