// The bearer token guards EVERY method of GrokToolsService: the table is the generated service
// definition itself, so a method added to the proto is covered without touching this test.
import { afterAll, beforeAll, describe, expect, it } from "@jest/globals";
import { Client, credentials, Metadata, status, type ServiceError } from "@grpc/grpc-js";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { GrokToolsServiceService } from "@grok-tools/proto";
import { createToolsServer, type ToolsServer } from "@grok-tools/server";

const TOKEN = "tok-every-rpc-2f9a";

interface MethodDefinition {
  path: string;
  requestStream: boolean;
  responseStream: boolean;
  requestSerialize(value: unknown): Buffer;
  requestDeserialize(bytes: Buffer): unknown;
  responseDeserialize(bytes: Buffer): unknown;
}

const METHODS = Object.entries(GrokToolsServiceService as unknown as Record<string, MethodDefinition>);

let dir: string;
let server: ToolsServer;
let client: Client;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "grok-auth-rpc-"));
  server = createToolsServer({ workspace: dir, stateDir: path.join(dir, ".state"), authToken: TOKEN });
  client = new Client(await server.listen("127.0.0.1:0"), credentials.createInsecure());
});

afterAll(async () => {
  client.close();
  await server.shutdown(1000);
  rmSync(dir, { recursive: true, force: true });
});

/** Calls `method` with its default (empty) request and `authorization` (if any); resolves the status code. */
function statusOf(method: MethodDefinition, authorization: string | undefined): Promise<number> {
  const metadata = new Metadata();
  if (authorization !== undefined) metadata.set("authorization", authorization);
  // The default message of each request type: what an empty wire message decodes to.
  const request = method.requestDeserialize(Buffer.alloc(0));
  return new Promise((resolve) => {
    if (method.responseStream) {
      const stream = client.makeServerStreamRequest(method.path, method.requestSerialize, method.responseDeserialize, request, metadata);
      stream.on("data", () => undefined);
      stream.on("error", (error: ServiceError) => resolve(error.code));
      stream.on("end", () => resolve(status.OK));
    } else {
      client.makeUnaryRequest(method.path, method.requestSerialize, method.responseDeserialize, request, metadata, (error: ServiceError | null) =>
        resolve(error ? error.code : status.OK),
      );
    }
  });
}

it("covers the whole service (no client-streaming method is left out)", () => {
  expect(METHODS.length).toBeGreaterThanOrEqual(20);
  expect(METHODS.filter(([, m]) => m.requestStream)).toEqual([]);
});

describe.each(METHODS)("%s", (_name, method) => {
  it.each([
    ["no authorization header", undefined],
    ["a wrong token", "Bearer not-the-token"],
    ["the token without the Bearer scheme", TOKEN],
    ["a token that is a prefix of the right one", `Bearer ${TOKEN.slice(0, -1)}`],
    ["the right token and more", `Bearer ${TOKEN}x`],
  ])("refuses %s with UNAUTHENTICATED", async (_what, authorization) => {
    expect(await statusOf(method, authorization)).toBe(status.UNAUTHENTICATED);
  });

  it("lets the right token through (whatever the empty request then gets)", async () => {
    expect(await statusOf(method, `Bearer ${TOKEN}`)).not.toBe(status.UNAUTHENTICATED);
  });
});
