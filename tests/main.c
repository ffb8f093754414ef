/* The cuzk test runner. Usage: cuzk_tests [--suite S] [--list] [--filter SUBSTR]
 * Prints "N passed, N failed, N skipped" last; exit 0 only when nothing failed, 77 when every test
 * that ran skipped. A test passes only when it made at least one check (tests/test.h) and none
 * failed; a skip needs a reason. */
#include "test.h"
#include "util/rng.h"

#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

typedef struct { const char *suite, *name; test_fn fn; } test_entry;
static test_entry *g_tests;
static size_t g_ntests, g_cap;

int test_failures;
int test_skipped;
long test_checks;
static const char *g_cur_suite, *g_cur_name;
static uint64_t g_seed, g_rng[4];
static int g_iters = 1;

void test_register(const char *suite, const char *name, test_fn fn) {
    if (g_ntests == g_cap) {
        g_cap = g_cap ? 2 * g_cap : 64;
        g_tests = realloc(g_tests, g_cap * sizeof *g_tests);
        if (!g_tests) abort();
    }
    g_tests[g_ntests++] = (test_entry){suite, name, fn};
}

void test_fail(const char *file, int line, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    printf("  FAIL %s/%s at %s:%d: ", g_cur_suite, g_cur_name, file, line);
    vprintf(fmt, ap);
    printf("\n");
    fflush(stdout);
    va_end(ap);
    test_failures++;
}

void test_skip(const char *file, int line, const char *fmt, ...) {
    char why[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    const char *p = why;
    while (*p == ' ' || *p == '\t') p++;
    if (!*p) { /* a skip that says nothing hides whatever it skipped */
        test_fail(file, line, "SKIP without a reason (say why the test cannot run here)");
        return;
    }
    test_skipped = 1;
    printf("  skip: %s\n", why);
    fflush(stdout);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
static uint64_t splitmix(uint64_t *x) { return splitmix64_next(x); }
uint64_t test_rand64(void) {
    uint64_t *s = g_rng;
    uint64_t r = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t; s[3] = rotl(s[3], 45);
    return r;
}
void test_rand_bytes(void *out, size_t n) {
    uint8_t *p = out;
    while (n) {
        uint64_t v = test_rand64();
        size_t k = n < 8 ? n : 8;
        memcpy(p, &v, k);
        p += k; n -= k;
    }
}
uint64_t test_seed(void) { return g_seed; }
int test_iters(int base) { return base * g_iters; }

/* A ring of buffers, so several test_fixture() results can be used in one expression. */
static char g_pathbuf[16][4096];
static unsigned g_pathnext;
const char *test_fixture(const char *rel) {
    char *b = g_pathbuf[g_pathnext++ % 16];
    /* CUZK_FIXTURES_DIR in the environment: a test binary run from another checkout (e.g. a
     * prebuilt binary on a GPU machine) */
    const char *dir = getenv("CUZK_FIXTURES_DIR");
    snprintf(b, sizeof g_pathbuf[0], "%s/%s", dir && *dir ? dir : CUZK_FIXTURES_DIR, rel);
    return b;
}
static char g_tmp[256];
const char *test_tmpdir(void) {
    if (!g_tmp[0]) {
        snprintf(g_tmp, sizeof g_tmp, "/tmp/cuzk-test-XXXXXX");
        if (!mkdtemp(g_tmp)) { perror("mkdtemp"); abort(); }
    }
    return g_tmp;
}
uint8_t *test_slurp(const char *path, size_t *n) {
    *n = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    uint8_t *b = NULL;
    long sz = -1;
    if (fseek(f, 0, SEEK_END) == 0) sz = ftell(f);
    if (sz >= 0 && fseek(f, 0, SEEK_SET) == 0 && (b = calloc((size_t)sz + 8, 1)) != NULL) *n = fread(b, 1, (size_t)sz, f);
    fclose(f);
    return b;
}

int test_run(char *out, size_t cap, const char *fmt, ...) {
    char cmd[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(cmd, sizeof cmd, fmt, ap);
    va_end(ap);
    strncat(cmd, " 2>&1", sizeof cmd - strlen(cmd) - 1);
    FILE *f = popen(cmd, "r");
    if (!f) return -1;
    size_t n = 0;
    if (out && cap) {
        n = fread(out, 1, cap - 1, f);
        out[n] = 0;
    }
    char sink[4096];
    while (fread(sink, 1, sizeof sink, f) > 0) {}
    int st = pclose(f);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}
const char *test_snarkjs(void) {
    static char path[4096];
    const char *env = getenv("CUZK_SNARKJS");
    if (env && *env) return env;
    snprintf(path, sizeof path, "%s/tests/js/node_modules/snarkjs/build/cli.cjs", CUZK_SOURCE_DIR);
    struct stat st;
    return stat(path, &st) == 0 ? path : NULL;
}

static void seed_for(const test_entry *t) {
    uint64_t x = g_seed;
    for (const char *p = t->suite; *p; p++) x = x * 131 + (uint8_t)*p;
    for (const char *p = t->name; *p; p++) x = x * 131 + (uint8_t)*p;
    for (int i = 0; i < 4; i++) g_rng[i] = splitmix(&x);
}

static int cmp_tests(const void *a, const void *b) {
    const test_entry *x = a, *y = b;
    int c = strcmp(x->suite, y->suite);
    return c ? c : strcmp(x->name, y->name);
}

int main(int argc, char **argv) {
    const char *suite = NULL, *filter = NULL;
    int list = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--suite") && i + 1 < argc) suite = argv[++i];
        else if (!strcmp(argv[i], "--filter") && i + 1 < argc) filter = argv[++i];
        else if (!strcmp(argv[i], "--list")) list = 1;
        else {
            int help = !strcmp(argv[i], "--help") || !strcmp(argv[i], "-h");
            FILE *o = help ? stdout : stderr;
            fprintf(o, "usage: %s [--suite S] [--filter SUBSTR] [--list]\n"
                       "env: CUZK_TEST_SEED=<n> replays a run, CUZK_TEST_ITERS=<k> scales iterations\n"
                       "suites:",
                    argv[0]);
            qsort(g_tests, g_ntests, sizeof *g_tests, cmp_tests);
            for (size_t k = 0; k < g_ntests; k++)
                if (k == 0 || strcmp(g_tests[k].suite, g_tests[k - 1].suite)) fprintf(o, " %s", g_tests[k].suite);
            fprintf(o, "\n(--list names every test)\n");
            return help ? 0 : 2;
        }
    }
    const char *s = getenv("CUZK_TEST_SEED");
    g_seed = s ? strtoull(s, NULL, 0) : ((uint64_t)time(NULL) ^ ((uint64_t)getpid() << 32));
    const char *it = getenv("CUZK_TEST_ITERS");
    if (it) g_iters = atoi(it) > 0 ? atoi(it) : 1;
    qsort(g_tests, g_ntests, sizeof *g_tests, cmp_tests);

    int passed = 0, failed = 0, skipped = 0, ran = 0;
    if (!list) {
        printf("cuzk tests: seed %llu (CUZK_TEST_SEED=%llu to replay)\n", (unsigned long long)g_seed,
               (unsigned long long)g_seed);
        /* the independent oracles this run can use (tools/test-summary.sh reports them) */
#ifdef CUZK_HAVE_GMP
        const char *gmp = "GMP yes";
#else
        const char *gmp = "GMP no (libgmp-dev was not found at build time)";
#endif
        char node[64];
        bool have_node = test_run(node, sizeof node, "command -v node >/dev/null 2>&1") == 0;
        printf("oracles: %s, snarkjs %s\n", gmp,
               !test_snarkjs() ? "no (not installed: tools/install-deps.sh --test)" : have_node ? "yes" : "no (node not found)");
        fflush(stdout);
    }
    for (size_t i = 0; i < g_ntests; i++) {
        test_entry *t = &g_tests[i];
        if (suite && strcmp(suite, t->suite)) continue;
        char full[256];
        snprintf(full, sizeof full, "%s/%s", t->suite, t->name);
        if (filter && !strstr(full, filter)) continue;
        if (list) { printf("%s\n", full); continue; }
        g_cur_suite = t->suite; g_cur_name = t->name;
        test_failures = 0; test_skipped = 0; test_checks = 0;
        seed_for(t);
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        printf("[ RUN  ] %s\n", full);
        fflush(stdout);
        t->fn();
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double ms = (t1.tv_sec - t0.tv_sec) * 1e3 + (t1.tv_nsec - t0.tv_nsec) / 1e6;
        ran++;
        if (!test_failures && !test_skipped && test_checks == 0) {
            printf("  FAIL %s: made no check (a test must assert something, or SKIP with a reason)\n", full);
            test_failures++;
        }
        if (test_failures) { failed++; printf("[ FAIL ] %s (%.1f ms)\n", full, ms); }
        else if (test_skipped) { skipped++; printf("[ SKIP ] %s\n", full); }
        else { passed++; printf("[  OK  ] %s (%.1f ms, %ld checks)\n", full, ms, test_checks); }
        fflush(stdout);
    }
    if (list) return 0;
    if (g_tmp[0]) {
        char cmd[512];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_tmp);
        if (system(cmd) != 0) fprintf(stderr, "warning: could not remove %s\n", g_tmp);
    }
    if (ran == 0) { printf("no test matched\n"); return 1; }
    if (failed) printf("seed was %llu\n", (unsigned long long)g_seed);
    printf("%d passed, %d failed, %d skipped\n", passed, failed, skipped);
    /* A suite whose every test skipped reports 77 so ctest shows it as skipped. */
    if (!failed && passed == 0 && skipped > 0) return 77;
    return failed ? 1 : 0;
}
