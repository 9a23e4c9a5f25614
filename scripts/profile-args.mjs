// What the profile summaries (profile-top.mjs, alloc-top.mjs, fs-timing-top.mjs) share: their
// command-line options, and how a V8 call frame is named in the tables of the first two.

/**
 * Options taken out of `args` (the rest stays: the profile files): `option(name, fallback)` for
 * `--name value`, `flag(name)` for a bare `--name`.
 */
export function optionsOf(args) {
  return {
    option(name, fallback) {
      const at = args.indexOf(name);
      if (at === -1) return fallback;
      const [value] = args.splice(at, 2).slice(1);
      return value;
    },
    flag(name) {
      const at = args.indexOf(name);
      if (at === -1) return false;
      args.splice(at, 1);
      return true;
    },
  };
}

/** A call frame as the tables show it: function, then its file from `node_modules/` or `packages/` on, and its line. */
export function frameLabel(frame) {
  const short = frame.url.replace(/^file:\/\//, "").replace(/.*\/(node_modules|packages)\//, "$1/");
  return `${frame.functionName || "(anonymous)"} ${short}:${frame.lineNumber + 1}`;
}
