/**
 * Input normalization of ask_user_question: `multiSelect` (the ACP wire name) is accepted as an alias
 * of `multi_select`, and its value is a lenient boolean (null stays "unset").
 */
import { lenientBool } from "@grok-tools/runtime/helpers";

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function normalizeQuestion(raw: unknown): unknown {
  if (!isRecord(raw)) return raw;
  const question = { ...raw };
  if (Object.hasOwn(question, "multiSelect")) {
    if (!Object.hasOwn(question, "multi_select")) question.multi_select = question.multiSelect;
    delete question.multiSelect;
  }
  if (Object.hasOwn(question, "multi_select") && question.multi_select !== null) {
    question.multi_select = lenientBool(question.multi_select);
  }
  return question;
}

/** Rewrites the raw input before validation. */
export function normalizeAskUserQuestionInput(raw: Record<string, unknown>): Record<string, unknown> {
  const questions = raw.questions;
  if (!Array.isArray(questions)) return raw;
  return { ...raw, questions: questions.map(normalizeQuestion) };
}
