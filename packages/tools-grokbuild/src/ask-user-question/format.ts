/** Texts of ask_user_question when no host answer channel exists (the reference's fallback path). */
import type { Question } from "./schema.js";

/** Text for an empty `questions` array. */
export const NO_QUESTIONS_MESSAGE = "No questions provided. Continue with the task.";

/** Summary of the questions handed to the host for answering. */
export function formatQuestionsPresented(questions: readonly Question[]): string {
  const lines = questions.map((q, index) => `${index + 1}. ${q.question} [options: ${q.options.map((o) => o.label).join(", ")}]`);
  return `Your questions have been presented to the user for answering:\n${lines.join("\n")}`;
}

/** Message of a repeated question text. */
export function duplicateQuestionMessage(question: string): string {
  return `Duplicate question text: "${question}"`;
}
