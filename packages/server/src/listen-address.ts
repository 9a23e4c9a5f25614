import { existsSync } from "node:fs";
import path from "node:path";

/**
 * The `--listen` address: checked before anything binds, so a typo is blamed on the address (not on
 * TLS or grpc), and bind failures turned into sentences an operator can act on.
 */

/** A parsed listen address. */
export type ListenAddress = { kind: "unix"; path: string } | { kind: "tcp"; host: string; port: number };

const ADDRESS_HELP = "use HOST:PORT (for example 127.0.0.1:50051; port 0 picks a free port) or unix:/path/to/socket";

/** Parses `host:port`, `[v6]:port` or `unix:/path`; throws an Error saying what is wrong otherwise. */
export function parseListenAddress(address: string): ListenAddress {
  if (address.startsWith("unix:")) {
    const socketPath = address.slice("unix:".length).replace(/^\/\/(?=\/)/, "");
    if (socketPath === "") throw new Error(`--listen ${JSON.stringify(address)} names no socket path: ${ADDRESS_HELP}.`);
    return { kind: "unix", path: socketPath };
  }
  const match = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._-]+):(\d+)$/.exec(address);
  if (!match) {
    const hint = /^[^:]+$/.test(address) ? " (it has no port)" : "";
    throw new Error(`--listen ${JSON.stringify(address)} is not an address${hint}: ${ADDRESS_HELP}.`);
  }
  const port = Number(match[2]);
  if (port > 65535) throw new Error(`--listen ${JSON.stringify(address)}: port ${port} is out of range (0-65535).`);
  return { kind: "tcp", host: match[1]!.replace(/^\[|\]$/g, ""), port };
}

/** Whether an address only reaches this machine. */
export function isLoopbackAddress(address: string): boolean {
  if (address.startsWith("unix:")) return true;
  const host = address.replace(/:\d+$/, "").replace(/^\[|\]$/g, "");
  return host === "localhost" || host === "::1" || /^127\./.test(host);
}

/** A sentence for a failed bind (grpc-js reports `No address added ... [listen EADDRINUSE: ...]`). */
export function describeListenFailure(address: string, error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const unix = address.startsWith("unix:");
  let code = /\b(EADDRINUSE|EACCES|EADDRNOTAVAIL|ENOENT|EPERM|ENOTDIR)\b/.exec(text)?.[1];
  // libuv reports a unix socket in a missing folder as EACCES.
  const parsed = parseListenAddress(address);
  if (parsed.kind === "unix" && code === "EACCES" && !existsSync(path.dirname(path.resolve(parsed.path)))) code = "ENOENT";
  const reasons: Record<string, string> = {
    EADDRINUSE: unix
      ? "a socket file is already there; another server may be using it (remove the file if none is)"
      : "the address is already in use, by another grok-tools-server or another program; stop it or choose another --listen (port 0 picks a free port)",
    EACCES: unix ? "permission denied: this user cannot create the socket there" : "permission denied: ports below 1024 need privileges",
    EPERM: "operation not permitted",
    EADDRNOTAVAIL: "this machine has no such address",
    ENOENT: "the socket's folder does not exist",
    ENOTDIR: "a part of the socket's path is a file, not a folder",
  };
  if (code && reasons[code]) return `Cannot listen on ${address}: ${reasons[code]}.`;
  if (/Name resolution failed/i.test(text)) return `Cannot listen on ${address}: the host name does not resolve.`;
  return `Cannot listen on ${address}: ${text.replace(/^Error: /, "")}`;
}
