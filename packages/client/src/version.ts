/** The client package's version, read once from its package.json (for `grok-tools --version`). */
import { readFileSync } from "node:fs";

export const clientVersion: string = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;
