#!/usr/bin/env bash
# Checks the #include graph of src/, bench/, include/ and tests/ against the layer table of
# DESIGN.md section 2 (encoded below, MAY_USE; the script also checks that the table of DESIGN.md
# names, row by row, the same folders as MAY_USE, so the two cannot drift apart): a lower layer
# never includes a higher one, and a front end
# (src/cli, src/daemon, bench/) includes nothing but the public headers (include/) and its own
# folder (bench/ also the CLI's helpers in src/cli and the bench kit's header). The file layer
# (src/files) uses the core only through include/. src/benchkit, the bench kit (an internal static
# library over the core, not in libcuzk.so), is named by nothing in src/; its one interface,
# src/benchkit/benchkit.h, includes only include/ and is what bench/ (cuzk-bench) and the test
# tests/api/test_bench_api.c include. The CLI reaches the benchmarks by running cuzk-bench
# (`cuzk bench ...` execs it), never through the kit.
#
#   tools/check-layers.sh [ROOT]     check the tree at ROOT (default: this repository); prints
#                                    one line per violation, "file:line: rule: what", exit 1 if any
#   tools/check-layers.sh --self-test  builds a small tree with known violations in a temporary
#                                    folder and checks that each one (and nothing else) is reported
#
# Needs bash and python3 only (Debian's). Run by ctest (`make test`): entries layers and
# layers_selftest.
set -euo pipefail

if [ "${1:-}" = "--self-test" ]; then
    t=$(mktemp -d)
    trap 'rm -rf "$t"' EXIT
    mk() { mkdir -p "$(dirname "$t/$1")"; printf '%s\n' "$2" >"$t/$1"; }
    mk include/cuzk/cuzk.h '#include <stdint.h>'
    mk include/cuzk/bad.h '#include "util/log.h"'                       # public -> internal
    mk src/util/log.h '#include "cuzk/cuzk.h"'
    mk src/util/bad.c '#include "ff/field.h"'                           # util -> ff
    mk src/ff/field.h '#include "util/log.h"'
    mk src/ec/ec.h '#include "ff/field.h"'
    mk src/formats/snarkjs.h '#include "r1cs/r1cs.h"'                   # formats -> r1cs
    mk src/r1cs/r1cs.h '#include "formats/snarkjs.h"'
    mk src/cuda/gpu.h '#include "curves/c1/constants.h"'
    mk src/curves/c1/constants.h '#define X 1'
    mk src/curves/c1/curve.h "$(printf '#include "ec/ec.h"\n#include "curves/c1/constants.h"')"
    mk src/cuda/bad.cu '#include "curves/c1/curve.h"'                  # cuda -> a curve's host code
    mk src/ec/bad.c '#include "curves/c1/constants.h"'                 # a template -> a curve
    mk src/groth16/prover.c '#include "cuda/gpu.h"'
    mk src/srs/store.h '#include "engine/reaper.h"'                     # srs -> engine
    mk src/engine/reaper.h '#include "util/log.h"'
    mk src/engine/backend.c '#include "cuda/gpu.h"'                     # engine -> cuda (kernel headers)
    mk src/engine/ok.c '#include "groth16/groth16.h"'                   # unresolved
    mk src/files/f.c "$(printf '#include "cuzk/cuzk.h"\n#include "util/log.h"\n#include "ec/ec.h"')"   # files -> a core folder
    mk src/files/files.h '#include "cuzk/cuzk.h"'
    mk src/engine/usefiles.c '#include "files/files.h"'                # the core -> the files layer above it
    mk src/cli/main.c '#include "util/log.h"'                           # front end -> src
    mk src/cli/ok.c "$(printf '#include "cuzk/cuzk.h"\n#include "cli_util.h"\n#include <stdio.h>')"
    mk src/cli/cli_util.h '#include <cuzk/cuzk.h>'
    mk src/daemon/d.c '#include <ec/ec.h>'                              # front end -> src, <> form
    mk src/newthing/x.c '#include "util/log.h"'                         # folder not in the table
    mk bench/b.c "$(printf '#include "engine/reaper.h"\n#include "cuda/gpu.h"')"   # bench -> src (twice)
    mk bench/c.c '#include "../tests/test.h"'                          # bench -> tests
    mk bench/ok.c "$(printf '#include "cuzk/cuzk.h"\n#include "b.h"\n#include "../src/cli/cli_util.h"\n#include "../src/benchkit/benchkit.h"')"
    mk bench/d.c '#include "../src/benchkit/k.h"'                       # bench -> the kit's insides
    mk bench/b.h ''
    mk src/benchkit/k.c "$(printf '#include "cuzk/cuzk.h"\n#include "engine/reaper.h"\n#include "cuda/gpu.h"')"
    mk src/engine/usebk.c '#include "benchkit/k.h"'                    # the core -> benchkit
    mk src/benchkit/k.h '#include "cuzk/cuzk.h"'
    mk src/benchkit/benchkit.h "$(printf '#include "cuzk/cuzk.h"\n#include "util/log.h"')"   # the kit's header -> src
    mk src/cli/usekit.c '#include "../benchkit/benchkit.h"'             # the CLI -> the kit (it execs cuzk-bench)
    mk tests/api/kit.c "$(printf '#include "../../src/benchkit/benchkit.h"\n#include "../../src/benchkit/k.h"')"   # 2nd: API test -> src
    mk src/cli/usebk.c '#include "../benchkit/k.h"'                    # front end -> src
    mk tests/t.c "$(printf '#include "cuda/gpu.h"\n#include "test.h"')"
    mk tests/test.h ''
    mk tests/api/t.c '#include "util/log.h"'                            # the public API test -> src
    mk src/ff/cmt.c "$(printf '/* #include "engine/reaper.h" */\n// #include "engine/reaper.h"\n#include "util/log.h"')"
    # DESIGN.md section 2 as this repository has it, with one row that disagrees with the script
    sed 's/^| `src\/util\/` \(.*\) | — |$/| `src\/util\/` \1 | ff |/' "$(dirname "$0")/../DESIGN.md" >"$t/DESIGN.md"
    dl=$(grep -n '^| `src/util/` .* | ff |$' "$t/DESIGN.md" | cut -d: -f1)
    out=$("$0" "$t" 2>&1) && { echo "self-test: violations were not detected"; exit 1; }
    want=(
        "include/cuzk/bad.h:1: public"
        "src/util/bad.c:1: layer"
        "src/cuda/bad.cu:1: layer"
        "src/ec/bad.c:1: layer"
        "src/formats/snarkjs.h:1: layer"
        "src/srs/store.h:1: layer"
        "src/engine/backend.c:1: layer"
        "src/engine/ok.c:1: unresolved"
        "src/files/f.c:3: layer"
        "src/engine/usefiles.c:1: layer"
        "src/cli/main.c:1: front-end"
        "src/daemon/d.c:1: front-end"
        "src/newthing/x.c:1: unknown-folder"
        "bench/b.c:1: front-end"
        "bench/b.c:2: front-end"
        "bench/c.c:1: front-end"
        "src/engine/usebk.c:1: layer"
        "src/cli/usebk.c:1: front-end"
        "bench/d.c:1: front-end"
        "src/benchkit/benchkit.h:2: kit-header"
        "src/cli/usekit.c:1: front-end"
        "tests/api/kit.c:2: front-end"
        "tests/api/t.c:1: front-end"
        "DESIGN.md:${dl:-?}: design"
    )
    bad=0
    for w in "${want[@]}"; do
        grep -qF "$w" <<<"$out" || { echo "self-test: missing: $w"; bad=1; }
    done
    n=$(grep -c ': ' <<<"$out" | tr -d ' ' || true)
    nviol=$(grep -cE '^[^ ]+:[0-9]+: ' <<<"$out" || true)
    if [ "$nviol" != "${#want[@]}" ]; then
        echo "self-test: expected ${#want[@]} violations, got $nviol:"
        echo "$out"
        bad=1
    fi
    [ "$bad" = 0 ] && echo "check-layers self-test: ok (${#want[@]} planted violations found, $n lines)"
    exit "$bad"
fi

ROOT="${1:-$(cd "$(dirname "$0")/.." && pwd)}"
exec python3 - "$ROOT" <<'PY'
import os, re, sys

root = sys.argv[1]

# ---- the layer table (DESIGN.md section 2, as the code is shaped) -------------------------------
# folder under src/ -> the folders it may include directly. What a folder may use includes what
# those may use (transitively), except through the edges of ONLY_FILES (restricted to some files
# of the target) and into OPAQUE folders (only the folders that name them may include them: the
# engine never includes kernel headers even though it may use groth16, which does).
# Every source may include the public headers (include/) and its own folder.
#
# Curves (src/curves/README.md): ff, ec, poly and msm hold the algorithms once as templates and
# include no curve; each src/curves/<curve>/ holds the curve's numbers (constants.h,
# *_constants.h: macros, no includes) and the thin files that instantiate the templates with them
# (curve.h and its .c files), so a curve folder sits above the templates it instantiates, and the
# layers above include curves/<curve>/curve.h. The device code takes only the numbers.
MAY_USE = {
    "util":     [],
    "ff":       ["util"],
    "ec":       ["ff"],
    "poly":     ["ff", "ec"],
    "msm":      ["ff", "ec"],
    "curves":   ["ff", "ec", "poly", "msm"],
    "cuda":     ["ff", "curves"],
    "formats":  ["ff", "ec", "curves"],
    # formats sits below r1cs: the circom .r1cs reader and the .zkey coefficient writer build and
    # read CSR (src/r1cs/r1cs_file.c) over the containers that src/formats parses and writes.
    "r1cs":     ["ff", "curves", "formats"],
    "circuit":  ["r1cs", "ff", "curves"],
    "gadgets":  ["circuit", "r1cs", "ff", "curves"],
    "groth16":  ["util", "ff", "ec", "poly", "msm", "curves", "cuda", "formats", "r1cs", "circuit",
                 "gadgets"],
    # The Filecoin proofs sit above the prover: each proof's circuit and vanilla-proof reader use
    # circuit and gadgets; its public API (post_api.c, porep_api.c) loads keys through groth16.
    "filecoin": ["circuit", "gadgets", "groth16"],
    "srs":      ["groth16", "formats", "util"],
    "engine":   ["groth16", "srs", "util"],
    # The file API (prove/verify from files, output checks, exit codes) sits above the core and
    # uses it only through its public headers (include/, which every source may include): of
    # src/ only util (output files through a temporary, clocks). Nothing below names it.
    "files":    ["util"],
    # The bench kit: what benchmarks need beyond proving (kernel timings per curve, GPU kernel
    # timings, synthetic circuits and their keys, fake-device engines, PoSt and PoRep recording),
    # over the core's internals; an internal static library (cuzk_benchkit), not in libcuzk.so.
    # Nothing in src/ names it; bench/ includes its one header KIT_HEADER (below).
    "benchkit": ["util", "ff", "ec", "poly", "msm", "curves", "cuda", "formats", "r1cs", "circuit",
                 "gadgets", "filecoin", "groth16", "srs", "engine"],
}
OPAQUE = {"cuda"}
# (folder, target folder) -> regular expression the included path must match
ONLY_FILES = {
    ("cuda", "curves"): r"^src/curves/[a-z0-9_]+/[a-z0-9_]*constants\.h$",
}
# Front ends: the public API (include/) and their own folder only. bench/ (cuzk-bench) is one too:
# include/, bench/, the CLI's helpers (src/cli/frontend.h, progress.h: themselves front-end code
# under the same rule), which both programs share, and the bench kit's one header (KIT_HEADER).
FRONT_ENDS = {"cli", "daemon"}
BENCH_MAY_INCLUDE_SRC = {"cli"}
# The bench kit's interface (src/benchkit): includes include/ only (so bench/ reaches nothing else
# of src/ through it); of src/ it is all that bench/ and tests/api/ may include besides the CLI's
# helpers (bench/). The CLI and the daemon may not: `cuzk bench` runs the cuzk-bench program.
KIT_HEADER = "src/benchkit/benchkit.h"
# Headers the build generates (not in the tree): src/daemon's protoc-c output.
GENERATED = {"proving.pb-c.h"}
# tests/ may include anything but tests/api/ (the public API test: include/ only).

def closure(f):
    """The folders f may include: those it names, and what those may use in turn, except through
    ONLY_FILES edges and into OPAQUE folders."""
    out = set(MAY_USE.get(f, []))
    todo = [d for d in out if d not in OPAQUE and (f, d) not in ONLY_FILES]
    while todo:
        d = todo.pop()
        for e in MAY_USE.get(d, []):
            if e in OPAQUE or e in out or (d, e) in ONLY_FILES:
                continue
            out.add(e)
            todo.append(e)
    return out

ALLOWED = {f: closure(f) for f in MAY_USE}

EXTS = (".c", ".h", ".cu", ".cuh", ".cc", ".cpp", ".hpp")
INC = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')

def strip_comments(text):
    """Removes comments, keeping line breaks (line numbers stay right) and string/char literals."""
    def repl(m):
        s = m.group(0)
        if s[0] in "\"'":
            return s
        return "" if s.startswith("//") else "\n" * s.count("\n")
    return re.sub(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', repl, text, flags=re.S)

def classify(rel):
    """(kind, folder) of a repository-relative path."""
    parts = rel.split("/")
    if parts[0] == "include":
        return ("public", None)
    if parts[0] == "src" and len(parts) > 2:
        return ("src", parts[1])
    if parts[0] == "src":
        return ("src", "")
    return (parts[0], None)   # bench, tests

def resolve(src_rel, name, angle):
    here = os.path.dirname(src_rel)
    cands = []
    if not angle:
        cands.append(os.path.join(here, name))
    cands += [os.path.join("include", name), os.path.join("src", name)]
    top = src_rel.split("/")[0]
    if top in ("bench", "tests"):
        cands.append(os.path.join(top, name))
    for c in cands:
        c = os.path.normpath(c)
        if os.path.isfile(os.path.join(root, c)):
            return c
    return None

violations = []
def bad(rel, line, rule, what):
    violations.append(f"{rel}:{line}: {rule}: {what}")

files = []
for top in ("src", "bench", "include", "tests"):
    base = os.path.join(root, top)
    for dp, dns, fns in os.walk(base):
        dns[:] = sorted(d for d in dns if d not in ("fixtures", "js", "node_modules"))
        for fn in sorted(fns):
            if fn.endswith(EXTS):
                files.append(os.path.relpath(os.path.join(dp, fn), root))

for rel in files:
    kind, folder = classify(rel)
    if kind == "src" and folder not in MAY_USE and folder not in FRONT_ENDS:
        bad(rel, 1, "unknown-folder",
            f"src/{folder}/ is not in the layer table of tools/check-layers.sh (DESIGN.md section 2): add it")
        continue
    with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as fh:
        text = strip_comments(fh.read())
    for ln, line in enumerate(text.split("\n"), 1):
        m = INC.match(line)
        if not m:
            continue
        angle, name = m.group(1) == "<", m.group(2)
        tgt = resolve(rel, name, angle)
        if tgt is None:
            if not angle and name not in GENERATED:
                bad(rel, ln, "unresolved", f'"{name}" is not a file of include/, src/ or the including folder')
            continue   # a system header
        tkind, tfolder = classify(tgt)
        if tkind == "public":
            continue
        if kind == "public":
            bad(rel, ln, "public", f"a public header includes {tgt} (include/ may include only include/)")
        elif rel == KIT_HEADER:
            bad(rel, ln, "kit-header", f"the bench kit's header includes {tgt}: it may include only include/ "
                                       f"(bench/ includes it)")
        elif kind == "src" and folder in FRONT_ENDS:
            if not (tkind == "src" and tfolder == folder):
                bad(rel, ln, "front-end", f"src/{folder} includes {tgt}: front ends use include/ and their own folder only")
        elif kind == "src":
            if tkind != "src":
                bad(rel, ln, "layer", f"src/{folder} includes {tgt} (outside src/ and include/)")
            elif tfolder == folder:
                pass
            elif tfolder in FRONT_ENDS:
                bad(rel, ln, "layer", f"src/{folder} includes the front end {tgt}")
            elif tfolder not in ALLOWED[folder]:
                allowed = ", ".join(sorted(ALLOWED[folder])) or "nothing"
                bad(rel, ln, "layer", f"src/{folder} includes {tgt}: src/{folder} may use {allowed}")
            elif (folder, tfolder) in ONLY_FILES and not re.match(ONLY_FILES[(folder, tfolder)], tgt):
                bad(rel, ln, "layer", f"src/{folder} includes {tgt}: of src/{tfolder} it may include only "
                                      f"files matching {ONLY_FILES[(folder, tfolder)]}")
        elif kind == "bench":
            # a front end: include/ (handled above), bench/ itself, the CLI's helpers
            if tkind == "bench" or tgt == KIT_HEADER:
                pass
            elif not (tkind == "src" and tfolder in BENCH_MAY_INCLUDE_SRC):
                bad(rel, ln, "front-end", f"bench includes {tgt}: cuzk-bench uses include/, bench/, the CLI's "
                                          f"helpers (src/cli) and {KIT_HEADER} only")
        elif rel.startswith("tests/api/"):
            # the public API tests: only include/ (and their own folder), like a library user; the
            # bench kit's test also its header, as cuzk-bench
            if not tgt.startswith("tests/api/") and tgt != KIT_HEADER:
                bad(rel, ln, "front-end", f"the public API test includes {tgt}: include/ (and {KIT_HEADER}) only")
        # other tests: anything

# ---- DESIGN.md section 2 names the same layering as MAY_USE --------------------------------------
# Each row of its table whose first cell names src/<folder>/ folders gives, in its "may use" cell,
# the folders that one may use directly ("a, b"; several folders in one row: "x: a, b; y: c";
# "—": nothing; a parenthesised note is not a folder); front ends ("`include/` only") are
# FRONT_ENDS. Every folder of MAY_USE and FRONT_ENDS must have a row. Skipped when ROOT has no
# DESIGN.md.
design = os.path.join(root, "DESIGN.md")
if os.path.isfile(design):
    with open(design, encoding="utf-8") as fh:
        lines = fh.read().split("\n")
    try:
        start = next(i for i, l in enumerate(lines) if l.startswith("## 2."))
    except StopIteration:
        start = None
    if start is None:
        bad("DESIGN.md", 1, "design", "no section 2 (the layer table)")
    else:
        seen = set()
        for ln in range(start + 1, len(lines)):
            l = lines[ln]
            if l.startswith("## "):
                break
            if not l.startswith("| `src/"):
                continue
            cells = [c.strip() for c in l.strip().strip("|").split("|")]
            folders = re.findall(r"`src/([a-z0-9_]+)/", cells[0])
            use = re.sub(r"\([^)]*\)", "", cells[-1]).replace("`", "").strip()
            parts = {}
            if ":" in use:
                for part in use.split(";"):
                    k, _, v = part.partition(":")
                    parts[k.strip()] = v
            for f in folders:
                seen.add(f)
                if f in FRONT_ENDS:
                    if "include/ only" not in use:
                        bad("DESIGN.md", ln + 1, "design", f"src/{f} is a front end (include/ only) in tools/check-layers.sh")
                    continue
                if f not in MAY_USE:
                    bad("DESIGN.md", ln + 1, "design", f"src/{f} is in DESIGN.md but not in tools/check-layers.sh")
                    continue
                v = parts.get(f, use) if parts else use
                named = set() if v.strip() in ("—", "-", "") else {x.strip() for x in v.split(",") if x.strip()}
                if named != set(MAY_USE[f]):
                    bad("DESIGN.md", ln + 1, "design",
                        f"src/{f} may use {', '.join(sorted(named)) or 'nothing'} in DESIGN.md, "
                        f"{', '.join(sorted(MAY_USE[f])) or 'nothing'} in tools/check-layers.sh")
        for f in sorted((set(MAY_USE) | FRONT_ENDS) - seen):
            bad("DESIGN.md", start + 1, "design", f"src/{f} has no row in the table of section 2")

for v in violations:
    print(v)
if violations:
    print(f"check-layers: {len(violations)} violation(s) of the layer table (tools/check-layers.sh, DESIGN.md section 2)",
          file=sys.stderr)
    sys.exit(1)
print(f"check-layers: {len(files)} files, no violation")
PY
