// The `grok-tools` command: list, info, call, state and finalize against a running server.
// Exit codes: 0 ok, 1 the tool returned an error, 2 usage, connection or protocol error.
// With --json every outcome is one JSON object on stdout, failures included ({"ok": false, "error": {"kind", ...}}).
import { status as GrpcStatus } from "@grpc/grpc-js";
import { Command, CommanderError, Option } from "commander";
import {
  errorCodeToJSON,
  OutputFormat,
  toolCategoryToJSON,
  type FinalizeToolServerConfigResponse,
  type ListToolsResponse,
  type ToolError,
  type ToolInfo,
} from "@grok-tools/proto";
import { DEFAULT_ADDRESS } from "./address.js";
import { createToolsClient, type CallOptions, type ToolsClient } from "./client.js";
import { isToolsRpcError, ToolsProtocolError } from "./errors.js";
import type { ToolCallResult } from "./tool-result.js";
import { clientVersion } from "./version.js";
import { LiveOutputView } from "./live-output-view.js";

/** Exit code: success. */
export const EXIT_OK = 0;
/** Exit code: the tool ran and returned a ToolError. */
export const EXIT_TOOL_ERROR = 1;
/** Exit code: bad usage, no connection, or an RPC/protocol failure. */
export const EXIT_USAGE = 2;
/** Deadline of the CLI's discovery and configuration calls (tool calls have none unless --deadline-ms). */
const DISCOVERY_DEADLINE_MS = 30_000;
/** Namespace preferred when `--enable` names a tool without one. */
const PREFERRED_NAMESPACE = "GrokBuild";

/** Where the CLI writes and what it reads from the environment; the real process by default. */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  /** Whether stderr is a terminal: `call --stream` then draws a progress line there. */
  stderrIsTTY?: boolean;
}

interface GlobalOptions {
  address: string;
  token?: string;
  json?: boolean;
  deadlineMs?: number;
}

/** A problem the user can fix: printed without a stack, exit code 2. */
class UsageError extends Error {}

/** What kind of failure ended the command (the `kind` of a --json failure). */
type FailureKind = "usage" | "connection" | "rpc" | "protocol" | "internal";

interface Failure {
  kind: FailureKind;
  message: string;
  /** gRPC status name, for connection and rpc failures. */
  code?: string;
  rpc?: string;
}

const processIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  stderrIsTTY: process.stderr.isTTY === true,
};

function positiveInt(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n <= 0) throw new UsageError(`Expected a positive integer, got "${value}".`);
  return n;
}

function splitIds(value: string, previous: string[] = []): string[] {
  return [
    ...previous,
    ...value
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s !== ""),
  ];
}

function codeName(error: ToolError): string {
  return errorCodeToJSON(error.code).replace(/^ERROR_CODE_/, "");
}

function firstLine(text: string, max = 100): string {
  const line =
    text
      .split("\n")
      .find((l) => l.trim() !== "")
      ?.trim() ?? "";
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function withNewline(text: string): string {
  return text.endsWith("\n") ? text : `${text}\n`;
}

/** A server is finalized once it lists enabled tools (before finalize every tool is listed disabled). */
function isFinalized(list: ListToolsResponse): boolean {
  return list.tools.length === 0 || list.tools.some((t) => t.enabled);
}

/** Turns `read_file` into `GrokBuild:read_file` (or the only namespace that has it), using the pre-finalize list. */
function resolveToolIds(ids: string[], list: ListToolsResponse): string[] {
  const known = list.tools.map((t) => t.name);
  return ids.map((id) => {
    if (id.includes(":")) return id;
    const matches = known.filter((name) => name.slice(name.indexOf(":") + 1) === id);
    const preferred = matches.find((name) => name.startsWith(`${PREFERRED_NAMESPACE}:`)) ?? (matches.length === 1 ? matches[0] : undefined);
    if (preferred) return preferred;
    if (matches.length > 1) throw new UsageError(`"${id}" exists in several namespaces (${matches.join(", ")}): name one of them.`);
    throw new UsageError(`No tool "${id}" on this server. Run \`grok-tools list\` to see the tool ids.`);
  });
}

function toolJson(info: ToolInfo): Record<string, unknown> {
  return {
    name: info.name,
    namespace: info.namespace,
    enabled: info.enabled,
    category: toolCategoryToJSON(info.category).replace(/^TOOL_CATEGORY_/, ""),
    description: info.description,
    inputSchema: info.inputSchemaJson ? JSON.parse(info.inputSchemaJson) : undefined,
    contractVersion: info.contractVersion || undefined,
  };
}

function resultJson(result: ToolCallResult): Record<string, unknown> {
  if (result.ok) return { ok: true, output: result.output, promptText: result.promptText, metadata: result.metadata, callId: result.callId };
  const { error } = result;
  return {
    ok: false,
    error: {
      kind: "tool",
      code: codeName(error),
      message: error.message,
      ...(error.suggestion === undefined ? {} : { suggestion: error.suggestion }),
      ...(error.filePath === undefined ? {} : { filePath: error.filePath }),
      ...(error.lineNumber === undefined ? {} : { lineNumber: error.lineNumber }),
      ...(error.detailsJson === undefined ? {} : { details: JSON.parse(error.detailsJson) as unknown }),
      retryable: error.retryable,
    },
    callId: result.callId,
  };
}

/**
 * Why a channel could not connect, from grpc-js's UNAVAILABLE text ("No connection established.
 * Last error: Error: connect ECONNREFUSED 127.0.0.1:1. Resolution note: "), in words.
 */
function unreachableReason(details: string): string {
  const reasons: [RegExp, string][] = [
    [/ECONNREFUSED/, "nothing is listening there (connection refused)"],
    [/ENOENT/, "no socket file is there"],
    [/EACCES|EPERM/, "permission denied"],
    [/ETIMEDOUT|EHOSTUNREACH|ENETUNREACH/, "the host does not answer"],
    [/ECONNRESET|EPIPE/, "the connection was reset (is it a gRPC server? TLS on one side only?)"],
    [/Name resolution failed|ENOTFOUND|EAI_AGAIN/, "the host name does not resolve"],
  ];
  for (const [pattern, reason] of reasons) if (pattern.test(details)) return reason;
  return cleanGrpcText(details);
}

/** grpc-js channel text without its "Error: " prefixes and empty "Resolution note: ". */
function cleanGrpcText(text: string): string {
  return text
    .replace(/\s*Resolution note:\s*$/, "")
    .replace(/\b(Last error: )Error: /g, "$1")
    .replace(/^Error: /, "")
    .replace(/\.+$/, "");
}

/** The failure for an error thrown while running a command, with what to do about it. */
function describeFailure(error: unknown, address: string): Failure {
  if (isToolsRpcError(error)) {
    const base = { code: error.codeName, rpc: error.rpc };
    switch (error.code) {
      case GrpcStatus.UNAVAILABLE:
        return {
          kind: "connection",
          ...base,
          message:
            `Cannot reach a grok-tools server at ${address}: ${unreachableReason(error.details)}.\n` +
            `Start one with \`grok-tools-server --listen ${address} --workspace DIR\` (package @grok-tools/server), ` +
            `or point to a running one with --address or GROK_TOOLS_ADDRESS.`,
        };
      case GrpcStatus.UNAUTHENTICATED:
        return {
          kind: "rpc",
          ...base,
          message: `The server at ${address} refused the call (UNAUTHENTICATED: ${cleanGrpcText(error.details)}). Pass --token or set GROK_TOOLS_AUTH_TOKEN.`,
        };
      case GrpcStatus.DEADLINE_EXCEEDED:
        return { kind: "rpc", ...base, message: `${error.rpc} did not finish before its deadline (${cleanGrpcText(error.details)}).` };
      default:
        return { kind: "rpc", ...base, message: `${error.rpc} failed: ${error.codeName}: ${cleanGrpcText(error.details)}` };
    }
  }
  if (error instanceof UsageError) return { kind: "usage", message: error.message };
  if (error instanceof ToolsProtocolError) return { kind: "protocol", message: error.message };
  return { kind: "internal", message: `Unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}` };
}

/** The `--json` form of a failure that is not a tool's. */
function failureJson(failure: Failure): Record<string, unknown> {
  return { ok: false, error: failure };
}

/**
 * Runs the `grok-tools` command with `argv` (the arguments after the command name) and
 * resolves with its exit code. Never calls process.exit.
 */
export async function runCli(argv: string[], io: CliIo = processIo): Promise<number> {
  let exitCode = EXIT_OK;
  let address = io.env.GROK_TOOLS_ADDRESS || DEFAULT_ADDRESS;
  const clients: ToolsClient[] = [];
  // Known before parsing, so that a parse error is reported as JSON too.
  const json = argv.includes("--json");
  let parseError = "";

  const program = new Command("grok-tools")
    .description("Talk to a running grok-tools server: list tools, finalize the toolset, call a tool, read the state.")
    .version(clientVersion, "-V, --version")
    .option("-a, --address <address>", "server address, host:port or unix:/path (env GROK_TOOLS_ADDRESS)", address)
    .option("-t, --token <token>", "bearer token of the server (env GROK_TOOLS_AUTH_TOKEN)", io.env.GROK_TOOLS_AUTH_TOKEN || undefined)
    .option("--json", "print JSON instead of text")
    .addOption(new Option("--deadline-ms <ms>", "deadline of each call in milliseconds").argParser(positiveInt))
    .exitOverride()
    .configureOutput({
      writeOut: io.stdout,
      writeErr: io.stderr,
      // With --json a parse error becomes one JSON object on stdout (below), not text on stderr.
      outputError: (text, write) => (json ? (parseError = text.trim().replace(/^error: /, "")) : write(text)),
    })
    .showHelpAfterError(json ? false : "(run grok-tools --help for the commands and options)");

  const connect = (cmd: Command): { client: ToolsClient; opts: GlobalOptions; call: (discovery: boolean) => CallOptions } => {
    const opts = cmd.optsWithGlobals<GlobalOptions>();
    address = opts.address;
    let client: ToolsClient;
    try {
      client = createToolsClient({ address: opts.address, ...(opts.token ? { authToken: opts.token } : {}) });
    } catch (error) {
      throw new UsageError((error as Error).message);
    }
    clients.push(client);
    const call = (discovery: boolean): CallOptions => {
      const deadlineMs = opts.deadlineMs ?? (discovery ? DISCOVERY_DEADLINE_MS : undefined);
      return deadlineMs === undefined ? {} : { deadlineMs };
    };
    return { client, opts, call };
  };
  const print = (opts: GlobalOptions, json: unknown, text: () => string) => {
    io.stdout(opts.json ? `${JSON.stringify(json, null, 2)}\n` : text());
  };

  program
    .command("list")
    .description("list the tools (every registered tool before finalize, the enabled ones after)")
    .action(async (_options: unknown, cmd: Command) => {
      const { client, opts, call } = connect(cmd);
      const list = await client.listTools({ includeDisabled: false, includeSchemas: false }, call(true));
      print(opts, { finalized: isFinalized(list), tools: list.tools.map(toolJson) }, () => {
        const width = Math.max(0, ...list.tools.map((t) => t.name.length));
        const rows = list.tools.map((t) => `  ${t.name.padEnd(width)}  ${firstLine(t.description)}`);
        const head = isFinalized(list)
          ? `${list.tools.length} tool(s) enabled:`
          : `Not finalized yet. ${list.tools.length} tool(s) available; enable some with \`grok-tools finalize --enable ${PREFERRED_NAMESPACE}:read_file,...\` or \`grok-tools call NAME 'JSON' --enable ...\`:`;
        return `${[head, ...rows].join("\n")}\n`;
      });
    });

  program
    .command("info")
    .description("show one tool: description and input schema")
    .argument("<name>", "tool name (after finalize) or Namespace:id (before)")
    .action(async (name: string, _options: unknown, cmd: Command) => {
      const { client, opts, call } = connect(cmd);
      const info = await client.getToolInfo({ toolName: name }, call(true));
      print(opts, toolJson(info), () => {
        const schema = info.inputSchemaJson ? JSON.stringify(JSON.parse(info.inputSchemaJson), null, 2) : "(none)";
        const lines = [
          `${info.name}${info.namespace ? ` (${info.namespace})` : ""}${info.enabled ? "" : " [not enabled]"}`,
          info.contractVersion ? `contract version: ${info.contractVersion}` : undefined,
          "",
          info.description.trimEnd(),
          "",
          "Input schema:",
          schema,
        ];
        return `${lines.filter((l) => l !== undefined).join("\n")}\n`;
      });
    });

  program
    .command("call")
    .description('call a tool with a JSON input, e.g. grok-tools call read_file \'{"target_file":"README.md"}\' --enable GrokBuild:read_file')
    .argument("<name>", "tool name")
    .argument("[input]", "tool input as a JSON object", "{}")
    .option("-e, --enable <ids>", "finalize with these tools first if the server is not finalized (comma-separated, repeatable)", splitIds)
    .option("--stream", "use ExecuteToolStream: the tool's live output goes to stderr as it comes (with a progress line on a terminal), the result to stdout")
    .option("--concise", "ask for the concise output format")
    .option("--cwd <dir>", "working directory of the call")
    .addOption(new Option("--timeout-ms <ms>", "tool timeout in milliseconds").argParser(positiveInt))
    .action(
      async (
        name: string,
        inputText: string,
        options: { enable?: string[]; stream?: boolean; concise?: boolean; cwd?: string; timeoutMs?: number },
        cmd: Command,
      ) => {
        let input: unknown;
        try {
          input = JSON.parse(inputText);
        } catch (error) {
          throw new UsageError(`The input is not valid JSON (${(error as Error).message}). Quote it for the shell: grok-tools call ${name} '{"key":"value"}'`);
        }
        if (typeof input !== "object" || input === null || Array.isArray(input)) throw new UsageError("The input must be a JSON object, e.g. '{}'.");
        const { client, opts, call } = connect(cmd);
        await ensureFinalized(client, name, inputText, options.enable ?? [], call(true), io);
        const execOptions = {
          ...call(false),
          ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
          ...(options.cwd === undefined ? {} : { workingDirectory: options.cwd }),
          ...(options.concise ? { outputFormat: OutputFormat.OUTPUT_FORMAT_CONCISE } : {}),
        };
        let result: ToolCallResult;
        if (options.stream) {
          const live = new LiveOutputView(name, io);
          try {
            result = await client.executeToolStream(name, input, { ...execOptions, onOutput: (data) => live.write(data) });
          } finally {
            live.finish();
          }
        } else {
          result = await client.executeTool(name, input, execOptions);
        }
        if (opts.json) io.stdout(`${JSON.stringify(resultJson(result), null, 2)}\n`);
        else if (result.ok) io.stdout(withNewline(result.promptText));
        else {
          io.stderr(`Error (${codeName(result.error)}): ${result.error.message}\n`);
          if (result.error.suggestion) io.stderr(`Suggestion: ${result.error.suggestion}\n`);
        }
        if (!result.ok) exitCode = EXIT_TOOL_ERROR;
      },
    );

  program
    .command("state")
    .description("print the session's tool state (GetToolState)")
    .action(async (_options: unknown, cmd: Command) => {
      const { client, opts, call } = connect(cmd);
      const state = JSON.parse((await client.getToolState({}, call(true))).stateJson) as unknown;
      io.stdout(opts.json ? `${JSON.stringify(state)}\n` : `${JSON.stringify(state, null, 2)}\n`);
    });

  program
    .command("finalize")
    .description("choose the tools of the session (once per server session)")
    .requiredOption("-e, --enable <ids>", "tools to enable, e.g. GrokBuild:read_file,GrokBuild:grep (repeatable)", splitIds)
    .option("--preset <name>", "behaviour preset, e.g. current or legacy-0.4.10")
    .action(async (options: { enable: string[]; preset?: string }, cmd: Command) => {
      const { client, opts, call } = connect(cmd);
      const list = await client.listTools({}, call(true));
      if (isFinalized(list)) throw new UsageError(alreadyFinalizedMessage(list));
      const response = await finalize(client, resolveToolIds(options.enable, list), options.preset, call(true));
      print(
        opts,
        { success: response.success, message: response.message, tools: response.tools.map(toolJson), versionWarnings: response.versionWarnings },
        () =>
          `${response.message || "Finalized"}: ${response.tools.map((t) => t.name).join(", ")}\n${response.versionWarnings.map((w) => `warning: ${w.message}\n`).join("")}`,
      );
    });

  try {
    await program.parseAsync(argv, { from: "user" });
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version end with code 0; any other parse problem is a usage error.
      exitCode = error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
      if (exitCode !== EXIT_OK && json) io.stdout(`${JSON.stringify(failureJson({ kind: "usage", message: parseError || error.message }), null, 2)}\n`);
    } else {
      const failure = describeFailure(error, address);
      if (json) io.stdout(`${JSON.stringify(failureJson(failure), null, 2)}\n`);
      else io.stderr(`grok-tools: ${failure.message}\n`);
      exitCode = EXIT_USAGE;
    }
  } finally {
    for (const client of clients) client.close();
  }
  return exitCode;
}

function alreadyFinalizedMessage(list: ListToolsResponse): string {
  const names = list.tools.map((t) => t.name).join(", ") || "no tools";
  return `The server is already finalized with: ${names}. A session is finalized once; restart the server to choose other tools.`;
}

async function finalize(client: ToolsClient, ids: string[], preset: string | undefined, options: CallOptions): Promise<FinalizeToolServerConfigResponse> {
  let response: FinalizeToolServerConfigResponse;
  try {
    response = await client.finalize({ tools: ids.map((id) => ({ id })), ...(preset === undefined ? {} : { behaviorPreset: preset }) }, options);
  } catch (error) {
    if (isToolsRpcError(error) && error.code === GrpcStatus.FAILED_PRECONDITION) {
      // Someone else finalized between our check and our call.
      throw new UsageError(alreadyFinalizedMessage(await client.listTools({}, options)));
    }
    throw error;
  }
  if (!response.success) throw new UsageError(`The server refused the configuration: ${response.message}`);
  return response;
}

/**
 * Makes sure `name` can be called: finalizes with `enable` when the server is not finalized,
 * explains what to do when it is not and nothing was given, and refuses clearly when the server
 * was finalized without the tool.
 */
async function ensureFinalized(client: ToolsClient, name: string, inputText: string, enable: string[], options: CallOptions, io: CliIo): Promise<void> {
  const list = await client.listTools({}, options);
  if (!isFinalized(list)) {
    if (enable.length === 0) {
      const candidates = list.tools.map((t) => t.name).filter((n) => n.slice(n.indexOf(":") + 1) === name);
      const suggestion = candidates.find((n) => n.startsWith(`${PREFERRED_NAMESPACE}:`)) ?? candidates[0] ?? `${PREFERRED_NAMESPACE}:${name}`;
      throw new UsageError(
        `The server is not finalized yet, so no tool can be called. Choose the tools with --enable, e.g.:\n` +
          `  grok-tools call ${name} '${inputText}' --enable ${suggestion}\n` +
          `(or once: grok-tools finalize --enable ${suggestion},...; see \`grok-tools list\` for the ids)`,
      );
    }
    await finalize(client, resolveToolIds(enable, list), undefined, options);
    return;
  }
  if (enable.length > 0) {
    if (!list.tools.some((t) => t.name === name)) throw new UsageError(`${alreadyFinalizedMessage(list)} "${name}" is not among them.`);
    io.stderr(`grok-tools: the server is already finalized; --enable ignored.\n`);
  }
}
