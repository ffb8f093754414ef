/* SplitMix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014):
 * a fast, seedable, NOT cryptographic generator for deterministic test data, synthetic circuits
 * and benchmark inputs. Secrets (r, s, toxic waste without a seed) come from getrandom instead.
 * Thread-safety: pure functions; the state belongs to the caller. */
#ifndef CUZK_UTIL_RNG_H
#define CUZK_UTIL_RNG_H
#include <stdint.h>

/* The SplitMix64 output function (a bijective 64-bit mixer). */
static inline uint64_t splitmix64_mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
/* Advances *state by the golden-ratio increment and returns the next output. */
static inline uint64_t splitmix64_next(uint64_t *state) { return splitmix64_mix(*state += 0x9e3779b97f4a7c15ull); }
#endif
