#!/usr/bin/env bash
# Checks the dynamic symbols of libcuzk.so against the public headers:
#   - every exported symbol starts with cuzk_ (the library is built with hidden visibility and
#     exports only declarations marked CUZK_API; static archives linked in export nothing);
#   - every function declared in include/cuzk/*.h is exported (so no public declaration lacks
#     CUZK_API).
# usage: tools/check-symbols.sh path/to/libcuzk.so [include-dir]   (exit 1 naming each offender)
#        tools/check-symbols.sh --self-test   (checks that planted offenders are reported)
# Needs nm (binutils) and python3. Run by ctest (`make test`) as the entry `symbols`.
set -euo pipefail
if [ "${1:-}" = "--self-test" ]; then
    # a library exporting a symbol without the prefix, and a header declaring a function the
    # library does not export: both must be named
    t=$(mktemp -d)
    trap 'rm -rf "$t"' EXIT
    mkdir -p "$t/include/cuzk"
    printf 'int cuzk_ok(int x);\nint cuzk_missing(void);\ntypedef int (*cuzk_fn)(int);\n' >"$t/include/cuzk/x.h"
    printf 'int cuzk_ok(int x) { return x; }\nint helper(int x) { return x + 1; }\n' >"$t/x.c"
    cc -shared -fPIC "$t/x.c" -o "$t/libx.so"
    out=$("$0" "$t/libx.so" "$t/include" 2>&1) && { echo "check-symbols self-test: no failure reported"; exit 1; }
    grep -q 'exports helper' <<<"$out" || { echo "check-symbols self-test: 'helper' not named: $out"; exit 1; }
    grep -q 'cuzk_missing is declared' <<<"$out" || { echo "check-symbols self-test: cuzk_missing not named: $out"; exit 1; }
    if grep -q 'cuzk_ok\|cuzk_fn' <<<"$out"; then echo "check-symbols self-test: false report: $out"; exit 1; fi
    echo "check-symbols self-test: ok"
    exit 0
fi
lib="$1"
inc="${2:-$(cd "$(dirname "$0")/.." && pwd)/include}"
[ -f "$lib" ] || { echo "check-symbols: $lib: no such file" >&2; exit 2; }
syms=$(nm -D --defined-only "$lib" | awk '{print $NF}' | sort -u)
exec python3 - "$lib" "$inc" "$syms" <<'PY'
import glob, os, re, sys
lib, inc, syms = sys.argv[1], sys.argv[2], sys.argv[3].split()
# symbols the linker itself defines in every shared object, not code of ours
LINKER = {"_init", "_fini", "_edata", "_end", "__bss_start"}
bad = []
for s in syms:
    name = s.split("@")[0]
    if name in LINKER:
        continue
    if not name.startswith("cuzk_"):
        bad.append(f"{lib}: exports {name}: every exported symbol must start with cuzk_")
exported = {s.split("@")[0] for s in syms}
declared = {}
for h in sorted(glob.glob(os.path.join(inc, "cuzk", "*.h"))):
    text = open(h).read()
    text = re.sub(r"/\*.*?\*/|//[^\n]*", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    for ln, line in enumerate(text.split("\n"), 1):
        for m in re.finditer(r"\b(cuzk_\w+)\s*\((?!\s*\*)", line):
            declared.setdefault(m.group(1), f"{os.path.relpath(h)}:{ln}")
for name, where in sorted(declared.items()):
    if name not in exported:
        bad.append(f"{where}: {name} is declared in the public API but not exported by {os.path.basename(lib)} (CUZK_API missing, or not defined)")
for b in bad:
    print(b)
if bad:
    sys.exit(1)
n = len([s for s in syms if s.split("@")[0] not in LINKER])
print(f"check-symbols: {n} exported symbols, all cuzk_; {len(declared)} public functions, all exported")
PY
