/**
 * SSRF policy of web_fetch: which addresses are non-public, which hosts count as explicit loopback,
 * and the per-hop check that resolves a host, refuses if ANY address is blocked, and returns the
 * checked addresses so the connection can be pinned to them (no second DNS lookup to rebind).
 */
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { WebFetchError } from "./errors.js";

/** One resolved address. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all of its addresses (injectable for tests). */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

function parseIpv4(text: string): number | undefined {
  const parts = text.split(".");
  if (parts.length !== 4) return undefined;
  let value = 0;
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return undefined;
    const octet = Number(part);
    if (octet > 255) return undefined;
    value = value * 256 + octet;
  }
  return value;
}

/** The eight 16-bit groups of an IPv6 address (zone id dropped), or undefined. */
function parseIpv6(text: string): number[] | undefined {
  let body = text.split("%")[0] ?? "";
  if (isIP(body) !== 6) return undefined;
  // An embedded dotted IPv4 tail (`::ffff:10.0.0.1`) becomes two hex groups (`::ffff:a00:1`).
  const lastColon = body.lastIndexOf(":");
  const tail = body.slice(lastColon + 1);
  if (tail.includes(".")) {
    const v4 = parseIpv4(tail);
    if (v4 === undefined) return undefined;
    body = `${body.slice(0, lastColon + 1)}${Math.floor(v4 / 65536).toString(16)}:${(v4 % 65536).toString(16)}`;
  }
  const halves = body.split("::");
  const parse = (s: string): number[] => (s === "" ? [] : s.split(":").map((g) => parseInt(g, 16)));
  const head = parse(halves[0] ?? "");
  const rest = halves.length > 1 ? parse(halves[1] ?? "") : [];
  const zeros = halves.length > 1 ? 8 - head.length - rest.length : 0;
  if (zeros < 0) return undefined;
  const groups = [...head, ...new Array<number>(zeros).fill(0), ...rest];
  return groups.length === 8 && groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : undefined;
}

function inV4Cidr(ip: number, base: [number, number, number, number], prefix: number): boolean {
  const baseValue = ((base[0] * 256 + base[1]) * 256 + base[2]) * 256 + base[3];
  const size = 2 ** (32 - prefix);
  return Math.floor(ip / size) === Math.floor(baseValue / size);
}

function isNonPublicIpv4(ip: number): boolean {
  return (
    inV4Cidr(ip, [0, 0, 0, 0], 8) || // "this network", incl. 0.0.0.0
    inV4Cidr(ip, [10, 0, 0, 0], 8) ||
    inV4Cidr(ip, [100, 64, 0, 0], 10) || // CGNAT
    inV4Cidr(ip, [127, 0, 0, 0], 8) ||
    inV4Cidr(ip, [169, 254, 0, 0], 16) || // link-local, cloud metadata
    inV4Cidr(ip, [172, 16, 0, 0], 12) ||
    inV4Cidr(ip, [192, 0, 0, 0], 24) ||
    inV4Cidr(ip, [192, 0, 2, 0], 24) ||
    inV4Cidr(ip, [192, 168, 0, 0], 16) ||
    inV4Cidr(ip, [198, 18, 0, 0], 15) ||
    inV4Cidr(ip, [198, 51, 100, 0], 24) ||
    inV4Cidr(ip, [203, 0, 113, 0], 24) ||
    inV4Cidr(ip, [224, 0, 0, 0], 4) || // multicast
    inV4Cidr(ip, [240, 0, 0, 0], 4) // reserved, incl. broadcast
  );
}

/** The IPv4 address embedded in an IPv6 one by a translation prefix, if any. */
function embeddedIpv4(groups: number[]): number | undefined {
  const [g0, g1, g2, g3, g4, g5, g6 = 0, g7 = 0] = groups;
  const v4 = g6 * 65536 + g7;
  const firstFiveZero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0;
  if (firstFiveZero && g5 === 0xffff) return v4; // ::ffff:a.b.c.d (v4-mapped)
  if (firstFiveZero && g5 === 0 && v4 > 1) return v4; // ::a.b.c.d (deprecated v4-compatible)
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return v4; // NAT64
  return undefined;
}

function isNonPublicIpv6(groups: number[]): boolean {
  const v4 = embeddedIpv4(groups);
  if (v4 !== undefined) return isNonPublicIpv4(v4);
  const g0 = groups[0] ?? 0;
  const allZeroBut = (last: number): boolean => groups.slice(0, 7).every((g) => g === 0) && groups[7] === last;
  return (
    allZeroBut(0) || // unspecified
    allZeroBut(1) || // loopback
    (g0 & 0xff00) === 0xff00 || // multicast
    (g0 & 0xfe00) === 0xfc00 || // unique local fc00::/7
    (g0 & 0xffc0) === 0xfe80 || // link-local fe80::/10
    (g0 & 0xffc0) === 0xfec0 || // site-local fec0::/10 (deprecated, still routed internally)
    (g0 === 0x2001 && groups[1] === 0x0db8) // documentation
  );
}

/** True when an IP literal is not globally routable (loopback, private, link-local, ...). */
export function isNonPublicIp(ip: string): boolean {
  const v4 = parseIpv4(ip);
  if (v4 !== undefined) return isNonPublicIpv4(v4);
  const v6 = parseIpv6(ip);
  // Anything we cannot parse is refused: fail closed.
  return v6 === undefined ? true : isNonPublicIpv6(v6);
}

/** Loopback, including IPv4-mapped forms (`::ffff:127.0.0.1`). */
export function isLoopbackIp(ip: string): boolean {
  const v4 = parseIpv4(ip);
  if (v4 !== undefined) return inV4Cidr(v4, [127, 0, 0, 0], 8);
  const v6 = parseIpv6(ip);
  if (v6 === undefined) return false;
  if (v6.slice(0, 7).every((g) => g === 0) && v6[7] === 1) return true;
  const mapped = v6.slice(0, 5).every((g) => g === 0) && v6[5] === 0xffff;
  return mapped && inV4Cidr((v6[6] ?? 0) * 65536 + (v6[7] ?? 0), [127, 0, 0, 0], 8);
}

/** The host without brackets, trailing dot or zone id, lower-cased. */
export function bareHost(host: string): string {
  let h = host.trim().replace(/\.+$/, "").toLowerCase();
  if (h.startsWith("[") && h.endsWith("]")) h = h.slice(1, -1);
  return h.split("%")[0] ?? h;
}

/**
 * Hosts that may reach loopback when `allow_local` is on: `localhost`, 127/8 literals and `::1`.
 * A public name that merely resolves to loopback is not one of them (closes DNS rebinding).
 */
export function isExplicitLocalHost(host: string): boolean {
  const h = bareHost(host);
  if (h === "localhost") return true;
  if (isIP(h) === 4) return isLoopbackIp(h);
  // Like the reference, only the real IPv6 loopback literal counts (not its v4-mapped form).
  return isIP(h) === 6 && parseIpv6(h)?.every((g, i) => g === (i === 7 ? 1 : 0)) === true;
}

/** Whether `ip` is refused for a request to `host`; `allow_local` opens loopback for explicit local hosts only. */
export function isBlockedForHost(ip: string, host: string, allowLocal: boolean): boolean {
  if (!isNonPublicIp(ip)) return false;
  return !(allowLocal && isLoopbackIp(ip) && isExplicitLocalHost(host));
}

/** Maps a resolver failure to the reference's wording of the OS error. */
function lookupFailureText(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "ENOTFOUND") return "failed to lookup address information: Name or service not known";
  if (code === "EAI_AGAIN") return "failed to lookup address information: Temporary failure in name resolution";
  if (code === "ENODATA") return "failed to lookup address information: No address associated with hostname";
  return error instanceof Error ? error.message : String(error);
}

/** An address as the reference prints it (v4-mapped IPv6 keeps its dotted tail: `::ffff:10.0.0.1`). */
export function displayIp(ip: string): string {
  const v6 = isIP(ip) === 6 ? parseIpv6(ip) : undefined;
  if (v6 === undefined || !(v6.slice(0, 5).every((g) => g === 0) && v6[5] === 0xffff)) return ip;
  const v4 = (v6[6] ?? 0) * 65536 + (v6[7] ?? 0);
  return `::ffff:${[24, 16, 8, 0].map((shift) => Math.floor(v4 / 2 ** shift) % 256).join(".")}`;
}

/**
 * Checks one hop: an IP literal directly, a name through `resolve`. Refuses when ANY address is
 * blocked and returns the checked addresses, which the connection must use. `host` is the URL's
 * host as written in messages (IPv6 literals keep their brackets, as in the reference).
 */
export async function checkHost(host: string, allowLocal: boolean, resolve: HostResolver): Promise<ResolvedAddress[]> {
  const bare = bareHost(host);
  const literal = isIP(bare);
  if (literal !== 0) {
    if (isBlockedForHost(bare, bare, allowLocal)) throw WebFetchError.ssrfBlocked(host, displayIp(bare));
    return [{ address: bare, family: literal === 4 ? 4 : 6 }];
  }
  let addresses: ResolvedAddress[];
  try {
    addresses = await resolve(bare);
  } catch (error) {
    throw WebFetchError.dnsResolution(host, lookupFailureText(error), error);
  }
  if (addresses.length === 0) throw WebFetchError.dnsEmpty(host);
  for (const { address } of addresses) {
    if (isBlockedForHost(address, bare, allowLocal)) throw WebFetchError.ssrfBlocked(host, displayIp(address));
  }
  return addresses;
}

/** The system resolver: every address of the name (`dns.lookup` with `all`). */
export const systemResolver: HostResolver = async (hostname) => {
  const results = await lookup(hostname, { all: true, verbatim: true });
  return results.map((r) => ({ address: r.address, family: r.family === 6 ? 6 : 4 }));
};
