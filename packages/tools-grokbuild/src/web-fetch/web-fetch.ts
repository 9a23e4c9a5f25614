/** Declaration of GrokBuild:web_fetch (kind web_fetch; params `grok_build.WebFetch`, unknown keys refused). */
import { defineTool, type RequirementFailure } from "@grok-tools/runtime";
import { loadDescription } from "../shared/description.js";
import { executeWebFetch } from "./execute.js";
import { WEB_FETCH_PARAMS_DEFAULTS, WebFetchInput, WebFetchOutput, WebFetchParams } from "./schema.js";

function checkParams(params: WebFetchParams): RequirementFailure[] {
  // Requests are never sent around the SSRF guard; an egress proxy would resolve hosts itself.
  if (params.proxy_endpoint === null) return [];
  return [
    {
      message: "proxy_endpoint is not supported by this server; remove it to fetch directly",
      fieldPath: "params.proxy_endpoint",
      expected: "null",
      badValue: params.proxy_endpoint,
    },
  ];
}

/** GrokBuild:web_fetch. */
export const webFetch = defineTool({
  id: "web_fetch",
  kind: "web_fetch",
  description: loadDescription(import.meta.url),
  shortDescription: "Fetch a URL and return it as Markdown.",
  input: WebFetchInput,
  output: WebFetchOutput,
  outputFields: {
    Content: { description: "The final URL, the content (Markdown for HTML), its type, the HTTP status and size.", potentiallyLarge: true },
    CrossHostRedirect: { description: "The host that redirected and the redirect target, which was not followed." },
  },
  params: {
    resourceId: "grok_build.WebFetch",
    schema: WebFetchParams,
    defaults: WEB_FETCH_PARAMS_DEFAULTS,
    check: checkParams,
  },
  capabilities: { supportsCancellation: true, supportsTimeout: true },
  execute: executeWebFetch,
});
