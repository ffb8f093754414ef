#!/usr/bin/env bash
# Runs ctest in a build folder and ends with what a reader needs: suites and tests passed, failed
# and skipped, the reason for every skip, which independent oracles ran (GMP, snarkjs), and as
# the very last line the plain `N passed, N failed, N skipped` (tests, not suites).
#   tools/test-summary.sh BUILD [ctest args...]      exit status: ctest's
# The per-test lines come from each suite's own output, which ctest keeps in
# BUILD/Testing/Temporary/LastTest.log.
set -u
BUILD=${1:?usage: tools/test-summary.sh BUILD [ctest args...]}
shift
cd "$BUILD" || exit 2
ctest --output-on-failure "$@"
rc=$?
LOG=Testing/Temporary/LastTest.log
[ -f "$LOG" ] || { echo "test-summary: $BUILD/$LOG not found"; exit "$rc"; }

echo
echo "==== cuzk test summary ($BUILD) ===="
# One awk pass over ctest's log: each block is one suite (ctest test), its output between
# "Output:" and "<end of output>", then "Test Passed." / "Test Failed." / a skip.
awk '
  function flush_suite() {
    if (suite == "") return
    nsuites++
    if (!have_counts) {
      # a runner without per-test counts (or one that stopped early): the suite counts as one test
      nocount = nocount " " suite
      if (suite_status == "fail") f++; else p++
    }
    if (suite_status == "fail" || sf > 0) { sfail++; failed_suites = failed_suites " " suite }
    else if (sp == 0 && ss > 0) { sskip++; skipped_suites = skipped_suites " " suite } # exit 77: all skipped
    else spass++
    suite = ""
  }
  /^[0-9]+\/[0-9]+ Test: / { flush_suite(); suite = $3; suite_status = "pass"; have_counts = 0; sp = sf = ss = 0; next }
  /^  skip: / {
    r = substr($0, 9)
    if (!(r in why_n)) { order[++nwhy] = r }
    why_n[r]++
    if (index(" " why_suites[r] " ", " " suite " ") == 0) why_suites[r] = why_suites[r] (why_suites[r] == "" ? "" : ", ") suite
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
    if (nocount != "") printf "suites without per-test counts (each counted as one test):%s\n", nocount
    if (oracles != "") printf "oracles: %s\n", oracles
    if (nwhy) {
      print "skipped tests, by reason:"
      for (i = 1; i <= nwhy; i++) {
        r = order[i]; label = r
        if (why_suites[r] ~ /^gpu/ && why_suites[r] !~ /(^|, )[^g]/) label = "GPU suites: " r
        printf "  %3d  %s  [%s]\n", why_n[r], label, why_suites[r]
      }
    }
    printf "%d passed, %d failed, %d skipped\n", p, f, s
  }
' "$LOG"
exit "$rc"
