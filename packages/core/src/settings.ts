import {
  HISTORY_LIMIT_DEFAULT,
  HISTORY_LIMIT_MAX,
  HISTORY_LIMIT_MIN,
} from './limits';

/** @public */
export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * KRYPTON_HISTORY_LIMIT: a decimal integer from 1 to 100, 20 when unset. Empty, zero, negative,
 * fractional, malformed (whitespace, leading zeros, signs, exponents) and out-of-range values are
 * errors; zero is not a "disable" or "unlimited" mode.
 *
 * @public
 */
export function parseHistoryLimit(raw: string | undefined): Parsed<number> {
  if (raw === undefined) return { ok: true, value: HISTORY_LIMIT_DEFAULT };
  const error = `KRYPTON_HISTORY_LIMIT must be a decimal integer from ${HISTORY_LIMIT_MIN} to ${HISTORY_LIMIT_MAX}`;
  if (!/^[1-9][0-9]{0,2}$/.test(raw)) return { ok: false, error };
  const value = Number(raw);
  if (value < HISTORY_LIMIT_MIN || value > HISTORY_LIMIT_MAX)
    return { ok: false, error };
  return { ok: true, value };
}

/**
 * KRYPTON_RESTART_ENABLED: restart-consumers is enabled only by exactly "true".
 *
 * @public
 */
export function parseRestartEnabled(raw: string | undefined): boolean {
  return raw === 'true';
}

/**
 * KRYPTON_MANAGED_ONLY: only Krypton-managed Secrets are served unless it is exactly "false".
 *
 * @public
 */
export function parseManagedOnly(raw: string | undefined): boolean {
  return raw !== 'false';
}
