/** The server package's version, read once from its package.json. */
import { readFileSync } from "node:fs";

export const serverVersion: string = (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;
