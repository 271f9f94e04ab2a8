import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { loadProfile } from '../../lib/config/profile.js';
import { draftDialect } from '../../lib/probe/draft/draft-dialect.js';
import { draftProfileFile } from '../../lib/probe/draft/draft-file.js';
import { type Dialect, MONEY_PLACES, moneyAt } from '../../lib/target/dialect.js';
import { startServer } from '../../server/start.js';
import { emptyDir } from '../support/temp-dir.js';
import { ROOT } from './area-checks.js';
import { prepareRun } from './run-conformance.js';
import { DIALECTS, dialectFile, SERVER_OPTIONS } from './run-dialects.js';
import { MATRIX_SEED } from './run-matrix.js';

/**
 * The draft profile measured on every dialect of the
 * dialect matrix. The reference server speaks the dialect; `--draft-profile`
 * probes it with no profile (the reference dialect to start from), the draft
 * file is written and loaded as `--profile` would load it, with no hand edit,
 * and compared field by field with the dialect's own profile. A field the
 * draft got wrong must be named by one of its TODOs: never a silent guess.
 */
export interface DraftRun {
  dialect: string;
  /** Every field of a dialect (money compared place by place). */
  fields: number;
  right: number;
  /** Fields the draft got wrong, each `field: drafted → wanted`. */
  wrong: string[];
  /** Wrong fields no TODO names (must stay empty). */
  unnamed: string[];
  todos: string[];
  requests: number;
}

export async function runDraftMatrix(
  dialects: readonly string[] = ['reference', ...DIALECTS],
  /** Where the drafts are kept (`NAME.draft.json`); default: a directory removed after. */
  keepIn?: string,
): Promise<DraftRun[]> {
  const cwd = keepIn ?? emptyDir('draft-matrix-');
  const runs: DraftRun[] = [];
  try {
    for (const name of dialects) runs.push(await draftOne(name, cwd));
  } finally {
    if (keepIn === undefined) await rm(cwd, { recursive: true, force: true });
  }
  return runs;
}

/** Where runDraftMatrix keeps a dialect's draft. */
export const draftFileIn = (dir: string, name: string) => join(dir, `${name}.draft.json`);

async function draftOne(name: string, cwd: string): Promise<DraftRun> {
  const controlToken = randomBytes(24).toString('base64url');
  const file = name === 'reference' ? undefined : dialectFile(name);
  const server = await startServer({
    controlToken,
    db: ':memory:',
    ...SERVER_OPTIONS[name],
    ...(file === undefined ? {} : { profile: JSON.parse(readFileSync(file, 'utf8')) }),
  });
  try {
    const run = await prepareRun(
      `draft of ${name}`,
      { origin: server.origin, controlToken },
      'ALL',
      MATRIX_SEED,
      cwd,
    );
    const draft = await draftDialect(run.suiteTarget.runConfig);
    const out = draftFileIn(cwd, name);
    const { profile, todos } = draftProfileFile({
      draft,
      file: out,
      schemaFile: join(ROOT, 'config', 'profile.schema.json'),
      targetWords: server.origin,
      now: new Date(),
    });
    await writeFile(out, JSON.stringify(profile));
    const drafted = loadProfile(out, '--profile', cwd).dialect;
    const wanted = file
      ? loadProfile(file, '--profile', cwd).dialect
      : loadProfile('reference', '--profile', ROOT).dialect;
    const mine = new Map(leaves(comparable(drafted)));
    const all = leaves(comparable(wanted));
    const wrong = all.filter(([field, value]) => !same(mine.get(field), value));
    const named = todos.flatMap(todoFields);
    const names = (field: string) =>
      named.some((n) => field === n || field.startsWith(`${n}.`) || n.startsWith(`${field}.`));
    // A money place the draft states nothing of follows the format of every place.
    const isNamed = (field: string) =>
      names(field) ||
      (/^money\.\w+\.\w+$/.test(field) && names(field.replace(/^money\.\w+\./, 'money.')));
    return {
      dialect: name,
      fields: all.length,
      right: all.length - wrong.length,
      wrong: wrong.map(
        ([field, value]) =>
          `${field}: ${JSON.stringify(mine.get(field))} → ${JSON.stringify(value)}`,
      ),
      unnamed: wrong.map(([field]) => field).filter((field) => !isNamed(field)),
      todos,
      requests: draft.requests,
    };
  } finally {
    await server.close();
  }
}

/** A dialect as compared: money place by place (the format each place is read in), no docs URL. */
export function comparable(dialect: Dialect): Record<string, unknown> {
  const { docsUrl: _, money, ...rest } = dialect;
  return {
    ...rest,
    // Members of an object only: an integer of cents has no amount or currency member.
    money: Object.fromEntries(
      MONEY_PLACES.map((place) => {
        const { format, amount, currency } = moneyAt(money, place);
        return [place, format === 'object' ? { format, amount, currency } : { format }];
      }),
    ),
  };
}

export function leaves(value: unknown, at = ''): [string, unknown][] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [[at, value]];
  return Object.entries(value).flatMap(([key, inner]) =>
    leaves(inner, at === '' ? key : `${at}.${key}`),
  );
}

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The fields a TODO names, as a profile writes them: its head (before the
 * first ": ") lists them, `dialect.` first, commas or slashes between, a
 * bare name under the previous one's parent (`dialect.orderStatuses.inProduction,
 * shipped`); the final TODO lists every field not inferred in full.
 */
export function todoFields(todo: string): string[] {
  const colon = todo.indexOf(': ');
  const head = colon === -1 ? todo : todo.slice(0, colon);
  const fields: string[] = [];
  let parent = '';
  for (const raw of head.split(/,\s*|\s+\/\s+/)) {
    const name = raw.trim().replace(/^dialect\./, '');
    if (!/^[\w.]+$/.test(name)) continue;
    const full = name.includes('.') || parent === '' ? name : `${parent}.${name}`;
    fields.push(full);
    parent = full.includes('.') ? full.slice(0, full.lastIndexOf('.')) : '';
  }
  // Anywhere in the text: every `dialect.<field>` named in full.
  for (const match of todo.matchAll(/\bdialect\.([\w.]*\w)/g)) if (match[1]) fields.push(match[1]);
  return fields;
}
