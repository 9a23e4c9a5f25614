// Checks `authorization: Bearer <secret>` metadata in constant time. Hashing both sides first
// makes the comparison independent of where they differ and of the presented value's length.
import { createHash, timingSafeEqual } from "node:crypto";
import type { Metadata } from "@grpc/grpc-js";

const digest = (text: string): Buffer => createHash("sha256").update(text, "utf8").digest();

/** Returns a checker that accepts exactly one `authorization` value, `Bearer <secret>`. */
export function bearerChecker(secret: string): (metadata: Metadata) => boolean {
  if (secret === "") throw new Error("The callback secret must not be empty.");
  const expected = digest(`Bearer ${secret}`);
  return (metadata) => {
    const values = metadata.get("authorization");
    // Exactly one header: a second one could smuggle a different value past a proxy.
    if (values.length !== 1 || typeof values[0] !== "string") return false;
    return timingSafeEqual(digest(values[0]), expected);
  };
}
