/**
 * Tool state and resources (spec §5): GetToolState shape, waiting for running calls, the
 * state file (atomic, versioned, durable before a call answers, group-committed), resuming a session, and the
 * merge rules of initial_tool_state_json.
 */
import { mkdir, readFile, readdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { ErrorCode, defineResource } from "../src/index.js";
import { STATE_FILE_NAME, STATE_SCHEMA_VERSION, StatePersister, type Session } from "../src/host.js";
import { silentLogger } from "../src/helpers.js";
import { BASH_BUNDLE, makeSession, tempDirs } from "./fixtures.js";

let dirs: Awaited<ReturnType<typeof tempDirs>>;
const sessions: Session[] = [];
function open(id = "s1"): Session {
  const s = makeSession(dirs, { id });
  sessions.push(s);
  return s;
}
beforeEach(async () => {
  dirs = await tempDirs();
});
afterEach(async () => {
  for (const s of sessions.splice(0)) await s.close();
  await dirs.cleanup();
});

async function stateFile(id = "s1"): Promise<Record<string, unknown>> {
  return JSON.parse(await readFile(path.join(dirs.stateDir, id, STATE_FILE_NAME), "utf8")) as Record<string, unknown>;
}

describe("GetToolState", () => {
  it("omits empty categories", async () => {
    const s = open();
    await s.finalize({ tools: [{ id: "GrokBuild:grep" }] });
    expect(await s.snapshotState()).toEqual({});
    const p = open("s2");
    await p.finalize({ tools: [{ id: "GrokBuild:read_file" }, { id: "GrokBuild:search_replace", paramsJson: '{"mode":"safe"}' }] });
    expect(await p.snapshotState()).toEqual({ params: { "grok_build.SearchReplace": { skip_read_before_edit: false, mode: "safe", limit: null } } });
  });

  it("waits for running calls before serializing", async () => {
    const s = open();
    await s.finalize({ tools: [{ id: "GrokBuild:counter" }] });
    const running = s.execute({ toolName: "counter", inputJson: '{"delay_ms":150}' });
    const snapshot = await s.snapshotState();
    expect(snapshot).toEqual({ state: { "test.Counter": { count: 1 } } });
    expect((await running).ok).toBe(true);
  });
});

describe("persistence", () => {
  it("writes one versioned file per session, atomically, and flushes it on GetToolState", async () => {
    const s = open("session/../x");
    await s.finalize({ tools: [{ id: "GrokBuild:counter" }], sessionId: "abc" });
    await s.execute({ toolName: "counter", inputJson: "{}" });
    await s.snapshotState();
    expect(await stateFile("abc")).toEqual({ schema_version: STATE_SCHEMA_VERSION, state: { "test.Counter": { count: 1 } } });
    expect(await readdir(path.join(dirs.stateDir, "abc"))).toEqual([STATE_FILE_NAME]);
  });

  it("has a call's state change on disk when the call answers (issue 23.1)", async () => {
    const s = open();
    await s.finalize({ tools: [{ id: "GrokBuild:counter" }] });
    await s.execute({ toolName: "counter", inputJson: "{}" });
    expect(await stateFile()).toEqual({ schema_version: STATE_SCHEMA_VERSION, state: { "test.Counter": { count: 1 } } });
    await s.execute({ toolName: "counter", inputJson: "{}" });
    expect(await stateFile()).toEqual({ schema_version: STATE_SCHEMA_VERSION, state: { "test.Counter": { count: 2 } } });
  });

  it("has every concurrent call's change on disk when it answers", async () => {
    const s = open();
    await s.finalize({ tools: [{ id: "GrokBuild:counter" }] });
    const seen = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const r = await s.execute({ toolName: "counter", inputJson: JSON.stringify({ delay_ms: i % 5 }) });
        const mine = Number(r.ok && r.promptText.replace("count ", ""));
        const onDisk = ((await stateFile()).state as { "test.Counter": { count: number } })["test.Counter"].count;
        return onDisk >= mine;
      }),
    );
    expect(seen.every(Boolean)).toBe(true);
  });

  it("resumes a session restarted on the same state dir", async () => {
    const first = open();
    await first.finalize({ tools: [{ id: "GrokBuild:counter" }] });
    await first.execute({ toolName: "counter", inputJson: "{}" });
    await first.close();
    const second = open();
    await second.finalize({ tools: [{ id: "GrokBuild:counter" }] });
    const r = await second.execute({ toolName: "counter", inputJson: "{}" });
    expect(r.ok && r.promptText).toBe("count 2");
    const other = open("someone-else");
    await other.finalize({ tools: [{ id: "GrokBuild:counter" }] });
    const o = await other.execute({ toolName: "counter", inputJson: "{}" });
    expect(o.ok && o.promptText).toBe("count 1");
  });

  it("keeps persisted state of tools not enabled this time, and lets config params beat persisted params", async () => {
    await mkdir(path.join(dirs.stateDir, "s1"), { recursive: true });
    await writeFile(
      path.join(dirs.stateDir, "s1", STATE_FILE_NAME),
      JSON.stringify({
        schema_version: 1,
        params: { "grok_build.Bash": { enabled_background: false, auto_background_on_timeout: false, timeout_secs: 9 } },
        state: { "test.Counter": { count: 7 }, "unknown.Thing": { a: 1 } },
      }),
    );
    const s = open();
    await s.finalize({ tools: [...BASH_BUNDLE] });
    expect(await s.snapshotState()).toEqual({
      params: { "grok_build.Bash": { enabled_background: true, auto_background_on_timeout: false, timeout_secs: null } },
      state: { "test.Counter": { count: 7 } },
    });
    // Ids nobody declared are not shown, but the state file keeps them, and a resource
    // registered later (a tool that did not declare it) picks its value up.
    expect((await stateFile()).state).toEqual({ "test.Counter": { count: 7 }, "unknown.Thing": { a: 1 } });
    const lateKey = defineResource<{ a: number }>({ id: "unknown.Thing", category: "state", initial: () => ({ a: 0 }) });
    expect(s.resources.get(lateKey)).toEqual({ a: 1 });
    expect((await s.snapshotState()).state).toEqual({ "test.Counter": { count: 7 }, "unknown.Thing": { a: 1 } });
  });

  it("answers EXECUTION_FAILED when a call's state cannot be written, keeping the change in memory (issue 22.2)", async () => {
    await writeFile(path.join(dirs.workspace, "blocker"), "a file where the state dir should be");
    const stateDir = path.join(dirs.workspace, "blocker");
    const s = makeSession({ workspace: dirs.workspace, stateDir }, { id: "s1" });
    sessions.push(s);
    const finalized = await s.finalize({ tools: [{ id: "GrokBuild:counter" }] });
    const file = path.join(stateDir, "s1", STATE_FILE_NAME);
    // Finalize still finalizes, and says the state was not saved.
    expect(finalized).toMatchObject({ ok: true, stateNotSaved: { file, reason: expect.stringMatching(/^[A-Za-z ]+ \(os error \d+\)$/) } });
    const r = await s.execute({ toolName: "counter", inputJson: "{}" });
    if (r.ok) throw new Error("expected the state write to fail");
    expect(r.error).toMatchObject({ code: ErrorCode.EXECUTION_FAILED, retryable: false });
    const [, reason] = /^counter ran, but the session state could not be saved to .*?: (.*?)\. What/.exec(r.error.message) ?? [];
    expect(r.error.message).toBe(
      `counter ran, but the session state could not be saved to ${file}: ${reason}. What the call did has taken effect (files it wrote are written, commands it ran have run) and its state change is kept in memory, but it is not on disk, so a restart of the server would lose it. Do not repeat the call.`,
    );
    expect(reason).toMatch(/^[A-Za-z ]+ \(os error \d+\)$/);
    expect(JSON.parse(r.error.detailsJson!)).toEqual({ state_file: file, errno: expect.stringMatching(/^E[A-Z]+$/) });
    expect(await s.snapshotState()).toEqual({ state: { "test.Counter": { count: 1 } } });
  });

  it("saves pending state again once the folder is writable", async () => {
    const s = open();
    await s.finalize({ tools: [{ id: "GrokBuild:counter" }] });
    const sessionDir = path.join(dirs.stateDir, "s1");
    await rm(sessionDir, { recursive: true });
    await writeFile(sessionDir, "in the way");
    expect((await s.execute({ toolName: "counter", inputJson: "{}" })).ok).toBe(false);
    await rm(sessionDir);
    const r = await s.execute({ toolName: "counter", inputJson: "{}" });
    expect(r.ok && r.promptText).toBe("count 2");
    expect(await stateFile()).toEqual({ schema_version: STATE_SCHEMA_VERSION, state: { "test.Counter": { count: 2 } } });
  });

  it("ignores an unreadable state file", async () => {
    await mkdir(path.join(dirs.stateDir, "s1"), { recursive: true });
    await writeFile(path.join(dirs.stateDir, "s1", STATE_FILE_NAME), "{not json");
    const s = open();
    const out = await s.finalize({ tools: [{ id: "GrokBuild:counter" }] });
    expect(out.ok).toBe(true);
    expect(await s.snapshotState()).toEqual({});
  });
});

describe("initial_tool_state_json", () => {
  async function withDisk(state: Record<string, unknown>): Promise<void> {
    await mkdir(path.join(dirs.stateDir, "s1"), { recursive: true });
    await writeFile(path.join(dirs.stateDir, "s1", STATE_FILE_NAME), JSON.stringify({ schema_version: 1, state }));
  }

  it("replaces present ids wholesale over the disk state and keeps the others", async () => {
    await withDisk({ "test.Counter": { count: 3 }, "test.Notes": { seen: 2 } });
    const s = open();
    const out = await s.finalize({ tools: [{ id: "GrokBuild:counter" }], initialToolStateJson: JSON.stringify({ state: { "test.Counter": { count: 10 } } }) });
    expect(out.ok).toBe(true);
    expect(await s.snapshotState()).toEqual({ state: { "test.Counter": { count: 10 }, "test.Notes": { seen: 2 } } });
  });

  it("ignores params (the request's params_json wins), unknown ids and values that do not decode", async () => {
    await withDisk({ "test.Counter": { count: 3 } });
    const s = open();
    const initial = { params: { "grok_build.Bash": { enabled_background: false } }, state: { "test.Counter": { count: "many" }, "nobody.Knows": { x: 1 } } };
    const out = await s.finalize({ tools: [...BASH_BUNDLE, { id: "GrokBuild:counter" }], initialToolStateJson: JSON.stringify(initial) });
    expect(out.ok).toBe(true);
    expect(await s.snapshotState()).toEqual({
      params: { "grok_build.Bash": { enabled_background: true, auto_background_on_timeout: false, timeout_secs: null } },
      state: { "test.Counter": { count: 3 } },
    });
  });

  it.each([
    ['{"state":{"__proto__":{"count":1}}}', 'initial_tool_state_json.state has a forbidden key "__proto__"'],
    ['{"constructor":{}}', 'initial_tool_state_json has a forbidden key "constructor"'],
    ['{"state":[]}', "initial_tool_state_json.state must be a JSON object"],
    ["[1]", "initial_tool_state_json must be a JSON object"],
    ['{"state":', "initial_tool_state_json failed to parse JSON: EOF while parsing a value at line 1 column 9"],
  ])("refuses %s", async (json, message) => {
    const s = open();
    const out = await s.finalize({ tools: [{ id: "GrokBuild:counter" }], initialToolStateJson: json });
    if (out.ok) throw new Error("expected failure");
    expect(out.violations).toEqual([
      expect.objectContaining({ toolId: "(global)", fieldPath: "initial_tool_state_json", message, category: "initial_tool_state_json" }),
    ]);
    expect(({} as Record<string, unknown>).count).toBeUndefined();
    expect(s.finalized).toBe(false);
  });

  it("treats an empty string as absent", async () => {
    const s = open();
    expect((await s.finalize({ tools: [{ id: "GrokBuild:counter" }], initialToolStateJson: "" })).ok).toBe(true);
  });
});

describe("group commit", () => {
  it("writes once for the first commit and once more for every commit that arrives during it", async () => {
    let snapshots = 0;
    let value = 0;
    const persister = new StatePersister(
      path.join(dirs.stateDir, "g"),
      () => {
        snapshots++;
        return { state: { "test.Value": { value } } };
      },
      silentLogger,
    );
    value = 1;
    persister.markDirty();
    const first = persister.commit();
    // 50 changes while the first write is in flight: they share the next write.
    const rest = Array.from({ length: 50 }, () => {
      value++;
      persister.markDirty();
      return persister.commit();
    });
    await Promise.all([first, ...rest]);
    expect(snapshots).toBe(2);
    expect(persister.hasPendingChanges).toBe(false);
    const onDisk = JSON.parse(await readFile(persister.file, "utf8")) as { state: { "test.Value": { value: number } } };
    expect(onDisk.state["test.Value"].value).toBe(51);
    // Nothing pending: no write at all.
    await persister.commit();
    expect(snapshots).toBe(2);
  });

  it("joins the queued write when a commit arrives just after the write in flight ended", async () => {
    let snapshots = 0;
    let value = 0;
    const persister = new StatePersister(
      path.join(dirs.stateDir, "q"),
      () => {
        snapshots++;
        return { state: { v: value } };
      },
      silentLogger,
    );
    value = 1;
    persister.markDirty();
    const first = persister.commit();
    value = 2;
    persister.markDirty();
    const queued = persister.commit();
    await first;
    // Here the first write is over and the queued one has not started: a commit must join it, not
    // start a write of its own beside it (two renames in flight could land out of order).
    value = 3;
    persister.markDirty();
    await Promise.all([queued, persister.commit()]);
    expect(snapshots).toBe(2);
    expect((JSON.parse(await readFile(persister.file, "utf8")) as { state: { v: number } }).state.v).toBe(3);
  });

  it("never lets an older snapshot land last, whatever the timing of commits", async () => {
    let value = 0;
    const persister = new StatePersister(path.join(dirs.stateDir, "r"), () => ({ state: { v: value } }), silentLogger);
    const readValue = async () => (JSON.parse(await readFile(persister.file, "utf8")) as { state: { v: number } }).state.v;
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const pauses = [() => Promise.resolve(), () => new Promise((r) => setImmediate(r)), () => new Promise((r) => setTimeout(r, 1))];
    const committed = await Promise.all(
      Array.from({ length: 200 }, async () => {
        await pauses[Math.floor(random() * pauses.length)]!();
        const mine = ++value;
        persister.markDirty();
        await persister.commit();
        return (await readValue()) >= mine;
      }),
    );
    expect(committed.every(Boolean)).toBe(true);
    expect(await readValue()).toBe(200);
  });

  it("rejects every commit that shared a failed write, and writes the changes with the next commit", async () => {
    const dir = path.join(dirs.stateDir, "f");
    await mkdir(dirs.stateDir, { recursive: true });
    await writeFile(dir, "in the way");
    const persister = new StatePersister(dir, () => ({ state: {} }), silentLogger);
    persister.markDirty();
    const results = await Promise.allSettled([persister.commit(), persister.commit()]);
    expect(results.map((r) => r.status)).toEqual(["rejected", "rejected"]);
    expect(persister.hasPendingChanges).toBe(true);
    await rm(dir);
    await persister.commit();
    expect(persister.hasPendingChanges).toBe(false);
  });
});
