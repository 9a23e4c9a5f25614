import { describe, expect, it } from "@jest/globals";
import { setFlagsFromString } from "node:v8";
import { OLD_GENERATION_ROOM_BYTES, heapGrowingPercent, keepOldGenerationRoom } from "./heap-growth.js";

const MB = 1024 * 1024;

describe("heapGrowingPercent", () => {
  it("grows a small old generation 4× at most", () => {
    expect(heapGrowingPercent(12 * MB)).toBe(300);
    expect(heapGrowingPercent(1 * MB)).toBe(300);
  });

  it("keeps the room above a mid-sized old generation", () => {
    expect(heapGrowingPercent(20 * MB)).toBe(200);
    expect(heapGrowingPercent(40 * MB)).toBe(100);
    for (const live of [14, 25, 60, 100, 130].map((n) => n * MB)) {
      const percent = heapGrowingPercent(live);
      expect((live * percent) / 100).toBeGreaterThanOrEqual(OLD_GENERATION_ROOM_BYTES);
    }
  });

  it("leaves a large old generation to V8's own factor", () => {
    expect(heapGrowingPercent(200 * MB)).toBe(0);
    expect(heapGrowingPercent(2048 * MB)).toBe(0);
  });

  it("treats an unknown size as a small heap", () => {
    expect(heapGrowingPercent(0)).toBe(300);
    expect(heapGrowingPercent(Number.NaN)).toBe(300);
  });
});

describe("keepOldGenerationRoom", () => {
  it("installs and stops without throwing", () => {
    const stop = keepOldGenerationRoom();
    stop();
    // Back to V8's own factor for the rest of this test process.
    setFlagsFromString("--heap-growing-percent=0");
  });
});
