/**
 * The one TypeBox every tool package uses: tool code imports `Type`, `Static` and
 * `TSchema` from the runtime so an install holds a single copy of TypeBox.
 */
export { Type } from "typebox";
export type { Static, TSchema, TObject, TProperties } from "typebox";
