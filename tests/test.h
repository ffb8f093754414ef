/* cuzk test harness: one runner (tests/main.c), tests self-register.
 *
 *   TEST(suite, name) { ... CHECK(cond); CHECK_EQ_U64(a, b); ... }
 *
 * A suite is also a ctest entry (CMakeLists: tests/test_<suite>.c). The runner prints the random
 * seed it used; CUZK_TEST_SEED=<n> replays it, CUZK_TEST_ITERS=<k> multiplies iteration counts.
 * A test that cannot run here (no snarkjs, no GPU) calls SKIP("why"): the reason is printed on a
 * "  skip: " line (tools/test-summary.sh groups skips by it) and must not be empty.
 *
 * Every CHECK* and REQUIRE* counts one check (test_checks). A test that neither failed nor
 * skipped but made no check FAILS ("made no check"): a test that cannot fail is a defect. A
 * timing or a benchmark is not a test (CUZK_TEST_BENCH=1 runs those, and they still assert what
 * they measured).
 */
#ifndef CUZK_TEST_H
#define CUZK_TEST_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef void (*test_fn)(void);
void test_register(const char *suite, const char *name, test_fn fn);

#define TEST(suite, name)                                                               \
    static void test_##suite##_##name(void);                                            \
    __attribute__((constructor)) static void test_reg_##suite##_##name(void) {          \
        test_register(#suite, #name, test_##suite##_##name);                            \
    }                                                                                   \
    static void test_##suite##_##name(void)

/* State of the running test. */
extern int test_failures;      /* failed checks in the current test */
extern int test_skipped;       /* set by SKIP */
extern long test_checks;       /* checks made by the current test (every CHECK* and REQUIRE*) */
void test_fail(const char *file, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* SKIP's body: prints "  skip: <reason>" and marks the test skipped; an empty reason is a failure. */
void test_skip(const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#define CHECK(cond)                                                                     \
    do { test_checks++; if (!(cond)) { test_fail(__FILE__, __LINE__, "CHECK(%s)", #cond); } } while (0)
#define CHECK_MSG(cond, ...)                                                            \
    do { test_checks++; if (!(cond)) { test_fail(__FILE__, __LINE__, __VA_ARGS__); } } while (0)
#define REQUIRE(cond)                                                                   \
    do { test_checks++; if (!(cond)) { test_fail(__FILE__, __LINE__, "REQUIRE(%s)", #cond); return; } } while (0)
#define REQUIRE_MSG(cond, ...)                                                          \
    do { test_checks++; if (!(cond)) { test_fail(__FILE__, __LINE__, __VA_ARGS__); return; } } while (0)
#define CHECK_EQ_INT(a, b)                                                              \
    do { long long _a = (long long)(a), _b = (long long)(b); test_checks++;             \
         if (_a != _b) test_fail(__FILE__, __LINE__, "%s == %s: %lld != %lld", #a, #b, _a, _b); } while (0)
#define CHECK_MEM(a, b, n)                                                              \
    do { test_checks++; if (memcmp((a), (b), (n)) != 0) test_fail(__FILE__, __LINE__, "memcmp(%s, %s, %s) != 0", #a, #b, #n); } while (0)
#define SKIP(...)                                                                       \
    do { test_skip(__FILE__, __LINE__, __VA_ARGS__); return; } while (0)

/* The one reason every GPU test gives when it cannot run here (tools/test-summary.sh groups the
 * skips that start with "no GPU"): a build without CUDA, or a CUDA build on a machine without a
 * usable device. */
#ifdef CUZK_HAVE_CUDA
#define TEST_NO_GPU "no GPU: no usable CUDA device on this machine"
#else
#define TEST_NO_GPU "no GPU: built without CUDA (no nvcc, or -DCUZK_CUDA=OFF)"
#endif

/* A test compiled out because its oracle (GMP) was not found at build time: it still runs, as a
 * skip that says why (`#else TEST_WITHOUT_GMP(suite, name) #endif` beside the real one). */
#define TEST_WITHOUT_GMP(suite, name)                                                   \
    TEST(suite, name) { SKIP("built without GMP (libgmp-dev not found at configure time): this GMP-oracle test is compiled out"); }

/* Deterministic per-test RNG (xoshiro256**), seeded from the run seed and the test name. */
uint64_t test_rand64(void);
void test_rand_bytes(void *out, size_t n);
uint64_t test_seed(void);
/* Iteration count scaled by CUZK_TEST_ITERS (default 1). */
int test_iters(int base);

/* Paths: the fixtures copied into the repository, and a per-run scratch directory. */
const char *test_fixture(const char *rel);   /* one of 16 rotating static buffers */
const char *test_tmpdir(void);
/* Run a shell command, capturing up to cap-1 bytes of stdout+stderr; returns exit status or -1. */
int test_run(char *out, size_t cap, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The whole file at path in a new malloc'd buffer (caller frees) of *n bytes plus 8 zero bytes
 * (so text can be used as a string), or NULL (and *n = 0) when it cannot be read. */
uint8_t *test_slurp(const char *path, size_t *n);
/* Path to the pinned snarkjs CLI (tests/js/node_modules), or NULL when not installed. */
const char *test_snarkjs(void);

#endif
