// The writing side of run-suite.mjs's report (one JSON line per check, in the file it names in
// GROK_SUITE_REPORT), kept beside the script that reads it: every stress script of the packages
// and of the root's test projects records its checks through this one module.
import { appendFileSync } from "node:fs";

export const SMOKE = process.env.GROK_SUITE_SMOKE === "1";

export function recordCheck(check, count, passed, note = "") {
  const line = JSON.stringify({ check, count, passed, note });
  console.log(`check ${check}: ${count} ${passed ? "pass" : "FAIL"}${note ? ` (${note})` : ""}`);
  const file = process.env.GROK_SUITE_REPORT;
  if (file) appendFileSync(file, `${line}\n`);
}

export async function check(name, body, planned = 0) {
  let count;
  try {
    count = await body();
  } catch (error) {
    recordCheck(name, planned, false, error instanceof Error ? error.message.split("\n")[0].slice(0, 120) : String(error));
    throw error;
  }
  recordCheck(name, count, true);
}
