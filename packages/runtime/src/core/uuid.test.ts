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

  test("the time prefix is the millisecond time's 48 bits in hex, at the edges too", () => {
    for (const now of [0, 1, 255, 256, 2 ** 32 - 1, 2 ** 32, 2 ** 40 + 12345, 2 ** 48 - 1, Date.UTC(2026, 11, 6)]) {
      const id = uuidV7(now);
      expect(id).toMatch(SHAPE);
      expect(id.replace(/-/g, "").slice(0, 12)).toBe(now.toString(16).padStart(12, "0"));
    }
    // Beyond 48 bits the time wraps; a negative or fractional time is clamped and floored.
    expect(uuidV7(2 ** 48 + 5).slice(0, 13)).toBe("00000000-0005");
    expect(uuidV7(-7).slice(0, 13)).toBe("00000000-0000");
    expect(uuidV7(4095.9).slice(0, 13)).toBe("00000000-0fff");
  });
});
