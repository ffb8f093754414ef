#!/usr/bin/env bash
# Runs ctest in a build folder and ends with what a reader needs: suites and tests passed, failed
# and skipped, the reason for every skip, which independent oracles ran (GMP, snarkjs), and as
# the very last line the plain `N passed, N failed, N skipped` (tests, not suites).
#   tools/test-summary.sh BUILD [ctest args...]      exit status: ctest's
# The per-test lines come from each suite's own output, which ctest keeps in
# BUILD/Testing/Temporary/LastTest.log. What counts as a test:
#   - the C runner's suites (cuzk_tests): its own "N passed, N failed, N skipped" line, and its
#     "  skip: REASON" lines;
#   - script suites (tests/daemon/run.sh, tests/porep/run.sh, ...): each "PASS ...", "FAIL ..." and
#     "SKIP WHAT: REASON" line is one test (a script that fails without a FAIL line counts one
#     failure more);
#   - any other program (public_api, layers, ...): one test, its ctest result.
# Skips are grouped by reason; every reason that starts with "no GPU" is one group (one wording
# for "this machine or build has no GPU", whichever suite says it).
set -u
BUILD=${1:?usage: tools/test-summary.sh BUILD [ctest args...]}
shift
cd "$BUILD" || exit 2
CTEST_OUT=$(mktemp)
trap 'rm -f "$CTEST_OUT"' EXIT
ctest --output-on-failure "$@" | tee "$CTEST_OUT"
rc=${PIPESTATUS[0]}
# the suites ctest reports as skipped (exit 77): "  11 - gpu (Skipped)"
CTEST_SKIPPED=$(sed -n 's/^[[:space:]]*[0-9]* - \([^ ]*\) (Skipped)$/\1/p' "$CTEST_OUT" | tr '\n' ' ')
LOG=Testing/Temporary/LastTest.log
[ -f "$LOG" ] || { echo "test-summary: $BUILD/$LOG not found"; exit "$rc"; }

echo
echo "==== cuzk test summary ($BUILD) ===="
# One awk pass over ctest's log: each block is one suite (ctest test), its output between
# "Output:" and "<end of output>", then "Test Passed." / "Test Failed." / a skip.
awk -v ctest_skipped=" $CTEST_SKIPPED " '
  function add_skip(r, what) {
    if (r ~ /^no GPU/) { detail = r; sub(/^no GPU:? */, "", detail); r = "no GPU"; if (detail != "") gpu_detail[detail] = 1 }
    if (!(r in why_n)) { order[++nwhy] = r }
    why_n[r]++
    if (index(" " why_suites[r] " ", " " suite " ") == 0) why_suites[r] = why_suites[r] (why_suites[r] == "" ? "" : ", ") suite
  }
  function flush_suite() {
    if (suite == "") return
    nsuites++
    if (!have_counts) {
      if (xp + xf + xs > 0) {
        # a script suite: its PASS / FAIL / SKIP lines are its tests
        if (suite_status == "fail" && xf == 0) xf = 1
        p += xp; f += xf; s += xs; sp = xp; sf = xf; ss = xs
        scripted = scripted " " suite "(" xp + xf + xs ")"
      } else {
        # one program, one test: its ctest result (a skip: its last line of output says why)
        nocount = nocount " " suite
        if (suite_status == "pass" && index(ctest_skipped, " " suite " ")) {
          suite_status = "skip"
          add_skip(lastout != "" ? lastout : "(no reason given)")
        }
        if (suite_status == "fail") { f++; sf = 1 } else if (suite_status == "skip") { s++; ss = 1 } else { p++; sp = 1 }
      }
    }
    if (suite_status == "fail" || sf > 0) { sfail++; failed_suites = failed_suites " " suite }
    else if (sp == 0 && ss > 0) { sskip++; skipped_suites = skipped_suites " " suite } # exit 77: all skipped
    else spass++
    suite = ""
  }
  /^[0-9]+\/[0-9]+ Test: / { flush_suite(); suite = $3; suite_status = "pass"; have_counts = 0; sp = sf = ss = 0; xp = xf = xs = 0; lastout = ""; inout = 0; next }
  /^Output:$/ { inout = 1; next }
  /^<end of output>$/ { inout = 0; next }
  inout && /^-+$/ { next }
  inout && NF { lastout = $0 }
  /^  skip: / { add_skip(substr($0, 9)); next }
  /^PASS / { xp++; next }
  /^FAIL / { xf++; next }
  /^SKIP / {
    xs++
    t = substr($0, 6); i = index(t, ": ")
    add_skip(i ? substr(t, i + 2) : "(no reason given)")
    next
  }
  /^oracles: / && oracles == "" { oracles = substr($0, 10); next }
  /^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$/ { sp = $1; sf = $3; ss = $5; p += sp; f += sf; s += ss; have_counts = 1; next }
  /^Test Failed/ { suite_status = "fail"; next }
  /^Test Passed/ { suite_status = "pass"; next }
  END {
    flush_suite()
    printf "suites: %d (%d passed, %d failed, %d skipped%s)\n", nsuites, spass, sfail, sskip, skipped_suites == "" ? "" : ":" skipped_suites
    if (failed_suites != "") printf "failed suites:%s\n", failed_suites
    if (scripted != "") printf "script suites (each PASS/FAIL/SKIP line a test):%s\n", scripted
    if (nocount != "") printf "programs counted as one test each:%s\n", nocount
    if (oracles != "") printf "oracles: %s\n", oracles
    if (nwhy) {
      print "skipped tests, by reason:"
      for (i = 1; i <= nwhy; i++) {
        r = order[i]; label = r
        if (r == "no GPU") {
          d = ""
          for (k in gpu_detail) d = d (d == "" ? "" : "; ") k
          label = "no GPU" (d == "" ? "" : " (" d ")")
        }
        printf "  %3d  %s  [%s]\n", why_n[r], label, why_suites[r]
      }
    }
    printf "%d passed, %d failed, %d skipped\n", p, f, s
  }
' "$LOG"
exit "$rc"
