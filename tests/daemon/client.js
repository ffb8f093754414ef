// Node client of cuzkd (@grpc/grpc-js + @grpc/proto-loader, pinned in tests/js/package-lock.json):
// an independent gRPC stack checking cuzk.v1.ProvingEngine as a client built from the .proto sees it.
//
//   node client.js <scenario> --addr unix:///path|127.0.0.1:port [--http 127.0.0.1:port] [options]
//
// Scenarios: basic (every RPC, a proof verified by snarkjs, idempotency, bad input), load (N jobs
// with distinct witnesses, all verified), slow (priorities, cancel, timeout, client disconnect; needs a
// daemon with debug.prove_delay_ms), sigterm (jobs in flight when the daemon gets SIGTERM),
// gpufail (a circuit that cannot be made resident on the GPU: engine.gpu_fallback), hostg1 (a
// .params key's host G1 copy: srs.keep_host_g1), post (PoSt jobs: daemon P of run.sh), porep
// (PoRep C2 jobs: daemon R), porep-badkey (a broken porep-2k .params: a server error), snap (SnapDeals
// jobs: daemon S), post-latency (WinningPoSt timing), verify-file (verify proofs written
// by the Go client). Prints "ok <check>" lines; exits 1 on a failure.
'use strict';
const path = require('path');
const fs = require('fs');
const http = require('http');
const JS = path.join(__dirname, '..', 'js', 'node_modules');
const grpc = require(path.join(JS, '@grpc/grpc-js'));
const protoLoader = require(path.join(JS, '@grpc/proto-loader'));
const snarkjs = require(path.join(JS, 'snarkjs'));

const ROOT = path.join(__dirname, '..', '..');
const PROTO = path.join(ROOT, 'src', 'daemon', 'proving.proto');
const FIX = path.join(ROOT, 'tests', 'fixtures');
const R = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001n;
const R_BN = 21888242871839275222246405745257275088548364400416034343698204186575808495617n;

const args = process.argv.slice(2);
const scenario = args[0];
function opt(name, dflt) {
  const i = args.indexOf('--' + name);
  return i >= 0 ? args[i + 1] : dflt;
}
const addr = opt('addr', 'unix:///nonexistent');
const tag = opt('tag', 'n');
let failures = 0;
function ok(cond, what, extra) {
  if (cond) console.log('ok ' + what);
  else { failures++; console.log('FAIL ' + what + (extra !== undefined ? ': ' + JSON.stringify(extra) : '')); }
}

const pkgDef = protoLoader.loadSync(PROTO, { keepCase: true, longs: Number, enums: String, defaults: true });
const proto = grpc.loadPackageDefinition(pkgDef).cuzk.v1;
const chanOpts = { 'grpc.max_receive_message_length': 256 << 20, 'grpc.max_send_message_length': 256 << 20 };
const client = new proto.ProvingEngine(addr, grpc.credentials.createInsecure(), chanOpts);
const raw = new grpc.Client(addr, grpc.credentials.createInsecure(), chanOpts);

function call(method, req, deadlineMs) {
  return new Promise((resolve) => {
    const o = deadlineMs ? { deadline: Date.now() + deadlineMs } : {};
    client[method](req, o, (err, resp) => resolve({ err, resp }));
  });
}
function rawCall(method, bytes) {
  return new Promise((resolve) => {
    raw.makeUnaryRequest(method, (x) => x, (x) => x, bytes, {}, (err, resp) => resolve({ err, resp }));
  });
}

// ---- witnesses -------------------------------------------------------------------------------
function le(x, n) {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) { b[i] = Number(x & 0xffn); x >>= 8n; }
  return b;
}
function wtns(values, prime = R) {
  const n8 = 32;
  const s1 = Buffer.concat([le(BigInt(n8), 4), le(prime, n8), le(BigInt(values.length), 4)]);
  const s2 = Buffer.concat(values.map((v) => le(((v % prime) + prime) % prime, n8)));
  const sec = (t, d) => Buffer.concat([le(BigInt(t), 4), le(BigInt(d.length), 8), d]);
  return Buffer.concat([Buffer.from('wtns'), le(2n, 4), le(2n, 4), sec(1, s1), sec(2, s2)]);
}
// multiplier: wires [1, c, a, b], c = a*b public.
function multWitness(a, b) { return { w: wtns([1n, (a * b) % R, a, b]), c: ((a * b) % R).toString() }; }
function randField() {
  const b = require('crypto').randomBytes(32);
  let x = 0n;
  for (const v of b) x = (x << 8n) | BigInt(v);
  return x % R;
}

const vkey = JSON.parse(fs.readFileSync(path.join(FIX, 'bls12381', 'multiplier', 'verification_key.json')));
async function verify(proofJson, publicJson) {
  try { return await snarkjs.groth16.verify(vkey, JSON.parse(publicJson), JSON.parse(proofJson)); }
  catch (e) { return false; }
}

function submitReq(fields) {
  return Object.assign({ proof_kind: 'GENERIC_GROTH16', priority: 'NORMAL', circuit_id: 'mult' }, fields);
}
function httpGet(hp, p) {
  return new Promise((resolve) => {
    const [host, port] = hp.split(':');
    http.get({ host, port: Number(port), path: p }, (res) => {
      let d = '';
      res.on('data', (c) => (d += c));
      res.on('end', () => resolve({ code: res.statusCode, body: d }));
    }).on('error', (e) => resolve({ code: 0, body: String(e) }));
  });
}
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---- scenarios -------------------------------------------------------------------------------
async function basic() {
  // Prove + snarkjs
  const m = multWitness(3n, 11n);
  let r = await call('Prove', { submit: submitReq({ request_id: `${tag}-basic-1`, witness: m.w }) });
  ok(!r.err && r.resp.result, 'Prove answers with a result', r.err && r.err.message);
  const res = r.resp && r.resp.result;
  ok(res && res.status === 'COMPLETED', 'Prove COMPLETED', res);
  ok(res && JSON.parse(res.public_json)[0] === '33', 'public input is a*b = 33', res && res.public_json);
  ok(res && (await verify(res.proof_json, res.public_json)), 'the proof verifies in snarkjs');
  ok(res && res.completion_seq > 0 && res.total_ms >= 0, 'timings and completion_seq filled');
  ok(res && res.proof && res.proof.length === 192, '192-byte bellperson proof bytes', res && res.proof && res.proof.length);

  // gzip-compressed request (Curio's client may compress)
  const gz = new proto.ProvingEngine(addr, grpc.credentials.createInsecure(), Object.assign({ 'grpc.default_compression_algorithm': 2 }, chanOpts));
  const gr = await new Promise((resolve) => gz.Prove({ submit: submitReq({ witness: multWitness(6n, 7n).w }) }, (err, resp) => resolve({ err, resp })));
  ok(!gr.err && gr.resp.result.status === 'COMPLETED' && JSON.parse(gr.resp.result.public_json)[0] === '42', 'gzip-compressed request', gr.err && gr.err.message);
  gz.close();

  // Submit + Await, idempotent request_id
  const m2 = multWitness(randField(), randField());
  const s1 = await call('SubmitProof', submitReq({ request_id: `${tag}-idem`, witness: m2.w }));
  const s2 = await call('SubmitProof', submitReq({ request_id: `${tag}-idem`, witness: m2.w, priority: 'HIGH' }));
  ok(!s1.err && !s2.err && s1.resp.job_id && s1.resp.job_id === s2.resp.job_id, 'same request_id and inputs: same job',
     [s1.resp, s2.resp]);
  let a = await call('AwaitProof', { job_id: s1.resp.job_id, timeout_ms: 60000 });
  ok(!a.err && a.resp.status === 'COMPLETED' && JSON.parse(a.resp.public_json)[0] === m2.c, 'AwaitProof COMPLETED, own public input');
  ok(await verify(a.resp.proof_json, a.resp.public_json), 'awaited proof verifies in snarkjs');
  const s3 = await call('SubmitProof', submitReq({ request_id: `${tag}-idem`, witness: m2.w }));
  ok(!s3.err && s3.resp.job_id === s1.resp.job_id && s3.resp.queue_position === 0, 'same id after completion: same job, position 0');
  const m3 = multWitness(5n, 7n);
  const s4 = await call('SubmitProof', submitReq({ request_id: `${tag}-idem`, witness: m3.w }));
  ok(!s4.err && s4.resp.job_id !== s1.resp.job_id, 'same request_id, other inputs: a new job');
  a = await call('AwaitProof', { job_id: s4.resp.job_id });
  ok(!a.err && a.resp.status === 'COMPLETED' && JSON.parse(a.resp.public_json)[0] === '35', 'the new job proves its own inputs');

  // failed job + retry with the same request_id starts a new job
  const bad = wtns([1n, 34n, 3n, 11n]);
  const f1 = await call('SubmitProof', submitReq({ request_id: `${tag}-retry`, witness: bad }));
  a = await call('AwaitProof', { job_id: f1.resp.job_id });
  ok(!a.err && a.resp.status === 'FAILED' && /satisf/i.test(a.resp.error_message), 'unsatisfied witness: FAILED, says so',
     a.resp);
  // without the .r1cs no constraint is checked: the proof itself fails its check, naming the circuit
  a = await call('Prove', { submit: submitReq({ circuit_id: 'multnr', witness: bad }) });
  ok(!a.err && a.resp.result.status === 'FAILED' && /circuit multnr: the proof does not verify/.test(a.resp.result.error_message),
     'unsatisfied witness, key without its r1cs: FAILED, "circuit multnr: the proof does not verify"', a.err ? a.err.details : a.resp.result);
  const f2 = await call('SubmitProof', submitReq({ request_id: `${tag}-retry`, witness: bad }));
  ok(!f2.err && f2.resp.job_id !== f1.resp.job_id, 'retry of a FAILED request_id: a new job');
  await call('AwaitProof', { job_id: f2.resp.job_id });

  // witness faults
  const cases = [
    ['wrong-length witness', wtns([1n, 33n, 3n, 11n, 5n]), /length|size|fit|mismatch|vars|witness/i],
    ['wrong-curve witness (BN254)', fs.readFileSync(path.join(FIX, 'bn128', 'multiplier', 'witness.wtns')), /curve|prime|field|bn/i],
    ['not a .wtns', Buffer.from('hello, not a witness'), /wtns|format|magic/i],
  ];
  for (const [name, w, re] of cases) {
    r = await call('Prove', { submit: submitReq({ witness: w }) });
    const x = r.resp && r.resp.result;
    ok(!r.err && x && x.status === 'FAILED' && re.test(x.error_message), name + ': FAILED with a clear message',
       r.err ? r.err.message : x);
  }

  // unknown kind, unknown circuit, missing witness, Filecoin kinds fail cleanly
  r = await call('SubmitProof', { proof_kind: 'GENERIC_GROTH16', circuit_id: 'nope', witness: m.w });
  ok(r.err && r.err.code === grpc.status.NOT_FOUND && /nope/.test(r.err.details), 'unknown circuit: NOT_FOUND', r.err && r.err.details);
  r = await rawCall('/cuzk.v1.ProvingEngine/SubmitProof', Buffer.from([0x10, 0x63])); // proof_kind = 99
  ok(r.err && r.err.code === grpc.status.INVALID_ARGUMENT && /proof_kind 99/.test(r.err.details), 'unknown proof kind: INVALID_ARGUMENT',
     r.err && r.err.details);
  r = await call('SubmitProof', { proof_kind: 'GENERIC_GROTH16', circuit_id: 'mult' });
  ok(r.err && r.err.code === grpc.status.INVALID_ARGUMENT, 'no witness: INVALID_ARGUMENT');
  // control characters from the request are escaped in the error text (and in the daemon's log)
  r = await call('SubmitProof', { proof_kind: 'GENERIC_GROTH16', circuit_id: 'evil\u001b[31m\nline2', witness: m.w });
  ok(r.err && r.err.code === grpc.status.NOT_FOUND && !/[\u0000-\u001f\u007f]/.test(r.err.details) &&
     r.err.details.includes('evil\\x1b[31m\\x0aline2'), 'control characters in an error text are escaped (\\xNN)',
     r.err && r.err.details);
  r = await call('PreloadSRS', { circuit_id: 'x\ty\rz' });
  ok(r.err && r.err.code === grpc.status.NOT_FOUND && r.err.details.includes('x\\x09y\\x0dz'), 'escaped in PreloadSRS errors too',
     r.err && r.err.details);
  for (const k of ['POREP_SEAL_COMMIT', 'SNAP_DEALS_UPDATE', 'WINDOW_POST_PARTITION', 'WINNING_POST']) {
    r = await call('Prove', { submit: { request_id: `${tag}-${k}`, proof_kind: k, priority: 'CRITICAL', vanilla_proof: Buffer.from('{}') } }, 20000);
    const x = r.resp && r.resp.result;
    ok(!r.err && x && x.status === 'FAILED' && /cannot prove/.test(x.error_message), `${k}: FAILED at once, says why`,
       r.err ? r.err.message : x);
  }

  // malformed protobuf, invalid UTF-8, unknown methods, oversized
  r = await rawCall('/cuzk.v1.ProvingEngine/SubmitProof', Buffer.from([0x0a, 0x7f, 0x41]));
  ok(r.err && r.err.code === grpc.status.INVALID_ARGUMENT && /malformed/.test(r.err.details), 'malformed protobuf: INVALID_ARGUMENT',
     r.err && r.err.details);
  r = await rawCall('/cuzk.v1.ProvingEngine/AwaitProof', Buffer.from([0x0a, 0x02, 0xc3, 0x28]));
  ok(r.err && r.err.code === grpc.status.INVALID_ARGUMENT && /UTF-8/.test(r.err.details), 'invalid UTF-8: INVALID_ARGUMENT',
     r.err && r.err.details);
  r = await rawCall('/cuzk.v1.ProvingEngine/PreloadSRS', Buffer.from([0x0a, 0x03, 0x61, 0x00, 0x62]));
  ok(r.err && r.err.code === grpc.status.INVALID_ARGUMENT && /UTF-8|NUL/.test(r.err.details), 'string with NUL: INVALID_ARGUMENT');
  r = await rawCall('/cuzk.v1.ProvingEngine/NoSuchMethod', Buffer.alloc(0));
  ok(r.err && r.err.code === grpc.status.UNIMPLEMENTED, 'unknown method: UNIMPLEMENTED', r.err && r.err.code);
  r = await rawCall('/other.Service/Prove', Buffer.alloc(0));
  ok(r.err && r.err.code === grpc.status.UNIMPLEMENTED, 'unknown service: UNIMPLEMENTED');
  r = await call('SubmitProof', submitReq({ witness: Buffer.alloc((128 << 20) + 1024) }));
  ok(r.err && r.err.code === grpc.status.RESOURCE_EXHAUSTED, 'message over 128 MiB: RESOURCE_EXHAUSTED', r.err && [r.err.code, r.err.details]);
  r = await call('SubmitProof', submitReq({ request_id: `${tag}-big`, witness: Buffer.concat([multWitness(2n, 2n).w, Buffer.alloc(64 << 20)]) }));
  ok(!r.err && r.resp.job_id, 'a 64 MiB message is accepted', r.err && r.err.details);
  if (!r.err) {
    a = await call('AwaitProof', { job_id: r.resp.job_id });
    ok(a.resp && a.resp.status === 'FAILED', 'its oversized witness fails the job cleanly', a.resp);
  }

  // Cancel of a finished / unknown job, Await of an unknown job
  r = await call('CancelProof', { job_id: s1.resp.job_id });
  ok(!r.err && r.resp.was_running === false && r.resp.found === true, 'CancelProof of a finished job: found, not running');
  r = await call('CancelProof', { job_id: 'job-does-not-exist' });
  ok(!r.err && r.resp.found === false, 'CancelProof of an unknown job: not found');
  r = await call('AwaitProof', { job_id: 'job-does-not-exist' });
  ok(r.err && r.err.code === grpc.status.NOT_FOUND, 'AwaitProof of an unknown job: NOT_FOUND');

  // SRS: preload, evict, a broken file, unknown id
  r = await call('EvictSRS', { circuit_id: 'mult' });
  ok(!r.err, 'EvictSRS mult', r.err && r.err.details);
  r = await call('PreloadSRS', { circuit_id: 'mult' });
  ok(!r.err && r.resp.already_loaded === false, 'PreloadSRS after evict loads it', r.err ? r.err.details : r.resp);
  r = await call('PreloadSRS', { circuit_id: 'mult' });
  ok(!r.err && r.resp.already_loaded === true, 'PreloadSRS again: already loaded');
  r = await call('EvictSRS', { circuit_id: 'mult' });
  ok(!r.err && r.resp.was_loaded === true, 'EvictSRS: was loaded');
  for (const [id, re] of [['truncated', /truncated|size|section|format/i], ['corrupt', /magic|zkey|format/i], ['badpoint', /not on the curve/]]) {
    r = await call('PreloadSRS', { circuit_id: id });
    ok(r.err && r.err.code === grpc.status.FAILED_PRECONDITION && r.err.details.includes(id) && re.test(r.err.details),
       `PreloadSRS of a ${id} key: FAILED_PRECONDITION, says why`, r.err ? r.err.details : r.resp);
  }
  r = await call('PreloadSRS', { circuit_id: 'no-such-circuit' });
  ok(r.err && r.err.code === grpc.status.NOT_FOUND, 'PreloadSRS unknown id: NOT_FOUND');
  r = await call('Prove', { submit: submitReq({ circuit_id: 'truncated', witness: m.w }) });
  ok(!r.err && r.resp.result.status === 'FAILED', 'a job on a broken key: FAILED', r.err ? r.err.details : r.resp.result);

  // the daemon still serves: GetStatus, GetMetrics, HTTP
  r = await call('GetStatus', {});
  ok(!r.err && r.resp.queues.length >= 5 && r.resp.total_proofs_completed >= 3 && r.resp.loaded_srs.some((s) => s.circuit_id === 'mult'),
     'GetStatus: queues, totals, SRS', r.err ? r.err.details : r.resp);
  ok(r.resp && r.resp.gpus.length === 1 && r.resp.gpus[0].name === 'cpu' && r.resp.gpus[0].ordinal === 0,
     'GetStatus: one device, the CPU backend', r.resp && r.resp.gpus);
  r = await call('PreloadSRS', { circuit_id: 'mult' });
  r = await call('GetStatus', {});
  const ms = r.resp && r.resp.loaded_srs.find((s) => s.circuit_id === 'mult');
  ok(ms && ms.tier === 'HOT' && ms.size_bytes > 1000 && ms.ref_count === 0, 'GetStatus: a loaded key is HOT, its host bytes, no proof on it', ms);
  const tr = r.resp && r.resp.loaded_srs.find((s) => s.circuit_id === 'truncated');
  ok(tr && tr.tier === 'COLD' && Number(tr.size_bytes) === 0, 'GetStatus: a key never loaded is COLD with 0 bytes', tr);
  r = await call('GetMetrics', {});
  ok(!r.err && /cuzk_proofs_completed_total\{proof_kind="GENERIC_GROTH16"\} [1-9]/.test(r.resp.prometheus_text), 'GetMetrics: Prometheus text');
  const hp = opt('http');
  if (hp) {
    let h = await httpGet(hp, '/metrics');
    ok(h.code === 200 && /# TYPE cuzk_queue_depth gauge/.test(h.body), 'HTTP GET /metrics');
    h = await httpGet(hp, '/status');
    let j = null;
    try { j = JSON.parse(h.body); } catch (e) { /* checked below */ }
    ok(h.code === 200 && j && j.total_proofs_completed >= 3, 'HTTP GET /status is JSON');
    ok(j && j.engine_backend === 'cpu' && j.gpus.length === 1 && j.gpus[0].vram_total_bytes === 0 &&
       'resident_bytes' in j.gpus[0] && j.job_budget_bytes === 0, 'HTTP /status: the engine\'s devices and budget', j && j.gpus);
    h = await httpGet(hp, '/metrics');
    ok(/cuzk_gpu_vram_total_bytes\{ordinal="0"\} 0/.test(h.body) && /cuzk_job_budget_bytes 0/.test(h.body) &&
       /cuzk_job_budget_max_reserved_bytes [1-9]/.test(h.body), 'HTTP /metrics: device and budget gauges');
    h = await httpGet(hp, '/nope');
    ok(h.code === 404, 'HTTP unknown path: 404');
  }
}

async function load() {
  const n = Number(opt('n', '40'));
  const jobs = [];
  for (let i = 0; i < n; i++) jobs.push(Object.assign({ i }, multWitness(randField(), randField())));
  const res = await Promise.all(jobs.map((j) =>
    call('Prove', { submit: submitReq({ request_id: `${tag}-load-${j.i}`, witness: j.w, priority: ['LOW', 'NORMAL', 'HIGH', 'CRITICAL'][j.i % 4] }) })));
  let good = 0, own = 0, verified = 0;
  const seqs = new Set();
  for (let i = 0; i < n; i++) {
    const x = res[i].resp && res[i].resp.result;
    if (!res[i].err && x && x.status === 'COMPLETED') good++;
    else console.log('  job', i, res[i].err ? res[i].err.message : x);
    if (x && x.public_json && JSON.parse(x.public_json)[0] === jobs[i].c) own++;
    if (x && x.completion_seq) seqs.add(x.completion_seq);
    if (x && x.proof_json && (await verify(x.proof_json, x.public_json))) verified++;
  }
  ok(good === n, `load ${tag}: ${good}/${n} COMPLETED`);
  ok(own === n, `load ${tag}: every proof carries its own public input (${own}/${n})`);
  ok(seqs.size === n, `load ${tag}: ${seqs.size} distinct completions (none duplicated)`);
  ok(verified === n, `load ${tag}: ${verified}/${n} verify in snarkjs`);
}

// Polls GetStatus until pred(status) holds; false after limitMs.
async function waitStatus(pred, limitMs = 20000) {
  const t0 = Date.now();
  for (;;) {
    const r = await call('GetStatus', {});
    if (!r.err && pred(r.resp)) return true;
    if (Date.now() - t0 > limitMs) return false;
    await sleep(20);
  }
}
const generic = (st) => st.queues.find((q) => q.proof_kind === 'GENERIC_GROTH16');

async function slow() {
  // Needs a daemon with one worker, debug.prove_delay_ms (each proof lasts that long) and
  // debug.hold_circuit = "hold" (a job on circuit "hold" proves until it is cancelled): a held job
  // keeps the one worker busy for sure, so what is queued behind it stays queued whatever the
  // machine's load (no race against the delay).
  const delay = Number(opt('delay', '150'));
  const hold = (w) => call('SubmitProof', submitReq({ circuit_id: 'hold', witness: w }));
  const running = (id) => waitStatus((st) => generic(st).in_progress === 1 && st.gpus.some((g) => g.current_job_id === id));

  // priorities: 20 NORMAL then a CRITICAL, all queued behind a held job
  const h0 = await hold(multWitness(9n, 9n).w);
  ok(!h0.err && (await running(h0.resp.job_id)), 'a held job occupies the worker', h0.err && h0.err.details);
  const normals = [];
  for (let i = 0; i < 20; i++) {
    const r = await call('SubmitProof', submitReq({ request_id: `${tag}-prio-${i}`, witness: multWitness(BigInt(i + 2), 3n).w }));
    normals.push(r.resp.job_id);
  }
  const crit = await call('SubmitProof', submitReq({ request_id: `${tag}-crit`, priority: 'CRITICAL', witness: multWitness(7n, 7n).w }));
  ok(!crit.err && crit.resp.queue_position === 1, 'CRITICAL behind 20 NORMAL: queue position 1', crit.resp);
  const st = await call('GetStatus', {});
  const g = generic(st.resp);
  ok(g && g.pending === 21 && g.in_progress === 1, 'GetStatus counts pending 21, in_progress 1', g);
  let r = await call('CancelProof', { job_id: h0.resp.job_id });
  ok(!r.err && r.resp.found && r.resp.was_running === true, 'cancel of the held job: was_running true', r.resp);
  const c = await call('AwaitProof', { job_id: crit.resp.job_id });
  const outs = await Promise.all(normals.map((id) => call('AwaitProof', { job_id: id })));
  const later = outs.filter((o) => o.resp.completion_seq > c.resp.completion_seq).length;
  ok(c.resp.status === 'COMPLETED' && later === 20, `CRITICAL finished before ${later} of 20 NORMAL`,
     [c.resp.completion_seq, outs.map((o) => o.resp.completion_seq)]);
  const order = outs.map((o) => o.resp.completion_seq);
  ok(order.every((v, i) => i === 0 || v > order[i - 1]), 'NORMAL jobs finish first-come first-served');
  ok(outs.every((o) => o.resp.status === 'COMPLETED'), 'every NORMAL job completes');

  // cancel while queued and while proving: j1 proves until cancelled, j2 waits behind it
  const j1 = await hold(multWitness(2n, 5n).w);
  ok(!j1.err && (await running(j1.resp.job_id)), 'j1 is proving');
  const j2 = await call('SubmitProof', submitReq({ witness: multWitness(2n, 6n).w }));
  r = await call('CancelProof', { job_id: j2.resp.job_id });
  ok(!r.err && r.resp.found && r.resp.was_running === false, 'cancel while queued: was_running false', r.resp);
  r = await call('CancelProof', { job_id: j1.resp.job_id });
  ok(!r.err && r.resp.found && r.resp.was_running === true, 'cancel while proving: was_running true', r.resp);
  const [a1, a2] = await Promise.all([call('AwaitProof', { job_id: j1.resp.job_id }), call('AwaitProof', { job_id: j2.resp.job_id })]);
  ok(a1.resp.status === 'CANCELLED' && a2.resp.status === 'CANCELLED', 'both end CANCELLED', [a1.resp.status, a2.resp.status]);
  // j1 could only end by its cancellation: the running proof was stopped, not waited for
  ok(/while proving/.test(a1.resp.error_message) && /while queued/.test(a2.resp.error_message),
     'the running job was stopped while proving, the queued one while queued', [a1.resp.error_message, a2.resp.error_message]);

  // await timeout: the job goes on
  const j3 = await call('SubmitProof', submitReq({ witness: multWitness(3n, 5n).w }));
  const t0 = Date.now();
  r = await call('AwaitProof', { job_id: j3.resp.job_id, timeout_ms: Math.floor(delay / 5) });
  const dt = Date.now() - t0;
  ok(!r.err && r.resp.status === 'TIMEOUT' && dt < delay, `AwaitProof timeout_ms: TIMEOUT after ${dt} ms`, r.resp);
  r = await call('AwaitProof', { job_id: j3.resp.job_id, timeout_ms: 0 });
  ok(!r.err && r.resp.status === 'COMPLETED', 'the job completes anyway (timeout 0 = wait forever)');

  // client gives up mid-await (deadline, then an explicit cancel): the daemon keeps serving
  const j4 = await call('SubmitProof', submitReq({ witness: multWitness(3n, 6n).w }));
  r = await call('AwaitProof', { job_id: j4.resp.job_id }, Math.floor(delay / 4));
  ok(r.err && r.err.code === grpc.status.DEADLINE_EXCEEDED, 'client deadline mid-await');
  const callObj = client.AwaitProof({ job_id: j4.resp.job_id }, () => {});
  await sleep(10);
  callObj.cancel();
  r = await call('AwaitProof', { job_id: j4.resp.job_id });
  ok(!r.err && r.resp.status === 'COMPLETED', 'after two abandoned awaits the job still completes');

  // a Prove abandoned by its client cancels its job: the job is surely still queued (behind a
  // held job) when the client goes, so only its cancellation can end it
  const before = (await call('GetStatus', {})).resp.total_proofs_cancelled;
  const h1 = await hold(multWitness(8n, 8n).w);
  ok(!h1.err && (await running(h1.resp.job_id)), 'a held job occupies the worker again');
  const pc = client.Prove({ submit: submitReq({ request_id: `${tag}-abandon`, witness: multWitness(4n, 6n).w }) }, () => {});
  ok(await waitStatus((s) => generic(s).pending === 1), 'the abandoned Prove\'s job is queued');
  pc.cancel();
  ok(await waitStatus((s) => s.total_proofs_cancelled === before + 1 && generic(s).pending === 0),
     'the abandoned Prove\'s job is cancelled (queued, never run)');
  r = await call('CancelProof', { job_id: h1.resp.job_id });
  ok(!r.err && r.resp.was_running === true, 'the held job is cancelled while proving');
  r = await call('SubmitProof', submitReq({ request_id: `${tag}-abandon`, witness: multWitness(4n, 6n).w }));
  const a5 = await call('AwaitProof', { job_id: r.resp.job_id });
  ok(a5.resp.status === 'COMPLETED', 'a Prove abandoned by its client: its retry gets a fresh job that completes');
  r = await call('GetStatus', {});
  // h0, j1, j2, the abandoned Prove's job, h1: exactly five, whatever the timing
  ok(!r.err && r.resp.total_proofs_cancelled === 5, 'cancelled jobs are counted', r.resp && r.resp.total_proofs_cancelled);

  // host budget (engine.host_budget fits one key): loading mult2 releases the idle mult
  r = await call('PreloadSRS', { circuit_id: 'mult2' });
  ok(!r.err && !r.resp.already_loaded, 'PreloadSRS mult2', r.err && r.err.details);
  r = await call('GetStatus', {});
  const tier = (id) => r.resp.loaded_srs.find((x) => x.circuit_id === id).tier;
  ok(tier('mult') === 'COLD' && tier('mult2') === 'HOT', 'over the host budget the idle key was released', r.resp.loaded_srs);
  // idle eviction (srs.idle_evict_s = 2)
  await sleep(3000);
  r = await call('GetStatus', {});
  ok(tier('mult2') === 'COLD', 'a key idle for srs.idle_evict_s is released', r.resp.loaded_srs);
}

async function budget() {
  // Needs a daemon with engine.job_budget smaller than one proof of circuit mult.
  const r = await call('Prove', { submit: submitReq({ witness: multWitness(3n, 4n).w }) });
  const x = r.resp && r.resp.result;
  ok(!r.err && x && x.status === 'FAILED' && /circuit mult: engine\.job_budget/.test(x.error_message) && /bytes/.test(x.error_message),
     'a proof over engine.job_budget: FAILED, the circuit, the budget and the bytes named', r.err ? r.err.details : x);
  const st = await call('GetStatus', {});
  ok(!st.err && st.resp.total_proofs_failed === 1, 'counted as failed');
  // a BN254 job is held to the same budget (one dispatcher for every curve)
  const b = await call('Prove', { submit: submitReq({ circuit_id: 'bnmult', witness: bnMultWitness(3n, 4n).w }) });
  const bx = b.resp && b.resp.result;
  ok(!b.err && bx && bx.status === 'FAILED' && /job_budget/.test(bx.error_message) && /bytes/.test(bx.error_message),
     'a BN254 proof over engine.job_budget: FAILED the same way', b.err ? b.err.details : bx);
  const st2 = await call('GetStatus', {});
  ok(!st2.err && st2.resp.total_proofs_failed === 2, 'counted as failed too');
}

async function gpufail() {
  // Needs a daemon with backend "gpu" whose circuits mult and bnmult (BN254) cannot be made
  // resident on the GPU (no usable device, or engine.gpu_budget far below their need), and --expect cpu (engine.gpu_fallback = "cpu") or none (--code: the gRPC status of
  // PreloadSRS; --why: a pattern its message and the job's error must match).
  const expect = opt('expect', 'none');
  const why = new RegExp(opt('why', 'GPU'));
  const hp = opt('http');
  const srs = async (id) => {
    const r = await call('GetStatus', {});
    return r.err ? null : (r.resp.loaded_srs.find((x) => x.circuit_id === id) || null);
  };
  const m = multWitness(randField(), randField());
  if (expect === 'cpu') {
    let s = await srs('mult');
    ok(s && s.tier === 'HOT' && s.backend === 'cpu (GPU fallback)', 'preloaded at start on the CPU fallback', s);
    const p = await call('PreloadSRS', { circuit_id: 'mult' });
    ok(!p.err && p.resp.already_loaded, 'PreloadSRS: already loaded (on the CPU)', p.err && p.err.details);
    const r = await call('Prove', { submit: submitReq({ witness: m.w }) });
    const x = r.resp && r.resp.result;
    ok(!r.err && x && x.status === 'COMPLETED' && JSON.parse(x.public_json)[0] === m.c, 'the job COMPLETED on the CPU fallback',
       r.err ? r.err.details : x);
    ok(x && (await verify(x.proof_json, x.public_json)), 'its proof verifies in snarkjs');
    const e = await call('EvictSRS', { circuit_id: 'mult' });
    ok(!e.err && e.resp.was_loaded, 'EvictSRS of the fallback key');
    const r2 = await call('Prove', { submit: submitReq({ witness: multWitness(4n, 9n).w }) });
    const x2 = r2.resp && r2.resp.result;
    ok(!r2.err && x2 && x2.status === 'COMPLETED' && (await verify(x2.proof_json, x2.public_json)),
       'loaded again by a job: falls back again, the proof verifies', r2.err ? r2.err.details : x2);
    s = await srs('mult');
    ok(s && s.backend === 'cpu (GPU fallback)', 'GetStatus: backend "cpu (GPU fallback)"', s);
    if (hp) {
      const h = await httpGet(hp, '/metrics');
      ok(/cuzk_srs_gpu_fallback\{circuit_id="mult"\} 1/.test(h.body), '/metrics: cuzk_srs_gpu_fallback 1');
    }
  } else {
    const code = grpc.status[opt('code', 'UNAVAILABLE')];
    const p = await call('PreloadSRS', { circuit_id: 'mult' });
    ok(p.err && p.err.code === code && /circuit mult/.test(p.err.details) && why.test(p.err.details) &&
       /gpu_fallback/.test(p.err.details), `PreloadSRS: ${opt('code', 'UNAVAILABLE')}, naming the circuit and the reason`,
       p.err ? [p.err.code, p.err.details] : p.resp);
    const r = await call('Prove', { submit: submitReq({ witness: m.w }) });
    const x = r.resp && r.resp.result;
    ok(!r.err && x && x.status === 'FAILED' && /circuit mult/.test(x.error_message) && why.test(x.error_message),
       'the job FAILED, naming the circuit and the reason', r.err ? r.err.details : x);
    const s = await srs('mult');
    ok(s && s.tier === 'COLD', 'GetStatus still answers; the circuit is not loaded', s);
  }
  // a BN254 circuit follows the same policy (an engine circuit like the others): on the CPU
  // fallback it is proved and verifies; with "none" its job fails with the same reason
  const bw = fs.readFileSync(path.join(FIX, 'bn128', 'multiplier', 'witness.wtns'));
  const r = await call('Prove', { submit: submitReq({ circuit_id: 'bnmult', witness: bw }) });
  const x = r.resp && r.resp.result;
  if (expect === 'cpu') {
    ok(!r.err && x && x.status === 'COMPLETED' && (await bnVerify(x.proof_json, x.public_json)),
       'a BN254 circuit is proved on the CPU fallback too and verifies', r.err ? r.err.details : x && x.error_message);
    const s = await srs('bnmult');
    ok(s && s.backend === 'cpu (GPU fallback)', 'GetStatus: bnmult on "cpu (GPU fallback)"', s);
  } else {
    ok(!r.err && x && x.status === 'FAILED' && /circuit bnmult/.test(x.error_message) && why.test(x.error_message),
       'a BN254 job FAILED the same way, naming its circuit and the reason', r.err ? r.err.details : x);
    const s = await srs('bnmult');
    ok(s && s.tier === 'COLD', 'GetStatus still answers; bnmult is not loaded either', s);
  }
}

// ---- BN254 (circom bn128) circuits: proved through the engine like the others ----------------------
const bnVkey = JSON.parse(fs.readFileSync(path.join(FIX, 'bn128', 'multiplier', 'verification_key.json')));
async function bnVerify(proofJson, publicJson) {
  try { return await snarkjs.groth16.verify(bnVkey, JSON.parse(publicJson), JSON.parse(proofJson)); }
  catch (e) { return false; }
}
function bnMultWitness(a, b) { return { w: wtns([1n, (a * b) % R_BN, a, b], R_BN), c: ((a * b) % R_BN).toString() }; }
function bnRandField() { return randField() % R_BN; }

async function bn254() {
  // Needs a daemon with circuits bnmult (the bn128 multiplier zkey with its r1cs), bnmultnr (the
  // zkey alone) and mult (BLS12-381), and nothing else submitting meanwhile (GetStatus deltas).
  const hp = opt('http');
  const before = (await call('GetStatus', {})).resp;
  // the fixture's witness, then random ones: snarkjs verifies each proof with its own public input
  const fw = fs.readFileSync(path.join(FIX, 'bn128', 'multiplier', 'witness.wtns'));
  let r = await call('Prove', { submit: submitReq({ circuit_id: 'bnmult', witness: fw }) });
  let x = r.resp && r.resp.result;
  ok(!r.err && x && x.status === 'COMPLETED' && JSON.parse(x.public_json)[0] === '33', 'BN254 Prove COMPLETED, public 33',
     r.err ? r.err.details : x);
  ok(x && (await bnVerify(x.proof_json, x.public_json)), 'the BN254 proof verifies in snarkjs');
  ok(x && x.proof.length === 0, 'no 192-byte bellperson bytes for BN254 (proof_json is the answer)', x && x.proof.length);
  ok(x && JSON.parse(x.proof_json).curve === 'bn128' && JSON.parse(x.proof_json).protocol === 'groth16', 'proof.json names bn128');
  const jobs = [];
  for (let i = 0; i < 6; i++) {
    const m = bnMultWitness(bnRandField(), bnRandField());
    jobs.push([m, await call('SubmitProof', submitReq({ circuit_id: i % 2 ? 'bnmult' : 'bnmultnr', witness: m.w, request_id: `${tag}-bn-${i}` }))]);
  }
  for (const [m, s] of jobs) {
    const a = await call('AwaitProof', { job_id: s.resp.job_id });
    ok(!a.err && a.resp.status === 'COMPLETED' && JSON.parse(a.resp.public_json)[0] === m.c &&
       (await bnVerify(a.resp.proof_json, a.resp.public_json)), 'a random BN254 job: its own public input, verifies in snarkjs',
       a.err ? a.err.details : a.resp);
  }
  // mixed with BLS12-381 jobs at once
  const mixed = [];
  for (let i = 0; i < 4; i++) {
    const bls = i % 2 === 0;
    const m = bls ? multWitness(randField(), randField()) : bnMultWitness(bnRandField(), bnRandField());
    mixed.push([bls, m, await call('SubmitProof', submitReq({ circuit_id: bls ? 'mult' : 'bnmult', witness: m.w }))]);
  }
  let good = 0;
  for (const [bls, m, s] of mixed) {
    const a = await call('AwaitProof', { job_id: s.resp.job_id });
    if (!a.err && a.resp.status === 'COMPLETED' && JSON.parse(a.resp.public_json)[0] === m.c &&
        (bls ? await verify(a.resp.proof_json, a.resp.public_json) : await bnVerify(a.resp.proof_json, a.resp.public_json)) &&
        a.resp.proof.length === (bls ? 192 : 0)) good++;
  }
  ok(good === 4, `BLS12-381 and BN254 jobs submitted together: ${good}/4 complete and verify`);
  // bad witnesses: each FAILED with a clear message
  const cases = [
    ['BN254: wrong-length witness', 'bnmult', wtns([1n, 33n, 3n, 11n, 5n], R_BN), /values.*variables/i],
    ['BN254: a BLS12-381 witness', 'bnmult', multWitness(3n, 11n).w, /curve|prime|field/i],
    ['BN254: unsatisfied witness (r1cs)', 'bnmult', wtns([1n, 34n, 3n, 11n], R_BN), /satisfy constraint/],
    ['BN254: unsatisfied witness (no r1cs)', 'bnmultnr', wtns([1n, 34n, 3n, 11n], R_BN), /circuit bnmultnr: the proof does not verify/],
    ['BN254: value 0 not ONE', 'bnmult', wtns([2n, 33n, 3n, 11n], R_BN), /ONE|must be 1/],
    ['BN254: not a .wtns', 'bnmult', Buffer.from('hello, not a witness'), /wtns|format|magic/i],
  ];
  for (const [name, id, w, re] of cases) {
    r = await call('Prove', { submit: submitReq({ circuit_id: id, witness: w }) });
    x = r.resp && r.resp.result;
    ok(!r.err && x && x.status === 'FAILED' && re.test(x.error_message), name + ': FAILED with a clear message',
       r.err ? r.err.details : x && x.error_message);
  }
  // counted like every job; the key is an engine circuit on the engine's backend
  const st = (await call('GetStatus', {})).resp;
  ok(st.total_proofs_completed - before.total_proofs_completed === 11, 'GetStatus: 11 more completed',
     [before.total_proofs_completed, st.total_proofs_completed]);
  ok(st.total_proofs_failed - before.total_proofs_failed === cases.length, `GetStatus: ${cases.length} more failed`);
  const k = st.loaded_srs.find((s) => s.circuit_id === 'bnmult');
  ok(k && k.tier === 'HOT' && k.backend === 'cpu' && k.size_bytes > 0, 'GetStatus: bnmult HOT on the engine ("cpu")', k);
  if (hp) {
    const h = await httpGet(hp, '/metrics');
    ok(/cuzk_srs_loaded\{circuit_id="bnmult"\} 1/.test(h.body), '/metrics: cuzk_srs_loaded bnmult 1');
    const mr = /cuzk_job_budget_max_reserved_bytes (\d+)/.exec(h.body);
    ok(mr && Number(mr[1]) > 0, '/metrics: the engine\'s budget dispatcher saw the jobs', mr && mr[0]);
  }
}

async function bnslow() {
  // Needs a daemon with one worker, debug.hold_circuit = "bnhold" (a BN254 circuit: its job proves
  // until it is cancelled) and the BN254 circuit bnmult.
  const running = (id) => waitStatus((st) => generic(st).in_progress === 1 && st.gpus.some((g) => g.current_job_id === id));
  const h = await call('SubmitProof', submitReq({ circuit_id: 'bnhold', witness: bnMultWitness(2n, 5n).w }));
  ok(!h.err && (await running(h.resp.job_id)), 'a held BN254 job is proving on the engine\'s device', h.err && h.err.details);
  const q = await call('SubmitProof', submitReq({ circuit_id: 'bnmult', witness: bnMultWitness(2n, 6n).w }));
  const q2 = await call('SubmitProof', submitReq({ circuit_id: 'bnmult', priority: 'HIGH', witness: bnMultWitness(3n, 6n).w }));
  ok(!q.err && !q2.err && q2.resp.queue_position === 1, 'BN254 jobs queue behind it by priority', q2.resp);
  let r = await call('CancelProof', { job_id: q.resp.job_id });
  ok(!r.err && r.resp.found && r.resp.was_running === false, 'cancel of a queued BN254 job: was_running false', r.resp);
  r = await call('CancelProof', { job_id: h.resp.job_id });
  ok(!r.err && r.resp.found && r.resp.was_running === true, 'cancel of the proving BN254 job: was_running true', r.resp);
  const [a1, a2, a3] = await Promise.all([h, q, q2].map((s) => call('AwaitProof', { job_id: s.resp.job_id })));
  ok(a1.resp.status === 'CANCELLED' && /while proving/.test(a1.resp.error_message), 'the proving one ended CANCELLED while proving',
     a1.resp);
  ok(a2.resp.status === 'CANCELLED' && /while queued/.test(a2.resp.error_message), 'the queued one ended CANCELLED while queued',
     a2.resp);
  ok(a3.resp.status === 'COMPLETED' && JSON.parse(a3.resp.public_json)[0] === '18' &&
     (await bnVerify(a3.resp.proof_json, a3.resp.public_json)), 'the next BN254 job completes and verifies', a3.resp);
  const st = (await call('GetStatus', {})).resp;
  ok(st.total_proofs_cancelled === 2 && st.total_proofs_completed === 1, 'GetStatus counts 2 cancelled, 1 completed',
     [st.total_proofs_cancelled, st.total_proofs_completed]);
}

async function hostg1() {
  // Needs a daemon with circuit pmult: bellperson .params + .r1cs of the multiplier, --zkey the
  // snarkjs .zkey of the same setup (its verification key checks the proofs), --expect released
  // (GPU backend, srs.keep_host_g1 = false) or kept (CPU backend, or keep_host_g1 = true).
  const expect = opt('expect', 'kept');
  const hp = opt('http');
  const pvk = await snarkjs.zKey.exportVerificationKey(opt('zkey'));
  for (let round = 0; round < 2; round++) {
    const m = multWitness(randField(), randField());
    const r = await call('Prove', { submit: submitReq({ circuit_id: 'pmult', witness: m.w }) });
    const x = r.resp && r.resp.result;
    let v = false;
    try { v = x && await snarkjs.groth16.verify(pvk, JSON.parse(x.public_json), JSON.parse(x.proof_json)); } catch (e) { v = false; }
    ok(!r.err && x && x.status === 'COMPLETED' && JSON.parse(x.public_json)[0] === m.c && v,
       `.params circuit (load ${round + 1}): the job COMPLETED, its proof verifies in snarkjs`, r.err ? r.err.details : x && x.error_message);
    const st = await call('GetStatus', {});
    const s = st.resp && st.resp.loaded_srs.find((y) => y.circuit_id === 'pmult');
    ok(s && s.tier === 'HOT' && s.size_bytes > 0 &&
       (expect === 'released' ? s.host_released_bytes > 0 : s.host_released_bytes === 0),
       `GetStatus: host_released_bytes ${expect === 'released' ? '> 0' : '0 (the host copy is kept)'}`, s);
    if (hp && s) {
      const h = await httpGet(hp, '/status');
      let j = null;
      try { j = JSON.parse(h.body); } catch (e) { /* checked below */ }
      const js = j && j.loaded_srs.find((y) => y.circuit_id === 'pmult');
      ok(js && js.host_released_bytes === s.host_released_bytes, '/status: the same host_released_bytes', js);
      const mt = await httpGet(hp, '/metrics');
      ok(new RegExp(`cuzk_srs_host_released_bytes\\{circuit_id="pmult"\\} ${s.host_released_bytes}\n`).test(mt.body),
         '/metrics: cuzk_srs_host_released_bytes');
    }
    const e = await call('EvictSRS', { circuit_id: 'pmult' });
    ok(!e.err && e.resp.was_loaded, 'EvictSRS: the key is released (the next job loads it again)');
  }
}

async function sigterm() {
  // Submits jobs, then the daemon (pid) gets SIGTERM: every await ends (COMPLETED or CANCELLED), none hangs.
  const pid = Number(opt('pid'));
  const ids = [];
  for (let i = 0; i < 12; i++) {
    const r = await call('SubmitProof', submitReq({ witness: multWitness(BigInt(i + 2), 9n).w }));
    ids.push(r.resp.job_id);
  }
  const waits = ids.map((id) => call('AwaitProof', { job_id: id }, 60000));
  await sleep(50);
  process.kill(pid, 'SIGTERM');
  await sleep(20);
  const r = await call('SubmitProof', submitReq({ witness: multWitness(2n, 9n).w }), 5000);
  ok(r.err && r.err.code === grpc.status.UNAVAILABLE, 'a submit after SIGTERM: UNAVAILABLE', r.err && r.err.code);
  const outs = await Promise.all(waits);
  const st = outs.map((o) => (o.err ? 'rpc:' + o.err.code : o.resp.status));
  ok(st.every((s) => ['COMPLETED', 'CANCELLED', 'rpc:' + grpc.status.UNAVAILABLE, 'rpc:' + grpc.status.CANCELLED].includes(s)), 'every await ended', st);
  ok(st[0] === 'COMPLETED', 'the job in flight finished within the grace period', st);
  ok(st.includes('CANCELLED') || st.some((s) => s.startsWith('rpc:')), 'jobs beyond the grace period were cancelled', st);
}

async function retention() {
  // Needs a daemon with jobs.result_retention_s = 1 and jobs.max_retained = 3.
  const s1 = await call('SubmitProof', submitReq({ request_id: `${tag}-ret`, witness: multWitness(2n, 3n).w }));
  let a = await call('AwaitProof', { job_id: s1.resp.job_id });
  ok(!a.err && a.resp.status === 'COMPLETED', 'retention: the job completes');
  await sleep(1700);
  a = await call('AwaitProof', { job_id: s1.resp.job_id });
  ok(a.err && a.err.code === grpc.status.NOT_FOUND && /expired/.test(a.err.details), 'after result_retention_s the result is gone (NOT_FOUND)',
     a.err ? a.err.details : a.resp);
  const s2 = await call('SubmitProof', submitReq({ request_id: `${tag}-ret`, witness: multWitness(2n, 3n).w }));
  ok(!s2.err && s2.resp.job_id !== s1.resp.job_id, 'its request_id then starts a new job');
  const ids = [];
  for (let i = 0; i < 6; i++) {
    const r = await call('Prove', { submit: submitReq({ witness: multWitness(BigInt(i + 2), 5n).w }) });
    ids.push(r.resp.result.job_id);
  }
  await sleep(600);
  const st = await call('GetStatus', {});
  ok(st.resp.jobs_retained <= 3, `at most max_retained = 3 results kept (${st.resp.jobs_retained})`);
  a = await call('AwaitProof', { job_id: ids[0] });
  ok(a.err && a.err.code === grpc.status.NOT_FOUND, 'the oldest result went first');
  a = await call('AwaitProof', { job_id: ids[5] });
  ok(!a.err && a.resp.status === 'COMPLETED', 'the newest result is kept');
}

// PoSt jobs through the daemon (daemon P: wpost-32g with sectors = 1, winning-32g with sectors = 2,
// INSECURE test parameters): the golden vanilla proofs prove; each proof and its public inputs are
// written to --out for `cuzk verify --vk` against the public inputs cuzk derives (run.sh); corrupted
// vanilla proofs and mismatched registered_proof / sector_size are FAILED with the reason, no proof.
async function post() {
  const out = opt('out');
  const golden = fs.readFileSync(path.join(FIX, 'filecoin', 'post.vproof'));
  const winning = fs.readFileSync(path.join(FIX, 'filecoin', 'winning.vproof'));
  const zero = Buffer.alloc(32);
  const G32 = 34359738368;
  const wreq = (f) => Object.assign({ proof_kind: 'WINDOW_POST_PARTITION', priority: 'HIGH', registered_proof: 13, sector_size: G32,
    vanilla_proofs: [golden], randomness: zero, miner_id: 1000, partition_index: 0 }, f);
  const nreq = (f) => Object.assign({ proof_kind: 'WINNING_POST', priority: 'CRITICAL', registered_proof: 3, sector_size: G32,
    vanilla_proofs: [winning], randomness: zero, miner_id: 1000 }, f);
  const prove = async (req) => {
    const r = await call('Prove', { submit: req }, 120000);
    return r.err ? { err: r.err } : r.resp.result;
  };
  for (const [name, req] of [['winning', nreq({ request_id: `${tag}-winning` })], ['window', wreq({ request_id: `${tag}-window` })]]) {
    const x = await prove(req);
    ok(x && x.status === 'COMPLETED' && x.proof && x.proof.length === 192, `${name}: COMPLETED, 192-byte proof`, x && (x.err ? x.err.message : x.error_message));
    if (x && x.proof) {
      fs.writeFileSync(path.join(out, `${name}.proof.bin`), x.proof);
      fs.writeFileSync(path.join(out, `${name}.public.json`), x.public_json);
      console.log(`${name}: total ${x.total_ms} ms: queue ${x.queue_wait_ms}, key load ${x.srs_load_ms}, synthesis ${x.synthesis_ms}, prove ${x.gpu_compute_ms}`);
    }
  }
  // corrupted vanilla proofs: FAILED with the reason, no proof
  const flip = (b, at) => { const c = Buffer.from(b); c[at] ^= 1; return c; };
  const n = golden.length;
  const bad = [
    ['a flipped path element', flip(golden, 56 + 4 + 8 + 8 + 40), /vanilla proof 0.*(comm_r_last|path|root)/i],
    ['a wrong comm_r', flip(golden, 8 + 3), /vanilla proof 0.*comm_r/i],
    ['a wrong leaf', flip(golden, n - 64 - 20), /vanilla proof 0/i],
    ['truncated bincode', golden.subarray(0, n - 100), /vanilla proof 0.*truncated/i],
    ['an absurd length field', (() => { const c = Buffer.from(golden); c.writeUInt32LE(0xffffffff, 48); c.writeUInt32LE(0xffffffff, 52); return c; })(), /vanilla proof 0.*challenge count/i],
    ['an empty vanilla proof', Buffer.alloc(0), /vanilla proof 0.*truncated/i],
  ];
  for (const [what, vp] of bad) {
    const x = await prove(wreq({ request_id: `${tag}-bad-${what}`, vanilla_proofs: [vp] }));
    ok(x && x.status === 'FAILED' && /refused, nothing was proved/.test(x.error_message) && bad.find((b) => b[0] === what)[2].test(x.error_message) &&
       (!x.proof || x.proof.length === 0), `WindowPoSt with ${what}: FAILED, says why, no proof`, x && (x.err ? x.err.message : x.error_message));
  }
  let x = await prove(wreq({ request_id: `${tag}-rnd`, randomness: Buffer.concat([Buffer.from([1]), Buffer.alloc(31)]) }));
  ok(x && x.status === 'FAILED' && /challenge/.test(x.error_message) && !(x.proof && x.proof.length), 'other randomness: the leaves are not the challenges, FAILED', x && x.error_message);
  x = await prove(nreq({ request_id: `${tag}-win-as-window`, vanilla_proofs: [golden] }));
  ok(x && x.status === 'FAILED' && /challenge count/.test(x.error_message), 'a WindowPoSt vanilla proof in a WinningPoSt job: FAILED', x && x.error_message);
  // the request itself: refused at once, FAILED with the reason (ProveResponse.result always set)
  const refused = [
    ['sector_size of another size', wreq({ sector_size: 2048 }), /sector_size 2048 does not match registered_proof 13 \(StackedDrgWindow32GiBV1_1/],
    ['a WinningPoSt registered_proof in a WindowPoSt job', wreq({ registered_proof: 3 }), /registered_proof 3 \(StackedDrgWinning32GiBV1\) is a WinningPoSt proof/],
    ['an unknown registered_proof', wreq({ registered_proof: 99 }), /registered_proof 99 is not a RegisteredPoStProof/],
    ['a size with no configured circuit', wreq({ registered_proof: 14, sector_size: 2 * G32 }), /no \[circuits."wpost-64g"\]/],
    ['31-byte randomness', wreq({ randomness: Buffer.alloc(31) }), /randomness .*got 31 bytes/],
    ['randomness >= r', wreq({ randomness: Buffer.alloc(32, 0xff) }), /modulus/],
    ['more vanilla proofs than sectors', wreq({ vanilla_proofs: [golden, golden] }), /2 vanilla proofs .*1 to 1/],
    ['no vanilla proofs', wreq({ vanilla_proofs: [] }), /0 vanilla proofs/],
    ['a WinningPoSt partition 1', nreq({ partition_index: 1 }), /one partition/],
    ['two vanilla proofs in a WinningPoSt job', nreq({ vanilla_proofs: [winning, winning] }), /WinningPoSt takes one/],
  ];
  for (const [what, req, re] of refused) {
    const t0 = Date.now();
    x = await prove(req);
    ok(x && x.status === 'FAILED' && re.test(x.error_message) && !(x.proof && x.proof.length) && Date.now() - t0 < 5000,
       `${what}: FAILED at once, says why`, x && (x.err ? x.err.message : x.error_message));
  }
  // the daemon still proves after all that
  x = await prove(nreq({ request_id: `${tag}-winning-again` }));
  ok(x && x.status === 'COMPLETED' && x.proof.length === 192, 'WinningPoSt again after the bad requests: COMPLETED');
}

// PoRep C2 through the daemon (daemon R of run.sh: porep-2k, INSECURE test parameters): --c1 is a
// sealed 2 KiB sector's C1 output in Curio's wrapper ({"SectorNum", "Phase1Out": base64,
// "SectorSize"}), --miner and --sector its miner id and sector number. The job is sent as Curio
// sends it; its proof and public inputs are written to --out for `cuzk verify-seal` and the
// independent oracle (run.sh). Bad requests and bad C1 outputs are FAILED with the reason, no proof.
async function porep() {
  const out = opt('out');
  const wrapper = fs.readFileSync(opt('c1'));
  const miner = Number(opt('miner'));
  const sector = Number(opt('sector'));
  const req = (f) => Object.assign({ request_id: `porep-${miner}-${sector}`, proof_kind: 'POREP_SEAL_COMMIT', priority: 'NORMAL',
    registered_proof: 5, sector_size: 2048, vanilla_proof: wrapper, sector_number: sector, miner_id: miner }, f);
  const prove = async (r) => {
    const x = await call('Prove', { submit: r }, 600000);
    return x.err ? { err: x.err } : x.resp.result;
  };
  const why = (x) => x && (x.err ? x.err.message : x.error_message);

  // 1. Curio's request: SubmitProof, then AwaitProof
  const s = await call('SubmitProof', req({}));
  ok(!s.err && s.resp.job_id, 'PoRep SubmitProof accepted', s.err && s.err.details);
  if (!s.err) {
    const a = await call('AwaitProof', { job_id: s.resp.job_id, timeout_ms: 0 }, 600000);
    const x = a.err ? { err: a.err } : a.resp;
    ok(x.status === 'COMPLETED' && x.proof && x.proof.length === 192, 'PoRep 2 KiB: COMPLETED, 192 bytes (1 partition)', why(x));
    if (x.proof && x.proof.length) {
      fs.writeFileSync(path.join(out, 'node.proof.bin'), x.proof);
      fs.writeFileSync(path.join(out, 'node.public.json'), x.public_json);
      console.log(`porep: total ${x.total_ms} ms: queue ${x.queue_wait_ms}, key load ${x.srs_load_ms}, synthesis ${x.synthesis_ms}, prove ${x.gpu_compute_ms}`);
    }
    const s2 = await call('SubmitProof', req({}));
    ok(!s2.err && s2.resp.job_id === s.resp.job_id, 'the same request again (a Curio retry): the same job', s2.err ? s2.err.details : s2.resp);
  }

  // 2. bad C1 outputs and requests: FAILED with the reason, no proof
  const w = JSON.parse(wrapper);
  const innerText = Buffer.from(w.Phase1Out, 'base64').toString();
  const inner = JSON.parse(innerText);
  ok(JSON.stringify(inner) === innerText, 'the C1 JSON round-trips through JSON.parse (no precision lost)');
  const wrap = (o) => Buffer.from(JSON.stringify(Object.assign({}, w, { Phase1Out: Buffer.from(JSON.stringify(o)).toString('base64') })));
  const copy = () => JSON.parse(innerText);
  // one byte of a sibling hash of the first challenge's comm_r_last path changed
  const badPath = copy();
  const variant = Object.keys(badPath.vanilla_proofs)[0];
  const firstHashes = (o) => {
    if (o && typeof o === 'object') {
      if (Array.isArray(o.hashes) && Array.isArray(o.hashes[0])) return o.hashes;
      for (const v of Object.values(o)) { const h = firstHashes(v); if (h) return h; }
    }
    return null;
  };
  const hs = firstHashes(badPath.vanilla_proofs[variant][0][0].comm_r_last_proof);
  ok(hs !== null, 'found a Merkle path in the C1 (comm_r_last_proof)');
  if (hs) hs[0][0] ^= 1;
  const badSeed = copy();
  badSeed.seed[0] ^= 1;
  const C1R = /^the C1 output was refused, nothing was proved: /;
  const bad = [
    ['another miner_id (replica_id mismatch)', req({ request_id: `${tag}-miner`, miner_id: miner + 1 }), C1R, /replica_id/],
    ['another sector_number (the wrapper names its sector)', req({ request_id: `${tag}-sector`, sector_number: sector + 1 }), C1R, new RegExp(`SectorNum ${sector}, the request is for sector ${sector + 1}`)],
    ['registered_proof 0 (V1 2 KiB) for a V1_1 C1', req({ request_id: `${tag}-rp0`, registered_proof: 0 }), C1R,
      /registered proof 5, the request names 0/],
    ['registered_proof 8 (32 GiB) for a 2 KiB C1', req({ request_id: `${tag}-rp8`, registered_proof: 8, sector_size: 34359738368 }),
      /cannot prove POREP_SEAL_COMMIT 32GiB/, /no \[circuits."porep-32g"\]/],
    ['registered_proof 15 (NI-PoRep)', req({ request_id: `${tag}-rp15`, registered_proof: 15 }), /registered_proof 15/, /NI-PoRep/],
    ['sector_size of another size', req({ request_id: `${tag}-size`, sector_size: 8388608 }), /sector_size 8388608 does not match/,
      /registered_proof 5 \(2KiB/],
    ['an empty vanilla_proof', req({ request_id: `${tag}-empty`, vanilla_proof: Buffer.alloc(0) }), /vanilla_proof/, /empty/],
    ['a truncated wrapper', req({ request_id: `${tag}-trunc`, vanilla_proof: wrapper.subarray(0, wrapper.length >> 1) }), C1R,
      /truncat|end of|unterminated|expected/i],
    ['Phase1Out not base64', req({ request_id: `${tag}-b64`, vanilla_proof: Buffer.from(JSON.stringify(Object.assign({}, w, { Phase1Out: '!!not base64!!' }))) }),
      C1R, /Phase1Out: not base64/],
    ['a changed byte in a Merkle path', req({ request_id: `${tag}-path`, vanilla_proof: wrap(badPath) }), C1R, /comm_r_last|path|root/],
    ['a C1 with another seed', req({ request_id: `${tag}-seed`, vanilla_proof: wrap(badSeed) }), C1R, /challenge/],
  ];
  for (const [what, r, re1, re2] of bad) {
    const t0 = Date.now();
    const x = await prove(r);
    ok(x && x.status === 'FAILED' && re1.test(x.error_message) && re2.test(x.error_message) && !(x.proof && x.proof.length) &&
       !/C1 output: C1 output/.test(x.error_message),
       `PoRep with ${what}: FAILED, says why, no proof (${Date.now() - t0} ms)`, why(x));
    if (x && x.error_message) console.log(`  ${what}: ${x.error_message}`);
  }
  const st = await call('GetStatus', {});
  ok(!st.err && st.resp.total_proofs_failed >= bad.length, 'GetStatus counts the failed jobs', st.resp && st.resp.total_proofs_failed);
}

// PoRep on a daemon whose porep-2k .params (--params) is broken and not preloaded: the start's
// header check already shows it in GetStatus; the job FAILS as a server error naming the file and
// never blaming the C1 output; the failed load is counted (GetStatus, /status, /metrics).
async function porepBadKey() {
  const wrapper = fs.readFileSync(opt('c1'));
  const bad = opt('params');
  const miner = Number(opt('miner'));
  const sector = Number(opt('sector'));
  const srs = async () => {
    const st = await call('GetStatus', {});
    return st.resp && st.resp.loaded_srs.find((e) => e.circuit_id === 'porep-2k');
  };
  let s = await srs();
  ok(s && s.tier === 'COLD' && s.load_error.includes(bad) && /truncated/.test(s.load_error) && Number(s.load_failures) === 0,
     'GetStatus before any job: the key\'s load_error names the broken file (the start\'s header check)', s);
  const r = await call('Prove', { submit: { request_id: `${tag}-badkey`, proof_kind: 'POREP_SEAL_COMMIT', priority: 'NORMAL',
    registered_proof: 5, sector_size: 2048, vanilla_proof: wrapper, sector_number: sector, miner_id: miner } }, 600000);
  const x = r.err ? { err: r.err } : r.resp.result;
  const m = (x && x.error_message) || '';
  ok(x && x.status === 'FAILED' && /^server error: the key of circuit porep-2k cannot be loaded, nothing was proved \(the daemon's own file is at fault, not the request\)/.test(m) &&
     m.includes(bad) && !/C1 output/.test(m) && !(x.proof && x.proof.length),
     'PoRep on a broken .params: FAILED as a server error naming the file, the C1 output not blamed', m || (x && x.err && x.err.message));
  if (m) console.log(`  ${m}`);
  s = await srs();
  ok(s && s.tier === 'COLD' && s.load_error.includes(bad) && Number(s.load_failures) >= 1,
     'GetStatus after the job: load_error names the file, load_failures counted', s);
  const hp = opt('http');
  if (hp) {
    let h = await httpGet(hp, '/status');
    let j = null;
    try { j = JSON.parse(h.body); } catch (e) { /* checked below */ }
    const e = j && j.loaded_srs && j.loaded_srs.find((q) => q.circuit_id === 'porep-2k');
    ok(e && e.load_error.includes(bad) && e.load_failures >= 1, 'HTTP /status: the key\'s load_error and load_failures', e);
    h = await httpGet(hp, '/metrics');
    ok(/cuzk_srs_load_failures_total\{circuit_id="porep-2k"\} [1-9]/.test(h.body), 'HTTP /metrics: cuzk_srs_load_failures_total');
  }
}

// SnapDeals through the daemon (daemon S of run.sh: snap-2k, INSECURE test parameters): --vproofs is
// Curio's JSON file of the update's partition proofs (base64 of each partition's bincode), --comm-r-old,
// --comm-d-new, --comm-r-new the commitments (64 hex digits, the bytes as stored). The job is sent as
// Curio's ProveUpdateCuzk sends it (the commitments as cid.Bytes()); its proof and public inputs are
// written to --out for `cuzk verify-update` and the independent oracle (run.sh). Bad requests and bad
// partition proofs are FAILED with the reason, no proof.
const SEALED_CID = Buffer.from('0182e20381e80220', 'hex');   // CIDv1 fil-commitment-sealed poseidon-bls12_381-a2-fc1 32
const UNSEALED_CID = Buffer.from('0181e203922020', 'hex');   // CIDv1 fil-commitment-unsealed sha2-256-trunc254-padded 32
async function snap() {
  const out = opt('out');
  const parts = JSON.parse(fs.readFileSync(opt('vproofs'), 'utf8')).map((b) => Buffer.from(b, 'base64'));
  const rawc = { comm_r_old: Buffer.from(opt('comm-r-old'), 'hex'), comm_d_new: Buffer.from(opt('comm-d-new'), 'hex'),
    comm_r_new: Buffer.from(opt('comm-r-new'), 'hex') };
  const cids = { comm_r_old: Buffer.concat([SEALED_CID, rawc.comm_r_old]), comm_d_new: Buffer.concat([UNSEALED_CID, rawc.comm_d_new]),
    comm_r_new: Buffer.concat([SEALED_CID, rawc.comm_r_new]) };
  const req = (f) => Object.assign({ request_id: 'snap-1000-1', proof_kind: 'SNAP_DEALS_UPDATE', priority: 'NORMAL',
    registered_proof: 0, sector_size: 2048, vanilla_proofs: parts, sector_number: 1, miner_id: 1000 }, cids, f);
  const prove = async (r) => {
    const x = await call('Prove', { submit: r }, 600000);
    return x.err ? { err: x.err } : x.resp.result;
  };
  const why = (x) => x && (x.err ? x.err.message : x.error_message);
  ok(parts.length === 1 && parts[0].length > 1000, `the 2 KiB update has 1 partition proof (${parts[0] && parts[0].length} bytes)`);

  // 1. Curio's request (CIDs): Prove
  let x = await prove(req({}));
  ok(x && x.status === 'COMPLETED' && x.proof && x.proof.length === 192, 'SnapDeals 2 KiB, commitments as CIDs: COMPLETED, 192 bytes (1 partition)', why(x));
  if (x && x.proof && x.proof.length) {
    fs.writeFileSync(path.join(out, 'node.proof.bin'), x.proof);
    fs.writeFileSync(path.join(out, 'node.public.json'), x.public_json);
    console.log(`snap: total ${x.total_ms} ms: queue ${x.queue_wait_ms}, key load ${x.srs_load_ms}, synthesis ${x.synthesis_ms}, prove ${x.gpu_compute_ms}`);
  }
  const s1 = await call('SubmitProof', req({}));
  const s2 = await call('SubmitProof', req({}));
  ok(!s1.err && !s2.err && s1.resp.job_id === s2.resp.job_id, 'the same request again (a Curio retry): the same job', s1.err || s2.err);

  // 2. bad requests and partition proofs: FAILED with the reason, no proof
  const half = parts[0].subarray(0, parts[0].length >> 1);
  const flipped = Buffer.from(parts[0]);
  flipped[flipped.length - 40] ^= 1;   // a byte near the end: the last challenge's tree R new path
  const PR = /^the partition proofs were refused, nothing was proved: /;
  const bad = [
    ['another comm_r_new (comm_r_old in its place)', req({ request_id: 'snap-rnew', comm_r_new: cids.comm_r_old }), PR, /partition 0: .*comm_r_new/],
    ['a truncated partition proof', req({ request_id: 'snap-trunc', vanilla_proofs: [half] }), PR, /partition 0: .*truncated/],
    ['a changed byte in the partition proof', req({ request_id: 'snap-flip', vanilla_proofs: [flipped] }), PR,
      /partition 0 challenge \d+ \(node \d+\): proof_r_new/],
    ['two partition proofs for 1 partition', req({ request_id: 'snap-two', vanilla_proofs: [parts[0], parts[0]] }),
      /2 vanilla proofs \(field 11\)/, /takes 1, one partition proof per partition/],
    ['no partition proof', req({ request_id: 'snap-none', vanilla_proofs: [] }), /0 vanilla proofs/, /takes 1/],
    ['an empty partition proof', req({ request_id: 'snap-emptyp', vanilla_proofs: [Buffer.alloc(0)] }), /vanilla proof 0/, /is empty/],
    ['comm_d_new as a sealed CID', req({ request_id: 'snap-dcodec', comm_d_new: Buffer.concat([SEALED_CID, rawc.comm_d_new]) }),
      /comm_d_new \(field 32\)/, /neither 32 raw bytes nor an unsealed commitment/],
    ['comm_r_old of 33 bytes', req({ request_id: 'snap-33', comm_r_old: Buffer.concat([rawc.comm_r_old, Buffer.alloc(1)]) }),
      /comm_r_old \(field 30\)/, /33 bytes are neither/],
    ['an empty comm_r_new', req({ request_id: 'snap-nornew', comm_r_new: Buffer.alloc(0) }), /comm_r_new \(field 31\)/, /is empty/],
    ['comm_r_old not a field element', req({ request_id: 'snap-fr', comm_r_old: Buffer.alloc(32, 0xff) }), /comm_r_old/,
      /not a BLS12-381 field element/],
    ['registered_proof 5 (not a RegisteredUpdateProof)', req({ request_id: 'snap-rp5', registered_proof: 5 }), /registered_proof 5/,
      /not a RegisteredUpdateProof/],
    ['registered_proof 3 (32 GiB, not configured)', req({ request_id: 'snap-rp3', registered_proof: 3, sector_size: 34359738368 }),
      /cannot prove SNAP_DEALS_UPDATE 32GiB here/, /no \[circuits."snap-32g"\]/],
    ['sector_size of another size', req({ request_id: 'snap-size', sector_size: 8388608 }), /sector_size 8388608 does not match/,
      /registered_proof 0 \(2KiB/],
  ];
  for (const [what, r, re1, re2] of bad) {
    const t0 = Date.now();
    x = await prove(r);
    ok(x && x.status === 'FAILED' && re1.test(x.error_message) && re2.test(x.error_message) && !(x.proof && x.proof.length),
       `SnapDeals with ${what}: FAILED, says why, no proof (${Date.now() - t0} ms)`, why(x));
    if (x && x.error_message) console.log(`  ${what}: ${x.error_message}`);
  }
  const st = await call('GetStatus', {});
  ok(!st.err && st.resp.total_proofs_failed >= bad.length, 'GetStatus counts the failed jobs', st.resp && st.resp.total_proofs_failed);
  const q = st.resp && st.resp.queues.find((e) => e.proof_kind === 'SNAP_DEALS_UPDATE');
  ok(q && q.pending === 0 && q.in_progress === 0, 'GetStatus: the SNAP_DEALS_UPDATE queue is empty again', q);
}

// Latency of WinningPoSt 32 GiB jobs (bench/RESULTS.md): --n jobs of the --vproof vanilla proof
// (default winning-66.vproof: one sector, 66 challenges, randomness 0), one after another, each timed from the Prove call to the
// reply, with the daemon's stage times.
async function postLatency() {
  const vp = fs.readFileSync(opt('vproof', path.join(FIX, 'filecoin', 'winning-66.vproof')));
  const n = Number(opt('n', '3'));
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    const r = await call('Prove', { submit: { request_id: `${tag}-lat-${i}-${Date.now()}`, proof_kind: 'WINNING_POST', priority: 'CRITICAL',
      registered_proof: 3, sector_size: 34359738368, vanilla_proofs: [vp], randomness: Buffer.alloc(32), miner_id: 1000 } });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    const x = r.resp && r.resp.result;
    ok(x && x.status === 'COMPLETED' && x.proof.length === 192, `job ${i}: COMPLETED`, r.err ? r.err.message : x && x.error_message);
    if (x) console.log(`job ${i}: submit -> proof ${ms.toFixed(1)} ms (client); daemon: total ${x.total_ms} ms, queue ${x.queue_wait_ms}, ` +
      `key load ${x.srs_load_ms}, synthesis ${x.synthesis_ms} (vanilla checks + witness), prove ${x.gpu_compute_ms}`);
  }
}

async function verifyFile() {
  const lines = fs.readFileSync(opt('file'), 'utf8').split('\n').filter((l) => l);
  let v = 0;
  for (const l of lines) {
    const o = JSON.parse(l);
    if (JSON.parse(o.public_json)[0] === o.c && (await verify(o.proof_json, o.public_json))) v++;
  }
  ok(lines.length > 0 && v === lines.length, `Go client's proofs: ${v}/${lines.length} verify in snarkjs with their own public input`);
}

(async () => {
  const t0 = Date.now();
  const fn = { basic, load, slow, sigterm, retention, budget, gpufail, hostg1, post, porep, 'porep-badkey': porepBadKey, snap,
    'post-latency': postLatency, bn254, bnslow,
    'verify-file': verifyFile }[scenario];
  if (!fn) { console.error('unknown scenario ' + scenario); process.exit(2); }
  try { await fn(); } catch (e) { failures++; console.log('FAIL exception: ' + (e && e.stack)); }
  console.log(`node ${scenario} ${addr || ''}: ${failures ? failures + ' FAILED' : 'all ok'} (${Date.now() - t0} ms)`);
  client.close();
  raw.close();
  process.exit(failures ? 1 : 0);
})();
