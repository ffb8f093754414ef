/* The device B_G2 of snarkjs (.zkey) keys on the GPU backend, one curve: an X-include template
 * (every curve-dependent name is CN(name)), no include guard. A GPU suite includes it once per
 * curve between that curve's name space (src/curves/<curve>/ns.h) and curves/ns_reset.h, after
 * test.h, groth16/groth16.h, groth16/prove.h and formats/snarkjs.h, and gets
 *
 *   CN(zkey_b2_check)(zkey_path, wtns_path): the zkey's proof on the GPU backend with each
 *   cuzk_msm_opts.b_g2_on_gpu (1: the device; 0: automatic, the device for a fixture that fits;
 *   -1: CPU threads in finish), twice per prover, with fixed r, s: byte for byte the CPU backend's
 *   proof (groth16_prove_zkey), and it verifies; the start and finish timings say where B_G2 ran
 *   (b2_device; with the device B_G2 start's msm_b2_ms, reported again by finish); the resident
 *   B_G2 query is counted in the backend's device bytes (n_vars points), its G2 MSM in one proof's
 *   device peak; a pending of the device B_G2 holds no witness scalars (groth16_pending_bytes).
 *   All of it twice: with the zkey's A and B rows resident (groth16_backend_cfg.zkey_rows_resident:
 *   the whole start on the device: the start's upload stage is timed, the rows are counted in the
 *   device bytes) and kept on the host (the default: a/b on CPU threads, no upload stage).
 *
 * The caller skips without a GPU. */
static void CN(zkey_b2_check)(const char *zkey_path, const char *wtns_path) {
    cuzk_error e = {0};
    CN(zkey) z;
    CN(wtns) wt;
    memset(&z, 0, sizeof z);
    memset(&wt, 0, sizeof wt);
    REQUIRE_MSG(CN(zkey_load)(&z, zkey_path, false, &e) == CUZK_OK, "%s: %s", zkey_path, e.msg);
    if (CN(wtns_load)(&wt, wtns_path, &e) != CUZK_OK || wt.n != z.n_vars) {
        CHECK_MSG(0, "%s: %s (%u values, the zkey has %u variables)", wtns_path, e.msg, wt.n, z.n_vars);
        CN(wtns_free)(&wt);
        CN(zkey_free)(&z);
        return;
    }
    CN(fr) r, s;
    CN(fr_from_u64)(&r, 0x1ab4b9a7f2c0d3e5ull);
    CN(fr_from_u64)(&s, 0x2c3d4e5f60718293ull);
    const size_t nb = CN(groth16_proof_bytes)();
    uint8_t bc[GROTH16_PROOF_MAX_BYTES], bg[GROTH16_PROOF_MAX_BYTES];
    CN(groth16_proof) pc;
    cuzk_status st = CN(groth16_prove_zkey)(&pc, &z, wt.w, wt.n, &r, &s, 0, NULL, &e);
    CHECK_MSG(st == CUZK_OK, "%s: CPU proof: %s", zkey_path, e.msg);
    if (st != CUZK_OK) {
        CN(wtns_free)(&wt);
        CN(zkey_free)(&z);
        return;
    }
    CN(groth16_proof_to_bytes)(bc, &pc);
    CN(groth16_key) key;
    memset(&key, 0, sizeof key);
    key.curve = CURVE_ID;
    key.convention = CUZK_CONVENTION_SNARKJS;
    key.z = &z;
    CN(groth16_vk) vk;
    CN(groth16_key_vk)(&vk, &key);

    static const int modes[3] = {1, 0, -1};
    size_t dev_rows[2][3] = {{0}};
    for (int rh = 0; rh < 2; rh++) {
    const char *rows = rh ? "rows on the host" : "rows resident";
    size_t *dev = dev_rows[rh], peak[3] = {0}, pend_bytes[3] = {0};
    int ok[3] = {0};
    for (int k = 0; k < 3; k++) {
        groth16_backend_cfg cfg;
        memset(&cfg, 0, sizeof cfg);
        cfg.msm.b_g2_on_gpu = modes[k];
        cfg.zkey_rows_resident = !rh;
        cfg.msm.zkey_rows_on_gpu = rh ? -1 : 0; /* the host stages need the public switch off */
        CN(groth16_prover) *pv = NULL;
        st = CN(groth16_prover_create)(&pv, &key, &CN(groth16_backend_gpu_ops), &cfg, &e);
        CHECK_MSG(st == CUZK_OK, "%s: GPU prover (b_g2_on_gpu %d): %s", zkey_path, modes[k], e.msg);
        if (st != CUZK_OK) continue;
        void *state = CN(groth16_prover_state)(pv);
        dev[k] = CN(groth16_backend_gpu_ops).info.device_bytes(state);
        peak[k] = CN(groth16_backend_gpu_ops).info.proof_device_bytes(state);
        const int on_device = modes[k] >= 0;
        ok[k] = 1;
        for (int rep = 0; rep < 2; rep++) {
            CN(groth16_pending) *pend = NULL;
            groth16_timings ts = {0}, tf = {0};
            CN(groth16_proof) pg;
            st = CN(groth16_prove_start)(pv, &pend, wt.w, wt.n, &r, &s, 0, NULL, NULL, &ts, &e);
            if (st == CUZK_OK) {
                pend_bytes[k] = CN(groth16_pending_bytes)(pend);
                st = CN(groth16_prove_finish)(&pg, pend, 0, &tf, &e);
            }
            CN(groth16_pending_free)(pend);
            CHECK_MSG(st == CUZK_OK, "%s: GPU proof (b_g2_on_gpu %d, rep %d): %s", zkey_path, modes[k], rep, e.msg);
            if (st != CUZK_OK) {
                ok[k] = 0;
                break;
            }
            CN(groth16_proof_to_bytes)(bg, &pg);
            CHECK_MSG(!memcmp(bc, bg, nb), "%s: %s, b_g2_on_gpu %d, rep %d: the GPU proof differs from the CPU's",
                      zkey_path, rows, modes[k], rep);
            CHECK_MSG((ts.upload_ms > 0) == (rh == 0 && z.log_domain >= 1),
                      "%s: %s, b_g2_on_gpu %d: the start's upload stage took %.3f ms (the witness goes up once only "
                      "with the rows resident)", zkey_path, rows, modes[k], ts.upload_ms);
            CHECK_MSG(CN(groth16_verify)(&vk, wt.w + 1, z.n_public, &pg, &e) == CUZK_OK, "%s: b_g2_on_gpu %d: %s",
                      zkey_path, modes[k], e.msg);
            CHECK_MSG(ts.b2_device == on_device && tf.b2_device == on_device,
                      "%s: b_g2_on_gpu %d: B_G2 ran %s (start says %d, finish %d)", zkey_path, modes[k],
                      ts.b2_device ? "on the device" : "on CPU threads", ts.b2_device, tf.b2_device);
            if (on_device)
                CHECK_MSG(ts.msm_b2_ms > 0 && tf.msm_b2_ms == ts.msm_b2_ms && ts.total_ms >= ts.msm_b2_ms,
                          "%s: device B_G2 timings: start %.3f ms (total %.3f), finish %.3f ms", zkey_path, ts.msm_b2_ms,
                          ts.total_ms, tf.msm_b2_ms);
            else
                CHECK_MSG(ts.msm_b2_ms == 0 && tf.msm_b2_ms > 0, "%s: CPU B_G2 timings: start %.3f ms, finish %.3f ms",
                          zkey_path, ts.msm_b2_ms, tf.msm_b2_ms);
        }
        CN(groth16_prover_destroy)(pv);
    }
    if (ok[0] && ok[1] && ok[2]) {
        const size_t q = (size_t)z.n_vars * sizeof(CN(g2_affine)), ws = (size_t)z.n_vars * sizeof(scalar256);
        CHECK_MSG(dev[0] == dev[2] + q && dev[1] == dev[2] + q,
                  "%s: device bytes %zu (1), %zu (0), %zu (-1): the B_G2 query (%zu bytes) is not counted", zkey_path,
                  dev[0], dev[1], dev[2], q);
        CHECK_MSG(peak[0] >= peak[2] && peak[1] == peak[0], "%s: one proof's device peak %zu (1), %zu (0), %zu (-1)",
                  zkey_path, peak[0], peak[1], peak[2]);
        CHECK_MSG(pend_bytes[0] + ws == pend_bytes[2] && pend_bytes[1] == pend_bytes[0],
                  "%s: pending bytes %zu (1), %zu (0), %zu (-1): the device B_G2's pending still holds the witness "
                  "scalars (%zu bytes)", zkey_path, pend_bytes[0], pend_bytes[1], pend_bytes[2], ws);
    }
    }
    /* the resident rows are counted in the backend's device bytes */
    for (int k = 0; k < 3; k++)
        CHECK_MSG(z.log_domain < 1 || dev_rows[0][k] > dev_rows[1][k],
                  "%s: b_g2_on_gpu %d: device bytes %zu with the rows resident, %zu without", zkey_path, modes[k],
                  dev_rows[0][k], dev_rows[1][k]);
    CN(wtns_free)(&wt);
    CN(zkey_free)(&z);
}
