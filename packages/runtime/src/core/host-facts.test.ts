// wholeNumberFromEnv reads every GROK_* cap of the tools (wait, foreground block, subagents, output size).
import { describe, expect, test } from "@jest/globals";
import { wholeNumberFromEnv } from "./host-facts.js";

describe("wholeNumberFromEnv", () => {
  test("takes the digits, spaces around them ignored", () => {
    expect(wholeNumberFromEnv("CAP", 7, 0, { CAP: "42" })).toBe(42);
    expect(wholeNumberFromEnv("CAP", 7, 0, { CAP: " 42 " })).toBe(42);
    expect(wholeNumberFromEnv("CAP", 7, 0, { CAP: "0" })).toBe(0);
  });

  test.each([[undefined], [""], ["  "], ["-5"], ["+5"], ["1e6"], ["1.5"], ["12 KB"], ["0x10"]])("falls back for %j", (raw) => {
    expect(wholeNumberFromEnv("CAP", 7, 0, raw === undefined ? {} : { CAP: raw })).toBe(7);
  });

  test("falls back below the minimum", () => {
    expect(wholeNumberFromEnv("CAP", 7, 1, { CAP: "0" })).toBe(7);
    expect(wholeNumberFromEnv("CAP", 7, 1, { CAP: "1" })).toBe(1);
  });

  test("reads process.env by default, at each call", () => {
    const saved = process.env.GROK_TEST_WHOLE_NUMBER;
    try {
      process.env.GROK_TEST_WHOLE_NUMBER = "3";
      expect(wholeNumberFromEnv("GROK_TEST_WHOLE_NUMBER", 7)).toBe(3);
      delete process.env.GROK_TEST_WHOLE_NUMBER;
      expect(wholeNumberFromEnv("GROK_TEST_WHOLE_NUMBER", 7)).toBe(7);
    } finally {
      if (saved !== undefined) process.env.GROK_TEST_WHOLE_NUMBER = saved;
    }
  });
});
