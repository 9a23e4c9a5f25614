/** Declaration of GrokBuild:ask_user_question (kind ask_user; params `grok_build.AskUserQuestion`). */
import { defineTool } from "@grok-tools/runtime";
import { loadDescription } from "../shared/description.js";
import { executeAskUserQuestion } from "./execute.js";
import { normalizeAskUserQuestionInput } from "./normalize.js";
import { ASK_USER_QUESTION_PARAMS_DEFAULTS, AskUserQuestionInput, AskUserQuestionOutput, AskUserQuestionParams } from "./schema.js";

/** GrokBuild:ask_user_question. */
export const askUserQuestion = defineTool({
  id: "ask_user_question",
  kind: "ask_user",
  description: loadDescription(import.meta.url),
  shortDescription: "Ask the user multiple-choice questions.",
  input: AskUserQuestionInput,
  output: AskUserQuestionOutput,
  outputFields: {
    QuestionsSent: { description: "Confirmation that the questions went to the host, and how many." },
    UserAnswered: { description: "The user's answers, formatted for the model." },
  },
  params: {
    resourceId: "grok_build.AskUserQuestion",
    schema: AskUserQuestionParams,
    defaults: ASK_USER_QUESTION_PARAMS_DEFAULTS,
    ignoreUnknownFields: true,
  },
  normalizeInput: normalizeAskUserQuestionInput,
  execute: executeAskUserQuestion,
});
