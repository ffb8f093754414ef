#!/usr/bin/env bash
# A/B of whole `prove` processes on one circuit, interleaved run by run (issue 27): each round runs
# every command once, in turn, so that the machine's load drifts over all of them alike.
#   bench/ab-bn254.sh ROUNDS DIR NAME=CMD... : CMD gets DIR/circuit_final.zkey DIR/witness.wtns
#   proof.json public.json appended; prints per command the median and min of wall and CPU
#   (user + sys) seconds, and the load average before and after.
set -u
R=$1 D=$2; shift 2
T=$(mktemp -d)
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for ((i = 0; i < R; i++)); do
  for nc in "$@"; do
    n=${nc%%=*} c=${nc#*=}
    # shellcheck disable=SC2086  # CMD is a command line: split on purpose
    /usr/bin/time -f "$n %e %U %S" $c "$D/circuit_final.zkey" "$D/witness.wtns" "$T/$n.proof.json" "$T/$n.public.json" \
      >/dev/null 2>>"$T/times" || echo "$n FAILED" >>"$T/times"
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
grep -v FAILED "$T/times" | awk '{print $1, $2, $3 + $4}' | sort -k1,1 | awk '
  function med(a, n,  i, j, t) { for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] < a[i]) { t = a[i]; a[i] = a[j]; a[j] = t }
                                 return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2 }
  { k = $1; n[k]++; w[k, n[k]] = $2; c[k, n[k]] = $3; raw[k] = raw[k] " " $2 "/" $3 }
  END { for (k in n) { delete ww; delete cc; for (i = 1; i <= n[k]; i++) { ww[i] = w[k, i]; cc[i] = c[k, i] }
          printf "%-12s runs %d  wall median %.2f s  cpu median %.2f s   (wall/cpu:%s)\n", k, n[k], med(ww, n[k]), med(cc, n[k]), raw[k] } }' | sort
grep FAILED "$T/times"
for nc in "$@"; do n=${nc%%=*}; echo "$n: $(head -c 80 "$T/$n.public.json" 2>/dev/null | tr -d '\n ')"; done
rm -rf "$T"
