// Preload for a measured server (issue #18): where a call's time goes inside the server, by phase,
// for every gRPC method it answers. It marks each HTTP/2 stream of a grpc-js server as Node hands
// it to JavaScript: the stream opened (request headers in), the request's end (its message in),
// the response's headers queued (the handler answered and grpc-js began its reply), the message
// queued, the stream asking for its trailers (the message written out and the stream ended), the
// stream closed (trailers written). The process's CPU (all threads) between the request's end and
// the response's headers is the handler's. Each phase goes into a 1 µs histogram per method; the
// cumulative counts are written to `$GROK_PHASES_DIR/phases-<pid>.json` (default: the OS temp
// folder) every 250 ms when they changed, and at exit, so that the server-CPU rows of
// bench/hot-path.bench.mjs can read them before and after a batch (`phases` and `phasesBetween` in
// bench/server-fixture.mjs) and print each server's median phases per call:
//   GROK_BENCH_PHASES=1 node bench/hot-path.bench.mjs --case "one at a time"
// Why: a p50 row's gap to its floor is time inside the server, and the server-CPU rows cannot say
// whether that time is the handler's work, the reply's encoding or the turns grpc-js takes to
// write the message and then the trailers. Calls answered with trailers only (errors) are not
// counted. The marks cost the server ~2 µs per call (two process.cpuUsage() calls and a few clock
// reads), alike in ours and in the bare servers.
import http2 from "node:http2";
import { keepReport } from "./preload-report.mjs";

/** The phases, in call order (`handlerCpu`: the process's CPU over the handler's phase, not wall time). */
const PHASES = ["request", "handler", "handlerCpu", "encode", "flush", "trailers"];
const BUCKETS = 4096;
/** method path → { calls, [phase]: Uint32Array of 1 µs buckets (the last holds everything longer) } */
const methods = new Map();
let changed = false;

const nowUs = () => Number(process.hrtime.bigint()) / 1000;

function histogramsOf(method) {
  let entry = methods.get(method);
  if (entry === undefined) {
    entry = { calls: 0 };
    for (const phase of PHASES) entry[phase] = new Uint32Array(BUCKETS);
    methods.set(method, entry);
  }
  return entry;
}

function recordCall(method, marks) {
  const { opened, ended, responded, written, trailersAsked, closed, handlerCpu } = marks;
  if (ended === undefined || responded === undefined || written === undefined || trailersAsked === undefined) return;
  const entry = histogramsOf(method);
  const phases = {
    request: ended - opened,
    handler: responded - ended,
    handlerCpu,
    encode: written - responded,
    flush: trailersAsked - written,
    trailers: closed - trailersAsked,
  };
  for (const phase of PHASES) entry[phase][Math.min(BUCKETS - 1, Math.max(0, Math.round(phases[phase])))]++;
  entry.calls++;
  changed = true;
}

// The marks on the stream's own methods: patched once, on the prototype of the first stream seen.
const STREAM_METHODS = { respond: "responded", write: "written" };
let prototypePatched = false;
function patchStreamPrototype(stream) {
  if (prototypePatched) return;
  prototypePatched = true;
  const prototype = Object.getPrototypeOf(stream);
  for (const [name, mark] of Object.entries(STREAM_METHODS)) {
    const original = prototype[name];
    prototype[name] = function (...args) {
      const marks = this[MARKS];
      if (marks !== undefined && marks[mark] === undefined) {
        marks[mark] = nowUs();
        if (mark === "responded" && marks.cpuAtEnd !== undefined) {
          const cpu = process.cpuUsage(marks.cpuAtEnd);
          marks.handlerCpu = cpu.user + cpu.system;
        }
      }
      return original.apply(this, args);
    };
  }
}

const MARKS = Symbol("grok-bench.phaseMarks");

function watch(server) {
  server.prependListener("stream", (stream, headers) => {
    patchStreamPrototype(stream);
    const marks = { opened: nowUs() };
    stream[MARKS] = marks;
    stream.prependListener("end", () => {
      if (marks.ended !== undefined) return;
      marks.ended = nowUs();
      marks.cpuAtEnd = process.cpuUsage();
    });
    stream.once("wantTrailers", () => {
      marks.trailersAsked = nowUs();
    });
    stream.once("close", () => {
      marks.closed = nowUs();
      recordCall(headers[":path"], marks);
    });
  });
  return server;
}

for (const name of ["createServer", "createSecureServer"]) {
  const original = http2[name];
  http2[name] = function (...args) {
    return watch(original.apply(this, args));
  };
}

keepReport("phases", () => {
  if (!changed) return undefined;
  changed = false;
  const report = { pid: process.pid, methods: {} };
  for (const [method, entry] of methods) {
    const phases = {};
    for (const phase of PHASES) phases[phase] = Array.from(entry[phase]);
    report.methods[method] = { calls: entry.calls, phases };
  }
  return report;
});
