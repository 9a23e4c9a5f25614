// The work floor of the cheap calls (issue #18): the least each call itself must do, written plainly,
// with nothing of our runtime. The floor server of bench/server-fixture.mjs runs these before its
// recorded answer; bench/in-process.bench.mjs calls them directly, beside the runtime's own calls.
import { hash, randomUUID } from "node:crypto";
import { closeSync, constants, fstatSync, openSync, readSync, readlinkSync } from "node:fs";

/**
 * A confined, tracked read of `file`, as decisions D2 and D3 ask of every read: parse the input, open,
 * the descriptor's real path from /proc, fstat (size and mtime for the read record), read, close,
 * sha256 the bytes; returns the JSON of a FileContent of the text.
 */
export function readLikeTheTool(inputJson, file) {
  JSON.parse(inputJson);
  const fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  try {
    const realPath = readlinkSync(`/proc/self/fd/${fd}`);
    const stat = fstatSync(fd);
    const buffer = Buffer.allocUnsafe(stat.size + 1);
    const bytes = buffer.subarray(0, readSync(fd, buffer, 0, stat.size + 1, null));
    hash("sha256", bytes, "hex");
    const text = bytes.toString("utf8");
    return JSON.stringify({
      type: "ReadFile",
      FileContent: { content: `1→${text}`, content_concise: `1→${text}`, absolute_path: realPath, offset: null, raw_output: text, total_lines: 2 },
    });
  } finally {
    closeSync(fd);
  }
}

/**
 * A todo_write: parse the input, check each todo's fields, copy the items (priority defaulted) into
 * the output's list and state snapshot, write the summary, JSON-encode the output, size the prompt
 * text; returns a fresh call id.
 */
export function todoLikeTheTool(inputJson) {
  const input = JSON.parse(inputJson);
  if (typeof input !== "object" || input === null || !Array.isArray(input.todos)) throw new Error("todos must be a list");
  const list = [];
  const todos = {};
  let summary = "";
  for (const todo of input.todos) {
    if (typeof todo.id !== "string" || typeof todo.content !== "string" || typeof todo.status !== "string") throw new Error("bad todo");
    const item = { content: todo.content, priority: todo.priority ?? "medium", status: todo.status };
    // One object in the list and the snapshot, as ours shares them.
    list.push(item);
    todos[todo.id] = item;
    summary += `- [${item.status}] ${todo.id}: ${item.content}\n`;
  }
  JSON.stringify({ type: "Todo", TodosUpdated: { summary_for_prompt: summary, todos: list, state: { todos } } });
  Buffer.byteLength(summary, "utf8");
  return randomUUID();
}
