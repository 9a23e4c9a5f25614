/** Model-facing description of GrokBuild:ask_user_question (verbatim from the reference). */
export const ASK_USER_QUESTION_DESCRIPTION = `Ask the user one or more multiple-choice questions.

- Every question automatically gets an "Other" choice where the user can type their own answer.
- Put your recommended option first and append "(Recommended)" to its label.`;
