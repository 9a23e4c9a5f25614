/**
 * Runs one call against a session: lookup by client name, input parsing and renaming,
 * validation, execution with cancellation and deadline, output shaping and metadata.
 * Never throws: every failure becomes a ToolError outcome.
 */
import type { CallHost } from "./call-host.js";
import { ErrorCode } from "../errors/error-code.js";
import { ToolError } from "../errors/tool-error.js";
import { isPlainObject } from "../core/plain-object.js";
import { firstProblem } from "../validation/validate-value.js";
import { estimateTokens } from "../output/estimate-tokens.js";
import { shapeOutput } from "../output/shape-output.js";
import { fallbackOutputLimitSpec } from "../output/output-limit.js";
import type { FinalizedTool } from "../finalize/finalize-types.js";
import type { NameLookup, ToolContext } from "../tool/tool-context.js";
import type { ExecuteOutcome, ExecuteRequest, ExecutionMetadataInfo, ToolErrorInfo } from "./execute-types.js";
import { nearestNames } from "./suggest-names.js";
import type { ToolResult } from "../tool/define-tool.js";
import { validateToolOutput } from "../output/validate-output.js";
import { formatWithReminders, type ReminderContext } from "../tool/reminder.js";
import { renderTemplate } from "../finalize/template-renderer.js";
import path from "node:path";
import { assertPathInsideRoots } from "../fs/confinement.js";

/**
 * One call as the idempotency record sees it (issue #21): the caller's answer, and the moment the
 * tool body really settled. A call cut by its cancellation or deadline answers CANCELLED or TIMEOUT
 * at once while the body may still run (and apply its effect); `settled` waits for the body.
 */
export interface TrackedRun {
  /** The caller's answer (what {@link runTool} gives, as a promise). */
  readonly answer: Promise<ExecuteOutcome>;
  /**
   * Resolves once nothing of the call runs any more: with the answer itself when the answer came
   * from the body or the body never started; else (the call was cut while the body ran) with the
   * outcome the body's own ending gives (its result shaped as usual, or its error), when it settles.
   */
  readonly settled: Promise<ExecuteOutcome>;
  /** Whether the answer was given while the body still ran (cancellation or deadline); known once `answer` resolved. */
  readonly cut: boolean;
}

/** What `invoke` tells about the tool body: whether it was started, and whether the answer left without it. */
interface BodyWatch {
  body: Promise<ToolResult<unknown>> | undefined;
  cut: boolean;
}

/**
 * Runs one call as `callId`; never throws or rejects. A call answered in the turn it started (a tool
 * body that returned its result) comes back as its outcome, any other as a promise of it: the caller
 * then answers a cheap call without a promise per layer (issue #18).
 */
export function runTool(session: CallHost, request: ExecuteRequest, callId: string): ExecuteOutcome | Promise<ExecuteOutcome> {
  return new CallRun(session, request, callId).first;
}

/** Runs one call as `callId`, telling also when its tool body really settled (see {@link TrackedRun}). */
export function runToolTracked(session: CallHost, request: ExecuteRequest, callId: string): TrackedRun {
  return new CallRun(session, request, callId);
}

/**
 * One call's run. A class rather than closures and an object literal with getters: a literal with
 * accessors is built through V8's slow path, about a microsecond each on this VM, and a cheap call
 * made several (issue #18).
 */
class CallRun implements TrackedRun {
  /** The answer as the run made it: the outcome itself when the call was answered in the turn it started. */
  readonly first: ExecuteOutcome | Promise<ExecuteOutcome>;
  #promised: Promise<ExecuteOutcome> | undefined;
  readonly #session: CallHost;
  readonly #request: ExecuteRequest;
  // Beside the request rather than in a copy of it: a spread of the request was one more object per call (#18).
  readonly #callId: string;
  readonly #started = performance.now();
  #tool: FinalizedTool | undefined;
  readonly #watch: BodyWatch = { body: undefined, cut: false };
  // Made only when asked for (the idempotency record): a plain call does not shape a late result nobody reads.
  #settled: Promise<ExecuteOutcome> | undefined;

  constructor(session: CallHost, request: ExecuteRequest, callId: string) {
    this.#session = session;
    this.#request = request;
    this.#callId = callId;
    this.first = this.#run();
  }

  get answer(): Promise<ExecuteOutcome> {
    const first = this.first;
    return (this.#promised ??= first instanceof Promise ? first : Promise.resolve(first));
  }

  get settled(): Promise<ExecuteOutcome> {
    this.#settled ??= this.answer.then(async (outcome) => {
      const watch = this.#watch;
      if (!watch.cut || !watch.body || !this.#tool) return outcome;
      // The caller was answered while the body ran: what the body's own ending would have answered.
      const found = this.#tool;
      return watch.body.then(
        async (result) => {
          try {
            return await this.#succeeded(found, result);
          } catch (caught) {
            return this.#failed(caught);
          }
        },
        (caught: unknown) => this.#failed(caught),
      );
    });
    return this.#settled;
  }

  get cut(): boolean {
    return this.#watch.cut;
  }

  /**
   * Promise chains rather than an async function, and no promise at all for a call answered at once:
   * a tool body that answers synchronously (most cheap tools) then costs no async frame and no turn
   * (#18). Every failure, thrown or rejected, becomes the call's ToolError outcome.
   */
  #run(): ExecuteOutcome | Promise<ExecuteOutcome> {
    const session = this.#session;
    const request = this.#request;
    let tool: FinalizedTool;
    let input: Record<string, unknown>;
    try {
      tool = this.#tool = lookup(session, request.toolName);
      input = parseInput(tool, request.inputJson);
    } catch (caught) {
      return this.#failed(caught);
    }
    // A per-call working directory moves every relative path and every command: outside the roots
    // it is refused for every tool, before anything tells whether it exists (issue #19).
    if (request.workingDirectory) {
      return assertPathInsideRoots(session, callCwd(session, request), request.workingDirectory).then(
        () => this.#invokeAndAnswer(tool, input),
        (caught: unknown) => this.#failed(caught),
      );
    }
    return this.#invokeAndAnswer(tool, input);
  }

  /** Runs the body and makes its answer; a body that returned its result (no promise) is answered in the same turn, as the outcome itself. */
  #invokeAndAnswer(tool: FinalizedTool, input: Record<string, unknown>): ExecuteOutcome | Promise<ExecuteOutcome> {
    let body: ToolResult<unknown> | Promise<ToolResult<unknown>>;
    try {
      body = invoke(this.#session, tool, input, this.#request, this.#callId, this.#watch);
      if (!isPromise(body)) {
        const answer = this.#succeeded(tool, body);
        // Reminders make the answer a promise, which may still fail (an output JSON cannot encode).
        return answer instanceof Promise ? answer.catch((caught: unknown) => this.#failed(caught)) : answer;
      }
    } catch (caught) {
      return this.#failed(caught);
    }
    return body.then((result) => this.#succeeded(tool, result)).catch((caught: unknown) => this.#failed(caught));
  }

  #metadata(estimatedTokens: number, truncated: boolean): ExecutionMetadataInfo {
    const tool = this.#tool;
    return {
      durationMs: Math.round(performance.now() - this.#started),
      estimatedTokens,
      truncated,
      toolVersion: tool?.definition.version ?? this.#session.runtimeVersion,
      contractVersion: tool?.contractVersion ?? "",
    };
  }

  #failed(caught: unknown): ExecuteOutcome {
    const request = this.#request;
    const callId = this.#callId;
    const error = ToolError.is(caught) ? caught : ToolError.internal(caught);
    if (!ToolError.is(caught) || error.code === ErrorCode.INTERNAL) {
      this.#session.log.error({ err: caught, tool: request.toolName, callId }, "tool call failed unexpectedly");
    }
    return { ok: false, callId, error: toErrorInfo(error), metadata: this.#metadata(estimateTokens(error.message), false) };
  }

  /** A result of the body as the caller gets it: checked, shaped, with reminders (synchronous when no reminder is active). */
  #succeeded(found: FinalizedTool, result: ToolResult<unknown>): ExecuteOutcome | Promise<ExecuteOutcome> {
    const session = this.#session;
    const request = this.#request;
    if (session.validateOutputs) {
      const problems = validateToolOutput(found.definition, result.output);
      if (problems.length > 0) {
        // Only sessions in validation (test/debug) mode get here, so the details help more than they leak.
        throw new ToolError(
          ErrorCode.INTERNAL,
          `Output of ${found.fqId} does not match its output schema: ${problems
            .slice(0, 5)
            .map((p) => `${p.path || "/"} ${p.message}`)
            .join("; ")}`,
        );
      }
    }
    session.recordSuccess(found.clientName, found.fqId);
    const concise = request.outputFormat === "concise";
    const shaped = shapeOutput(result.output, {
      includeFields: request.includeFields ?? [],
      excludeFields: request.excludeFields ?? [],
      concise,
      potentiallyLarge: potentiallyLargeFields(found),
    });
    const basePrompt = concise && result.promptTextConcise !== undefined ? result.promptTextConcise : result.promptText;
    const truncated = result.truncated ?? false;
    if (!remindersApply(session)) return this.#answer(shaped, basePrompt, truncated, NO_REMINDERS);
    return collectReminders(session, found, this.#callId, result).then((reminders) => this.#answer(shaped, basePrompt, truncated, reminders));
  }

  #answer(shaped: unknown, basePrompt: string, truncated: boolean, reminders: readonly string[]): ExecuteOutcome {
    const promptText = formatWithReminders(basePrompt, reminders, this.#session.reminderTag);
    return {
      ok: true,
      callId: this.#callId,
      outputJson: JSON.stringify(shaped),
      promptText,
      metadata: this.#metadata(estimateTokens(promptText), truncated),
    };
  }
}

function lookup(session: CallHost, name: string): FinalizedTool {
  const toolset = session.toolset;
  if (!toolset) {
    throw new ToolError(ErrorCode.TOOL_DISABLED, `Tool ${name} is not enabled: the tool configuration has not been finalized.`, {
      suggestion: "Call FinalizeToolConfigRequest with the tools to enable, then call the tool again.",
    });
  }
  const tool = toolset.byClientName(name);
  if (tool) return tool;
  const near = nearestNames(name, toolset.clientNames());
  throw new ToolError(ErrorCode.TOOL_NOT_FOUND, `Tool not found: ${name}`, {
    details: { tool_id: name },
    ...(near.length > 0
      ? { suggestion: `Did you mean ${near.map((n) => `'${n}'`).join(" or ")}? Available tools: ${toolset.clientNames().join(", ")}` }
      : { suggestion: `Available tools: ${toolset.clientNames().join(", ")}` }),
  });
}

function parseInput(tool: FinalizedTool, inputJson: string): Record<string, unknown> {
  let raw: unknown;
  try {
    raw = inputJson.trim() === "" ? {} : JSON.parse(inputJson);
  } catch (error) {
    throw ToolError.invalidInput(`Invalid JSON in tool input: ${(error as Error).message}`, {
      suggestion: "Send the tool input as a JSON object.",
    });
  }
  // A lone surrogate reaches the parsed value only as a `\u` escape or as one in the text itself:
  // most inputs have neither, and skip the walk of the parsed value.
  const illFormed = inputJson.includes("\\u") || LONE_SURROGATE.test(inputJson) ? firstLoneSurrogateString(raw) : undefined;
  if (illFormed !== undefined) {
    throw ToolError.invalidInput(
      `Invalid JSON in tool input: the string ${JSON.stringify(illFormed.slice(0, 80))} holds a lone surrogate escape (\\uD800-\\uDFFF without its pair), which is not text`,
      {
        suggestion: "Write a character outside the Basic Multilingual Plane as a surrogate pair (\\uD83D\\uDE00) or as UTF-8.",
      },
    );
  }
  if (!isPlainObject(raw)) {
    throw ToolError.invalidInput("Tool input must be a JSON object", { suggestion: "Send the tool input as a JSON object." });
  }
  // The parsed object is the call's own: it is used as it is unless a key must be renamed or dropped.
  const renamed = needsRenaming(tool, raw) ? renameKeys(tool, raw) : raw;
  const normalized = tool.definition.normalizeInput?.(renamed) ?? renamed;
  const problem = firstProblem(tool.canonicalInputSchema, normalized, (name) => tool.paramNames[name] ?? name);
  if (problem) {
    const code = problem.category === "params_missing_field" ? ErrorCode.MISSING_REQUIRED_FIELD : ErrorCode.INVALID_INPUT;
    // The path as the model wrote it: its first segment under the client name.
    const [head = "", ...rest] = problem.path.split(".");
    const field = [tool.paramNames[head] ?? head, ...rest].join(".");
    throw new ToolError(code, problem.message, { details: { field } });
  }
  return normalized;
}

/**
 * Whether any top-level key of the input is a client name to turn back into its canonical one, or
 * `__proto__` (dropped): most inputs use the canonical names and need no copy (issue #18).
 */
function needsRenaming(tool: FinalizedTool, raw: Record<string, unknown>): boolean {
  const reverse = tool.reverseParamNames;
  // for...in rather than Object.keys: no array per call (a parsed JSON object has no inherited keys).
  for (const key in raw) {
    if (key === "__proto__" || (Object.hasOwn(reverse, key) && reverse[key] !== key)) return true;
  }
  return false;
}

/** Top-level keys only: client names back to canonical ones; unknown keys pass through (spec §2.7). */
function renameKeys(tool: FinalizedTool, raw: Record<string, unknown>): Record<string, unknown> {
  const renamed: Record<string, unknown> = {};
  for (const key in raw) {
    const canonical = Object.hasOwn(tool.reverseParamNames, key) ? tool.reverseParamNames[key]! : key;
    if (canonical === "__proto__") continue;
    renamed[canonical] = raw[key];
  }
  return renamed;
}

/**
 * The longest delay setTimeout honours (2^31-1 ms, about 24.8 days): above it Node fires the timer
 * after 1 ms, which turned a huge `timeout_ms` into an instant TIMEOUT. A longer deadline is none.
 */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Whether a tool body answered with a promise (or any thenable) rather than its result. */
function isPromise(value: unknown): value is PromiseLike<ToolResult<unknown>> {
  return ((typeof value === "object" && value !== null) || typeof value === "function") && typeof (value as PromiseLike<unknown>).then === "function";
}

/**
 * Runs the tool body. A body that returns its result (no promise) is done before anything else can
 * run, so neither cancel nor deadline can cut it: its result comes back as it is. Else the body's
 * promise races the caller's cancel and the deadline, and the returned promise settles with whichever
 * comes first: one promise settled by hand rather than a race of three (fewer promises and closures
 * per call, issue #18). Throws at once when the call was cancelled before the body started, and
 * when the body throws.
 */
function invoke(
  session: CallHost,
  tool: FinalizedTool,
  input: Record<string, unknown>,
  request: ExecuteRequest,
  callId: string,
  watch: BodyWatch,
): ToolResult<unknown> | Promise<ToolResult<unknown>> {
  // Cancelled before the body started (a cancel read before the handler ran, or during the checks
  // above): the tool never runs, so nothing happened and a retry may run it (issue #21).
  if (request.signal?.aborted) throw new ToolError(ErrorCode.CANCELLED, "Tool call was cancelled");
  const toolSignal = new LazyAbortSignal();
  const live = new LiveOutput(session, request, callId);
  let returned: ToolResult<unknown> | PromiseLike<ToolResult<unknown>>;
  try {
    returned = tool.definition.execute(input as never, new CallContext(session, tool, request, callId, toolSignal, live));
  } catch (error) {
    live.close();
    throw error;
  }
  if (!isPromise(returned)) {
    live.close();
    return returned;
  }
  const body = Promise.resolve(returned);
  watch.body = body;
  return new Promise<ToolResult<unknown>>((resolve, reject) => {
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const finish = (): boolean => {
      if (settled) return false;
      settled = true;
      // A command moved to the background keeps printing; its output is no longer this call's.
      live.close();
      if (timer) clearTimeout(timer);
      request.signal?.removeEventListener("abort", onAbort);
      return true;
    };
    // The caller's cancel settles the answer (CANCELLED) before the tool's own listeners hear the
    // abort, so a tool stopping on it cannot answer first.
    const onAbort = () => {
      if (finish()) {
        watch.cut = true;
        reject(new ToolError(ErrorCode.CANCELLED, "Tool call was cancelled"));
      }
      toolSignal.abort(request.signal?.reason ?? new Error("cancelled"));
    };
    request.signal?.addEventListener("abort", onAbort, { once: true });
    if (request.timeoutMs !== undefined && request.timeoutMs > 0 && request.timeoutMs <= MAX_TIMER_MS) {
      timer = setTimeout(() => {
        toolSignal.abort(new Error("deadline"));
        if (finish()) {
          watch.cut = true;
          reject(
            new ToolError(ErrorCode.TIMEOUT, `Tool call timed out after ${request.timeoutMs} ms`, {
              suggestion: "Retry with a larger timeout or a smaller request.",
            }),
          );
        }
      }, request.timeoutMs);
    }
    // Handles the body's rejection too, so a body failing after a cut is no unhandled rejection.
    body.then(
      (result) => {
        if (finish()) resolve(result);
      },
      (error: unknown) => {
        if (finish()) reject(error);
      },
    );
  });
}

/**
 * The tool's abort signal, made when the tool first asks for it: an AbortController is among the
 * costliest objects of a call (its signal is an EventTarget), and most calls finish without asking
 * (issue #18: 5% of a todo_write's time). An abort before that is replayed on creation, so the tool
 * sees what it would have seen: an aborted signal with the first abort's reason.
 */
class LazyAbortSignal {
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  /** As AbortController.abort: only the first call counts. */
  abort(reason: unknown): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    this.#controller?.abort(reason);
  }
}

/** The call's live-output sink: forwards to `request.onOutput` until closed, swallowing its errors. */
class LiveOutput {
  readonly #session: CallHost;
  readonly #request: ExecuteRequest;
  readonly #callId: string;
  #open: boolean;

  constructor(session: CallHost, request: ExecuteRequest, callId: string) {
    this.#session = session;
    this.#request = request;
    this.#callId = callId;
    this.#open = request.onOutput !== undefined;
  }

  get listening(): boolean {
    return this.#open;
  }

  emit(chunk: string | Uint8Array): void {
    if (!this.#open) return;
    const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
    if (bytes.length === 0) return;
    try {
      this.#request.onOutput!(bytes);
    } catch (error) {
      this.#open = false;
      this.#session.log.warn({ err: error, callId: this.#callId }, "live output listener failed; live output stopped for this call");
    }
  }

  close(): void {
    this.#open = false;
  }
}

/** The call's working directory: the workspace, or the request's override resolved against it. */
function callCwd(session: CallHost, request: ExecuteRequest): string {
  return request.workingDirectory ? path.resolve(session.workspace, request.workingDirectory) : session.workspace;
}

/** The finalized toolset of a session. */
type SessionToolset = NonNullable<CallHost["toolset"]>;

/** Each finalized tool's name lookup, made once per toolset (it depends on nothing else): one object and three closures less per call. */
const NAME_LOOKUPS = new WeakMap<FinalizedTool, { toolset: SessionToolset; names: NameLookup }>();

function namesOf(toolset: SessionToolset, tool: FinalizedTool): NameLookup {
  const cached = NAME_LOOKUPS.get(tool);
  if (cached !== undefined && cached.toolset === toolset) return cached.names;
  // Frozen: calls share it.
  const names: NameLookup = {
    self: tool.clientName,
    tool: (kind) => toolset.clientNameOfKind(kind),
    param: (kind, canonical) => toolset.paramNameOfKind(kind, canonical),
    ownParam: (canonical) => tool.paramNames[canonical] ?? canonical,
  };
  Object.freeze(names);
  NAME_LOOKUPS.set(tool, { toolset, names });
  return names;
}

/**
 * A call's ToolContext. A class, with its lazy parts (signal, liveOutput, log) as getters on the
 * prototype: an object literal with getters is built through V8's slow path, about a microsecond
 * each (issue #18). The functions a tool may pass around (emit, emitOutput, notify, names) stay own
 * properties, so they work detached from the context.
 */
class CallContext implements ToolContext<unknown> {
  readonly callId: string;
  readonly cwd: string;
  readonly params: unknown;
  readonly contractVersion: string;
  readonly outputLimit: number;
  readonly outputFormat: "default" | "concise";
  readonly timeoutMs: number | undefined;
  readonly background: boolean;
  readonly names: NameLookup;
  readonly toolset: ToolContext<unknown>["toolset"];
  readonly session: CallHost;
  readonly emit: ToolContext<unknown>["emit"];
  readonly emitOutput: ToolContext<unknown>["emitOutput"];
  readonly notify: ToolContext<unknown>["notify"];
  readonly #tool: FinalizedTool;
  readonly #toolSignal: LazyAbortSignal;
  readonly #live: LiveOutput;
  // Made on first use: most calls never log, and a pino child per call was a measurable share of a
  // cheap call's time and garbage (issue #18).
  #log: ToolContext<unknown>["log"] | undefined;

  constructor(session: CallHost, tool: FinalizedTool, request: ExecuteRequest, callId: string, toolSignal: LazyAbortSignal, live: LiveOutput) {
    const toolset = session.toolset!;
    const params = session.currentParams(tool.definition, tool.params);
    this.callId = callId;
    this.cwd = callCwd(session, request);
    this.params = params;
    this.contractVersion = tool.contractVersion;
    this.outputLimit = session.truncation.resolve(
      tool.definition.truncation ?? fallbackOutputLimitSpec(tool.definition.id),
      params,
      tool.contractVersion,
    ).limit;
    this.outputFormat = request.outputFormat ?? "default";
    this.timeoutMs = request.timeoutMs;
    this.background = request.background ?? false;
    this.names = namesOf(toolset, tool);
    this.toolset = toolset;
    this.session = session;
    this.emit = (partial) => request.onPartial?.(partial);
    this.emitOutput = (chunk) => live.emit(chunk);
    this.notify = (notification) => session.notify(notification);
    this.#tool = tool;
    this.#toolSignal = toolSignal;
    this.#live = live;
  }

  get signal(): AbortSignal {
    return this.#toolSignal.signal;
  }

  get liveOutput(): boolean {
    return this.#live.listening;
  }

  get log(): ToolContext<unknown>["log"] {
    return (this.#log ??= this.session.log.child?.({ tool: this.#tool.fqId, callId: this.callId }) ?? this.session.log);
  }
}

const NO_REMINDERS: readonly string[] = [];

/** Whether reminders may add to a call's answer: on, and at least one active (spec §6.1). */
function remindersApply(session: CallHost): boolean {
  return session.systemRemindersEnabled && session.activeReminders.length > 0 && session.toolset !== undefined;
}

/**
 * Texts of the active reminders after a successful call, when reminders are on (spec §6.1).
 * A failing reminder is logged and skipped: it never fails the call.
 */
async function collectReminders(session: CallHost, tool: FinalizedTool, callId: string, result: ToolResult<unknown>): Promise<string[]> {
  if (!remindersApply(session) || !session.toolset) return [];
  let context: Record<string, unknown> | undefined;
  const ctx: ReminderContext = {
    session,
    toolset: session.toolset,
    tool: { fqId: tool.fqId, clientName: tool.clientName, kind: tool.definition.kind },
    callId,
    output: result.output,
    promptText: result.promptText,
    render: (template) => renderTemplate(template, (context ??= session.templateContext())),
  };
  const texts: string[] = [];
  for (const reminder of session.activeReminders) {
    try {
      texts.push(...(await reminder.collect(ctx)));
    } catch (error) {
      session.log.warn({ err: error, reminder: reminder.id, tool: tool.fqId }, "reminder failed; skipped");
    }
  }
  return texts.filter((text) => text !== "");
}

/** Per definition: a definition's output fields are fixed once defined, and every call asks. */
const POTENTIALLY_LARGE_FIELDS = new WeakMap<FinalizedTool["definition"], ReadonlySet<string>>();

function potentiallyLargeFields(tool: FinalizedTool): ReadonlySet<string> {
  let names = POTENTIALLY_LARGE_FIELDS.get(tool.definition);
  if (names === undefined) {
    const fields = tool.definition.outputFields ?? {};
    names = new Set(
      Object.entries(fields)
        .filter(([, info]) => info.potentiallyLarge)
        .map(([name]) => name),
    );
    POTENTIALLY_LARGE_FIELDS.set(tool.definition, names);
  }
  return names;
}

function toErrorInfo(error: ToolError): ToolErrorInfo {
  return {
    code: error.code,
    message: error.message,
    retryable: error.retryable,
    ...(error.details === undefined ? {} : { detailsJson: JSON.stringify(error.details) }),
    ...(error.suggestion === undefined ? {} : { suggestion: error.suggestion }),
    ...(error.filePath === undefined ? {} : { filePath: error.filePath }),
    ...(error.lineNumber === undefined ? {} : { lineNumber: error.lineNumber }),
  };
}

/** A lone UTF-16 surrogate: in `u` mode a well-formed pair is one code point and does not match. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * The first string (value or key) of a parsed JSON value that holds a lone surrogate, which
 * JSON.parse accepts from a `\ud800` escape but serde_json (the reference) refuses, and which
 * would reach the disk as U+FFFD. Iterative: inputs nest 100 000 deep.
 */
function firstLoneSurrogateString(value: unknown): string | undefined {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const item = stack.pop();
    if (typeof item === "string") {
      if (LONE_SURROGATE.test(item)) return item;
    } else if (Array.isArray(item)) {
      for (const element of item) stack.push(element);
    } else if (typeof item === "object" && item !== null) {
      // JSON.parse makes plain objects: for...in walks their own keys, without an entries array.
      for (const key in item) {
        if (LONE_SURROGATE.test(key)) return key;
        stack.push((item as Record<string, unknown>)[key]);
      }
    }
  }
  return undefined;
}
