/** Model-facing notices of `GrokBuild:list_dir` outside its description (verbatim from the reference). */

/** Notice after the root items when they alone exceed the budget (`{list}` etc. are client tool names). */
export const ROOT_TRUNCATION_NOTICE_TEMPLATE =
  "    ...\n\nNote: this directory is too large to list fully. Try {list} on a narrower path, or use {search} / {execute}.";
