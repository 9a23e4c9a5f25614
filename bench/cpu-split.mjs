// Where a throughput row's time goes (issue #18). A "64 in flight" row starts 64 calls together and
// awaits them all (compareThroughput's batches), so the bench process (the client: encoding the
// requests, grpc-js's client side, decoding the responses) and the server mostly take turns: a
// batch lasts about as long as both processes' CPU for it, and a throughput ratio is close to the
// inverse ratio of the two sides' summed CPU per call. Measured here, per side and per call: calls
// per second, the bench process's CPU and the server process's CPU, in the same interleaved rounds.
import { cpuMs } from "./server-fixture.mjs";
import { smoke } from "./harness.mjs";

/**
 * Runs each of `sides` (`{ name: { pid, call } }`: a call and the pid of the server answering it) in
 * batches of `concurrency` calls started together, `batches` batches per side per round, the sides'
 * order reversed every other round. Resolves `{ name: { opsPerSecond, clientUs, serverUs } }`, the
 * CPU in µs per call (the server's from /proc, at 10 ms resolution: each side runs long enough).
 */
export async function measureCpuSplit({ sides, concurrency = 64, rounds = smoke ? 1 : 10, batches = smoke ? 2 : 40 }) {
  const names = Object.keys(sides);
  const totals = Object.fromEntries(names.map((name) => [name, { wallMs: 0, clientMs: 0, serverMs: 0, calls: 0 }]));
  const batch = (call) => Promise.all(Array.from({ length: concurrency }, call));
  // Not counted: each side's first batches (JIT, lazy modules), as the throughput rows warm up.
  for (const name of names) for (let i = 0; i < batches; i++) await batch(sides[name].call);
  for (let round = 0; round < rounds; round++) {
    for (const name of round % 2 === 0 ? names : [...names].reverse()) {
      const { pid, call } = sides[name];
      const total = totals[name];
      const serverBefore = cpuMs(pid);
      const clientBefore = process.cpuUsage();
      const start = performance.now();
      for (let i = 0; i < batches; i++) await batch(call);
      total.wallMs += performance.now() - start;
      const client = process.cpuUsage(clientBefore);
      total.clientMs += (client.user + client.system) / 1000;
      total.serverMs += cpuMs(pid) - serverBefore;
      total.calls += batches * concurrency;
    }
  }
  return Object.fromEntries(
    names.map((name) => {
      const { wallMs, clientMs, serverMs, calls } = totals[name];
      return [name, { opsPerSecond: (calls * 1000) / wallMs, clientUs: (clientMs * 1000) / calls, serverUs: (serverMs * 1000) / calls }];
    }),
  );
}
