#!/usr/bin/env node
// Thin launcher of the grok-tools command; the code is in dist/cli.js.
import { runCli } from "../dist/cli.js";

process.exitCode = await runCli(process.argv.slice(2));
