// The unary wrapper answers a handler's answer given at once in the same turn (issue #18: no promise
// and no turn per cheap call), and a promise once it settles; a throw and a rejection alike.
import { describe, expect, it } from "@jest/globals";
import { Metadata, status as GrpcStatus, type ServerUnaryCall, type ServiceError } from "@grpc/grpc-js";
import { silentLogger } from "@grok-tools/runtime/helpers";
import { grpcError, unaryHandler } from "./unary-handler.js";

type Answer = { error: ServiceError | null; response?: { text: string }; trailers?: Metadata };

function serve(fn: Parameters<typeof unaryHandler<{ text: string }, { text: string }>>[2], admit: () => void = () => {}) {
  const handler = unaryHandler<{ text: string }, { text: string }>({ admit, log: silentLogger }, "Echo", fn);
  const answers: Answer[] = [];
  const call = { request: { text: "hi" }, metadata: new Metadata(), cancelled: false } as unknown as ServerUnaryCall<{ text: string }, { text: string }>;
  handler(call, (error, response, trailers) => answers.push({ error: error as ServiceError | null, response: response ?? undefined, trailers }));
  // What was answered before the handler returned: nothing ran in between.
  const atOnce = [...answers];
  return { atOnce, answers };
}

describe("unaryHandler", () => {
  it("sends an answer given at once before it returns, with the trailers set", () => {
    const { atOnce } = serve((req, _call, trailers) => {
      trailers.set("x-echo", "1");
      return { text: req.text };
    });
    expect(atOnce).toHaveLength(1);
    expect(atOnce[0]!.error).toBeNull();
    expect(atOnce[0]!.response).toEqual({ text: "hi" });
    expect(atOnce[0]!.trailers?.get("x-echo")).toEqual(["1"]);
  });

  it("answers a throw of the handler or of admission at once, as its status", () => {
    const thrown = serve(() => {
      throw grpcError(GrpcStatus.NOT_FOUND, "no such thing");
    });
    expect(thrown.atOnce.map((a) => [a.error?.code, a.error?.details])).toEqual([[GrpcStatus.NOT_FOUND, "no such thing"]]);
    const refused = serve(
      () => ({ text: "never" }),
      () => {
        throw grpcError(GrpcStatus.UNAUTHENTICATED, "who are you");
      },
    );
    expect(refused.atOnce.map((a) => a.error?.code)).toEqual([GrpcStatus.UNAUTHENTICATED]);
  });

  it("answers a promise once it settles, a rejection as its status and anything unexpected as INTERNAL", async () => {
    const later = serve(async (req) => ({ text: `${req.text} later` }));
    expect(later.atOnce).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(later.answers.map((a) => a.response)).toEqual([{ text: "hi later" }]);
    const rejected = serve(() => Promise.reject(new Error("disk on fire")));
    await new Promise((resolve) => setImmediate(resolve));
    expect(rejected.answers.map((a) => [a.error?.code, a.error?.details])).toEqual([[GrpcStatus.INTERNAL, "Echo failed: internal error (see the server log)"]]);
  });
});
