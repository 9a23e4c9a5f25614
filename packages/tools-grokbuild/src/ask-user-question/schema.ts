/**
 * Schemas of GrokBuild:ask_user_question: questions with options (property descriptions verbatim
 * from the reference), the `AskUserQuestion` output and the `grok_build.AskUserQuestion` params.
 */
import { Type, type Static } from "@grok-tools/runtime";

/** One choice of a question. */
export const QuestionOption = Type.Object({
  label: Type.String({ description: "Option text shown to the user. A few words at most." }),
  description: Type.String({ description: "What picking this option means or implies." }),
  preview: Type.Optional(
    Type.String({
      description:
        "Optional content shown while the option is focused — mockups, code snippets, anything the user should compare. Single-select questions only.",
    }),
  ),
});
export type QuestionOption = Static<typeof QuestionOption>;

/** One question and its options. */
export const Question = Type.Object({
  question: Type.String({ description: "The question to ask, phrased as a full question." }),
  options: Type.Array(QuestionOption, { description: "The choices for this question." }),
  multi_select: Type.Optional(Type.Union([Type.Boolean(), Type.Null()], { description: "Let the user pick more than one option (default false)." })),
});
export type Question = Static<typeof Question>;

/** Input of ask_user_question. */
export const AskUserQuestionInput = Type.Object({
  questions: Type.Array(Question, { description: "The questions to ask, each with its own options." }),
});
export type AskUserQuestionInput = Static<typeof AskUserQuestionInput>;

/** Output of ask_user_question: `QuestionsSent` (no host answer channel) or `UserAnswered`. */
export const AskUserQuestionOutput = Type.Union([
  Type.Object({
    type: Type.Literal("AskUserQuestion"),
    QuestionsSent: Type.Object({
      message: Type.String(),
      question_count: Type.Integer({ minimum: 0 }),
    }),
  }),
  Type.Object({
    type: Type.Literal("AskUserQuestion"),
    UserAnswered: Type.Object({ message: Type.String() }),
  }),
]);
export type AskUserQuestionOutput = Static<typeof AskUserQuestionOutput>;

/** `grok_build.AskUserQuestion` params (spec §3.4); null means "unset". Unknown keys are ignored. */
export const AskUserQuestionParams = Type.Object({
  timeout_enabled: Type.Union([Type.Boolean(), Type.Null()]),
  timeout_secs: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
  non_interactive: Type.Union([Type.Boolean(), Type.Null()]),
});
export type AskUserQuestionParams = Static<typeof AskUserQuestionParams>;

/** Every params field with its default. */
export const ASK_USER_QUESTION_PARAMS_DEFAULTS: AskUserQuestionParams = {
  timeout_enabled: null,
  timeout_secs: null,
  non_interactive: null,
};
