/**
 * Property tests of the description template renderer (issue #19): text without `${{` / `${%` is
 * returned as it is; a printed value comes out verbatim (no escaping, never rendered again); plain
 * text around a tag (stray `#}`, `}}`, `%}`, braces) survives rendering; comments vanish; and
 * whatever the input, rendering fails only with TemplateRenderError, which renderTemplate turns
 * into the text without its complete markers.
 */
import { describe, expect, test } from "@jest/globals";
import fc from "fast-check";
import { TemplateRenderError, hasTemplateMarkers, renderTemplate, renderTemplateStrict, stripTemplateMarkers } from "./template-renderer.js";

/** Plain text that can hold every marker character but never opens a tag (`$` left out). */
const plain = fc.string({ unit: fc.constantFrom("a", " ", "\n", "{", "}", "%", "#", "-", "é", "😀", "<", "&", '"'), maxLength: 60 });
/** Any text, markers and near-markers included. */
const anyText = fc.string({
  unit: fc.constantFrom("a", " ", "\n", "{", "}", "%", "#", "$", "${{", "${%", "${#", "}}", "%}", "#}", "x.y", "if", "endif"),
  maxLength: 40,
});

describe("renderTemplateStrict", () => {
  test("returns text without a `${{` or `${%` marker untouched", () => {
    fc.assert(
      fc.property(anyText, (t) => {
        if (hasTemplateMarkers(t)) return;
        expect(renderTemplateStrict(t, {})).toBe(t);
      }),
      { numRuns: 300 },
    );
  });

  test("prints a value verbatim, never escaped and never rendered again, with the plain text around it", () => {
    fc.assert(
      fc.property(plain, anyText, plain, (before, value, after) => {
        let expected = `${before}${value}${after}`;
        // MiniJinja drops one trailing newline of the template (not of the value).
        if (after.endsWith("\n")) expected = expected.slice(0, -1);
        expect(renderTemplateStrict(`${before}\${{ v }}${after}`, { v: value })).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });

  test("drops comments and keeps the text on both sides", () => {
    fc.assert(
      fc.property(plain, fc.string({ unit: fc.constantFrom("a", " ", "{", "}", "%", "\n"), maxLength: 20 }), plain, (before, comment, after) => {
        const rendered = renderTemplateStrict(`${before}\${# ${comment} #}\${{ "" }}${after}\n`, {});
        expect(rendered).toBe(`${before}${after}`);
      }),
      { numRuns: 300 },
    );
  });

  test("fails only with TemplateRenderError, and renderTemplate then falls back to the stripped text", () => {
    fc.assert(
      fc.property(anyText, fc.dictionary(fc.constantFrom("x", "y", "v"), fc.oneof(fc.string(), fc.constant(null), fc.integer())), (t, context) => {
        let strict: string | undefined;
        try {
          strict = renderTemplateStrict(t, context);
        } catch (error) {
          expect(error).toBeInstanceOf(TemplateRenderError);
        }
        expect(renderTemplate(t, context)).toBe(strict ?? stripTemplateMarkers(t));
      }),
      { numRuns: 500 },
    );
  });
});

describe("stripTemplateMarkers", () => {
  test("removes complete `${{…}}` and `${%…%}` spans only, keeping everything else in order", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            plain.map((p) => ({ keep: true, text: p })),
            plain.map((p) => ({ keep: false, text: `\${{ ${p.replaceAll("}", "")} }}` })),
          ),
          { maxLength: 6 },
        ),
        (parts) => {
          // Two plain parts side by side could form a marker only through `$`, which `plain` never holds.
          const input = parts.map((p) => p.text).join("");
          expect(stripTemplateMarkers(input)).toBe(
            parts
              .filter((p) => p.keep)
              .map((p) => p.text)
              .join(""),
          );
        },
      ),
      { numRuns: 300 },
    );
  });
});
