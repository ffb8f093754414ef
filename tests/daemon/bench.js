// cuzkd measurements for bench/RESULTS.md (not a test): run by tools/bench-daemon.sh.
//   node bench.js latency --addr A --n 200       sequential Prove calls: client latency vs prover time
//   node bench.js throughput --addr A --n 1000 --conc 32
//   node bench.js queue --addr A --n 10000 --pid P   memory per queued job (daemon with a slow prover)
'use strict';
const path = require('path');
const fs = require('fs');
const JS = path.join(__dirname, '..', 'js', 'node_modules');
const grpc = require(path.join(JS, '@grpc/grpc-js'));
const protoLoader = require(path.join(JS, '@grpc/proto-loader'));
const ROOT = path.join(__dirname, '..', '..');
const R = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n;
const args = process.argv.slice(2);
const opt = (n, d) => { const i = args.indexOf('--' + n); return i >= 0 ? args[i + 1] : d; };
const def = protoLoader.loadSync(path.join(ROOT, 'src', 'daemon', 'proving.proto'), { keepCase: true, longs: Number, enums: String, defaults: true });
const proto = grpc.loadPackageDefinition(def).cuzk.v1;
const client = new proto.ProvingEngine(opt('addr'), grpc.credentials.createInsecure(), {});
const le = (x, n) => { const b = Buffer.alloc(n); for (let i = 0; i < n; i++) { b[i] = Number(x & 0xffn); x >>= 8n; } return b; };
function wtns(v) {
  const s1 = Buffer.concat([le(32n, 4), le(R, 32), le(BigInt(v.length), 4)]);
  const s2 = Buffer.concat(v.map((x) => le(x % R, 32)));
  const sec = (t, d) => Buffer.concat([le(BigInt(t), 4), le(BigInt(d.length), 8), d]);
  return Buffer.concat([Buffer.from('wtns'), le(2n, 4), le(2n, 4), sec(1, s1), sec(2, s2)]);
}
const w = (i) => wtns([1n, BigInt(i + 2) * 3n, BigInt(i + 2), 3n]);
const call = (m, r) => new Promise((res, rej) => client[m](r, (e, x) => (e ? rej(e) : res(x))));
const req = (i) => ({ submit: { proof_kind: 'GENERIC_GROTH16', circuit_id: 'mult', witness: w(i) } });
const med = (a) => { const s = [...a].sort((x, y) => x - y); return s[Math.floor(s.length / 2)]; };
function rss(pid) { const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8')); return Number(m[1]) * 1024; }

(async () => {
  const n = Number(opt('n', '200'));
  const mode = args[0];
  if (mode === 'latency') {
    for (let i = 0; i < 20; i++) await call('Prove', req(i));
    const lat = [], prover = [], tot = [];
    for (let i = 0; i < n; i++) {
      const t0 = process.hrtime.bigint();
      const r = await call('Prove', req(i));
      const dt = Number(process.hrtime.bigint() - t0) / 1e6;
      if (r.result.status !== 'COMPLETED') throw new Error('job failed: ' + r.result.error_message);
      lat.push(dt); prover.push(r.result.prover_us / 1e3); tot.push(r.result.total_ms);
    }
    console.log(JSON.stringify({ mode, n, client_latency_ms_median: med(lat), prover_ms_median: med(prover),
      daemon_total_ms_median: med(tot), overhead_ms_median: med(lat.map((x, i) => x - prover[i])) }));
  } else if (mode === 'throughput') {
    const conc = Number(opt('conc', '32'));
    let next = 0;
    const t0 = Date.now();
    await Promise.all(Array.from({ length: conc }, async () => {
      while (next < n) { const i = next++; const r = await call('Prove', req(i)); if (r.result.status !== 'COMPLETED') throw new Error('failed'); }
    }));
    const s = (Date.now() - t0) / 1e3;
    console.log(JSON.stringify({ mode, n, conc, seconds: s, jobs_per_s: n / s }));
  } else if (mode === 'queue') {
    const pid = Number(opt('pid'));
    await call('SubmitProof', req(0).submit);
    await new Promise((r) => setTimeout(r, 300));
    const before = rss(pid);
    for (let i = 0; i < n; i += 500) {
      await Promise.all(Array.from({ length: Math.min(500, n - i) }, (_, k) => call('SubmitProof', Object.assign(req(i + k).submit, { request_id: 'q-' + (i + k) }))));
    }
    await new Promise((r) => setTimeout(r, 300));
    const after = rss(pid);
    const st = await call('GetStatus', {});
    const g = st.queues.find((q) => q.proof_kind === 'GENERIC_GROTH16');
    console.log(JSON.stringify({ mode, n, pending: g.pending, rss_before: before, rss_after: after,
      bytes_per_queued_job: (after - before) / n, witness_bytes: w(0).length }));
  }
  client.close();
})().catch((e) => { console.error(e); process.exit(1); });
