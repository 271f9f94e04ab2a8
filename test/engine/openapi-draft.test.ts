import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../lib/config/config-error.js';
import { loadProfile } from '../../lib/config/profile.js';
import { loadSettings } from '../../lib/config/settings.js';
import { draftFromOpenApi, OpenApiDraftError, readOpenApi } from '../../lib/probe/openapi-draft.js';
import { type Dialect, REFERENCE_DIALECT } from '../../lib/target/dialect.js';
import { activeRules } from '../../rules/index.js';
import { buildApp } from '../../server/app.js';
import { openApiDocument } from '../../server/openapi/document.js';
import { ROOT } from '../matrices/area-checks.js';
import { DIALECTS, dialectFile } from '../matrices/run-dialects.js';
import { comparable, leaves, todoFields } from '../matrices/run-drafts.js';
import { emptyDir } from '../support/temp-dir.js';
import { runCli } from './support/run-cli.js';

/**
 * `--draft-profile-from`'s reading of an OpenAPI document
 * (lib/probe/openapi-draft.ts), and `--openapi`'s writing of one, without a
 * server: the round trip through the generator for every dialect, what a
 * document without this suite's `x-dialect-*` marks still tells (and that
 * every field it cannot tell is named by a TODO), bad documents, and the
 * settings. The same round trip against live servers, certified and with
 * every answer judged, is test/matrices/openapi.test.ts.
 */
const NAMES = ['reference', ...DIALECTS];

function wantedOf(name: string): Dialect {
  return name === 'reference'
    ? loadProfile('reference', '--profile', ROOT).dialect
    : loadProfile(dialectFile(name), '--profile', ROOT).dialect;
}

function documentOf(dialect: Dialect): Record<string, unknown> {
  return JSON.parse(
    JSON.stringify(openApiDocument(dialect, { docsUrl: 'https://docs.example.com' })),
  );
}

function compare(drafted: Dialect, wanted: Dialect) {
  const mine = new Map(leaves(comparable(drafted)));
  const all = leaves(comparable(wanted));
  const wrong = all.filter(([f, v]) => JSON.stringify(mine.get(f)) !== JSON.stringify(v));
  return { fields: all.length, wrong: wrong.map(([f]) => f) };
}

/** Every `x-dialect-operation` and `x-dialect-field` taken out: a document as an implementer writes one. */
function unmarked(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unmarked);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => k !== 'x-dialect-operation' && k !== 'x-dialect-field')
      .map(([k, v]) => [k, unmarked(v)]),
  );
}

describe.each(NAMES)('%s: its OpenAPI document drafted back', (name) => {
  it('gives every field of its profile, with no TODO', () => {
    const wanted = wantedOf(name);
    const draft = draftFromOpenApi(
      readOpenApi(JSON.stringify(documentOf(wanted))),
      REFERENCE_DIALECT,
    );
    const { fields, wrong } = compare(draft.dialect, wanted);
    expect(fields).toBeGreaterThan(100);
    expect(wrong).toEqual([]);
    expect(draft.todos).toEqual([]);
    expect(draft.requests).toBe(0);
  });

  it('without the x-dialect marks, every field it gets wrong is named by a TODO (no silent guess)', () => {
    const wanted = wantedOf(name);
    const text = JSON.stringify(unmarked(documentOf(wanted)));
    expect(text).not.toContain('x-dialect-');
    const draft = draftFromOpenApi(readOpenApi(text), REFERENCE_DIALECT);
    const { wrong } = compare(draft.dialect, wanted);
    const named = draft.todos.flatMap(todoFields);
    const isNamed = (field: string) => {
      const names = (f: string) =>
        named.some((n) => f === n || f.startsWith(`${n}.`) || n.startsWith(`${f}.`));
      return (
        names(field) ||
        (/^money\.\w+\.\w+$/.test(field) && names(field.replace(/^money\.\w+\./, 'money.')))
      );
    };
    expect(wrong.filter((field) => !isNamed(field))).toEqual([]);
    // What the structure alone still tells: the list envelope and its paging, the statuses, the key prefix, docs_url.
    expect(wrong.filter((field) => field.startsWith('list.'))).toEqual([]);
    expect(draft.inferred).toEqual(expect.arrayContaining(['list.items', 'list.limitParam']));
    expect(draft.inferred).toEqual(
      expect.arrayContaining(['keyPrefix', 'docsUrl', 'operations.account.status']),
    );
  });
});

describe('documents it cannot read, in one line each', () => {
  it.each([
    ['openapi: 3.1.0\ninfo: {}', /is not JSON .*redocly\/cli bundle/],
    [
      '{"swagger": "2.0", "paths": {}}',
      /is not an OpenAPI 3\.0 or 3\.1 document \(openapi: null\)/,
    ],
    ['{"openapi": "3.0.3", "info": {}}', /has no paths/],
    ['[1]', /not an object/],
  ])('%s', (text, message) => {
    expect(() => readOpenApi(text)).toThrow(OpenApiDraftError);
    expect(() => readOpenApi(text)).toThrow(message);
  });
});

describe('the settings of --openapi and --draft-profile-from', () => {
  const load = (argv: string[], cwd = emptyDir()) =>
    loadSettings({ argv, env: {}, cwd, rules: activeRules });

  it('--draft-profile-from needs --draft-profile, and an existing file', () => {
    const cwd = emptyDir();
    writeFileSync(join(cwd, 'api.json'), '{}');
    expect(() => load(['--draft-profile-from', 'api.json'], cwd)).toThrow(
      /needs --draft-profile FILE/,
    );
    expect(() =>
      load(['--draft-profile-from', 'none.json', '--draft-profile', 'd.json'], cwd),
    ).toThrow(/no file "none.json"/);
    const loaded = load(['--draft-profile-from', 'api.json', '--draft-profile', 'd.json'], cwd);
    expect(loaded.help === false && loaded.settings.draftProfileFrom).toBe(join(cwd, 'api.json'));
  });

  it('--openapi never overwrites a file and is a command of its own', () => {
    const cwd = emptyDir();
    writeFileSync(join(cwd, 'taken.json'), '{}');
    expect(() => load(['--openapi', 'taken.json'], cwd)).toThrow(ConfigError);
    expect(() => load(['--openapi', 'taken.json'], cwd)).toThrow(/never overwrites a file/);
    expect(() => load(['--openapi', 'new.json', '--draft-profile', 'd.json'], cwd)).toThrow(
      /two commands/,
    );
  });
});

describe('--openapi FILE', () => {
  it('writes the document the reference serves for that profile, and exits 0 with no target', async () => {
    const cwd = emptyDir();
    const out = await runCli(
      ['--profile', dialectFile('wonka'), '--openapi', 'wonka.json'],
      {},
      cwd,
    );
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(/^OpenAPI 3\.1 written: wonka\.json \(\d+ operations/);
    const written = JSON.parse(readFileSync(join(cwd, 'wonka.json'), 'utf8'));
    const app = await buildApp({ profile: JSON.parse(readFileSync(dialectFile('wonka'), 'utf8')) });
    try {
      const served = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
      expect(written.paths).toEqual(served.paths);
      expect(written.components).toEqual(served.components);
    } finally {
      await app.close();
    }
    const again = await runCli(['--openapi', 'wonka.json'], {}, cwd);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/never overwrites a file/);
  });
});
