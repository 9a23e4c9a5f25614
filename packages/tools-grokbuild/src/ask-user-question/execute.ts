/**
 * ask_user_question without a host answer channel (the gRPC server case): validates the questions,
 * sends a `UserQuestionAsked` notification and tells the model the questions were presented.
 * The host collects the answers and returns them to the model itself.
 */
import { ToolError, type ToolContext, type ToolResult } from "@grok-tools/runtime";
import { NO_QUESTIONS_MESSAGE, duplicateQuestionMessage, formatQuestionsPresented } from "./format.js";
import type { AskUserQuestionInput, AskUserQuestionOutput, AskUserQuestionParams, Question } from "./schema.js";

/** Runs ask_user_question. */
export async function executeAskUserQuestion(input: AskUserQuestionInput, ctx: ToolContext<AskUserQuestionParams>): Promise<ToolResult<AskUserQuestionOutput>> {
  const { questions } = input;
  if (questions.length === 0) {
    return {
      output: { type: "AskUserQuestion", QuestionsSent: { message: NO_QUESTIONS_MESSAGE, question_count: 0 } },
      promptText: NO_QUESTIONS_MESSAGE,
    };
  }
  const seen = new Set<string>();
  for (const q of questions) {
    if (seen.has(q.question)) throw ToolError.invalidInput(duplicateQuestionMessage(q.question));
    seen.add(q.question);
  }

  ctx.notify({ type: "UserQuestionAsked", tool_call_id: ctx.callId, questions_json: questions.map(questionJson) });

  const message = formatQuestionsPresented(questions);
  return {
    output: { type: "AskUserQuestion", QuestionsSent: { message, question_count: questions.length } },
    promptText: message,
  };
}

/**
 * A question as the reference serializes it for hosts (camelCase `multiSelect`, null when unset;
 * `preview` only when given).
 */
function questionJson(q: Question): Record<string, unknown> {
  return {
    question: q.question,
    options: q.options.map((o) => ({
      label: o.label,
      description: o.description,
      ...(o.preview === undefined ? {} : { preview: o.preview }),
    })),
    multiSelect: q.multi_select ?? null,
  };
}
