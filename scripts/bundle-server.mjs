#!/usr/bin/env node
// Last step of the server's build (after tsc and finish-build.mjs): bundles the grok-tools-server
// command into packages/server/dist/bundle/cli.mjs with esbuild, which bin/grok-tools-server.js loads
// (falling back to dist/cli.js when the bundle is missing). Why (issue #18): two thirds of the
// command's start-up went to loading ~1,200 module files (684 of them typebox's per-file build) and
// Node 20 has no compile cache; one file starts in about half the time and keeps ~20 MB less. Only the
// command uses the bundle: the package's programmatic API (dist/index.js) stays as tsc wrote it.
//
// What a bundle breaks, and how this script keeps it working:
// - Our modules read files beside themselves through import.meta.url (tool descriptions, the server's
//   package.json, the namespace resolve hooks) and load some dependencies lazily with
//   createRequire(import.meta.url). In a bundle import.meta.url is the bundle's, so each module's is
//   rewritten to a URL relative to the bundle: a server module's to its own file in dist/ (shipped
//   anyway), another package's to a mirror of that package's dist/ under dist/bundle/<package>/, where
//   its assets (description*.md) are copied. Relative to the bundle file, so it holds in any install
//   layout; and the copies are those of the bundled code's version. A package loaded lazily from there
//   resolves from the server package upward, so it must be a dependency of @grok-tools/server
//   (checked below).
// - Vendor namespaces share the server's runtime (load-namespaces.ts, namespace-resolve-hooks.ts). With
//   the runtime inlined, its instances live in the bundle: the bundle exports every entry of every
//   shared peer under generated names, and dist/bundle/peers/<entry>.mjs re-exports them under their own
//   names (live bindings, one instance); the bundle tells the resolve hooks to map the entries there.
// - Third-party packages: inlined only those on INLINED (code that reads no file beside itself, or
//   whose files FILES_BESIDE copies and points its __dirname at, or whose files serve only what the
//   command never does, NO_FILES_BESIDE: pino's transports); those on EXTERNAL stay in
//   node_modules, with the reason. A package on neither list fails the build, so a new dependency is
//   decided on, not bundled by accident; inlined code that still uses __dirname fails it too. Their
//   licences go to dist/bundle/THIRD-PARTY-LICENSES.txt.
// - Stack traces: identifiers are not mangled (only whitespace and syntax are minified), so V8 names
//   functions as in the sources, and a linked source map with the sources' text maps the bundle back
//   to our TypeScript (node --enable-source-maps). esbuild's keepNames is off: it wraps every named
//   closure in a `__name` call (a defineProperty each time the closure is made), which was 3.8% of the
//   server's CPU for a todo_write at 64 in flight (issue #18). Without it only names esbuild had to
//   rename apart change (`CommanderError2`, `SearchRootMissing2`, a local `write5`); none is read by code.
import * as esbuild from "esbuild";
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmdirSync, rmSync, writeFileSync } from "node:fs";
import { createRequire, isBuiltin } from "node:module";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const serverDir = path.join(root, "packages", "server");
const dist = path.join(serverDir, "dist");
const outDir = path.join(dist, "bundle");
const bundleFile = path.join(outDir, "cli.mjs");
const serverManifest = JSON.parse(readFileSync(path.join(serverDir, "package.json"), "utf8"));
const serverDependencies = new Set(Object.keys({ ...serverManifest.dependencies, ...serverManifest.optionalDependencies }));
const requireFromServer = createRequire(path.join(serverDir, "package.json"));

/**
 * Third-party packages inlined: ESM or CommonJS code that reads no file beside itself, or reads only
 * the folders FILES_BESIDE lists. The health check and the protobufjs stack it parses health.proto
 * with are no longer loaded at start (the health service is built on its first call), so they stay
 * external.
 */
const INLINED = new Set([
  "typebox", // 684 files of per-file ESM: the largest share of start-up
  "commander",
  "@bufbuild/protobuf",
  "picomatch",
  "fflate",
  "ignore",
  "diff",
  "pino",
  "@pinojs/redact",
  "atomic-sleep",
  "on-exit-leak-free",
  "pino-std-serializers",
  "process-warning",
  "quick-format-unescaped",
  "real-require",
  "safe-stable-stringify",
  "sonic-boom",
  "thread-stream",
]);
const inlined = (name) => INLINED.has(name);

/**
 * Inlined packages that read files beside themselves through __dirname: those folders are copied to
 * dist/bundle/vendor/<package>/ and the package's modules get a __dirname there (relative to the
 * bundle, so any install layout works, and the copies are the bundled code's version).
 */
const FILES_BESIDE = {};

/**
 * Inlined packages whose files beside themselves serve only what the command never does: pino's
 * transports (worker threads started from pino's and thread-stream's folders; the command logs to
 * stderr through pino.destination(2)). Their __dirname becomes a call that fails with a clear error.
 */
const NO_FILES_BESIDE = { pino: "pino transports", "thread-stream": "pino transports" };

/** Third-party packages left in node_modules, and why. */
const EXTERNAL = {
  "@grpc/grpc-js": "reads its channelz and ORCA .proto files through __dirname; @grpc/reflection requires the same copy",
  "@grpc/reflection": "loaded lazily (with its own proto-loader from the server's dependencies); reads its .proto files beside itself",
  "@vscode/ripgrep": "finds the rg binary beside itself",
  "grpc-health-check": "loaded lazily, on the first health call or reflection (it parses health.proto with protobufjs at import)",
  "prom-client": "loaded lazily, only with --metrics-listen",
  yaml: "loaded lazily, only for YAML configuration and front matter",
  nunjucks: "loaded lazily, only for templated descriptions",
  turndown: "loaded lazily, only by web_fetch",
  "pdfjs-dist": "run by a child process from its installed path",
  "@napi-rs/canvas": "an optional native module",
};

/**
 * Packages our modules load at run time with createRequire(import.meta.url) or resolve by path: they
 * resolve from the server package, so each must be its dependency (its range as where it comes from).
 */
const LOADED_AT_RUN_TIME = [
  "yaml",
  "nunjucks",
  "turndown",
  "prom-client",
  "@grpc/reflection",
  "grpc-health-check",
  "@grpc/proto-loader",
  "pdfjs-dist",
  "@napi-rs/canvas",
  "@grok-tools/proto",
];

function* walkFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walkFiles(full);
    else yield full;
  }
}

const problems = [];
const packageName = (specifier) => (specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0]);
const posix = (p) => p.split(path.sep).join("/");
const relativeUrl = (from, to) => {
  const rel = posix(path.relative(from, to));
  return rel.startsWith("../") ? rel : `./${rel}`;
};

for (const name of LOADED_AT_RUN_TIME) {
  if (!serverDependencies.has(name)) problems.push(`${name} is loaded at run time but is not a dependency of @grok-tools/server`);
}

/** Our packages the bundle inlines: the server and its @grok-tools dependencies, by real dist folder. */
const ourPackages = [{ name: serverManifest.name, short: "server", dist: realpathSync(dist), isServer: true }];
for (const name of Object.keys(serverManifest.dependencies).filter((n) => n.startsWith("@grok-tools/"))) {
  const dir = path.dirname(realpathSync(requireFromServer.resolve(`${name}/package.json`)));
  ourPackages.push({ name, short: name.split("/")[1], dist: path.join(dir, "dist"), isServer: false });
}
const ownerOf = (file) => ourPackages.find((p) => file.startsWith(p.dist + path.sep));
const usedPackages = new Set();
const besidePackages = Object.entries(FILES_BESIDE).map(([name, folders]) => ({
  name,
  folders,
  dir: path.dirname(realpathSync(requireFromServer.resolve(`${name}/package.json`))),
}));
const besideOf = (file) => besidePackages.find((p) => file.startsWith(p.dir + path.sep));
const usedBeside = new Set();

// The shared peers' entries: each one's runtime export names, read from the built module itself.
const { SHARED_PEER_PACKAGES } = await import(pathToFileURL(path.join(dist, "load-namespaces.js")).href);
const peerEntries = [];
for (const peer of SHARED_PEER_PACKAGES) {
  const dir = path.dirname(realpathSync(requireFromServer.resolve(`${peer}/package.json`)));
  const { exports } = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
  for (const [subpath, target] of Object.entries(exports)) {
    const file = typeof target === "string" ? target : (target.import ?? target.default);
    if (typeof file !== "string" || !file.endsWith(".js")) continue;
    const specifier = subpath === "." ? peer : `${peer}/${subpath.slice(2)}`;
    const names = Object.keys(await import(pathToFileURL(path.join(dir, file)).href));
    for (const n of names) if (!/^[A-Za-z_$][\w$]*$/.test(n)) problems.push(`${specifier} exports "${n}", which a generated re-export cannot name`);
    const index = peerEntries.length;
    peerEntries.push({
      specifier,
      names,
      alias: (n) => `__peer${index}_${n}`,
      shim: path.join(outDir, "peers", `${specifier}${subpath === "." ? "/index" : ""}.mjs`),
    });
  }
}

const entrySource = [
  `import { useBundledSharedPeers } from ${JSON.stringify(path.join(dist, "load-namespaces.js"))};`,
  `export * from ${JSON.stringify(path.join(dist, "cli.js"))};`,
  ...peerEntries.map((e) => `export { ${e.names.map((n) => `${n} as ${e.alias(n)}`).join(", ")} } from ${JSON.stringify(e.specifier)};`),
  `useBundledSharedPeers({`,
  ...peerEntries.map((e) => `  ${JSON.stringify(e.specifier)}: new URL(${JSON.stringify(relativeUrl(outDir, e.shim))}, import.meta.url).href,`),
  `});`,
].join("\n");

const ourModules = {
  name: "grok-tools-modules",
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (isBuiltin(args.path) || path.isAbsolute(args.path)) return undefined;
      const name = packageName(args.path);
      if (name.startsWith("@grok-tools/") || inlined(name)) return undefined;
      if (name in EXTERNAL) return { path: args.path, external: true };
      return { errors: [{ text: `${name} (imported by ${args.importer}) is on neither INLINED nor EXTERNAL of scripts/bundle-server.mjs: decide` }] };
    });
    build.onLoad({ filter: /\.[cm]?js$/ }, (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) {
        // A third-party package's own source map points at sources it does not ship: the bundle's map
        // then leads to its published JavaScript (with the text), as a stack trace did before.
        let contents = readFileSync(args.path, "utf8").replace(/\n\/\/# sourceMappingURL=\S+\s*$/, "\n");
        const unshipped = Object.entries(NO_FILES_BESIDE).find(([name]) => args.path.includes(`${path.sep}node_modules${path.sep}${name}${path.sep}`));
        if (unshipped) contents = contents.replace(/\b__dirname\b/g, `__bundleNoFilesBeside(${JSON.stringify(unshipped[1])})`);
        const beside = besideOf(args.path);
        if (beside !== undefined) {
          usedBeside.add(beside);
          // Declared in the module's own CommonJS scope, so the define markers below do not apply to it;
          // through the banner's folder, not import.meta, which would make esbuild take the module for ESM.
          const dir = posix(path.relative(outDir, path.join(outDir, "vendor", beside.name, path.relative(beside.dir, path.dirname(args.path)))));
          const file = JSON.stringify(path.basename(args.path));
          contents = `var __dirname = require("node:path").join(__bundleDir, ${JSON.stringify(dir)}), __filename = require("node:path").join(__dirname, ${file});\n${contents}`;
        }
        return { contents, loader: "js", resolveDir: path.dirname(args.path) };
      }
      const owner = ownerOf(args.path);
      if (owner === undefined) return undefined;
      usedPackages.add(owner);
      const source = readFileSync(args.path, "utf8");
      const other = /\bimport\.meta\.(?!url\b)\w+/.exec(source);
      if (other) return { errors: [{ text: `${other[0]} in ${args.path}: only import.meta.url is rewritten for the bundle` }] };
      const target = owner.isServer ? args.path : path.join(outDir, owner.short, path.relative(owner.dist, args.path));
      const url = `new URL(${JSON.stringify(relativeUrl(outDir, target))}, import.meta.url).href`;
      return { contents: source.replace(/\bimport\.meta\.url\b/g, url), loader: "js", resolveDir: path.dirname(args.path) };
    });
  },
};

const result = await esbuild.build({
  stdin: { contents: entrySource, resolveDir: serverDir, sourcefile: "bundle-entry.mjs", loader: "js" },
  outfile: bundleFile,
  bundle: true,
  write: false,
  format: "esm",
  platform: "node",
  target: "node20",
  // CommonJS packages inlined into an ES module still call require() for Node's built-ins (esbuild
  // renames any top-level `require` of a bundled module, so this one is never shadowed).
  // FILES_BESIDE packages get their __dirname from the bundle's URL.
  banner: {
    js: [
      'import { createRequire as __bundleCreateRequire } from "node:module";',
      'import { fileURLToPath as __bundleFileURLToPath } from "node:url";',
      "const require = __bundleCreateRequire(import.meta.url);",
      'const __bundleDir = __bundleFileURLToPath(new URL(".", import.meta.url));',
      "const __bundleNoFilesBeside = (what) => { throw new Error(`${what} are not available in the bundled grok-tools-server command`); };",
    ].join("\n"),
  },
  // Inlined CommonJS that uses __dirname would throw in an ES module (and read the wrong folder if it
  // were defined): the markers make the build fail below instead.
  define: { __dirname: "__bundle_forbidden_dirname", __filename: "__bundle_forbidden_filename" },
  // Whitespace and syntax only: ~5% less start-up (1.6 MB instead of 2.2 MB to decode and parse);
  // identifiers are not mangled, so stack traces name the functions they did. No keepNames: see the top.
  keepNames: false,
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: "linked",
  sourcesContent: true,
  metafile: true,
  legalComments: "eof",
  logLevel: "warning",
  plugins: [ourModules],
});

const bundleText = result.outputFiles.find((f) => f.path === bundleFile).text;
if (/\b__bundle_forbidden_(dirname|filename)\b/.test(bundleText))
  problems.push("the bundle uses __dirname or __filename: an inlined package reads files beside itself; make it EXTERNAL");
const imported = new Set();
for (const output of Object.values(result.metafile.outputs))
  for (const i of output.imports) if (i.external && !isBuiltin(i.path)) imported.add(packageName(i.path));
for (const name of imported) if (!serverDependencies.has(name)) problems.push(`the bundle imports ${name}, which is not a dependency of @grok-tools/server`);
if (problems.length > 0) {
  for (const p of problems) console.error(`bundle-server: ${p}`);
  process.exit(1);
}

/** Files of this run, path -> content. Written each through a temporary file and a rename, so a server starting meanwhile never reads half a file. */
const files = new Map();
for (const owner of usedPackages) {
  if (owner.isServer) continue;
  for (const asset of walkFiles(owner.dist)) {
    if (/\.(js|js\.map|d\.ts|d\.ts\.map|tsbuildinfo)$/.test(asset)) continue;
    files.set(path.join(outDir, owner.short, path.relative(owner.dist, asset)), readFileSync(asset));
  }
}
// The licences of the inlined third-party packages travel with their code.
const licensed = new Map();
for (const input of Object.keys(result.metafile.inputs)) {
  const match = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
  if (match) licensed.set(path.resolve(serverDir, match[1]), undefined);
}
const notices = [...licensed.keys()].sort().map((dir) => {
  const { name, version, license } = JSON.parse(readFileSync(path.join(dir, "package.json"), "utf8"));
  const file = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f));
  const text = file === undefined ? `(no licence file; package.json says ${license})` : readFileSync(path.join(dir, file), "utf8").trim();
  return `${name}@${version} (${license})\n\n${text}\n`;
});
files.set(
  path.join(outDir, "THIRD-PARTY-LICENSES.txt"),
  Buffer.from(`Third-party packages inlined in cli.mjs, with their licences.\n\n${notices.join(`\n${"-".repeat(72)}\n\n`)}`),
);
for (const beside of usedBeside) {
  for (const folder of beside.folders) {
    for (const file of walkFiles(path.join(beside.dir, folder))) {
      files.set(path.join(outDir, "vendor", beside.name, path.relative(beside.dir, file)), readFileSync(file));
    }
  }
}
for (const e of peerEntries) {
  const exportList = e.names.map((n) => `${e.alias(n)} as ${n}`).join(", ");
  files.set(
    e.shim,
    Buffer.from(
      `// Generated by scripts/bundle-server.mjs: ${e.specifier} for vendor namespaces, re-exporting the bundle's instances.\nexport { ${exportList} } from ${JSON.stringify(relativeUrl(path.dirname(e.shim), bundleFile))};\n`,
    ),
  );
}
// The bundle last: its map and everything it reads are in place first.
for (const output of result.outputFiles.filter((f) => f.path !== bundleFile)) files.set(output.path, Buffer.from(output.contents));
files.set(bundleFile, Buffer.from(result.outputFiles.find((f) => f.path === bundleFile).contents));

for (const [file, content] of files) {
  if (existsSync(file) && readFileSync(file).equals(content)) continue;
  mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, content);
  renameSync(temporary, file);
}
const removeStale = (dir) => {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      removeStale(full);
      if (readdirSync(full).length === 0) rmdirSync(full);
    } else if (!files.has(full)) rmSync(full);
  }
};
removeStale(outDir);

const inputs = Object.keys(result.metafile.inputs).length;
const size = (result.outputFiles.find((f) => f.path === bundleFile).contents.length / 1024).toFixed(0);
console.log(
  `dist/bundle/cli.mjs: ${inputs} modules in one file (${size} KiB), ${files.size - 3} assets, peer entries and licences; external: ${[...imported].sort().join(", ")}`,
);
