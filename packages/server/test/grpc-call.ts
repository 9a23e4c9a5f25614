// Promise wrappers over the generated grpc-js client for tests: one unary call, a bearer header.
import { Metadata, type ServiceError } from "@grpc/grpc-js";
import type { GrokToolsServiceClient } from "@grok-tools/proto";

/** Calls unary `method` and resolves its response (rejects with the ServiceError). */
export function unary<Res = Record<string, unknown>>(
  client: GrokToolsServiceClient,
  method: string,
  request: unknown,
  metadata = new Metadata(),
): Promise<Res> {
  const fn = (client as unknown as Record<string, (r: unknown, m: Metadata, cb: (e: ServiceError | null, r: Res) => void) => void>)[method]!;
  return new Promise<Res>((resolve, reject) => fn.call(client, request, metadata, (error, response) => (error ? reject(error) : resolve(response))));
}

/** The status code a unary call ends with (0 for OK). */
export async function statusOf(client: GrokToolsServiceClient, method: string, request: unknown, metadata = new Metadata()): Promise<number> {
  try {
    await unary(client, method, request, metadata);
    return 0;
  } catch (error) {
    return (error as ServiceError).code;
  }
}

/** Metadata with `authorization: Bearer <token>` and any other headers. */
export function headers(token?: string, extra: Record<string, string> = {}): Metadata {
  const md = new Metadata();
  if (token !== undefined) md.set("authorization", `Bearer ${token}`);
  for (const [k, v] of Object.entries(extra)) md.set(k, v);
  return md;
}
