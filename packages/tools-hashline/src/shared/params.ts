/**
 * The shared `hashline_scheme_params` resource (spec §2.2): which anchor scheme all three hashline
 * tools of a session use, checked at finalize; and the scheme-appropriate examples the tools'
 * descriptions show.
 */
import { Type, type RequirementFailure, type Static } from "@grok-tools/runtime";
import { chunkScheme, contentOnlyScheme, type AnchorScheme } from "./scheme.js";

/** The params resource id, shared by the three tools. */
export const HASHLINE_PARAMS_RESOURCE_ID = "hashline_scheme_params";

/** `scheme` ("chunk" | "content_only"), `hash_len` 1-4, `chunk_size` > 0 for chunk. Unknown keys are refused. */
export const HashlineSchemeParams = Type.Object(
  {
    scheme: Type.String(),
    hash_len: Type.Integer({ minimum: 0 }),
    chunk_size: Type.Integer({ minimum: 0 }),
  },
  { additionalProperties: false },
);
export type HashlineSchemeParams = Static<typeof HashlineSchemeParams>;

/** The defaults: the chunk scheme, 3-letter hashes, chunks of 8 lines. */
export const HASHLINE_PARAMS_DEFAULTS: HashlineSchemeParams = { scheme: "chunk", hash_len: 3, chunk_size: 8 };

/** The finalize-time check (category `params_constraint`). */
export function checkHashlineParams(params: HashlineSchemeParams): RequirementFailure[] {
  if (params.scheme !== "chunk" && params.scheme !== "content_only") {
    return [
      {
        message: `unknown scheme "${params.scheme}": expected "chunk" or "content_only"`,
        fieldPath: "params.scheme",
        expected: '"chunk" or "content_only"',
        badValue: params.scheme,
        category: "params_constraint",
      },
    ];
  }
  if (params.hash_len < 1 || params.hash_len > 4) {
    return [
      {
        message: `hash_len must be 1..=4, got ${params.hash_len}`,
        fieldPath: "params.hash_len",
        expected: "1..=4",
        badValue: params.hash_len,
        category: "params_constraint",
      },
    ];
  }
  if (params.scheme === "chunk" && params.chunk_size === 0) {
    return [
      {
        message: "chunk_size must be > 0",
        fieldPath: "params.chunk_size",
        expected: '> 0 when scheme is "chunk"',
        badValue: params.chunk_size,
        category: "params_constraint",
      },
    ];
  }
  return [];
}

/** The scheme the params describe (they passed {@link checkHashlineParams} at finalize). */
export function schemeOf(params: HashlineSchemeParams): AnchorScheme {
  return params.scheme === "content_only" ? contentOnlyScheme(params.hash_len) : chunkScheme(params.hash_len, params.chunk_size);
}

/** `{example_anchor}`, `{example_line1}`, ... of a description template, filled for the scheme. */
export function renderExamples(template: string, params: HashlineSchemeParams): string {
  const len = Math.min(Math.max(params.hash_len, 1), 4);
  const hash = "abcd".slice(0, len);
  const ctx = "rstu".slice(0, len);
  const suffix = params.scheme === "content_only" ? hash : `${hash}:${ctx}`;
  return template
    .replaceAll("{example_anchor}", `22:${suffix}`)
    .replaceAll("{example_line1}", `   1:${suffix}→fn main() {`)
    .replaceAll("{example_line2}", `   2:${suffix}→    let x = 1;`)
    .replaceAll("{grep_match}", `2:${suffix}:    let x = 1;`)
    .replaceAll("{grep_context}", `3:${suffix}-    let y = 2;`);
}

/** The `params` entry every hashline tool declares. */
export const HASHLINE_PARAMS_SPEC = {
  resourceId: HASHLINE_PARAMS_RESOURCE_ID,
  schema: HashlineSchemeParams,
  defaults: HASHLINE_PARAMS_DEFAULTS,
  check: checkHashlineParams,
};
