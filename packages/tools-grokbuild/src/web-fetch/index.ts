/** GrokBuild:web_fetch and its session service. */
export { webFetch } from "./web-fetch.js";
export { webFetchSession, WebFetchSession } from "./fetch-session.js";
export type { HostResolver, ResolvedAddress } from "./ssrf.js";
