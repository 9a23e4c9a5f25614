/** Model-facing description template of GrokBuild:web_fetch (verbatim from the reference). */
export const WEB_FETCH_DESCRIPTION = `Fetch the content of a specific URL and return it as markdown.

IMPORTANT: \${{ tools.by_kind.web_fetch }} WILL FAIL for authenticated or private URLs (e.g. Google Docs, Confluence, Jira, GitHub private repos). Use specialized MCP tools for those instead.

Usage notes:
  - HTTP URLs will be automatically upgraded to HTTPS
  - Long pages will be truncated to fit your context window`;
