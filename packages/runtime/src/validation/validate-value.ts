/**
 * Validates JSON against a TypeBox schema and words the first problem the way the
 * reference's serde errors read (`missing field \`command\``), since models and
 * hosts were trained on that wording. Categories follow spec §3.2.
 */
import type { TSchema } from "typebox";
import Value from "typebox/value";
import { Compile, type Validator } from "typebox/compile";

/**
 * Compiled checkers, one per schema object (issue #18): Value.Check walks the schema on every
 * call, a third of a cheap call's time; a compiled check is code generated once. Errors, the rare
 * path, are still found and worded by Value.Errors.
 */
const compiled = new WeakMap<TSchema, Validator>();

function isValid(schema: TSchema, value: unknown): boolean {
  let validator = compiled.get(schema);
  if (validator === undefined) {
    validator = Compile(schema) as Validator;
    compiled.set(schema, validator);
  }
  return validator.Check(value);
}

/** One validation problem. */
export interface ValueProblem {
  /** Serde-style text: `missing field \`x\``, `unknown field \`y\`, expected one of ...`. */
  message: string;
  /** Dotted path of the offending value ("" for the root). */
  path: string;
  /** What was expected, when known. */
  expected?: string;
  /** The offending value, when there is one. */
  value?: unknown;
  category: "params_missing_field" | "params_unknown_field" | "params_unknown_variant" | "params_type" | "params_invalid";
}

/** The first problem of `value` against `schema`, or undefined when it is valid. */
export function firstProblem(schema: TSchema, value: unknown, rename: (name: string) => string = (n) => n): ValueProblem | undefined {
  if (isValid(schema, value)) return undefined;
  const errors = Value.Errors(schema, value);
  const ordered = [
    ...errors.filter((e) => e.keyword === "required"),
    ...errors.filter((e) => e.keyword === "additionalProperties"),
    ...errors.filter((e) => e.keyword !== "required" && e.keyword !== "additionalProperties" && e.keyword !== "boolean"),
  ];
  const error = ordered[0];
  if (!error) return { message: "invalid value", path: "", category: "params_invalid" };
  const path = pointerToPath(error.instancePath);
  const at = valueAt(value, error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required": {
      const field = String((params.requiredProperties as string[] | undefined)?.[0] ?? "");
      return { message: `missing field \`${rename(field)}\``, path, category: "params_missing_field" };
    }
    case "additionalProperties": {
      const field = String((params.additionalProperties as string[] | undefined)?.[0] ?? "");
      const schemaAt = schemaAtPath(schema, error.instancePath);
      const known = Object.keys((schemaAt?.properties as Record<string, unknown> | undefined) ?? {}).map(rename);
      const expected = oneOf(known, "there are no fields");
      return {
        message: known.length === 0 ? `unknown field \`${rename(field)}\`, ${expected}` : `unknown field \`${rename(field)}\`, expected ${expected}`,
        path: joinPath(path, field),
        expected,
        value: valueAt(at, `/${field}`),
        category: "params_unknown_field",
      };
    }
    case "enum":
    case "const": {
      const schemaAt = schemaAtPath(schema, error.instancePath);
      const variants = variantsOf(schemaAt);
      const expected = oneOf(variants, "there are no variants");
      return { message: `unknown variant \`${String(at)}\`, expected ${expected}`, path, expected, value: at, category: "params_unknown_variant" };
    }
    case "type":
    case "anyOf": {
      const schemaAt = schemaAtPath(schema, error.instancePath);
      const variants = variantsOf(schemaAt);
      if (variants.length > 0 && typeof at === "string") {
        const expected = oneOf(variants, "there are no variants");
        return { message: `unknown variant \`${at}\`, expected ${expected}`, path, expected, value: at, category: "params_unknown_variant" };
      }
      const expected = expectedOf(schemaAt);
      return {
        message: `invalid type: ${describeJson(at)}, expected ${expected}`,
        path,
        expected,
        value: at,
        category: "params_type",
      };
    }
    default:
      return { message: `invalid value: ${describeJson(at)}, ${error.message}`, path, value: at, expected: error.message, category: "params_invalid" };
  }
}

/** serde's `OneOf` wording: `` `a` ``, `` `a` or `b` ``, `` one of `a`, `b`, `c` ``. */
function oneOf(names: readonly string[], none: string): string {
  const quoted = names.map((n) => `\`${n}\``);
  if (quoted.length === 0) return none;
  if (quoted.length === 1) return quoted[0]!;
  if (quoted.length === 2) return `${quoted[0]} or ${quoted[1]}`;
  return `one of ${quoted.join(", ")}`;
}

/** Serde's description of an unexpected JSON value. */
export function describeJson(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "string") return `string ${JSON.stringify(value)}`;
  if (typeof value === "boolean") return `boolean \`${value}\``;
  if (typeof value === "number") return Number.isInteger(value) ? `integer \`${value}\`` : `floating point \`${value}\``;
  if (Array.isArray(value)) return "sequence";
  return "map";
}

function expectedOf(schema: Record<string, unknown> | undefined): string {
  if (!schema) return "a valid value";
  const alternatives = (schema.anyOf ?? schema.oneOf) as Record<string, unknown>[] | undefined;
  if (alternatives) {
    const nonNull = alternatives.filter((s) => s.type !== "null");
    return nonNull.length === 1 ? expectedOf(nonNull[0]) : "a valid value";
  }
  const type = Array.isArray(schema.type) ? (schema.type as string[]).find((t) => t !== "null") : schema.type;
  switch (type) {
    case "string":
      return "a string";
    case "integer":
      return "an integer";
    case "number":
      return "a number";
    case "boolean":
      return "a boolean";
    case "array":
      return "a sequence";
    case "object":
      return "a map";
    default:
      return "a valid value";
  }
}

function variantsOf(schema: Record<string, unknown> | undefined): string[] {
  if (!schema) return [];
  if (Array.isArray(schema.enum)) return schema.enum.map(String);
  if (schema.const !== undefined) return [String(schema.const)];
  // `Option<Enum>`: alternatives that are each a const or an enum, plus an optional null.
  const alternatives = (schema.anyOf ?? schema.oneOf) as Record<string, unknown>[] | undefined;
  const named = alternatives?.filter((s) => s.type !== "null") ?? [];
  if (named.length === 0 || !named.every((s) => s.const !== undefined || Array.isArray(s.enum))) return [];
  return named.flatMap((s) => variantsOf(s));
}

function pointerToPath(pointer: string): string {
  return pointer
    .split("/")
    .slice(1)
    .map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"))
    .join(".");
}

function joinPath(base: string, field: string): string {
  return base === "" ? field : `${base}.${field}`;
}

function valueAt(value: unknown, pointer: string): unknown {
  let current = value;
  for (const part of pointer.split("/").slice(1)) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<string, unknown>)[part.replace(/~1/g, "/").replace(/~0/g, "~")];
  }
  return current;
}

function schemaAtPath(schema: unknown, pointer: string): Record<string, unknown> | undefined {
  let current = schema as Record<string, unknown> | undefined;
  for (const part of pointer.split("/").slice(1)) {
    if (!current) return undefined;
    const props = current.properties as Record<string, Record<string, unknown>> | undefined;
    if (props && Object.hasOwn(props, part)) current = props[part];
    else if (current.items && /^\d+$/.test(part)) current = current.items as Record<string, unknown>;
    else return undefined;
  }
  return current;
}
