/* The test runner itself (tests/main.c): a test that makes no check fails, a skip needs a reason
 * and is counted as a skip, a suite of skips exits 77. Each case runs this binary again on one
 * test in "child" mode (CUZK_RUNNER_CHILD set), where the test does what is under test. */
#include "test.h"

#include <stdlib.h>
#include <unistd.h>

/* Runs this binary on the single test `name` in child mode; its output into out. */
static int run_child(char *out, size_t cap, const char *name, const char *mode) {
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) return -1;
    self[n] = 0;
    return test_run(out, cap, "CUZK_RUNNER_CHILD='%s' '%s' --filter 'runner/%s'", mode, self, name);
}

static const char *child_mode(void) { return getenv("CUZK_RUNNER_CHILD"); }

TEST(runner, a_test_without_checks_fails) {
    const char *m = child_mode();
    if (m && !strcmp(m, "nocheck")) return; /* the child: passes nothing, asserts nothing */
    if (m && !strcmp(m, "skip")) SKIP("a reason the summary can show");
    if (m && !strcmp(m, "emptyskip")) SKIP("%s", " ");
    if (m && !strcmp(m, "onecheck")) { CHECK(1 + 1 == 2); return; }
    if (m) return;
    char out[8192];
    int rc = run_child(out, sizeof out, "a_test_without_checks_fails", "nocheck");
    CHECK_MSG(rc == 1 && strstr(out, "made no check") && strstr(out, "0 passed, 1 failed, 0 skipped"), "no check: exit %d: %s",
              rc, out);
    rc = run_child(out, sizeof out, "a_test_without_checks_fails", "onecheck");
    CHECK_MSG(rc == 0 && strstr(out, "1 checks") && strstr(out, "1 passed, 0 failed, 0 skipped"), "one check: exit %d: %s", rc,
              out);
    rc = run_child(out, sizeof out, "a_test_without_checks_fails", "skip");
    CHECK_MSG(rc == 77 && strstr(out, "  skip: a reason the summary can show") && strstr(out, "0 passed, 0 failed, 1 skipped"),
              "skip: exit %d: %s", rc, out);
    rc = run_child(out, sizeof out, "a_test_without_checks_fails", "emptyskip");
    CHECK_MSG(rc == 1 && strstr(out, "SKIP without a reason") && strstr(out, "0 passed, 1 failed, 0 skipped"),
              "empty skip: exit %d: %s", rc, out);
}
