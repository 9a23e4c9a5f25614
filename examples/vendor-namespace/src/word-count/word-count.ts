/**
 * `Acme:word_count`: lines, words and characters of a file in the workspace. Files are read through
 * the runtime's confined reader, so a path outside the session's folders is refused for you.
 */
import { ErrorCode, ToolError, Type, defineTool } from "@grok-tools/runtime";
import { errnoCode, readFileConfined, resolveModelPath } from "@grok-tools/runtime/fs";

/** The `word_count` tool. */
export const wordCount = defineTool({
  id: "word_count",
  kind: "read",
  description: "Counts the lines, words and characters of a file. Give ${{ params.read.path }} relative to the workspace or absolute.",
  input: Type.Object({ path: Type.String({ description: "The file to count." }) }),
  output: Type.Object({ type: Type.Literal("WordCount"), path: Type.String(), lines: Type.Integer(), words: Type.Integer(), chars: Type.Integer() }),
  async execute(input, ctx) {
    const absolute = resolveModelPath(ctx.cwd, input.path);
    let text: string;
    try {
      text = (await readFileConfined(ctx.session, absolute, { displayPath: input.path })).bytes.toString("utf8");
    } catch (error) {
      if (ToolError.is(error)) throw error;
      if (errnoCode(error) === "ENOENT") {
        throw new ToolError(ErrorCode.FILE_NOT_FOUND, `File not found: ${input.path}`, {
          filePath: input.path,
          suggestion: "Check the path; it is relative to the workspace.",
        });
      }
      throw new ToolError(ErrorCode.EXECUTION_FAILED, `Cannot read ${input.path}: ${(error as Error).message}`, { filePath: input.path });
    }
    const lines = text === "" ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
    const words = text.split(/\s+/).filter((w) => w !== "").length;
    const chars = Array.from(text).length;
    return {
      output: { type: "WordCount" as const, path: absolute, lines, words, chars },
      promptText: `${input.path}: ${lines} lines, ${words} words, ${chars} characters`,
    };
  },
});
