/** Schema pieces shaped like the reference's schemars output (`Option<T>` is `[T, "null"]`). */
import { Type } from "@grok-tools/runtime";

/** An optional string that may also be null. */
export const optionalString = (description: string) => Type.Optional(Type.Unsafe<string | null>({ type: ["string", "null"], description }));

/** An optional unsigned integer (`Option<u32>` / `Option<u64>`) that may also be null. */
export const optionalUnsigned = (description: string, format: "uint32" | "uint64") =>
  Type.Optional(Type.Unsafe<number | null>({ type: ["integer", "null"], format, minimum: 0, description }));
