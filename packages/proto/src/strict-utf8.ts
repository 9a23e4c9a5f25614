/**
 * Strict UTF-8 for the generated decoders. Proto3 requires string fields to hold valid UTF-8, but
 * @bufbuild/protobuf decodes leniently (bad bytes become U+FFFD), so a server could act on a path
 * that is not the one the client sent. The switch is global to the protobuf runtime instance the
 * generated code uses, which is why it lives here, beside that code, and not in its callers.
 */
import { configureTextEncoding, getTextEncoding } from "@bufbuild/protobuf/wire";

let strict = false;

/** Makes every generated decoder throw on a string field that is not valid UTF-8. Idempotent. */
export function decodeStringsStrictly(): void {
  if (strict) return;
  strict = true;
  const lenient = getTextEncoding();
  configureTextEncoding({ ...lenient, decodeUtf8: (bytes: Uint8Array) => lenient.decodeUtf8(bytes, true) });
}
