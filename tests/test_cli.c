/* The cuzk CLI as a user meets it: documented exit codes (0 ok, 1 invalid proof, 2 usage,
 * 3 bad input file, 4 resources) and a one-line reason on stderr for every bad input class. */
#include "test.h"

#include <fcntl.h>
#include <jansson.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define CLI CUZK_CLI_PATH
#define FIX(c, f) test_fixture("bls12381/" c "/" f)

static char g_log[1 << 16];

/* Runs the CLI; stdout and stderr both land in g_log. */
static int cli(const char *args) {
    char cmd[40000];
    snprintf(cmd, sizeof cmd, "'%s' %s", CLI, args);
    return test_run(g_log, sizeof g_log, "%s", cmd);
}

/* copy a fixture into the tmp dir, then corrupt it: truncate to `keep` bytes (or -1 to keep
 * all) and xor byte `at` with `x` (at < 0: none) */
static const char *corrupt_copy(const char *src, const char *name, long keep, long at, int x) {
    static char pool[16][1024];
    static int next;
    char *dst = pool[next++ % 16];
    snprintf(dst, sizeof pool[0], "%s/%s", test_tmpdir(), name);
    FILE *in = fopen(src, "rb"), *out = fopen(dst, "wb");
    if (!in || !out) { if (in) fclose(in); if (out) fclose(out); return NULL; }
    int c;
    long i = 0;
    while ((c = fgetc(in)) != EOF) {
        if (keep >= 0 && i >= keep) break;
        if (i == at) c ^= x;
        fputc(c, out);
        i++;
    }
    fclose(in);
    fclose(out);
    return dst;
}

static int count_lines(const char *s) {
    int n = 0;
    for (; *s; s++) n += *s == '\n';
    return n;
}

TEST(cli, help_and_usage) {
    CHECK_EQ_INT(cli("--help"), 0);
    CHECK(strstr(g_log, "prove") && strstr(g_log, "verify") && strstr(g_log, "Exit codes"));
    const char *cmds[] = {"prove", "verify", "setup", "info", "bench", "export-vk"};
    for (int i = 0; i < 6; i++) {
        char a[64];
        snprintf(a, sizeof a, "%s --help", cmds[i]);
        CHECK_MSG(cli(a) == 0 && strstr(g_log, "usage:") && strstr(g_log, "example"), "%s --help: %s", cmds[i], g_log);
    }
    /* bench gpu explains itself without a GPU (its cases need one: exit 4) */
    CHECK_MSG(cli("bench gpu --help") == 0 && strstr(g_log, "usage:") && strstr(g_log, "tasks | runs"), "bench gpu --help: %s",
              g_log);
    CHECK_EQ_INT(cli(""), 2);
    CHECK_EQ_INT(cli("frobnicate"), 2);
    CHECK_EQ_INT(cli("prove onlyone.zkey"), 2);
    CHECK_EQ_INT(cli("prove --bogus a b c d"), 2);
    CHECK_EQ_INT(cli("prove --threads x a b c d"), 2);
    CHECK_EQ_INT(cli("verify a b"), 2);
    CHECK_EQ_INT(cli("version"), 0);
}

/* $CUZK_THREADS is checked like --threads (0..4096, whole string an integer), exit 2 naming it */
TEST(cli, threads_env_strict) {
    const char *bad[] = {"100000", "abc", "-1", "12abc", "4097"};
    for (int i = 0; i < 5; i++) {
        int rc = test_run(g_log, sizeof g_log, "CUZK_THREADS='%s' '%s' version", bad[i], CLI);
        CHECK_MSG(rc == 2 && strstr(g_log, "CUZK_THREADS must be an integer from 0 to 4096"), "CUZK_THREADS=%s: exit %d: %s", bad[i], rc, g_log);
        rc = test_run(g_log, sizeof g_log, "CUZK_THREADS='%s' '%s-bench' --help", bad[i], CLI);
        CHECK_MSG(rc == 2 && strstr(g_log, "cuzk-bench: CUZK_THREADS"), "bench CUZK_THREADS=%s: exit %d: %s", bad[i], rc, g_log);
    }
    const char *good[] = {"", "0", "1", "4096"};
    for (int i = 0; i < 4; i++)
        CHECK_MSG(test_run(g_log, sizeof g_log, "CUZK_THREADS='%s' '%s' version", good[i], CLI) == 0, "CUZK_THREADS=%s: %s", good[i], g_log);
}

TEST(cli, prove_verify_ok_and_invalid) {
    char args[32768], proof[4096], pub[4096];
    snprintf(proof, sizeof proof, "%s/cli_proof.json", test_tmpdir());
    snprintf(pub, sizeof pub, "%s/cli_public.json", test_tmpdir());
    snprintf(args, sizeof args, "prove '%s' '%s' '%s' '%s' --timings", FIX("merkle_mimc5", "circuit_final.zkey"),
             FIX("merkle_mimc5", "witness.wtns"), proof, pub);
    CHECK_MSG(cli(args) == 0, "%s", g_log);
    CHECK(strstr(g_log, "MSM H") != NULL);
    snprintf(args, sizeof args, "verify '%s' '%s' '%s'", FIX("merkle_mimc5", "verification_key.json"), pub, proof);
    CHECK_MSG(cli(args) == 0 && strstr(g_log, "OK"), "%s", g_log);
    /* --json */
    snprintf(args, sizeof args, "verify --json '%s' '%s' '%s'", FIX("merkle_mimc5", "verification_key.json"), pub, proof);
    CHECK(cli(args) == 0 && strstr(g_log, "\"valid\": true"));
    /* proof of another circuit against this key: INVALID, exit 1 */
    snprintf(args, sizeof args, "verify '%s' '%s' '%s'", FIX("merkle_mimc5", "verification_key.json"), pub,
             FIX("multiplier", "proof.json"));
    int rc = cli(args);
    CHECK_MSG(rc == 1 && strstr(g_log, "INVALID"), "rc %d: %s", rc, g_log);
    /* wrong public input: edit the first digit of the first value */
    const char *bad = corrupt_copy(pub, "bad_public.json", -1, 4, 0x01);
    REQUIRE(bad);
    snprintf(args, sizeof args, "verify '%s' '%s' '%s'", FIX("merkle_mimc5", "verification_key.json"), bad, proof);
    rc = cli(args);
    CHECK_MSG(rc == 1 || rc == 3, "rc %d: %s", rc, g_log);
}

/* Under rapidsnark's name (a link called `prover`): rapidsnark's argument order, nothing on stdout,
 * exit 0 on success and 1 on every failure (a wrong argument count with rapidsnark's message, a
 * missing file, a witness of another circuit), where `cuzk prove` says 2 and 3. */
TEST(cli, rapidsnark_name_and_exit_codes) {
    char link[4096], args[32768], proof[4096], pub[4096], cmd[40000];
    snprintf(link, sizeof link, "%s/prover", test_tmpdir());
    unlink(link);
    REQUIRE(symlink(CLI, link) == 0);
    snprintf(proof, sizeof proof, "%s/rs_proof.json", test_tmpdir());
    snprintf(pub, sizeof pub, "%s/rs_public.json", test_tmpdir());
    const char *zk = test_fixture("bn128/merkle_mimc5/circuit_final.zkey");
    const char *wt = test_fixture("bn128/merkle_mimc5/witness.wtns");
    snprintf(cmd, sizeof cmd, "'%s' '%s' '%s' '%s' '%s'", link, zk, wt, proof, pub);
    int rc = test_run(g_log, sizeof g_log, "%s", cmd);
    CHECK_MSG(rc == 0 && g_log[0] == 0, "rc %d: %s", rc, g_log);
    snprintf(args, sizeof args, "verify '%s' '%s' '%s'", test_fixture("bn128/merkle_mimc5/verification_key.json"), pub,
             proof);
    CHECK_MSG(cli(args) == 0, "%s", g_log);
    snprintf(cmd, sizeof cmd, "'%s' '%s' '%s'", link, zk, wt);
    rc = test_run(g_log, sizeof g_log, "%s", cmd);
    CHECK_MSG(rc == 1 && strstr(g_log, "Invalid number of parameters"), "rc %d: %s", rc, g_log);
    snprintf(cmd, sizeof cmd, "'%s' '%s/none.zkey' '%s' '%s' '%s'", link, test_tmpdir(), wt, proof, pub);
    rc = test_run(g_log, sizeof g_log, "%s", cmd);
    CHECK_MSG(rc == 1, "rc %d: %s", rc, g_log);
    /* another circuit's witness: rapidsnark would write a proof that does not verify */
    snprintf(cmd, sizeof cmd, "'%s' '%s' '%s' '%s' '%s'", link, zk, test_fixture("bn128/multiplier/witness.wtns"),
             proof, pub);
    rc = test_run(g_log, sizeof g_log, "%s", cmd);
    CHECK_MSG(rc == 1, "rc %d: %s", rc, g_log);
    snprintf(args, sizeof args, "prove '%s' '%s' '%s' '%s'", zk, test_fixture("bn128/multiplier/witness.wtns"), proof,
             pub);
    rc = cli(args);
    CHECK_MSG(rc == 3, "cuzk prove: rc %d: %s", rc, g_log);
    unlink(link);
}

/* Runs the CLI keeping only its stderr in g_log. */
static int cli_stderr(const char *args) {
    char cmd[40000];
    snprintf(cmd, sizeof cmd, "{ '%s' %s 2>&1 >/dev/null; }", CLI, args);
    return test_run(g_log, sizeof g_log, "%s", cmd);
}

/* Every bad-input class: exit 3 and exactly one line on stderr naming the problem. */
TEST(cli, bad_inputs_exit_3_with_one_line) {
    const char *zk = FIX("merkle_mimc5", "circuit_final.zkey"), *wt = FIX("merkle_mimc5", "witness.wtns");
    char proof[1024], pub[1024];
    snprintf(proof, sizeof proof, "%s/bad_proof.json", test_tmpdir());
    snprintf(pub, sizeof pub, "%s/bad_public.json", test_tmpdir());
    typedef struct { const char *what, *zkey, *wtns; } bad_case;
    bad_case cases[8];
    int n = 0;
    cases[n++] = (bad_case){"missing file", "/nonexistent/x.zkey", wt};
    cases[n++] = (bad_case){"truncated zkey", corrupt_copy(zk, "trunc.zkey", 5000, -1, 0), wt};
    cases[n++] = (bad_case){"bad magic", corrupt_copy(zk, "magic.zkey", -1, 0, 0x20), wt};
    cases[n++] = (bad_case){"truncated wtns", zk, corrupt_copy(wt, "trunc.wtns", 1000, -1, 0)};
    cases[n++] = (bad_case){"bn128 zkey (other curve)", test_fixture("bn128/merkle_mimc5/circuit_final.zkey"), wt};
    cases[n++] = (bad_case){"witness of another circuit", zk, FIX("multiplier", "witness.wtns")};
    cases[n++] = (bad_case){"directory as file", test_tmpdir(), wt};
    for (int i = 0; i < n; i++) {
        char args[32768];
        REQUIRE(cases[i].zkey && cases[i].wtns);
        snprintf(args, sizeof args, "prove '%s' '%s' '%s' '%s'", cases[i].zkey, cases[i].wtns, proof, pub);
        unlink(proof);
        int rc = cli_stderr(args);
        CHECK_MSG(rc == 3, "%s: exit %d, output: %s", cases[i].what, rc, g_log);
        CHECK_MSG(count_lines(g_log) == 1 && strstr(g_log, "error:"), "%s: want one error line, got: %s", cases[i].what, g_log);
        struct stat st;
        CHECK_MSG(stat(proof, &st) != 0, "%s: a proof file was written", cases[i].what);
    }
    /* unsatisfying witness with --check names the constraint */
    char args[32768];
    snprintf(args, sizeof args, "prove --check --r1cs '%s' '%s' '%s' '%s' '%s'",
             FIX("multiplier", "circuit.r1cs"), FIX("multiplier", "circuit_final.zkey"),
             corrupt_copy(FIX("multiplier", "witness.wtns"), "unsat.wtns", -1, 204 - 32, 0x01), proof, pub);
    int rc = cli_stderr(args);
    CHECK_MSG(rc == 3 && strstr(g_log, "constraint") && strstr(g_log, "unsat.wtns") && strstr(g_log, "circuit.r1cs"),
              "unsat: exit %d: %s", rc, g_log);
    /* without --check: the self-verification failure names the witness and the key */
    snprintf(args, sizeof args, "prove '%s' '%s/unsat.wtns' '%s' '%s'", FIX("multiplier", "circuit_final.zkey"), test_tmpdir(),
             proof, pub);
    rc = cli_stderr(args);
    CHECK_MSG(rc == 3 && strstr(g_log, "does not verify") && strstr(g_log, "unsat.wtns") && strstr(g_log, "circuit_final.zkey"),
              "unsat without --check: exit %d: %s", rc, g_log);
    /* witness value 0 (the constant wire) not 1: names the witness */
    snprintf(args, sizeof args, "prove '%s' '%s' '%s' '%s'", FIX("multiplier", "circuit_final.zkey"),
             corrupt_copy(FIX("multiplier", "witness.wtns"), "const0.wtns", -1, 204 - 4 * 32, 0x01), proof, pub);
    rc = cli_stderr(args);
    CHECK_MSG(rc == 3 && strstr(g_log, "must be 1") && strstr(g_log, "const0.wtns"), "wire 0: exit %d: %s", rc, g_log);
    /* a public.json with the wrong count: names it */
    {
        char two[1024];
        snprintf(two, sizeof two, "%s/two_public.json", test_tmpdir());
        FILE *f = fopen(two, "w");
        REQUIRE(f != NULL);
        fputs("[\"33\", \"1\"]\n", f);
        fclose(f);
        snprintf(args, sizeof args, "verify '%s' '%s' '%s'", FIX("multiplier", "verification_key.json"), two,
                 FIX("multiplier", "proof.json"));
        rc = cli_stderr(args);
        CHECK_MSG(rc == 3 && strstr(g_log, "public inputs given") && strstr(g_log, "two_public.json"), "count: exit %d: %s", rc, g_log);
    }
    /* corrupted verification key / proof JSON */
    snprintf(args, sizeof args, "verify '%s' '%s' '%s'",
             corrupt_copy(FIX("multiplier", "verification_key.json"), "bad_vk.json", 100, -1, 0),
             FIX("multiplier", "public.json"), FIX("multiplier", "proof.json"));
    rc = cli_stderr(args);
    CHECK_MSG(rc == 3 && count_lines(g_log) == 1, "truncated vk: exit %d: %s", rc, g_log);
}

/* Outputs never overwrite inputs or each other, and a directory is not an output (exit 2, nothing
 * written); fixed r, s must be below r. */
TEST(cli, outputs_never_clobber_inputs) {
    char zk[1024], wt[1024], pub[1024], proof[1024], args[32768];
    snprintf(zk, sizeof zk, "%s", corrupt_copy(FIX("multiplier", "circuit_final.zkey"), "own.zkey", -1, -1, 0));
    snprintf(wt, sizeof wt, "%s", corrupt_copy(FIX("multiplier", "witness.wtns"), "own.wtns", -1, -1, 0));
    snprintf(pub, sizeof pub, "%s/own_public.json", test_tmpdir());
    snprintf(proof, sizeof proof, "%s/own_proof.json", test_tmpdir());
    struct stat before, after;
    REQUIRE(stat(zk, &before) == 0);
    /* proof path = the zkey */
    snprintf(args, sizeof args, "prove '%s' '%s' '%s' '%s'", zk, wt, zk, pub);
    CHECK_EQ_INT(cli_stderr(args), 2);
    CHECK(strstr(g_log, "also an input") != NULL);
    REQUIRE(stat(zk, &after) == 0);
    CHECK(after.st_size == before.st_size);
    /* public path = the witness */
    snprintf(args, sizeof args, "prove '%s' '%s' '%s' '%s'", zk, wt, proof, wt);
    CHECK_EQ_INT(cli_stderr(args), 2);
    /* both outputs the same file */
    snprintf(args, sizeof args, "prove '%s' '%s' '%s' '%s'", zk, wt, proof, proof);
    CHECK_EQ_INT(cli_stderr(args), 2);
    /* an output that is a directory: exit 2 and the other output is not left behind */
    unlink(proof);
    snprintf(args, sizeof args, "prove '%s' '%s' '%s' '%s'", zk, wt, proof, test_tmpdir());
    CHECK_EQ_INT(cli_stderr(args), 2);
    CHECK(stat(proof, &after) != 0);
    /* r >= group order is refused, not reduced */
    snprintf(args, sizeof args,
             "prove --fixed-rs 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001 1 '%s' '%s' '%s' '%s'",
             zk, wt, proof, pub);
    CHECK_EQ_INT(cli_stderr(args), 2);
    CHECK(stat(proof, &after) != 0);
    /* a zero blinding (r = 0 or s = 0) is refused */
    const char *zero_rs[] = {"0 0", "0 1", "1 0x0"};
    for (int k = 0; k < 3; k++) {
        snprintf(args, sizeof args, "prove --fixed-rs %s '%s' '%s' '%s' '%s'", zero_rs[k], zk, wt, proof, pub);
        CHECK_MSG(cli(args) == 2 && strstr(g_log, "blinding must be nonzero"), "--fixed-rs %s: %s", zero_rs[k], g_log);
        CHECK(stat(proof, &after) != 0);
    }
    /* --r1cs with a zkey but no --check: refused, not silently ignored */
    snprintf(args, sizeof args, "prove --r1cs '%s' '%s' '%s' '%s' '%s'", FIX("multiplier", "circuit.r1cs"), zk, wt, proof, pub);
    CHECK_MSG(cli(args) == 2 && strstr(g_log, "--r1cs with a zkey is read only by --check"), "%s", g_log);
    CHECK(stat(proof, &after) != 0);
    /* the same output spelled twice (not there yet), and an empty output path: usage errors */
    snprintf(args, sizeof args, "prove '%s' '%s' '%s/same_o1' '%s/./same_o1'", zk, wt, test_tmpdir(), test_tmpdir());
    CHECK_MSG(cli(args) == 2 && strstr(g_log, "the two outputs are the same file"), "%s", g_log);
    snprintf(args, sizeof args, "prove '%s' '%s' '' '%s'", zk, wt, pub);
    CHECK_MSG(cli(args) == 2 && strstr(g_log, "empty output path"), "%s", g_log);
    /* setup over its own r1cs */
    char r1[1024];
    snprintf(r1, sizeof r1, "%s", corrupt_copy(FIX("multiplier", "circuit.r1cs"), "own.r1cs", -1, -1, 0));
    snprintf(args, sizeof args, "setup '%s' '%s' '%s/own.vk'", r1, r1, test_tmpdir());
    CHECK_EQ_INT(cli_stderr(args), 2);
    /* info rejects options it does not have */
    CHECK_EQ_INT(cli("info --bogus x"), 2);
}

/* Offset of point i of section k (0 ic, 1 h, 2 l, 3 a, 4 b_g1, 5 b_g2) of a .params file. */
static long params_offset(const char *path, int k, long i) {
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    long off = 864;
    for (int s = 0; s <= k; s++) {
        unsigned char b[4];
        if (fseek(f, off, SEEK_SET) != 0 || fread(b, 1, 4, f) != 4) { fclose(f); return -1; }
        long n = (long)b[0] << 24 | (long)b[1] << 16 | (long)b[2] << 8 | b[3];
        off += 4;
        if (s == k) break;
        off += n * (s == 5 ? 192 : 96);
    }
    fclose(f);
    return off + i * (k == 5 ? 192 : 96);
}

/* .params loading from the command line: info checks every point (first bad one named by
 * section and index, exit 3), --no-check skips that, --full-check adds the subgroup, --progress
 * shows the progress line even without a terminal; prove takes the same options. */
TEST(cli, params_checks_and_progress) {
    char par[1024], vk[1024], args[32768], proof[1024], pub[1024];
    snprintf(par, sizeof par, "%s/cli_chk.params", test_tmpdir());
    snprintf(vk, sizeof vk, "%s/cli_chk.vk", test_tmpdir());
    snprintf(proof, sizeof proof, "%s/cli_chk.bin", test_tmpdir());
    snprintf(pub, sizeof pub, "%s/cli_chk_public.json", test_tmpdir());
    snprintf(args, sizeof args, "setup --seed 7 '%s' '%s' '%s'", FIX("multiplier", "circuit.r1cs"), par, vk);
    REQUIRE(cli(args) == 0);
    snprintf(args, sizeof args, "info '%s'", par);
    CHECK_MSG(cli(args) == 0 && strstr(g_log, "valid (check curve)"), "%s", g_log);
    snprintf(args, sizeof args, "info --full-check --progress '%s'", par);
    CHECK_MSG(cli(args) == 0 && strstr(g_log, "valid (check full)") && strstr(g_log, "checking points [") &&
              strstr(g_log, "GB/s") && strstr(g_log, "done in"), "%s", g_log);
    snprintf(args, sizeof args, "info --no-check '%s'", par);
    CHECK_MSG(cli(args) == 0 && !strstr(g_log, "valid (check") && strstr(g_log, "bellperson parameters"), "%s", g_log);
    /* not a terminal and not asked: no progress line */
    snprintf(args, sizeof args, "info '%s'", par);
    CHECK(cli_stderr(args) == 0 && g_log[0] == 0);
    /* a flipped byte in a[0]: exit 3, one line naming the section and index */
    long off = params_offset(par, 3, 0);
    REQUIRE(off > 0);
    const char *bad = corrupt_copy(par, "cli_bad.params", -1, off + 95, 0x01);
    REQUIRE(bad);
    snprintf(args, sizeof args, "info '%s'", bad);
    int rc = cli_stderr(args);
    CHECK_MSG(rc == 3 && count_lines(g_log) == 1 && strstr(g_log, "a point 0: not on the curve"), "rc %d: %s", rc, g_log);
    snprintf(args, sizeof args, "info --no-check '%s'", bad);
    CHECK_EQ_INT(cli(args), 0);
    snprintf(args, sizeof args, "prove --params '%s' --r1cs '%s' '%s' '%s' '%s'", bad, FIX("multiplier", "circuit.r1cs"),
             FIX("multiplier", "witness.wtns"), proof, pub);
    rc = cli_stderr(args);
    CHECK_MSG(rc == 3 && strstr(g_log, "a point 0"), "rc %d: %s", rc, g_log);
    /* oversized file: exit 3 naming b_g2 */
    const char *big = corrupt_copy(par, "cli_big.params", -1, -1, 0);
    FILE *f = fopen(big, "ab");
    REQUIRE(f);
    fputs("trailing", f);
    fclose(f);
    snprintf(args, sizeof args, "prove --params '%s' --r1cs '%s' '%s' '%s' '%s'", big, FIX("multiplier", "circuit.r1cs"),
             FIX("multiplier", "witness.wtns"), proof, pub);
    rc = cli_stderr(args);
    CHECK_MSG(rc == 3 && strstr(g_log, "trailing bytes after b_g2"), "rc %d: %s", rc, g_log);
    /* prove with --no-check / --full-check and a forced progress line */
    const char *lv[] = {"--no-check", "--full-check"};
    for (int i = 0; i < 2; i++) {
        unlink(proof);
        snprintf(args, sizeof args, "prove %s --progress --params '%s' --r1cs '%s' '%s' '%s' '%s'", lv[i], par,
                 FIX("multiplier", "circuit.r1cs"), FIX("multiplier", "witness.wtns"), proof, pub);
        rc = cli_stderr(args);
        CHECK_MSG(rc == 0 && strstr(g_log, "loading params [") && strstr(g_log, "done in"), "%s: rc %d: %s", lv[i], rc,
                  g_log);
        snprintf(args, sizeof args, "verify --vk '%s' '%s' '%s'", vk, pub, proof);
        CHECK_MSG(cli(args) == 0, "%s: %s", lv[i], g_log);
    }
    /* -q hides the line even when asked */
    snprintf(args, sizeof args, "prove -q --progress --params '%s' --r1cs '%s' '%s' '%s' '%s'", par,
             FIX("multiplier", "circuit.r1cs"), FIX("multiplier", "witness.wtns"), proof, pub);
    CHECK(cli_stderr(args) == 0 && g_log[0] == 0);
    /* --help documents the options */
    CHECK(cli("prove --help") == 0 && strstr(g_log, "--no-check") && strstr(g_log, "--full-check"));
    CHECK(cli("info --help") == 0 && strstr(g_log, "--no-check") && strstr(g_log, "--progress"));
}

/* Outputs that are not regular files are written in place, never renamed over (a FIFO here; the
 * same path protects /dev/null); an output in a missing directory fails before any work (exit 3);
 * an interrupted setup leaves no temporary files; the benchmarks reject bad numbers (exit 2). */
TEST(cli, special_outputs_signals_and_bench_args) {
    char args[32768], fifo[1024], got[1024], proof[1024], dir[1024];
    snprintf(fifo, sizeof fifo, "%s/pub.fifo", test_tmpdir());
    snprintf(got, sizeof got, "%s/pub.fifo.out", test_tmpdir());
    snprintf(proof, sizeof proof, "%s/fifo_proof.json", test_tmpdir());
    unlink(fifo);
    REQUIRE(mkfifo(fifo, 0600) == 0);
    snprintf(args, sizeof args, "sh -c \"cat '%s' > '%s' & '%s' prove '%s' '%s' '%s' '%s'; r=\\$?; wait; exit \\$r\"", fifo,
             got, CLI, FIX("multiplier", "circuit_final.zkey"), FIX("multiplier", "witness.wtns"), proof, fifo);
    CHECK_MSG(test_run(g_log, sizeof g_log, "%s", args) == 0, "%s", g_log);
    struct stat st;
    CHECK(stat(fifo, &st) == 0 && S_ISFIFO(st.st_mode));
    CHECK(stat(got, &st) == 0 && st.st_size > 0);
    /* an output that is a symbolic link: the link stays, its target gets the proof */
    {
        char target[1024], link[1024];
        snprintf(target, sizeof target, "%s/link_target.json", test_tmpdir());
        snprintf(link, sizeof link, "%s/proof_link.json", test_tmpdir());
        unlink(link);
        FILE *f = fopen(target, "w");
        REQUIRE(f);
        fputs("old", f);
        fclose(f);
        REQUIRE(symlink(target, link) == 0);
        snprintf(args, sizeof args, "prove '%s' '%s' '%s' '%s/pl.json'", FIX("multiplier", "circuit_final.zkey"),
                 FIX("multiplier", "witness.wtns"), link, test_tmpdir());
        CHECK_EQ_INT(cli(args), 0);
        CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
        CHECK(stat(target, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 100);
        /* a dangling link (relative, to a file not there yet): the target is created, the link stays */
        char dir2[1024], dlink[1100], dtarget[1100];
        snprintf(dir2, sizeof dir2, "%s/dangle", test_tmpdir());
        mkdir(dir2, 0700);
        snprintf(dlink, sizeof dlink, "%s/d.json", dir2);
        snprintf(dtarget, sizeof dtarget, "%s/sub/t.json", dir2);
        snprintf(args, sizeof args, "%s/sub", dir2);
        mkdir(args, 0700);
        unlink(dlink);
        unlink(dtarget);
        REQUIRE(symlink("sub/t.json", dlink) == 0);
        snprintf(args, sizeof args, "prove '%s' '%s' '%s' '%s/pl.json'", FIX("multiplier", "circuit_final.zkey"),
                 FIX("multiplier", "witness.wtns"), dlink, test_tmpdir());
        CHECK_EQ_INT(cli(args), 0);
        CHECK(lstat(dlink, &st) == 0 && S_ISLNK(st.st_mode));
        CHECK(stat(dtarget, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 100);
        /* a 255-character name (NAME_MAX): no room for ".tmp.<pid>", written through a short
         * temporary beside it; nothing else left in the directory */
        char dir3[1024], longp[1400], name[256];
        snprintf(dir3, sizeof dir3, "%s/longname", test_tmpdir());
        mkdir(dir3, 0700);
        memset(name, 'p', 250);
        memcpy(name + 250, ".json", 6);
        snprintf(longp, sizeof longp, "%s/%s", dir3, name);
        unlink(longp);
        snprintf(args, sizeof args, "prove '%s' '%s' '%s' '%s/pl.json'", FIX("multiplier", "circuit_final.zkey"),
                 FIX("multiplier", "witness.wtns"), longp, test_tmpdir());
        CHECK_MSG(cli(args) == 0, "%s", g_log);
        CHECK(stat(longp, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 100);
        snprintf(args, sizeof args, "sh -c \"ls -A '%s' | wc -l\"", dir3);
        test_run(g_log, sizeof g_log, "%s", args);
        CHECK_MSG(atoi(g_log) == 1, "files in the directory of the long name: %s", g_log);
        /* a key that cannot be mapped for want of address space (ulimit -v) is out of memory, exit
         * 4, not an I/O error (not under ASan: its shadow memory needs the address space) */
        if (!getenv("CUZK_ASAN")) {
            char big[1100];
            snprintf(big, sizeof big, "%s/big.zkey", dir3);
            FILE *bf = fopen(big, "w");
            REQUIRE(bf);
            CHECK(ftruncate(fileno(bf), (off_t)1 << 32) == 0); /* 4 GiB, sparse */
            fclose(bf);
            snprintf(args, sizeof args, "sh -c \"ulimit -v 1000000; '%s' prove --backend cpu '%s' '%s' '%s/x.json' '%s/y.json'\"",
                     CLI, big, FIX("multiplier", "witness.wtns"), dir3, dir3);
            CHECK_MSG(test_run(g_log, sizeof g_log, "%s", args) == 4 && strstr(g_log, "out of host memory"), "%s", g_log);
            unlink(big);
        }
    }
    /* missing output directory: exit 3 at once, nothing written */
    unlink(proof);
    snprintf(args, sizeof args, "prove '%s' '%s' '%s/nonexistent/p.json' '%s/p.json'", FIX("multiplier", "circuit_final.zkey"),
             FIX("multiplier", "witness.wtns"), test_tmpdir(), test_tmpdir());
    CHECK_EQ_INT(cli(args), 3);
    CHECK(strstr(g_log, "nonexistent") != NULL);
    /* SIGINT during a setup: no *.tmp.* left */
    snprintf(dir, sizeof dir, "%s/sigdir", test_tmpdir());
    mkdir(dir, 0700);
    snprintf(args, sizeof args,
             "sh -c \"'%s' setup -q --synthetic porep --constraints 400000 '%s/a.params' '%s/a.vk' & p=\\$!; sleep 1; "
             "kill -INT \\$p; wait \\$p; ls '%s' | wc -l\"",
             CLI, dir, dir, dir);
    test_run(g_log, sizeof g_log, "%s", args);
    CHECK_MSG(atoi(g_log) == 0, "files left after SIGINT: %s", g_log);
    /* bench numbers */
    CHECK_EQ_INT(cli("bench pipeline --partitions -1"), 2);
    CHECK(strstr(g_log, "--partitions must be") != NULL);
    CHECK_EQ_INT(cli("bench pipeline --constraints 99999999999"), 2);
    CHECK_EQ_INT(cli("bench pipeline --frac01 1.5"), 2);
    CHECK_EQ_INT(cli("bench msm --repeat 0"), 2);
    snprintf(args, sizeof args, "bench pipeline --constraints 1000 --trace '%s/nonexistent/t.json'", test_tmpdir());
    CHECK_EQ_INT(cli(args), 3);
    /* the MSM tuning and thread count come from the environment through the CLI (the library reads
     * none): a bad value is a usage error naming the variable, a good one proves as before */
    snprintf(args, sizeof args, "sh -c \"CUZK_MSM_WINDOW=99 '%s' prove '%s' '%s' '%s' '%s/p.json' 2>&1\"", CLI,
             FIX("multiplier", "circuit_final.zkey"), FIX("multiplier", "witness.wtns"), proof, test_tmpdir());
    CHECK_EQ_INT(test_run(g_log, sizeof g_log, "%s", args), 2);
    CHECK_MSG(strstr(g_log, "CUZK_MSM_WINDOW must be") != NULL, "%s", g_log);
    snprintf(args, sizeof args, "sh -c \"CUZK_MSM_CHUNK=x '%s' bench pipeline --constraints 1000 2>&1\"", CLI);
    CHECK_EQ_INT(test_run(g_log, sizeof g_log, "%s", args), 2);
    CHECK_MSG(strstr(g_log, "CUZK_MSM_CHUNK must be") != NULL, "%s", g_log);
    snprintf(args, sizeof args, "sh -c \"CUZK_GPU_B2=2 '%s' bench pipeline --constraints 1000 2>&1\"", CLI);
    CHECK_EQ_INT(test_run(g_log, sizeof g_log, "%s", args), 2);
    CHECK_MSG(strstr(g_log, "CUZK_GPU_B2 must be an integer from 0 to 1") != NULL, "%s", g_log);
    /* the MSM accumulation knobs: read by the programs (the library reads no tuning variable) */
    snprintf(args, sizeof args, "sh -c \"CUZK_GPU_MSM_ACCUM=fast '%s' prove '%s' '%s' '%s' '%s/p.json' 2>&1\"", CLI,
             FIX("multiplier", "circuit_final.zkey"), FIX("multiplier", "witness.wtns"), proof, test_tmpdir());
    CHECK_EQ_INT(test_run(g_log, sizeof g_log, "%s", args), 2);
    CHECK_MSG(strstr(g_log, "CUZK_GPU_MSM_ACCUM must be tasks, runs or default (got 'fast')") != NULL, "%s", g_log);
    /* "affine", the removed batch-affine accumulation: refused, saying so and naming the values left */
    snprintf(args, sizeof args, "sh -c \"CUZK_GPU_MSM_ACCUM=affine '%s' prove '%s' '%s' '%s' '%s/p.json' 2>&1\"", CLI,
             FIX("multiplier", "circuit_final.zkey"), FIX("multiplier", "witness.wtns"), proof, test_tmpdir());
    CHECK_EQ_INT(test_run(g_log, sizeof g_log, "%s", args), 2);
    CHECK_MSG(strstr(g_log, "CUZK_GPU_MSM_ACCUM=affine: the GPU batch-affine accumulation was removed") != NULL &&
                  strstr(g_log, "must be tasks, runs or default") != NULL,
              "%s", g_log);
    snprintf(args, sizeof args, "sh -c \"CUZK_GPU_MSM_ACCUM=affine '%s' bench pipeline --constraints 1000 2>&1\"", CLI);
    CHECK_EQ_INT(test_run(g_log, sizeof g_log, "%s", args), 2);
    CHECK_MSG(strstr(g_log, "batch-affine accumulation was removed") != NULL, "%s", g_log);
    /* --help answers even under a bad tuning variable (it is about the options, not a run) */
    snprintf(args, sizeof args, "sh -c \"CUZK_GPU_MSM_ACCUM=fast '%s' bench pipeline --help 2>&1\"", CLI);
    CHECK_EQ_INT(test_run(g_log, sizeof g_log, "%s", args), 0);
    CHECK_MSG(strstr(g_log, "--partitions") != NULL, "%s", g_log);
    snprintf(args, sizeof args,
             "sh -c \"CUZK_THREADS=1 CUZK_MSM_WINDOW=10 CUZK_MSM_CHUNK=4096 CUZK_GPU_B2=1 CUZK_GPU_MSM_ACCUM=runs "
             "'%s' prove '%s' '%s' '%s' '%s/p.json' 2>&1\"",
             CLI, FIX("multiplier", "circuit_final.zkey"), FIX("multiplier", "witness.wtns"), proof, test_tmpdir());
    CHECK_MSG(test_run(g_log, sizeof g_log, "%s", args) == 0, "%s", g_log);
}

/* info on a bellperson proof (described, points checked) and on a truncated .params (the section
 * that does not fit is named, exit 3). */
TEST(cli, info_proof_and_truncated_params) {
    char args[32768], params[1024], vk[1024], proof[1024], pub[1024];
    snprintf(params, sizeof params, "%s/ip.params", test_tmpdir());
    snprintf(vk, sizeof vk, "%s/ip.vk", test_tmpdir());
    snprintf(proof, sizeof proof, "%s/ip.bin", test_tmpdir());
    snprintf(pub, sizeof pub, "%s/ip.json", test_tmpdir());
    snprintf(args, sizeof args, "setup -q --seed 3 '%s' '%s' '%s'", FIX("multiplier", "circuit.r1cs"), params, vk);
    REQUIRE(cli(args) == 0);
    snprintf(args, sizeof args, "prove -q --params '%s' --r1cs '%s' '%s' '%s' '%s'", params, FIX("multiplier", "circuit.r1cs"),
             FIX("multiplier", "witness.wtns"), proof, pub);
    REQUIRE(cli(args) == 0);
    snprintf(args, sizeof args, "info '%s'", proof);
    CHECK_MSG(cli(args) == 0 && strstr(g_log, "bellperson proof"), "%s", g_log);
    struct stat st;
    REQUIRE(stat(params, &st) == 0);
    REQUIRE(truncate(params, st.st_size - 1) == 0);
    snprintf(args, sizeof args, "info '%s'", params);
    CHECK_EQ_INT(cli(args), 3);
    CHECK_MSG(strstr(g_log, "b_g2") != NULL, "%s", g_log);
}

/* bench pipeline --params: the trace never overwrites the parameters (exit 2), a trace FIFO is
 * written once (no early open that a reader would take for the end), a value-less option is a
 * usage error, and proofs that do not verify (parameters corrupted and loaded with --no-check)
 * give exit 1 with one line on stderr. */
TEST(cli, bench_pipeline_params_and_trace) {
    char args[8192], par[1024], vk[1024], bad[1024], fifo[1024], got[1024];
    snprintf(par, sizeof par, "%s/bp.params", test_tmpdir());
    snprintf(vk, sizeof vk, "%s/bp.vk", test_tmpdir());
    snprintf(args, sizeof args, "setup -q --synthetic porep --constraints 600 --public 3 --seed 4 '%s' '%s'", par, vk);
    REQUIRE(cli(args) == 0);
    struct stat st0, st1;
    REQUIRE(stat(par, &st0) == 0);
    snprintf(args, sizeof args, "bench pipeline --backend cpu --params '%s' --constraints 600 --public 3 --partitions 1 "
             "--proofs 1 --trace '%s'", par, par);
    CHECK_EQ_INT(cli(args), 2);
    CHECK_MSG(strstr(g_log, "also an input") != NULL, "%s", g_log);
    CHECK(stat(par, &st1) == 0 && st1.st_size == st0.st_size && st1.st_mtime == st0.st_mtime);
    /* a good run on the file: every proof verified */
    snprintf(args, sizeof args, "bench pipeline --backend cpu --params '%s' --constraints 600 --public 3 --partitions 2 "
             "--proofs 1", par);
    CHECK_MSG(cli(args) == 0, "%s", g_log);
    CHECK(strstr(g_log, "verified: 2/2") != NULL);
    /* trace to a FIFO with one reader */
    snprintf(fifo, sizeof fifo, "%s/trace.fifo", test_tmpdir());
    snprintf(got, sizeof got, "%s/trace.fifo.out", test_tmpdir());
    unlink(fifo);
    REQUIRE(mkfifo(fifo, 0600) == 0);
    snprintf(args, sizeof args,
             "sh -c \"cat '%s' > '%s' & timeout 60 '%s' bench pipeline --backend cpu --constraints 600 --public 3 "
             "--partitions 1 --proofs 1 --trace '%s' > /dev/null; r=\\$?; wait; exit \\$r\"", fifo, got, CLI, fifo);
    CHECK_MSG(test_run(g_log, sizeof g_log, "%s", args) == 0, "%s", g_log);
    CHECK(stat(got, &st1) == 0 && st1.st_size > 100);
    /* --params a FIFO without a writer: refused at once (exit 3), not waited on, in both load paths */
    {
        char pf[1100], a2[2400];
        snprintf(pf, sizeof pf, "%s/params.fifo", test_tmpdir());
        unlink(pf);
        REQUIRE(mkfifo(pf, 0600) == 0);
        for (int ff = 0; ff < 2; ff++) {
            snprintf(a2, sizeof a2, "timeout 30 '%s' bench pipeline --backend cpu --constraints 600 --public 3 --partitions 1 "
                     "--proofs 1 --params '%s'%s", CLI, pf, ff ? " --from-file" : "");
            CHECK_EQ_INT(test_run(g_log, sizeof g_log, "%s", a2), 3);
            CHECK_MSG(strstr(g_log, "not a regular file") != NULL, "%s", g_log);
        }
        unlink(pf);
    }
    /* options without their value */
    CHECK_EQ_INT(cli("bench pipeline --params --constraints 600"), 2);
    CHECK(strstr(g_log, "--params needs a value") != NULL);
    CHECK_EQ_INT(cli("bench pipeline --constraints"), 2);
    CHECK(strstr(g_log, "needs a value") != NULL);
    /* corrupt h points loaded without checks: the proofs fail, exit 1, one stderr line */
    snprintf(bad, sizeof bad, "%s/bp_bad.params", test_tmpdir());
    {
        FILE *in = fopen(par, "rb"), *out = fopen(bad, "wb");
        REQUIRE(in && out);
        long n = (long)st0.st_size;
        for (long i = 0; i < n; i++) {
            int c = fgetc(in);
            /* flip bits in the middle third of the file (the h and l points) */
            if (i > n / 3 && i < 2 * n / 3 && i % 97 == 0) c ^= 0x11;
            fputc(c, out);
        }
        fclose(in);
        fclose(out);
    }
    snprintf(args, sizeof args, "bench pipeline --backend cpu --params '%s' --no-check --constraints 600 --public 3 "
             "--partitions 1 --proofs 1", bad);
    int rc = cli_stderr(args);
    CHECK_MSG(rc == 1, "exit %d: %s", rc, g_log);
    CHECK_MSG(count_lines(g_log) == 1 && strstr(g_log, "did not verify") != NULL, "stderr: %s", g_log);
    /* with the checks the same file is refused as a bad input */
    snprintf(args, sizeof args, "bench pipeline --backend cpu --params '%s' --constraints 600 --public 3 --partitions 1 "
             "--proofs 1", bad);
    CHECK_EQ_INT(cli(args), 3);
}

/* info accepts exactly the JSON files verify accepts: a key or a proof with a point off the
 * curve, or public inputs >= r, are exit 3 for both; the good fixtures are described with their
 * points checked; other curves are described, their points not checked. */
static void write_text(const char *path, const char *text) {
    FILE *f = fopen(path, "w");
    if (!f) return;
    fputs(text, f);
    fclose(f);
}
TEST(cli, info_checks_json_like_verify) {
    char args[8192], path[1024], *src;
    size_t n;
    const char *good[] = {FIX("multiplier", "verification_key.json"), FIX("multiplier", "proof.json"),
                          FIX("multiplier", "public.json")};
    for (int i = 0; i < 3; i++) {
        snprintf(args, sizeof args, "info '%s'", good[i]);
        CHECK_MSG(cli(args) == 0 && (strstr(g_log, "points: on the curve") || strstr(g_log, "< r")), "%s: %s", good[i], g_log);
    }
    /* the x of vk_alpha_1 / pi_a replaced by 5 / 7: off the curve */
    const char *field[2] = {"vk_alpha_1", "pi_a"};
    for (int i = 0; i < 2; i++) {
        src = (char *)test_slurp(good[i], &n);
        REQUIRE(src);
        char *at = strstr(src, field[i]);
        REQUIRE(at);
        char *q1 = strchr(strchr(at, '[') + 1, '"'), *q2 = strchr(q1 + 1, '"');
        REQUIRE(q1 && q2);
        char *out = malloc(n + 8);
        REQUIRE(out);
        size_t head = (size_t)(q1 + 1 - src);
        memcpy(out, src, head);
        out[head] = i ? '7' : '5';
        strcpy(out + head + 1, q2);
        snprintf(path, sizeof path, "%s/bad_%s.json", test_tmpdir(), field[i]);
        write_text(path, out);
        snprintf(args, sizeof args, "info '%s'", path);
        CHECK_MSG(cli(args) == 3 && strstr(g_log, "not on the curve"), "info %s: %s", field[i], g_log);
        free(out);
        free(src);
    }
    snprintf(path, sizeof path, "%s/bad_public.json", test_tmpdir());
    write_text(path, "[\"52435875175126190479447740508185965837690552500527637822603658699938581184513\"]");
    snprintf(args, sizeof args, "info '%s'", path);
    CHECK_MSG(cli(args) == 3 && strstr(g_log, "public input [0]"), "%s", g_log);
    snprintf(args, sizeof args, "info '%s'", test_fixture("bn128/multiplier/verification_key.json"));
    /* bn128 keys are checked with the BN254 readers */
    CHECK_MSG(cli(args) == 0 && strstr(g_log, "bn128") && strstr(g_log, "in their subgroups"), "%s", g_log);
}

/* bench pipeline over several devices, without a GPU: two fake devices (the CPU prover behind the
 * device interface, src/engine/engine_internal.h) prove every partition, every proof verifies, the
 * summary names each device and the per-partition table has a device column. --devices errors. */
TEST(cli, bench_pipeline_fake_devices) {
    CHECK_EQ_INT(cli("bench pipeline --backend cpu --fake-devices 2 --workers-per-device 2 --constraints 600 --public 3 "
                     "--partitions 3 --proofs 2 --threads 1 --timings"), 0);
    CHECK_MSG(strstr(g_log, "verified: 6/6 proofs valid") != NULL, "%s", g_log);
    CHECK(strstr(g_log, "fake device 0: ") != NULL);
    CHECK(strstr(g_log, "fake device 1: ") != NULL);
    CHECK(strstr(g_log, "part  dev ") != NULL);
    unsigned p0 = 0, p1 = 0;
    const char *s0 = strstr(g_log, "fake device 0: "), *s1 = strstr(g_log, "fake device 1: ");
    if (s0 && s1) {
        CHECK(sscanf(s0, "fake device 0: %u partitions", &p0) == 1);
        CHECK(sscanf(s1, "fake device 1: %u partitions", &p1) == 1);
    }
    CHECK_EQ_INT(p0 + p1, 6);
    CHECK_EQ_INT(cli_stderr("bench pipeline --devices 0,0"), 2);
    CHECK(strstr(g_log, "twice") != NULL);
    CHECK_EQ_INT(cli_stderr("bench pipeline --devices 0,"), 2);
    CHECK_EQ_INT(cli_stderr("bench pipeline --devices 0,1 --device 1"), 2);
    CHECK_EQ_INT(cli_stderr("bench pipeline --backend cpu --devices 0,1 --constraints 100"), 4);
    CHECK(strstr(g_log, "needs the GPU backend") != NULL);
    CHECK_EQ_INT(cli_stderr("bench pipeline --fake-devices 2"), 2);
    CHECK_EQ_INT(cli_stderr("bench pipeline --workers-per-device 9"), 2);
}

/* The byte offset of the field prime in an .r1cs (section 1: u32 n8, then the prime), found by
 * walking the iden3 sections (u32 type, u64 size); -1 if none. */
static long r1cs_prime_offset(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    unsigned char h[12];
    long off = 12, found = -1;
    if (fread(h, 1, 12, f) == 12) {
        unsigned n = h[8] | h[9] << 8 | h[10] << 16 | (unsigned)h[11] << 24;
        for (unsigned i = 0; i < n && found < 0; i++) {
            unsigned char sh[12];
            if (fseek(f, off, SEEK_SET) || fread(sh, 1, 12, f) != 12) break;
            unsigned type = sh[0] | sh[1] << 8 | sh[2] << 16 | (unsigned)sh[3] << 24;
            unsigned long long size = 0;
            for (int k = 7; k >= 0; k--) size = size << 8 | sh[4 + k];
            if (type == 1) found = off + 12 + 4;
            off += 12 + (long)size;
        }
    }
    fclose(f);
    return found;
}

/* A corrupt .r1cs field prime is an error naming the file (exit 3) in info and prove --params,
 * not "curve: unknown" nor a claim that it is a bn128 file. */
TEST(cli, r1cs_unknown_prime) {
    const char *src = FIX("multiplier", "circuit.r1cs");
    long at = r1cs_prime_offset(src);
    CHECK(at > 0);
    const char *bad = corrupt_copy(src, "badprime.r1cs", -1, at + 5, 0x55);
    CHECK(bad != NULL);
    char args[16384];
    snprintf(args, sizeof args, "info '%s'", bad);
    CHECK_MSG(cli(args) == 3 && strstr(g_log, "unknown field prime") && strstr(g_log, bad) && !strstr(g_log, "curve: unknown"),
              "%s", g_log);
    snprintf(args, sizeof args, "setup --seed 1 '%s' '%s/bp.params' '%s/bp.vk'", src, test_tmpdir(), test_tmpdir());
    CHECK_MSG(cli(args) == 0, "%s", g_log);
    snprintf(args, sizeof args, "prove --params '%s/bp.params' --r1cs '%s' '%s' '%s/bp.bin' '%s/bp.json'", test_tmpdir(), bad,
             FIX("multiplier", "witness.wtns"), test_tmpdir(), test_tmpdir());
    CHECK_MSG(cli(args) == 3 && strstr(g_log, "unknown field prime") && strstr(g_log, bad) && !strstr(g_log, "bn128 (BN254) file"),
              "%s", g_log);
}

/* The help tells the whole story: both curves, the signal exit codes, every benchmark; setup
 * checks its arguments before its INSECURE banner; a NUL in JSON is said in the user's terms. */
TEST(cli, help_and_messages_cosmetics) {
    CHECK_EQ_INT(cli("--help"), 0);
    CHECK_MSG(strstr(g_log, "BN254") && strstr(g_log, "130") && strstr(g_log, "143") && strstr(g_log, "|post|"), "%s", g_log);
    CHECK_EQ_INT(test_run(g_log, sizeof g_log, "'%s-bench' --help", CLI), 0);
    CHECK_MSG(strstr(g_log, "cuzk-bench field") && strstr(g_log, "|post|"), "%s", g_log);
    char args[16384];
    snprintf(args, sizeof args, "setup /nonexistent/c.r1cs '%s/s.params' '%s/s.vk'", test_tmpdir(), test_tmpdir());
    CHECK_MSG(cli(args) == 3 && !strstr(g_log, "INSECURE") && strstr(g_log, "/nonexistent/c.r1cs"), "%s", g_log);
    snprintf(args, sizeof args, "setup '%s' /nonexistent/s.params '%s/s.vk'", FIX("multiplier", "circuit.r1cs"), test_tmpdir());
    CHECK_MSG(cli(args) != 0 && !strstr(g_log, "INSECURE"), "%s", g_log);
    char nul[1024];
    snprintf(nul, sizeof nul, "%s/nul_public.json", test_tmpdir());
    FILE *f = fopen(nul, "w");
    REQUIRE(f != NULL);
    fputs("[\"1\\u0000\"]\n", f);
    fclose(f);
    snprintf(args, sizeof args, "verify '%s' '%s' '%s'", FIX("multiplier", "verification_key.json"), nul, FIX("multiplier", "proof.json"));
    CHECK_MSG(cli(args) == 3 && strstr(g_log, "NUL character in JSON string") && !strstr(g_log, "JSON_ALLOW_NUL"), "%s", g_log);
    snprintf(args, sizeof args, "info '%s'", nul);
    CHECK_MSG(cli(args) == 3 && strstr(g_log, "NUL character in JSON string") && !strstr(g_log, "JSON_ALLOW_NUL"), "%s", g_log);
}

/* ---- what a new user found (issue 26) ----------------------------------------------------------- */

/* A copy of the proof.json at src whose pi_a.x is replaced by the string value, at dst. */
static bool proof_with_pi_a_x(const char *src, const char *dst, const char *value) {
    size_t n;
    char *s = (char *)test_slurp(src, &n);
    if (!s) return false;
    /* the first string inside the pi_a array */
    char *at = strstr(s, "\"pi_a\"");
    char *br = at ? strchr(at, '[') : NULL;
    char *q1 = br ? strchr(br, '"') : NULL;
    char *q2 = q1 ? strchr(q1 + 1, '"') : NULL;
    FILE *f = q2 ? fopen(dst, "w") : NULL;
    if (!f) { free(s); return false; }
    fprintf(f, "%.*s%s%s", (int)(q1 + 1 - s), s, value, q2);
    fclose(f);
    free(s);
    return true;
}

/* Decimal n + k for a decimal string n and a digit k, into out (cap > strlen(n) + 1). */
static void dec_add_small(char *out, size_t cap, const char *n, int k) {
    size_t len = strlen(n);
    if (len + 2 > cap) { out[0] = 0; return; }
    out[0] = '0';
    memcpy(out + 1, n, len + 1);
    for (size_t i = len + 1; i-- > 0 && k;) {
        int d = out[i] - '0' + k;
        out[i] = (char)('0' + d % 10);
        k = d / 10;
    }
    if (out[0] == '0') memmove(out, out + 1, len + 1);
}

/* A proof whose coordinate is a decimal number >= q is an invalid proof like any other: exit 1,
 * "INVALID: ... >= q: not a field element", on both curves, and so is one off the curve; a value
 * that is not a decimal string at all is not a proof.json (exit 3, one line); a key with a
 * coordinate >= q is a bad input (exit 3). */
TEST(cli, proof_value_not_a_field_element_is_invalid) {
    /* the base-field primes (independent of the library: the curves' published moduli) */
    static const char *const Q[2] = {
        "4002409555221667393417789825735904156556882819939007885332058136124031650490837864442687629129015664037894272559787",
        "21888242871839275222246405745257275088696311157297823662689037894645226208583"};
    static const char *const dir[2] = {"bls12381/multiplier/", "bn128/multiplier/"};
    char args[16384], path[1024], src[1024], vk[1100], pub[1100], big[256];
    for (int c = 0; c < 2; c++) {
        snprintf(src, sizeof src, "%s", test_fixture(dir[c]));
        snprintf(vk, sizeof vk, "%sverification_key.json", src);
        snprintf(pub, sizeof pub, "%spublic.json", src);
        strncat(src, "proof.json", sizeof src - strlen(src) - 1);
        dec_add_small(big, sizeof big, Q[c], 5);
        REQUIRE(strlen(big) == strlen(Q[c]));
        const char *ge[] = {Q[c], big, "9999999999999999999999999999999999999999999999999999999999999999999999999999999999"
                                         "99999999999999999999999999999999999999999999999999999"};
        for (int i = 0; i < 3; i++) {
            snprintf(path, sizeof path, "%s/ge_q_%d_%d.json", test_tmpdir(), c, i);
            REQUIRE(proof_with_pi_a_x(src, path, ge[i]));
            snprintf(args, sizeof args, "verify '%s' '%s' '%s'", vk, pub, path);
            int rc = cli(args);
            CHECK_MSG(rc == 1 && strstr(g_log, "INVALID") && strstr(g_log, "pi_a.x is >= q: not a field element"),
                      "%s value %d: exit %d: %s", dir[c], i, rc, g_log);
        }
        /* off the curve (x = 5): also exit 1 */
        snprintf(path, sizeof path, "%s/off_curve_%d.json", test_tmpdir(), c);
        REQUIRE(proof_with_pi_a_x(src, path, "5"));
        snprintf(args, sizeof args, "verify '%s' '%s' '%s'", vk, pub, path);
        int rc = cli(args);
        CHECK_MSG(rc == 1 && strstr(g_log, "INVALID"), "%s off the curve: exit %d: %s", dir[c], rc, g_log);
        /* not a decimal string: not a proof.json, exit 3 with one line */
        const char *nd[] = {"-5", "0x12", "", "1e3"};
        for (int i = 0; i < 4; i++) {
            snprintf(path, sizeof path, "%s/not_dec_%d_%d.json", test_tmpdir(), c, i);
            REQUIRE(proof_with_pi_a_x(src, path, nd[i]));
            snprintf(args, sizeof args, "verify '%s' '%s' '%s'", vk, pub, path);
            rc = cli_stderr(args);
            CHECK_MSG(rc == 3 && count_lines(g_log) == 1 && strstr(g_log, "not a decimal string"), "%s '%s': exit %d: %s",
                      dir[c], nd[i], rc, g_log);
        }
    }
    /* a verification key with a coordinate >= q: the key is a bad input, exit 3 */
    size_t n;
    char *k = (char *)test_slurp(FIX("multiplier", "verification_key.json"), &n);
    REQUIRE(k);
    char *at = strstr(k, "\"vk_alpha_1\"");
    char *q1 = at ? strchr(strchr(at, '[') + 1, '"') : NULL, *q2 = q1 ? strchr(q1 + 1, '"') : NULL;
    REQUIRE(q2);
    snprintf(path, sizeof path, "%s/vk_ge_q.json", test_tmpdir());
    FILE *f = fopen(path, "w");
    REQUIRE(f);
    fprintf(f, "%.*s%s%s", (int)(q1 + 1 - k), k, Q[0], q2);
    fclose(f);
    free(k);
    snprintf(args, sizeof args, "verify '%s' '%s' '%s'", path, FIX("multiplier", "public.json"), FIX("multiplier", "proof.json"));
    int rc = cli_stderr(args);
    CHECK_MSG(rc == 3 && count_lines(g_log) == 1 && strstr(g_log, "not a field element"), "vk >= q: exit %d: %s", rc, g_log);
    /* --help and the README say so */
    CHECK(cli("verify --help") == 0 && strstr(g_log, "not a field element") && strstr(g_log, "exits 1"));
}

/* An output that cannot be created is named as the user wrote it, never by its temporary
 * ("<path>.tmp.<pid>"), by prove, setup (both curves) and the bellperson form, before any work;
 * and the check leaves no temporary behind. */
TEST(cli, unwritable_output_names_the_users_path) {
    char args[16384], pub[1024];
    snprintf(pub, sizeof pub, "%s/uw_public.json", test_tmpdir());
    /* /proc refuses new files even to root, whom access(W_OK) lets through */
    snprintf(args, sizeof args, "prove '%s' '%s' /proc/cuzk_proof.json '%s'", FIX("multiplier", "circuit_final.zkey"),
             FIX("multiplier", "witness.wtns"), pub);
    int rc = cli_stderr(args);
    CHECK_MSG(rc == 3 && count_lines(g_log) == 1 && strstr(g_log, "/proc/cuzk_proof.json") && !strstr(g_log, ".tmp."),
              "prove: exit %d: %s", rc, g_log);
    snprintf(args, sizeof args, "prove '%s' '%s' '%s/uw_proof.json' /proc/cuzk_public.json",
             FIX("multiplier", "circuit_final.zkey"), FIX("multiplier", "witness.wtns"), test_tmpdir());
    rc = cli_stderr(args);
    CHECK_MSG(rc == 3 && strstr(g_log, "/proc/cuzk_public.json") && !strstr(g_log, ".tmp."), "prove public: exit %d: %s", rc,
              g_log);
    snprintf(args, sizeof args, "setup --seed 1 '%s' /proc/cuzk.params '%s/uw.vk'", FIX("multiplier", "circuit.r1cs"),
             test_tmpdir());
    rc = cli_stderr(args);
    CHECK_MSG(rc == 3 && count_lines(g_log) == 1 && strstr(g_log, "/proc/cuzk.params") && !strstr(g_log, ".tmp.") &&
                  !strstr(g_log, "INSECURE"),
              "setup: exit %d: %s", rc, g_log);
    snprintf(args, sizeof args, "setup --seed 1 '%s' --zkey /proc/cuzk.zkey", test_fixture("bn128/multiplier/circuit.r1cs"));
    rc = cli_stderr(args);
    CHECK_MSG(rc == 3 && count_lines(g_log) == 1 && strstr(g_log, "/proc/cuzk.zkey") && !strstr(g_log, ".tmp."),
              "setup bn128: exit %d: %s", rc, g_log);
    /* nothing left beside the outputs of a good run or of the refused ones */
    char out[4096];
    CHECK_EQ_INT(test_run(out, sizeof out, "ls -a '%s' | grep -c '\\.tmp\\.' || true", test_tmpdir()), 0);
    CHECK_MSG(out[0] == '0', "temporaries left in %s: %s", test_tmpdir(), out);
}

/* setup: an error found before the work starts (arguments, outputs, an unreadable, truncated or
 * bn128 circuit given .params outputs) is one line, with no INSECURE banner; a setup that runs
 * prints the banner once, on stderr. */
TEST(cli, setup_banner_only_after_the_inputs_are_checked) {
    char args[16384], trunc[1024];
    snprintf(trunc, sizeof trunc, "%s/trunc.r1cs", test_tmpdir());
    {
        size_t n;
        uint8_t *b = test_slurp(FIX("multiplier", "circuit.r1cs"), &n);
        REQUIRE(b && n > 100);
        FILE *f = fopen(trunc, "wb");
        REQUIRE(f);
        fwrite(b, 1, 100, f);
        fclose(f);
        free(b);
    }
    const char *d = test_tmpdir();
    char cases[5][4096];
    snprintf(cases[0], sizeof cases[0], "setup '%s' '%s/b.params' '%s/b.vk'", trunc, d, d);
    snprintf(cases[1], sizeof cases[1], "setup '%s' '%s/b.params' '%s/b.vk'", test_fixture("bn128/multiplier/circuit.r1cs"), d, d);
    snprintf(cases[2], sizeof cases[2], "setup /nonexistent/c.r1cs '%s/b.params' '%s/b.vk'", d, d);
    snprintf(cases[3], sizeof cases[3], "setup '%s' '%s/b.params' '%s/b.params'", FIX("multiplier", "circuit.r1cs"), d, d);
    snprintf(cases[4], sizeof cases[4], "setup '%s' --zkey '%s/b.zkey'", trunc, d);
    for (int i = 0; i < 5; i++) {
        int rc = cli_stderr(cases[i]);
        CHECK_MSG((rc == 2 || rc == 3) && !strstr(g_log, "INSECURE") && strstr(g_log, "error") &&
                      (rc == 3 ? count_lines(g_log) == 1 : count_lines(g_log) <= 2), /* usage errors add a hint line */
                  "case %d (%s): exit %d: %s", i, cases[i], rc, g_log);
    }
    snprintf(args, sizeof args, "setup --seed 3 '%s' '%s/g.params' '%s/g.vk'", FIX("multiplier", "circuit.r1cs"), d, d);
    int rc = cli_stderr(args);
    const char *b = strstr(g_log, "INSECURE: single-party test parameters");
    CHECK_MSG(rc == 0 && b && !strstr(b + 1, "INSECURE: single-party"), "good setup: exit %d: %s", rc, g_log);
}

/* verify --vk takes the bellperson pair; given snarkjs JSON (the proof.json or the
 * verification_key.json) it says to drop --vk, in one line, exit 3. */
TEST(cli, verify_vk_with_snarkjs_json_suggests_dropping_vk) {
    char args[16384];
    const char *d = test_tmpdir();
    snprintf(args, sizeof args, "setup -q --seed 4 '%s' '%s/v.params' '%s/v.vk'", FIX("multiplier", "circuit.r1cs"), d, d);
    REQUIRE_MSG(cli(args) == 0, "%s", g_log);
    /* a snarkjs proof.json with a bellperson .vk */
    snprintf(args, sizeof args, "verify --vk '%s/v.vk' '%s' '%s'", d, FIX("multiplier", "public.json"), FIX("multiplier", "proof.json"));
    int rc = cli_stderr(args);
    CHECK_MSG(rc == 3 && count_lines(g_log) == 1 && strstr(g_log, "without --vk") && strstr(g_log, "proof.json is a JSON file"),
              "proof.json: exit %d: %s", rc, g_log);
    /* the whole snarkjs triple behind --vk */
    snprintf(args, sizeof args, "verify --vk '%s' '%s' '%s'", FIX("multiplier", "verification_key.json"),
             FIX("multiplier", "public.json"), FIX("multiplier", "proof.json"));
    rc = cli_stderr(args);
    CHECK_MSG(rc == 3 && count_lines(g_log) == 1 && strstr(g_log, "without --vk") && strstr(g_log, "verification_key.json"),
              "triple: exit %d: %s", rc, g_log);
    /* a 192-byte proof of the wrong size stays a plain format error (no JSON hint) */
    char bin[1024];
    snprintf(bin, sizeof bin, "%s/short.bin", d);
    FILE *f = fopen(bin, "wb");
    REQUIRE(f);
    for (int i = 0; i < 100; i++) fputc(i, f);
    fclose(f);
    snprintf(args, sizeof args, "verify --vk '%s/v.vk' '%s' '%s'", d, FIX("multiplier", "public.json"), bin);
    rc = cli_stderr(args);
    CHECK_MSG(rc == 3 && count_lines(g_log) == 1 && strstr(g_log, "192 bytes") && !strstr(g_log, "without --vk"),
              "short proof: exit %d: %s", rc, g_log);
}

/* bench prove over the bundled circuits: the same circuit name on two curves is told apart by a
 * curve column (the curve of each witness file). */
TEST(cli, bench_prove_has_a_curve_column) {
    int rc = cli("bench prove --repeat 1 --backend cpu --threads 2");
    REQUIRE_MSG(rc == 0, "exit %d: %s", rc, g_log);
    CHECK_MSG(strstr(g_log, " curve ") != NULL, "no curve column: %s", g_log);
    int bls = 0, bn = 0;
    for (const char *l = g_log; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
        if (strncmp(l, "multiplier/circuit_final.zkey", 29) != 0) continue;
        const char *e = strchr(l, '\n');
        size_t len = e ? (size_t)(e - l) : strlen(l);
        char row[512];
        snprintf(row, sizeof row, "%.*s", (int)(len < 511 ? len : 511), l);
        if (strstr(row, " bls12-381 ")) bls++;
        if (strstr(row, " bn254 ")) bn++;
    }
    CHECK_MSG(bls == 1 && bn == 1, "multiplier rows: %d bls12-381, %d bn254: %s", bls, bn, g_log);
}

/* cuzk srs-cache as an operator meets it: make refuses to write over its input or a non-cache,
 * check says what it checked and the level the cache recorded, I/O errors exit 4 (as its help
 * says), info describes a cache, prove/verify refuse a cache where the .params/vk belongs, and a
 * refused cache is reported on stderr even with -q and in --json. */
TEST(cli, srs_cache_cli) {
    const char *src = FIX("multiplier", "bellman_mpc.params");
    const char *pp = corrupt_copy(src, "cli_srs.params", -1, -1, 0);
    REQUIRE(pp);
    char args[20000], cp[1100], vk[1100], proof[1100], pub[1100];
    snprintf(cp, sizeof cp, "%s.cuzk-srs", pp);
    snprintf(vk, sizeof vk, "%s/cli_srs.vk", test_tmpdir());
    snprintf(proof, sizeof proof, "%s/cli_srs_proof.bin", test_tmpdir());
    snprintf(pub, sizeof pub, "%s/cli_srs_public.json", test_tmpdir());
    unlink(cp);
    snprintf(args, sizeof args, "srs-cache make --cache '%s' '%s'", pp, pp);
    CHECK_MSG(cli(args) == 2 && strstr(g_log, "also an input"), "%s", g_log);
    FILE *f = fopen(vk, "w");
    REQUIRE(f);
    fputs("a vk", f);
    fclose(f);
    snprintf(args, sizeof args, "srs-cache make --cache '%s' '%s'", vk, pp);
    CHECK_MSG(cli(args) == 2 && strstr(g_log, "is not a cuzk SRS cache"), "%s", g_log);
    snprintf(args, sizeof args, "srs-cache make --full-check '%s'", pp);
    CHECK_MSG(cli(args) == 0, "%s", g_log);
    snprintf(args, sizeof args, "srs-cache check '%s'", pp);
    CHECK_MSG(cli(args) == 0 && strstr(g_log, "header valid") && strstr(g_log, "chunks not read: --verify") &&
                  strstr(g_log, "at the full level"), "%s", g_log);
    snprintf(args, sizeof args, "srs-cache check --compare '%s'", pp);
    CHECK_MSG(cli(args) == 0 && strstr(g_log, "equal to a fresh decode"), "%s", g_log);
    snprintf(args, sizeof args, "srs-cache make '%s/none.params'", test_tmpdir());
    CHECK_MSG(cli(args) == 4, "%s", g_log);
    snprintf(args, sizeof args, "info '%s'", cp);
    CHECK_MSG(cli(args) == 0 && strstr(g_log, "cuzk SRS cache") && strstr(g_log, "full level") && strstr(g_log, pp),
              "%s", g_log);
    snprintf(args, sizeof args, "prove --params '%s' --r1cs '%s' '%s' '%s' '%s'", cp, FIX("multiplier", "circuit.r1cs"),
             FIX("multiplier", "witness.wtns"), proof, pub);
    CHECK_MSG(cli(args) == 2 && strstr(g_log, "is an SRS cache"), "%s", g_log);
    snprintf(args, sizeof args, "verify --vk '%s' '%s' '%s'", cp, pub, proof);
    CHECK_MSG(cli(args) == 2 && strstr(g_log, "is an SRS cache"), "%s", g_log);
    /* used: --json says so */
    snprintf(args, sizeof args, "prove --json --params '%s' --r1cs '%s' '%s' '%s' '%s'", pp,
             FIX("multiplier", "circuit.r1cs"), FIX("multiplier", "witness.wtns"), proof, pub);
    CHECK_MSG(cli(args) == 0 && strstr(g_log, "\"srs_cache\": {\"use\": \"used\""), "%s", g_log);
    /* stale (the .params touched): refused, the warning on stderr even with -q */
    struct timespec ts[2] = {{0, UTIME_OMIT}, {12345, 0}};
    REQUIRE(utimensat(AT_FDCWD, pp, ts, 0) == 0);
    snprintf(args, sizeof args, "prove -q --params '%s' --r1cs '%s' '%s' '%s' '%s'", pp, FIX("multiplier", "circuit.r1cs"),
             FIX("multiplier", "witness.wtns"), proof, pub);
    CHECK_MSG(cli_stderr(args) == 0 && strstr(g_log, "is stale") && strstr(g_log, "decoding"), "%s", g_log);
    snprintf(args, sizeof args, "prove -q --json --params '%s' --r1cs '%s' '%s' '%s' '%s'", pp,
             FIX("multiplier", "circuit.r1cs"), FIX("multiplier", "witness.wtns"), proof, pub);
    CHECK_MSG(cli(args) == 0 && strstr(g_log, "\"use\": \"refused\", \"reason\": "), "%s", g_log);
    /* the .params gone, the cache there: the error is about the .params, no cache warning first */
    snprintf(args, sizeof args, "prove --params '%s/cli_srs_none.params' --r1cs '%s' '%s' '%s' '%s'", test_tmpdir(),
             FIX("multiplier", "circuit.r1cs"), FIX("multiplier", "witness.wtns"), proof, pub);
    {
        char ncp[1100];
        snprintf(ncp, sizeof ncp, "%s/cli_srs_none.params.cuzk-srs", test_tmpdir());
        char cmd[3000];
        snprintf(cmd, sizeof cmd, "cp '%s' '%s'", cp, ncp);
        REQUIRE(system(cmd) == 0);
        CHECK_MSG(cli_stderr(args) == 3 && !strstr(g_log, "SRS cache") && count_lines(g_log) == 1, "%s", g_log);
        unlink(ncp);
    }
    /* rapidsnark's name: a usage error reads as its own */
    char link[1100], cmd[3000];
    snprintf(link, sizeof link, "%s/prover", test_tmpdir());
    unlink(link);
    REQUIRE(symlink(CLI, link) == 0);
    snprintf(cmd, sizeof cmd, "'%s' --bogus a b c d", link);
    int rc = test_run(g_log, sizeof g_log, "%s", cmd);
    CHECK_MSG(rc == 1 && strstr(g_log, "prover: unknown option '--bogus'") && strstr(g_log, "Run 'prover --help'") &&
                  !strstr(g_log, "prover prove"), "rc %d: %s", rc, g_log);
    unlink(link);
    unlink(cp);
    unlink(vk);
    unlink(proof);
    unlink(pub);
}

/* A cache that passes every check of a load (its chunk checksums re-made) but holds other points
 * (two h points swapped): the proof fails its self-verification and the error names the cache
 * and the way out. */
#include "formats/srs_cache.h"
#include "curves/bls12_381/curve.h"
TEST(cli, srs_cache_bad_points_are_named_in_the_failure) {
    const char *pp = corrupt_copy(FIX("multiplier", "bellman_mpc.params"), "cli_srs_bad.params", -1, -1, 0);
    REQUIRE(pp);
    char args[20000], cp[1100], proof[1100], pub[1100];
    snprintf(cp, sizeof cp, "%s.cuzk-srs", pp);
    snprintf(proof, sizeof proof, "%s/cli_srs_bad_proof.bin", test_tmpdir());
    snprintf(pub, sizeof pub, "%s/cli_srs_bad_public.json", test_tmpdir());
    snprintf(args, sizeof args, "srs-cache make '%s'", pp);
    REQUIRE_MSG(cli(args) == 0, "%s", g_log);
    srs_cache_info inf;
    REQUIRE(srs_cache_probe(cp, pp, CUZK_CHECK_CURVE, &inf, NULL) == CUZK_OK && inf.n_h >= 2);
    size_t n;
    uint8_t *b = test_slurp(cp, &n);
    REQUIRE(b && inf.g1_bytes <= SRS_CACHE_CHUNK);
    uint8_t t[sizeof(g1_affine)];
    uint8_t *h0 = b + inf.g1_off, *h1 = h0 + sizeof(g1_affine);
    memcpy(t, h0, sizeof t);
    memcpy(h0, h1, sizeof t);
    memcpy(h1, t, sizeof t);
    uint64_t vk_chunks = (inf.vk_bytes + SRS_CACHE_CHUNK - 1) / SRS_CACHE_CHUNK;
    uint64_t s = srs_cache_hash(h0, (size_t)inf.g1_bytes, 0);
    memcpy(b + inf.sums_off + 8 * vk_chunks, &s, 8);
    FILE *f = fopen(cp, "wb");
    REQUIRE(f && fwrite(b, 1, n, f) == n);
    fclose(f);
    free(b);
    snprintf(args, sizeof args, "prove --params '%s' --r1cs '%s' '%s' '%s' '%s'", pp, FIX("multiplier", "circuit.r1cs"),
             FIX("multiplier", "witness.wtns"), proof, pub);
    int rc = cli_stderr(args);
    CHECK_MSG(rc != 0 && strstr(g_log, "points read from the SRS cache") && strstr(g_log, "CUZK_SRS_CACHE=off"),
              "rc %d: %s", rc, g_log);
    snprintf(args, sizeof args, "CUZK_SRS_CACHE=off '%s' prove --params '%s' --r1cs '%s' '%s' '%s' '%s'", CLI, pp,
             FIX("multiplier", "circuit.r1cs"), FIX("multiplier", "witness.wtns"), proof, pub);
    rc = test_run(g_log, sizeof g_log, "%s", args);
    CHECK_MSG(rc == 0, "rc %d: %s", rc, g_log);
    unlink(cp);
    unlink(proof);
    unlink(pub);
}

/* export-vk writes what snarkjs's `zkey export verificationkey` wrote for every committed fixture
 * key (the same JSON values: the fixtures' verification_key.json are snarkjs's), on both curves;
 * a bellperson .vk too (its proof, as proof.json, then verifies against the exported file); bad
 * keys are refused with the file named, and nothing is written. */
TEST(cli, export_vk_equals_snarkjs) {
    static const char *const keys[] = {"bn128/multiplier", "bn128/merkle_mimc5", "bn128/merkle_poseidon",
                                       "bls12381/multiplier", "bls12381/merkle_mimc5", "bls12381/bellman_chain"};
    char args[16384], out[1024], zk[1024], vk[1024];
    snprintf(out, sizeof out, "%s/vk_export.json", test_tmpdir());
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        char rel[256];
        snprintf(rel, sizeof rel, "%s/circuit_final.zkey", keys[i]);
        snprintf(zk, sizeof zk, "%s", test_fixture(rel));
        snprintf(rel, sizeof rel, "%s/verification_key.json", keys[i]);
        snprintf(vk, sizeof vk, "%s", test_fixture(rel));
        snprintf(args, sizeof args, "export-vk '%s' '%s'", zk, out);
        CHECK_MSG(cli(args) == 0, "%s: %s", keys[i], g_log);
        json_error_t je;
        json_t *a = json_load_file(out, 0, &je), *b = json_load_file(vk, 0, &je);
        CHECK_MSG(a && b && json_equal(a, b), "%s: the exported key differs from snarkjs's", keys[i]);
        json_decref(a);
        json_decref(b);
        remove(out);
    }
    /* a bellperson .vk: export, prove with --proof-json, verify against the exported JSON */
    char params[1024], bvk[1024], pbin[1024], pub[1024], pjson[1024];
    snprintf(params, sizeof params, "%s/ev.params", test_tmpdir());
    snprintf(bvk, sizeof bvk, "%s/ev.vk", test_tmpdir());
    snprintf(pbin, sizeof pbin, "%s/ev.bin", test_tmpdir());
    snprintf(pub, sizeof pub, "%s/ev_public.json", test_tmpdir());
    snprintf(pjson, sizeof pjson, "%s/ev_proof.json", test_tmpdir());
    snprintf(args, sizeof args, "setup -q --seed 5 '%s' '%s' '%s'", FIX("multiplier", "circuit.r1cs"), params, bvk);
    REQUIRE_MSG(cli(args) == 0, "%s", g_log);
    snprintf(args, sizeof args, "export-vk -q '%s' '%s'", bvk, out);
    CHECK_MSG(cli(args) == 0 && !g_log[0], "bellperson .vk: %s", g_log);
    snprintf(args, sizeof args, "prove -q --params '%s' --r1cs '%s' '%s' '%s' '%s' --proof-json '%s'", params,
             FIX("multiplier", "circuit.r1cs"), FIX("multiplier", "witness.wtns"), pbin, pub, pjson);
    CHECK_MSG(cli(args) == 0, "%s", g_log);
    snprintf(args, sizeof args, "verify '%s' '%s' '%s'", out, pub, pjson);
    CHECK_MSG(cli(args) == 0 && strstr(g_log, "OK"), "the bellperson proof against the exported vk: %s", g_log);
    /* the .params written with that .vk begins with the same key: only its start is read */
    char out2[1100];
    snprintf(out2, sizeof out2, "%s/vk_export_params.json", test_tmpdir());
    snprintf(args, sizeof args, "export-vk -q '%s' '%s'", params, out2);
    CHECK_MSG(cli(args) == 0, ".params: %s", g_log);
    {
        json_error_t je;
        json_t *a = json_load_file(out, 0, &je), *b = json_load_file(out2, 0, &je);
        CHECK_MSG(a && b && json_equal(a, b), "%s", "the key of the .params differs from its .vk's");
        json_decref(a);
        json_decref(b);
    }
    /* - writes the JSON alone to stdout */
    snprintf(args, sizeof args, "export-vk '%s' - 2>/dev/null", bvk);
    CHECK_EQ_INT(cli(args), 0);
    {
        json_error_t je;
        json_t *a = json_loads(g_log, 0, &je), *b = json_load_file(out, 0, &je);
        CHECK_MSG(a && b && json_equal(a, b), "stdout: %s", g_log);
        json_decref(a);
        json_decref(b);
    }
    /* refused, exit 3, the file named, no output */
    remove(out);
    const char *trunc = corrupt_copy(test_fixture("bn128/multiplier/circuit_final.zkey"), "ev_trunc.zkey", 300, -1, 0);
    const char *badpt = corrupt_copy(test_fixture("bn128/multiplier/circuit_final.zkey"), "ev_badpt.zkey", -1, -1, 0);
    REQUIRE(trunc && badpt);
    const struct { const char *key, *want; } bad[] = {
        {FIX("multiplier", "circuit.r1cs"), "is a .r1cs file, not a key"},
        {FIX("multiplier", "witness.wtns"), "is a .wtns file, not a key"},
        {trunc, "ev_trunc.zkey"},
        {FIX("multiplier", "input.json"), "neither a .zkey (no \"zkey\" magic) nor a bellperson .vk"},
        {test_tmpdir(), "is a directory"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(args, sizeof args, "export-vk '%s' '%s'", bad[i].key, out);
        CHECK_MSG(cli(args) == 3 && strstr(g_log, bad[i].want) && access(out, F_OK) != 0, "%s: %s", bad[i].key, g_log);
    }
    /* a point of the header moved off the curve: named. snarkjs writes the sections in order: the
     * file header (12 bytes), section 1 (12 + 4), section 2's own 12, then n8q, q, n8r, r, nVars,
     * nPublic, domain (84 bytes) before alpha1 */
    {
        FILE *f = fopen(badpt, "r+b");
        REQUIRE(f);
        const long off = 12 + 12 + 4 + 12 + 84 + 5; /* inside alpha1's x */
        fseek(f, off, SEEK_SET);
        int c = fgetc(f);
        fseek(f, off, SEEK_SET);
        fputc(c ^ 0x5a, f);
        fclose(f);
        snprintf(args, sizeof args, "export-vk '%s' '%s'", badpt, out);
        CHECK_MSG(cli(args) == 3 && strstr(g_log, "alpha1") && access(out, F_OK) != 0, "%s", g_log);
    }
    snprintf(args, sizeof args, "export-vk '%s'", bvk);
    CHECK_EQ_INT(cli(args), 2);
    snprintf(args, sizeof args, "export-vk '%s' '%s'", bvk, bvk);
    CHECK_MSG(cli(args) == 2 && strstr(g_log, "also an input"), "%s", g_log);
}

/* The diagnostic switches CUZK_NO_ASM and CUZK_NO_IFMA change how the arithmetic runs, never a
 * result: fixed-r,s proofs of a bn128 and a bls12-381 fixture are the same bytes under each
 * (and with both unset), and a value "0" means off. */
TEST(cli, arithmetic_switches_change_no_proof) {
    static const char *const fx[][2] = {{"bn128/merkle_poseidon", "circuit_final.zkey"},
                                        {"bls12381/multiplier", "circuit_final.zkey"}};
    static const char *const env[] = {"", "CUZK_NO_IFMA=1", "CUZK_NO_ASM=1", "CUZK_NO_ASM=0 CUZK_NO_IFMA=0"};
    for (size_t f = 0; f < sizeof fx / sizeof *fx; f++) {
        char zk[1024], wt[1024], base[1024], rel[256];
        snprintf(rel, sizeof rel, "%s/%s", fx[f][0], fx[f][1]);
        snprintf(zk, sizeof zk, "%s", test_fixture(rel));
        snprintf(rel, sizeof rel, "%s/witness.wtns", fx[f][0]);
        snprintf(wt, sizeof wt, "%s", test_fixture(rel));
        char *first = NULL;
        size_t nfirst = 0;
        for (size_t k = 0; k < sizeof env / sizeof *env; k++) {
            char proof[1100], pub[1100], cmd[8192];
            snprintf(base, sizeof base, "%s/switch_%zu_%zu", test_tmpdir(), f, k);
            snprintf(proof, sizeof proof, "%s_proof.json", base);
            snprintf(pub, sizeof pub, "%s_public.json", base);
            snprintf(cmd, sizeof cmd, "%s '%s' prove --fixed-rs 7 11 '%s' '%s' '%s' '%s'", env[k], CLI, zk, wt, proof, pub);
            int rc = test_run(g_log, sizeof g_log, "%s", cmd);
            CHECK_MSG(rc == 0, "%s %s: exit %d: %s", env[k], fx[f][0], rc, g_log);
            size_t n = 0;
            char *p = (char *)test_slurp(proof, &n);
            REQUIRE(p);
            if (!first) {
                first = p;
                nfirst = n;
                continue;
            }
            CHECK_MSG(n == nfirst && !memcmp(p, first, n), "%s: %s proof differs from the default's", env[k], fx[f][0]);
            free(p);
        }
        free(first);
    }
}
