import { SITUATION_NAMES, type SituationName } from '../../rules/client/index.js';
import { ConfigError, quote } from '../config/config-error.js';

/** One playing of a situation on the client's traffic. */
export interface Play {
  situation: SituationName;
  /** The second playing, with title and detail reworded (the `reworded` situation). */
  reworded: boolean;
  state: 'pending' | 'armed' | 'played' | 'unplayable';
  /** The client's exchange it was played on. */
  exchange?: number;
  /** Why it was not played, or what it did. */
  note?: string;
}

/** What `--situations` chose: how many plain playings of each, and whether answers are reworded. */
export interface SituationChoice {
  counts: Map<SituationName, number>;
  reworded: boolean;
}

export const DEFAULT_CHOICE: SituationChoice = choose(SITUATION_NAMES.map((name) => [name, 1]));

const MAX_COUNT = 20;

/**
 * `--situations LIST`: comma-separated names (`all`, `none`, or names of
 * rules/client/situations.ts), each optionally `NAME:N` to play it N times.
 * Anything else is a configuration error naming the valid names.
 */
export function parseSituations(list: string, source = '--situations'): SituationChoice {
  const items = list
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
  if (items.length === 0)
    throw new ConfigError(source, 'names no situation (give all, none or names)');
  const chosen: [SituationName, number][] = [];
  for (const item of items) {
    const [name = '', count, ...rest] = item.split(':');
    if (name === 'all' || name === 'none') {
      if (count !== undefined || items.length > 1)
        throw new ConfigError(source, `${quote(item)}: all and none stand alone`);
      return name === 'all' ? DEFAULT_CHOICE : choose([]);
    }
    if (!(SITUATION_NAMES as readonly string[]).includes(name) || rest.length > 0) {
      throw new ConfigError(
        source,
        `${quote(item)} is not a situation (situations: ${SITUATION_NAMES.join(', ')}; or all, none; NAME:N plays one N times)`,
      );
    }
    let times = 1;
    if (count !== undefined) {
      times = /^\d+$/.test(count) ? Number(count) : Number.NaN;
      if (!(times >= 1 && times <= MAX_COUNT))
        throw new ConfigError(
          source,
          `${quote(item)}: N must be an integer from 1 to ${MAX_COUNT}`,
        );
      if (name === 'reworded')
        throw new ConfigError(
          source,
          `${quote(item)}: reworded applies to every answer; it takes no count`,
        );
    }
    chosen.push([name as SituationName, times]);
  }
  return choose(chosen);
}

function choose(chosen: readonly (readonly [SituationName, number])[]): SituationChoice {
  const counts = new Map<SituationName, number>();
  for (const [name, times] of chosen) {
    if (name === 'reworded') continue;
    counts.set(name, (counts.get(name) ?? 0) + times);
  }
  return { counts, reworded: chosen.some(([name]) => name === 'reworded') };
}

/**
 * Situations whose reworded replay stands for others of their kind: one 429
 * and one 500 are replayed, whichever of their kind was chosen first.
 */
const KINDS: readonly (readonly SituationName[])[] = [
  ['429-read', '429-write', '429-token'],
  ['500-before', '500-after'],
];

/**
 * The playings in the order they are offered: every plain one in the order of
 * SITUATION_NAMES (the commonest chances first), then, with `reworded`, one
 * replay per kind of situation played, each offered once its plain playing
 * is done (so the client's reaction with the usual words is known first).
 */
export function planOf(choice: SituationChoice): Play[] {
  const plays: Play[] = [];
  for (const name of SITUATION_NAMES) {
    for (let i = 0; i < (choice.counts.get(name) ?? 0); i++) {
      plays.push({ situation: name, reworded: false, state: 'pending' });
    }
  }
  if (!choice.reworded) return plays;
  const replayed = new Set<SituationName>();
  for (const name of SITUATION_NAMES) {
    if (!choice.counts.has(name)) continue;
    const kind = KINDS.find((k) => k.includes(name)) ?? [name];
    if (kind.some((k) => replayed.has(k))) continue;
    const first = kind.find((k) => choice.counts.has(k)) ?? name;
    replayed.add(first);
    plays.push({ situation: first, reworded: true, state: 'pending' });
  }
  return plays;
}

/** `--situations` as it would be given again (for the report): `all`, `none` or the list. */
export function choiceText(choice: SituationChoice): string {
  const names = [...choice.counts.entries()].map(([name, n]) => (n === 1 ? name : `${name}:${n}`));
  if (choice.reworded) names.push('reworded');
  if (names.length === 0) return 'none';
  const all = SITUATION_NAMES.every((name) =>
    name === 'reworded' ? choice.reworded : choice.counts.get(name) === 1,
  );
  return all ? 'all' : names.join(',');
}
