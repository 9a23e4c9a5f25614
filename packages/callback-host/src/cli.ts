#!/usr/bin/env node
/**
 * `grok-tools-callback-host`: serves GrokToolsCallbackService for a grok-tools server. Prints
 * `{"event":"listening","address":"..."}` (the server's listening line) when ready, then one JSON
 * line per notification and per child (spawn, result), so a supervisor or a test can follow it.
 * Children run through `--runner-command`.
 */
import { parseArgs } from "node:util";
import { createCallbackHost, type SpawnSubagentHandler } from "./callback-host.js";
import { commandRunner } from "./runners/command-runner.js";

/** Environment variable read when `--secret` is not given. */
export const SECRET_ENV = "GROK_TOOLS_CALLBACK_SECRET";

const USAGE = `Usage: grok-tools-callback-host --secret <secret> [--listen HOST:PORT|unix:PATH] [--runner-command "<program>"]

  --listen          address to serve on (default 127.0.0.1:0, a free port)
  --secret          the client_callback_secret calls must carry (or ${SECRET_ENV})
  --runner-command  program run per subagent: request JSON on stdin, result JSON on stdout
`;

function line(event: Record<string, unknown>): void {
  process.stdout.write(`${JSON.stringify(event)}\n`);
}

async function main(): Promise<number> {
  let values: { listen?: string; secret?: string; "runner-command"?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: { listen: { type: "string" }, secret: { type: "string" }, "runner-command": { type: "string" }, help: { type: "boolean", short: "h" } },
      strict: true,
    }));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(USAGE);
    return 0;
  }
  const secret = values.secret ?? process.env[SECRET_ENV];
  if (!secret) {
    process.stderr.write(`a secret is required: --secret or ${SECRET_ENV}\n${USAGE}`);
    return 2;
  }
  const runner = values["runner-command"] ? commandRunner({ command: values["runner-command"] }) : undefined;
  const onSpawnSubagent: SpawnSubagentHandler | undefined = runner
    ? async (request, context) => {
        line({ event: "spawn", id: request.id, subagent_type: request.subagentType, resume_from: request.resumeFrom ?? null, tool_names: request.toolNames });
        context.signal.addEventListener("abort", () => line({ event: "cancelled", id: request.id }), { once: true });
        const result = await runner(request, context);
        line({ event: "result", id: request.id, success: result.success ?? false, cancelled: result.cancelled ?? false, error: result.error ?? null });
        return result;
      }
    : undefined;
  let host;
  try {
    host = await createCallbackHost({
      secret,
      ...(values.listen ? { listen: values.listen } : {}),
      onNotification: ({ sessionId, sequence, notification }) => line({ event: "notification", session_id: sessionId, sequence, notification }),
      ...(onSpawnSubagent ? { onSpawnSubagent } : {}),
    });
  } catch (error) {
    process.stderr.write(`cannot listen: ${(error as Error).message}\n`);
    return 1;
  }
  line({ event: "listening", address: host.address });
  await new Promise<void>((resolve) => {
    process.once("SIGTERM", resolve);
    process.once("SIGINT", resolve);
  });
  await host.close();
  return 0;
}

process.exitCode = await main();
