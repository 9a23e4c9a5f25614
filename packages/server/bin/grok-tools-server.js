#!/usr/bin/env node
// Thin launcher so the command exists before the first build; the code is in dist/.
import { main, StartupError } from "../dist/cli.js";

main(process.argv).catch((error) => {
  if (error instanceof StartupError) {
    if (error.message) process.stderr.write(`grok-tools-server: error: ${error.message}\n`);
    process.exit(error.exitCode);
  }
  process.stderr.write(`grok-tools-server: ${error?.stack ?? error}\n`);
  process.exit(1);
});
