// Start-up pays only for what a session uses (issue #18): loading the server and the built-in
// tool namespaces must not load the heavy dependencies that only some calls need (templates,
// YAML front matter, HTML to Markdown). They are required on first use instead.
import { spawnSync } from "node:child_process";
import path from "node:path";

const CLI = path.resolve(import.meta.dirname, "../dist/cli.js");

test("importing the server loads neither nunjucks, yaml, turndown, reflection nor prom-client (commander, used at start, is loaded)", () => {
  const script = `
    import { createRequire } from "node:module";
    await import(${JSON.stringify(CLI)});
    await import("@grok-tools/tools-grokbuild");
    await import("@grok-tools/tools-codex");
    const loaded = Object.keys(createRequire(import.meta.url).cache);
    const names = ["nunjucks", "yaml", "turndown", "@mixmark-io/domino", "@grpc/reflection", "prom-client", "@opentelemetry/api", "commander"];
    console.log(JSON.stringify(names.filter((n) => loaded.some((file) => file.includes("/node_modules/" + n + "/")))));
  `;
  const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8", cwd: path.resolve(import.meta.dirname, "..") });
  expect(result.stderr).toBe("");
  expect(JSON.parse(result.stdout.trim())).toEqual(["commander"]);
});
