/**
 * The tool id grammar and the client-name rule of spec §1. Pure functions, no registry.
 */

const SEGMENT = /^[A-Za-z0-9_-]+$/;

/** Why a string is not a tool id, in the reference's words, or undefined when it is one. */
export function toolIdError(id: string): string | undefined {
  if (id === "") return "identifier must not be empty";
  const segments = id.split(":");
  if (segments.length > 2 || !segments.every((s) => SEGMENT.test(s))) return `identifier "${id}" has invalid format`;
  return undefined;
}

/** Whether `id` is one or two `:`-separated segments of `[A-Za-z0-9_-]+`. */
export function isValidToolId(id: string): boolean {
  return toolIdError(id) === undefined;
}

/** The name a tool is advertised under without an override: the part after the first colon. */
export function defaultClientName(id: string): string {
  const colon = id.indexOf(":");
  return colon === -1 ? id : id.slice(colon + 1);
}

/** The namespace of a fully-qualified id (`Acme:shout` → `Acme`), or "" without one. */
export function namespaceOf(id: string): string {
  const colon = id.indexOf(":");
  return colon === -1 ? "" : id.slice(0, colon);
}
