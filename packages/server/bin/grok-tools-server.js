#!/usr/bin/env node
// Thin launcher so the command exists before the first build; the code is in dist/.
import { main } from "../dist/cli.js";

main(process.argv).catch((error) => {
  process.stderr.write(`grok-tools-server: ${error?.stack ?? error}\n`);
  process.exit(1);
});
