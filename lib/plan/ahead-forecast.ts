import type { AccountSettings } from '../control/types.js';
import { cacheFile, readCache, writeCache } from './run-cache.js';

/**
 * The accounts the checks asked the CLI's main thread for (accounts-ahead.ts)
 * in the last run of the same shape, in the order they asked: the next such
 * run makes them ahead before they are asked for. A run's checks ask for the
 * same settings run after run; without this, each burst of asks (a file's
 * checks, a property's lanes: 85 in the first half second of a full run) waits
 * for accounts made on demand, two round trips each.
 *
 * Kept beside the partner demand (run-cache.ts), per user: only account
 * settings the suite itself chose (limits, billing, products), nothing
 * secret. A missing, unreadable or foreign cache only means accounts are
 * made as they are asked for.
 */
const FORECAST_CACHE = cacheFile(`accounts-ahead-${process.getuid?.() ?? 'user'}.json`);

/** What decides which accounts a run's checks ask for: the same shape, the same asks. */
export interface RunShape {
  /** The check files' glob and `--only`. */
  include: string;
  only: readonly string[];
  /** The control API's features: a check without one it needs asks for nothing. */
  capabilities: readonly string[];
  /** Files at a time and runs per property: a property's lanes each ask for an account. */
  concurrency: number;
  numRuns: number;
}

/** Shapes remembered, the most recent ones: a user switching between a few runs keeps each. */
const SHAPES_KEPT = 8;
/** More asks than a run makes (a full run makes ~300): a larger forecast is not ours. */
const MOST_ASKS = 10_000;

/** One key per shape, whatever the order of `only` and of the features. */
export function shapeKey(shape: RunShape): string {
  return JSON.stringify({
    include: shape.include,
    only: [...shape.only].sort(),
    capabilities: [...shape.capabilities].sort(),
    concurrency: shape.concurrency,
    numRuns: shape.numRuns,
  });
}

/**
 * A run's asks as stored: each distinct settings once (JSON), then the asks in
 * order as stretches of [index into `settings`, times in a row].
 */
interface StoredAsks {
  settings: string[];
  asks: [index: number, times: number][];
}

/** The settings (as JSON) the last run of this shape asked for, in order; empty when none is known. */
export function readForecast(shape: string, path = FORECAST_CACHE): string[] {
  const stored = readAll(path)[shape];
  const asks: string[] = [];
  for (const [index, times] of stored?.asks ?? []) {
    const settings = stored?.settings[index] as string;
    for (let i = 0; i < times && asks.length < MOST_ASKS; i++) asks.push(settings);
  }
  return asks;
}

/** Remembers this run's asks (JSON settings, in order) for its shape. Never throws. */
export function writeForecast(shape: string, asks: readonly string[], path = FORECAST_CACHE): void {
  if (asks.length === 0) return;
  const stored: StoredAsks = { settings: [], asks: [] };
  const indexOf = new Map<string, number>();
  for (const settings of asks) {
    let index = indexOf.get(settings);
    if (index === undefined) {
      index = stored.settings.push(settings) - 1;
      indexOf.set(settings, index);
    }
    const last = stored.asks.at(-1);
    if (last?.[0] === index) last[1] += 1;
    else stored.asks.push([index, 1]);
  }
  const all = readAll(path);
  delete all[shape];
  // Insertion order is recency: the oldest shapes go first.
  const kept = Object.entries(all).slice(-(SHAPES_KEPT - 1));
  writeCache(path, Object.fromEntries([...kept, [shape, stored]]));
}

function readAll(path: string): Record<string, StoredAsks> {
  const parsed = readCache(path);
  if (!isObject(parsed)) return {};
  const all: Record<string, StoredAsks> = {};
  for (const [shape, stored] of Object.entries(parsed)) {
    if (isStoredAsks(stored)) all[shape] = stored;
  }
  return all;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Well formed, or not ours: settings are JSON objects (what `POST /accounts` takes), counts sane. */
function isStoredAsks(value: unknown): value is StoredAsks {
  if (!isObject(value) || !Array.isArray(value.settings) || !Array.isArray(value.asks))
    return false;
  const { settings, asks } = value;
  if (!settings.every((text) => typeof text === 'string' && isSettingsJson(text))) return false;
  let total = 0;
  for (const stretch of asks) {
    if (!Array.isArray(stretch) || stretch.length !== 2) return false;
    const [index, times] = stretch as unknown[];
    if (!Number.isInteger(index) || (index as number) < 0 || (index as number) >= settings.length)
      return false;
    if (!Number.isInteger(times) || (times as number) < 1) return false;
    total += times as number;
  }
  return total <= MOST_ASKS;
}

function isSettingsJson(text: string): boolean {
  try {
    return isObject(JSON.parse(text));
  } catch {
    return false;
  }
}

/** The settings a forecast entry stands for. */
export function settingsOf(json: string): AccountSettings {
  return JSON.parse(json) as AccountSettings;
}
