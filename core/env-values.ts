/**
 * Reading one environment variable: unset or blank means the default, anything invalid a ConfigError that names the
 * variable and what it must be.
 */
import { parseDuration } from './durations';

/** A start-up stopped by a setting: the message names the variable. */
export class ConfigError extends Error {}

export function str(env: NodeJS.ProcessEnv, name: string): string | null {
  const raw = env[name];
  return raw === undefined || raw.trim() === '' ? null : raw.trim();
}

export function int(env: NodeJS.ProcessEnv, name: string, fallback: number, min = 0): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new ConfigError(`${name} must be a non-negative integer, got '${raw}'`);
  if (value < min) throw new ConfigError(`${name} must be at least ${min}`);
  return value;
}

/** `90s`, `30m`, `6h`, `1d`: a whole number and one unit (core/durations.ts), in milliseconds. */
export function duration(env: NodeJS.ProcessEnv, name: string, fallback: string): number {
  const raw = str(env, name) ?? fallback;
  const seconds = parseDuration(raw);
  if (!seconds) throw new ConfigError(`${name} must be a duration such as 30m, 6h or 1d, got '${raw}'`);
  return seconds * 1000;
}

export function bool(env: NodeJS.ProcessEnv, name: string): boolean {
  const raw = (env[name] ?? '').toLowerCase();
  if (raw === '' || raw === 'false' || raw === '0') return false;
  if (raw === 'true' || raw === '1') return true;
  throw new ConfigError(`${name} must be true or false, got '${env[name]}'`);
}

/** `on` or `off` (unset: `fallback`). */
export function onOff(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = (env[name] ?? '').toLowerCase();
  if (raw === '') return fallback;
  if (raw === 'on' || raw === 'off') return raw === 'on';
  throw new ConfigError(`${name} must be on or off, got '${env[name]}'`);
}

/** A limit: `limit` requests per `windowSeconds`. */
export type Rate = { limit: number; windowSeconds: number };

/** `N` per minute, or `N/S`: N per S seconds. */
export function rateOf(env: NodeJS.ProcessEnv, name: string, fallback: string): Rate {
  const raw = str(env, name) ?? fallback;
  const match = /^(\d+)(?:\/(\d+))?$/.exec(raw);
  if (!match || Number(match[1]) < 1 || (match[2] !== undefined && Number(match[2]) < 1)) {
    throw new ConfigError(`${name} must be N (per minute) or N/S (N per S seconds), both at least 1, got '${raw}'`);
  }
  return { limit: Number(match[1]), windowSeconds: match[2] ? Number(match[2]) : 60 };
}
