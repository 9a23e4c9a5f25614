// Turns the addresses users write (`host:port`, `unix:/path`) into grpc-js targets.
// It does not resolve names or check that anything listens there.

/** Address of a local server used when nothing else is given. */
export const DEFAULT_ADDRESS = "127.0.0.1:50051";

/**
 * The grpc-js target for an address: `host:port`, `[v6]:port`, `unix:/abs/path`,
 * `unix:///abs/path`, or any target grpc-js understands (`dns:`, `ipv4:`). A leading
 * `http://` (the form hosts often pass for callbacks) is dropped.
 * @throws Error when the address is empty or a bare host without a port.
 */
export function toGrpcTarget(address: string): string {
  const trimmed = address.trim();
  if (trimmed === "") throw new Error("The server address is empty: use host:port or unix:/path/to/socket.");
  if (/^(unix|unix-abstract|dns|ipv4|ipv6):/.test(trimmed)) return trimmed;
  const bare = trimmed.replace(/^https?:\/\//, "").replace(/\/+$/, "");
  if (!/:\d+$/.test(bare)) {
    throw new Error(`The server address "${address}" has no port: use host:port (for example ${DEFAULT_ADDRESS}) or unix:/path/to/socket.`);
  }
  return bare;
}

/** True when the address names a unix domain socket. */
export function isUnixAddress(address: string): boolean {
  return address.trim().startsWith("unix:");
}
