// uuidV7 draws its random bytes from a pool refilled every 256 ids (issue #18): ids across refills
// must stay well-formed, time-ordered by their prefix, and never repeat.
import { describe, expect, test } from "@jest/globals";
import { uuidV7 } from "./uuid.js";

const SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("uuidV7", () => {
  test("ids across several pool refills are well-formed, carry the time and never repeat", () => {
    const now = Date.UTC(2026, 11, 4, 3, 0, 0);
    const ids = Array.from({ length: 1000 }, () => uuidV7(now));
    for (const id of ids) expect(id).toMatch(SHAPE);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids[0]!.replace(/-/g, "").slice(0, 12)).toBe(now.toString(16).padStart(12, "0"));
    // The random tails differ too, not only the whole ids.
    expect(new Set(ids.map((id) => id.slice(24))).size).toBe(ids.length);
  });
});
