/**
 * Unit tests of the timeout resolution of run_terminal_cmd (spec §4.1).
 */
import { BASH_PARAMS_DEFAULTS, type BashParams } from "./schema.js";
import {
  effectiveDefaultTimeoutMs,
  effectiveMaxTimeoutMs,
  foregroundBlockBudgetMs,
  maxTimeoutConfigured,
  resolveBackgroundTimeoutMs,
  resolveForegroundTimeoutMs,
} from "./timeouts.js";

const p = (over: Partial<BashParams> = {}): BashParams => ({ ...BASH_PARAMS_DEFAULTS, ...over });

it("resolves foreground timeouts with ceiling, default and the block cap", () => {
  expect(resolveForegroundTimeoutMs(undefined, p())).toBe(120_000);
  expect(resolveForegroundTimeoutMs(0, p())).toBe(120_000);
  expect(resolveForegroundTimeoutMs(5_000, p())).toBe(5_000);
  expect(resolveForegroundTimeoutMs(900_000, p())).toBe(300_000);
  expect(resolveForegroundTimeoutMs(900_000, p({ max_timeout_secs: 3600 }))).toBe(300_000);
  expect(resolveForegroundTimeoutMs(900_000, p({ max_timeout_secs: 3600, timeout_secs: 600 }))).toBe(600_000);
  expect(resolveForegroundTimeoutMs(900_000, p({ max_timeout_secs: 3600, auto_background_on_timeout: true }))).toBe(900_000);
  expect(resolveForegroundTimeoutMs(undefined, p({ timeout_secs: 10, max_timeout_secs: 5 }))).toBe(5_000);
});

it("resolves the ceiling, the default and the schema maximum flag", () => {
  expect(effectiveMaxTimeoutMs(p({ max_timeout_secs: 0.0004 }))).toBe(1);
  expect(effectiveMaxTimeoutMs(p({ max_timeout_secs: 1e9 }))).toBe(36_000_000);
  expect(effectiveMaxTimeoutMs(p({ max_timeout_secs: -1 }))).toBe(300_000);
  expect(maxTimeoutConfigured(p({ max_timeout_secs: 2 }))).toBe(true);
  expect(maxTimeoutConfigured(p())).toBe(false);
  expect(effectiveDefaultTimeoutMs(p({ timeout_secs: 1.5 }))).toBe(1_500);
});

it("leaves background commands unbounded unless a positive timeout is given", () => {
  expect(resolveBackgroundTimeoutMs(undefined)).toBeUndefined();
  expect(resolveBackgroundTimeoutMs(0)).toBeUndefined();
  expect(resolveBackgroundTimeoutMs(7)).toBe(7);
  expect(resolveBackgroundTimeoutMs(1e12)).toBe(36_000_000);
});

it("resolves the auto-background budget", () => {
  expect(foregroundBlockBudgetMs(p())).toBe(15_000);
  expect(foregroundBlockBudgetMs(p({ foreground_block_budget_ms: 0 }))).toBe(Number.POSITIVE_INFINITY);
  expect(foregroundBlockBudgetMs(p({ foreground_block_budget_ms: 250 }))).toBe(250);
});
