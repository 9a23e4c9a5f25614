/**
 * Timeout resolution of `run_terminal_cmd` (spec §4.1): foreground ceiling and default from
 * params, clamps, the foreground block cap, the auto-background budget, background bounds.
 */
import { wholeNumberFromEnv } from "@grok-tools/runtime/helpers";
import type { BashParams } from "./schema.js";

/** Foreground ceiling when `max_timeout_secs` is unset. */
export const DEFAULT_MAX_TIMEOUT_MS = 300_000;
/** Absolute ceiling of any configured or background timeout (10 h). */
export const ABSOLUTE_MAX_TIMEOUT_MS = 36_000_000;
/** Foreground default when `timeout_secs` is unset. */
export const DEFAULT_TIMEOUT_MS = 120_000;
/** Longest a non-backgroundable foreground command may block (`GROK_MAX_FOREGROUND_BLOCK_MS`). */
export const MAX_FOREGROUND_BLOCK_MS = 300_000;
/** Auto-background budget when `foreground_block_budget_ms` is unset (`GROK_FOREGROUND_BLOCK_BUDGET_MS`). */
export const DEFAULT_FOREGROUND_BLOCK_BUDGET_MS = 15_000;

/** The foreground ceiling for model timeouts (≥ 1 ms). */
export function effectiveMaxTimeoutMs(params: BashParams): number {
  const secs = params.max_timeout_secs;
  if (secs === null || !(secs > 0)) return DEFAULT_MAX_TIMEOUT_MS;
  return Math.min(Math.max(Math.round(secs * 1000), 1), ABSOLUTE_MAX_TIMEOUT_MS);
}

/** Whether `max_timeout_secs` is configured (the schema then gets `maximum`). */
export function maxTimeoutConfigured(params: BashParams): boolean {
  return params.max_timeout_secs !== null && params.max_timeout_secs > 0;
}

/** The foreground default (`timeout_secs` or 120 s), never above the ceiling. */
export function effectiveDefaultTimeoutMs(params: BashParams): number {
  const secs = params.timeout_secs;
  const configured = secs !== null && secs > 0 ? Math.round(secs * 1000) : DEFAULT_TIMEOUT_MS;
  return Math.min(Math.max(configured, 1), Math.max(effectiveMaxTimeoutMs(params), 1));
}

/** Auto-backgrounding is on only with background execution enabled. */
export function autoBackgroundEnabled(params: BashParams): boolean {
  return params.auto_background_on_timeout && params.enabled_background;
}

/**
 * The foreground deadline: a positive `timeout` clamped to the ceiling, else the default;
 * without auto-background, further capped to max(300 000 ms, default).
 */
export function resolveForegroundTimeoutMs(timeout: number | undefined, params: BashParams): number {
  const ceiling = Math.max(effectiveMaxTimeoutMs(params), 1);
  const defaultMs = effectiveDefaultTimeoutMs(params);
  const resolved = timeout !== undefined && timeout > 0 ? Math.min(timeout, ceiling) : Math.max(Math.min(defaultMs, ceiling), 1);
  if (autoBackgroundEnabled(params)) return resolved;
  return Math.min(resolved, Math.max(wholeNumberFromEnv("GROK_MAX_FOREGROUND_BLOCK_MS", MAX_FOREGROUND_BLOCK_MS), defaultMs));
}

/** A background deadline: a positive `timeout` up to 10 h, else none (undefined). */
export function resolveBackgroundTimeoutMs(timeout: number | undefined): number | undefined {
  return timeout !== undefined && timeout > 0 ? Math.min(timeout, ABSOLUTE_MAX_TIMEOUT_MS) : undefined;
}

/** How long a foreground command may block before auto-background (Infinity: only the timeout). */
export function foregroundBlockBudgetMs(params: BashParams): number {
  const budget = params.foreground_block_budget_ms;
  if (budget === 0) return Number.POSITIVE_INFINITY;
  if (budget !== null) return budget;
  return wholeNumberFromEnv("GROK_FOREGROUND_BLOCK_BUDGET_MS", DEFAULT_FOREGROUND_BLOCK_BUDGET_MS);
}
