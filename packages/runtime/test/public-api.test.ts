/**
 * The public surface of every entry, pinned: each entry's exported names (values and types, read
 * with the TypeScript compiler) are compared with `test/api/<entry>.api.txt`, so that every change to
 * the surface shows as a diff. `UPDATE_API=1` rewrites the files. The root entry, the namespace
 * author's API, stays at most 40 names, each with a doc comment.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

const root = path.resolve(import.meta.dirname, "..");
const ENTRIES = ["index", "host", "fs", "helpers", "testing"] as const;

const program = ts.createProgram(
  ENTRIES.map((e) => path.join(root, "src", `${e}.ts`)),
  {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  },
);
const checker = program.getTypeChecker();

interface Exported {
  name: string;
  kind: "value" | "type";
  documented: boolean;
}

function exportsOf(entry: string): Exported[] {
  const file = program.getSourceFile(path.join(root, "src", `${entry}.ts`))!;
  const moduleSymbol = checker.getSymbolAtLocation(file)!;
  return checker
    .getExportsOfModule(moduleSymbol)
    .map((symbol) => {
      const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      const kind = target.flags & ts.SymbolFlags.Value ? ("value" as const) : ("type" as const);
      // Documented where it is declared, or on the entry's export statement (re-exported third-party names).
      const onExport = (symbol.getDeclarations() ?? []).some((d) => ts.isExportSpecifier(d) && ts.getJSDocCommentsAndTags(d.parent.parent).length > 0);
      const documented =
        onExport ||
        (target.getDeclarations() ?? []).some((d) => ts.getJSDocCommentsAndTags(d).length > 0) ||
        target.getDocumentationComment(checker).length > 0;
      return { name: symbol.getName(), kind, documented };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

describe.each(ENTRIES)("entry %s", (entry) => {
  it("exports what its API file lists", () => {
    const listed =
      exportsOf(entry)
        .map((e) => `${e.kind} ${e.name}`)
        .join("\n") + "\n";
    const file = path.join(root, "test", "api", `${entry}.api.txt`);
    if (process.env.UPDATE_API === "1") writeFileSync(file, listed);
    expect(listed).toBe(readFileSync(file, "utf8"));
  });
});

describe("the root entry", () => {
  it("has at most 40 names, each documented", () => {
    const names = exportsOf("index");
    expect(names.length).toBeLessThanOrEqual(40);
    expect(names.filter((n) => !n.documented).map((n) => n.name)).toEqual([]);
  });

  it("is what the running module exports (its values)", async () => {
    const loaded = Object.keys(await import("../src/index.js")).sort();
    expect(loaded).toEqual(
      exportsOf("index")
        .filter((e) => e.kind === "value")
        .map((e) => e.name)
        .sort(),
    );
  });
});
