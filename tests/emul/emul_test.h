/* What the CPU emulation tests of tests/emul share: a seeded generator (splitmix64; the seed is
 * printed, CUZK_TEST_SEED=<n> replays it) and the check counters with the closing line. */
#ifndef CUZK_TESTS_EMUL_EMUL_TEST_H
#define CUZK_TESTS_EMUL_EMUL_TEST_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

namespace emul_test {

inline uint64_t rng_state;
inline long checks, failed;

inline uint64_t next64() {
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* seeds from CUZK_TEST_SEED, else the clock, and prints "PROG: seed N (...)" */
inline void seed(const char *prog, const char *what) {
    const char *env = getenv("CUZK_TEST_SEED");
    rng_state = env ? strtoull(env, NULL, 10) : (uint64_t)time(NULL) * 1000003u + (uint64_t)clock();
    printf("%s: seed %llu (CUZK_TEST_SEED=%llu to replay)%s\n", prog, (unsigned long long)rng_state,
           (unsigned long long)rng_state, what);
}

/* "N checks, M failed"; the exit status: 0 when none failed */
inline int finish() {
    printf("%ld checks, %ld failed\n", checks, failed);
    return failed ? 1 : 0;
}

}  // namespace emul_test

#endif
