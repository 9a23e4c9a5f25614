/** GrokBuild:ask_user_question. */
export { askUserQuestion } from "./ask-user-question.js";
