/**
 * The per-session state of web_fetch (a session service): the page cache, the numbered file stores,
 * the host resolver (the system one; tests inject a fake) and the detected query helpers.
 */
import { defineService, type SessionHandle } from "@grok-tools/runtime";
import { findOnPath } from "@grok-tools/runtime/helpers";
import type TurndownService from "turndown";
import { FetchCache } from "./cache.js";
import { createHtmlConverter } from "./convert.js";
import type { QueryTools } from "./overflow.js";
import { SessionFileStore } from "./session-files.js";
import { systemResolver, type HostResolver } from "./ssrf.js";

/** Session-scoped web_fetch machinery. */
export class WebFetchSession {
  /** Resolves host names; replaceable so tests never touch real DNS. */
  resolver: HostResolver = systemResolver;
  /** `jq`/`python3`/`sed`/`cut` as found on PATH; replaceable for deterministic tests. */
  queryTools: QueryTools | undefined;
  readonly artifacts = new SessionFileStore("web_fetch");
  readonly downloads = new SessionFileStore("downloads");
  readonly images = new SessionFileStore("images");
  readonly videos = new SessionFileStore("videos");
  #cache: FetchCache | undefined;
  #converter: TurndownService | undefined;

  /** The cache, created with the session's params on first use. */
  cache(ttlMs: number, maxEntries: number): FetchCache {
    this.#cache ??= new FetchCache(ttlMs, maxEntries);
    return this.#cache;
  }

  /** The HTML converter, built once per session. */
  get converter(): TurndownService {
    this.#converter ??= createHtmlConverter();
    return this.#converter;
  }

  /** The query helpers, detected on first use. */
  detectedQueryTools(): QueryTools {
    this.queryTools ??= detectQueryTools(process.env.PATH);
    return this.queryTools;
  }
}

/** `name` when an executable of that name is on `envPath`. */
function onPath(name: string, envPath: string | undefined): string | undefined {
  return findOnPath(name, { envPath }) === undefined ? undefined : name;
}

/** Finds the query helpers the overflow hint may suggest. */
export function detectQueryTools(envPath: string | undefined): QueryTools {
  const python = onPath("python3", envPath) ?? onPath("python", envPath);
  const found: QueryTools = {};
  const jq = onPath("jq", envPath);
  const sed = onPath("sed", envPath);
  const cut = onPath("cut", envPath);
  if (jq !== undefined) found.jq = jq;
  if (python !== undefined) found.python = python;
  if (sed !== undefined) found.sed = sed;
  if (cut !== undefined) found.cut = cut;
  return found;
}

/** The web_fetch session service. */
export const webFetchSession = defineService<WebFetchSession, SessionHandle>({
  name: "grok_build.WebFetchClient",
  create: () => new WebFetchSession(),
});
