import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Session, ToolRegistry } from "@grok-tools/runtime/host";
import { errorCodeName } from "@grok-tools/runtime/helpers";
import { type ToolNotification } from "@grok-tools/runtime";
import { grokBuild } from "../namespace.js";

let tmp: string;
let notes: ToolNotification[];
let session: Session;

beforeEach(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), "ask-user-"));
  await mkdir(path.join(tmp, "ws"));
  notes = [];
  session = new Session({
    registry: ToolRegistry.of([grokBuild]),
    workspace: path.join(tmp, "ws"),
    stateDir: path.join(tmp, "state"),
    onNotification: (_id, n) => notes.push(n),
  });
  const result = await session.finalize({ tools: [{ id: "GrokBuild:ask_user_question" }] });
  expect(result.ok).toBe(true);
});
afterEach(async () => {
  await session.close();
  await rm(tmp, { recursive: true, force: true });
});

const option = (label: string) => ({ label, description: `Description for ${label}` });

async function ask(input: unknown, callId = "call-q") {
  return session.execute({ toolName: "ask_user_question", inputJson: JSON.stringify(input), callId });
}

describe("GrokBuild:ask_user_question (no host answer channel)", () => {
  test("presents the questions and notifies the host with the questions as JSON", async () => {
    const r = await ask({
      questions: [
        { question: "Which database?", options: [option("Redis (Recommended)"), { ...option("Memcached"), preview: "```\nget k\n```" }] },
        { question: "Which features?", options: [option("A"), option("B")], multi_select: true },
      ],
    });
    if (!r.ok) throw new Error(r.error.message);
    const message =
      "Your questions have been presented to the user for answering:\n" +
      "1. Which database? [options: Redis (Recommended), Memcached]\n" +
      "2. Which features? [options: A, B]";
    expect(r.promptText).toBe(message);
    expect(JSON.parse(r.outputJson)).toEqual({ type: "AskUserQuestion", QuestionsSent: { message, question_count: 2 } });
    expect(notes).toEqual([
      {
        type: "UserQuestionAsked",
        tool_call_id: "call-q",
        questions_json: [
          {
            question: "Which database?",
            options: [
              { label: "Redis (Recommended)", description: "Description for Redis (Recommended)" },
              { label: "Memcached", description: "Description for Memcached", preview: "```\nget k\n```" },
            ],
            multiSelect: null,
          },
          {
            question: "Which features?",
            options: [
              { label: "A", description: "Description for A" },
              { label: "B", description: "Description for B" },
            ],
            multiSelect: true,
          },
        ],
      },
    ]);
  });

  test("no questions: continue, and nothing is sent to the host", async () => {
    const r = await ask({ questions: [] });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.promptText).toBe("No questions provided. Continue with the task.");
    expect(JSON.parse(r.outputJson)).toEqual({
      type: "AskUserQuestion",
      QuestionsSent: { message: "No questions provided. Continue with the task.", question_count: 0 },
    });
    expect(notes).toEqual([]);
  });

  test("a repeated question text is refused before anything is sent", async () => {
    const r = await ask({
      questions: [
        { question: "Same question?", options: [option("A")] },
        { question: "Same question?", options: [option("B")] },
      ],
    });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(errorCodeName(r.error.code)).toBe("INVALID_INPUT");
    expect(r.error.message).toBe('Duplicate question text: "Same question?"');
    expect(notes).toEqual([]);
  });

  test.each([
    [{ multiSelect: false }, false],
    [{ multi_select: "yes" }, true],
    [{ multiSelect: "0" }, false],
    [{ multi_select: 1 }, true],
    [{ multi_select: null }, null],
  ])("multi_select accepts the camelCase alias and lenient booleans: %j", async (flag, expected) => {
    const r = await ask({ questions: [{ question: "Pick DB?", options: [option("Postgres")], ...flag }] });
    if (!r.ok) throw new Error(r.error.message);
    const sent = notes[0]?.questions_json as { multiSelect: unknown }[];
    expect(sent[0]?.multiSelect).toBe(expected);
  });

  test("a non-boolean multi_select is invalid input", async () => {
    const r = await ask({ questions: [{ question: "Pick DB?", options: [option("Postgres")], multi_select: "maybe" }] });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(errorCodeName(r.error.code)).toBe("INVALID_INPUT");
  });

  test("params: unknown keys are ignored, typed keys are checked", async () => {
    const okSession = new Session({ registry: ToolRegistry.of([grokBuild]), workspace: path.join(tmp, "ws"), stateDir: path.join(tmp, "s2") });
    const ok = await okSession.finalize({
      tools: [{ id: "GrokBuild:ask_user_question", paramsJson: JSON.stringify({ timeout_secs: 8, future_knob: 1 }) }],
    });
    expect(ok.ok).toBe(true);
    await okSession.close();
    const badSession = new Session({ registry: ToolRegistry.of([grokBuild]), workspace: path.join(tmp, "ws"), stateDir: path.join(tmp, "s3") });
    const bad = await badSession.finalize({
      tools: [{ id: "GrokBuild:ask_user_question", paramsJson: JSON.stringify({ timeout_enabled: "sometimes" }) }],
    });
    expect(bad.ok).toBe(false);
    await badSession.close();
  });
});
