// File-cycle check of every package (run by `npm test` through scripts/check-cycles.mjs).
// Type-only imports count: a cycle through types is still two modules that cannot be read apart.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "Two modules that import each other, directly or through others, cannot be understood or moved apart.",
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(dist|node_modules|gen|golden|scenarios)/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.base.json" },
    enhancedResolveOptions: { extensions: [".ts", ".js", ".mjs"] },
    moduleSystems: ["es6"],
  },
};
