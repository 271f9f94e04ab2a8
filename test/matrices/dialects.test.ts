import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type DialectPathName,
  isDocumentPath,
  keepsDocumentPrefix,
  METHOD_NOT_SHOWN,
  MONEY_PLACES,
  REFERENCE_DIALECT,
} from '../../lib/target/dialect.js';
import {
  DIALECTS,
  type DialectRun,
  dialectFile,
  runDialectMatrix,
  SERVER_OPTIONS,
} from './run-dialects.js';

/**
 * The dialect matrix: the reference server speaking each
 * dialect of test/dialects/, the whole suite run against it with its profile
 * and without one, beside the reference dialect; one vitest instance for all
 * runs (run-dialects.ts). With its profile a dialect certifies as cleanly as
 * the reference; without one the dialect probe stops the run (exit 2) with
 * its mismatch lines, and no MUST rule fails. No time budget:
 * `npm run dialects:matrix` prints the wall time.
 */
let runs: DialectRun[];
const runOf = (server: string, withProfile: boolean) =>
  runs.find(
    (run) => run.server === server && (server === 'reference' || run.withProfile === withProfile),
  );
const count = (run: DialectRun | undefined, verdict: string) => run?.counts[verdict] ?? 0;

beforeAll(async () => {
  runs = await runDialectMatrix();
});

describe('the reference dialect, no profile (the yardstick)', () => {
  it('conforms: exit 0, nothing failed, nothing in error', () => {
    const reference = runOf('reference', false);
    expect(reference?.run.problem ?? '').toBe('');
    expect({
      exit: reference?.run.exitCode,
      failed: count(reference, 'failed'),
      error: count(reference, 'error'),
    }).toEqual({ exit: 0, failed: 0, error: 0 });
  });
});

describe('each dialect certified with its profile: 0 failed, 0 error, the reference not_verifiable', () => {
  it.each(DIALECTS)('%s', (name) => {
    const run = runOf(name, true);
    const unclean = Object.entries(run?.run.verdicts ?? {}).filter(
      ([, verdict]) => verdict === 'failed' || verdict === 'error',
    );
    expect({ problem: run?.run.problem ?? '', unclean }).toEqual({ problem: '', unclean: [] });
    expect({
      exit: run?.run.exitCode,
      not_verifiable: count(run, 'not_verifiable'),
      rules: Object.keys(run?.run.verdicts ?? {}).length,
    }).toEqual({
      exit: 0,
      not_verifiable: count(runOf('reference', false), 'not_verifiable'),
      rules: Object.keys(runOf('reference', false)?.run.verdicts ?? {}).length,
    });
  });
});

describe("each dialect run without its profile: the probe's mismatch lines, exit 2, 0 MUST failed", () => {
  it.each(DIALECTS)('%s', (name) => {
    const run = runOf(name, false);
    expect(run?.mustFailed).toEqual([]);
    expect(run?.run.exitCode).toBe(2);
    expect(run?.mismatches.length).toBeGreaterThan(0);
    // Each line blames a field the dialect's profile changes: the probe names what differs, nothing else.
    const changed = given.filter((g) => g.name === name).map((g) => g.field);
    for (const line of run?.mismatches ?? []) {
      const field = /^dialect mismatch: dialect\.([\w.]+): /.exec(line)?.[1] ?? line;
      expect(
        changed.filter(
          (g) => g === field || g.startsWith(`${field}.`) || field.startsWith(`${g}.`),
        ),
        line,
      ).not.toEqual([]);
    }
  });
});

/** Every leaf of a dialect as `a.b.c` → value. */
function leaves(value: unknown, at = ''): [string, unknown][] {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [[at, value]];
  return Object.entries(value).flatMap(([key, inner]) =>
    leaves(inner, at === '' ? key : `${at}.${key}`),
  );
}

const profiles = DIALECTS.map((name) => ({
  name,
  json: JSON.parse(readFileSync(dialectFile(name), 'utf8')) as {
    docsUrl?: string;
    dialect: Record<string, unknown>;
  },
}));
const given = profiles.flatMap(({ name, json }) =>
  leaves(json.dialect).map(([field, value]) => ({ name, field, value })),
);
const reference = new Map(leaves(REFERENCE_DIALECT));
/** Fields the dialects set to something else than the reference. */
const differs = (field: string) =>
  given.filter((g) => g.field === field && g.value !== reference.get(field));

describe('between them the dialects cover every profile field', () => {
  // Operations are judged below: the document fixes most methods, and not every status is worth a dialect.
  const fields = [...reference.keys()].filter((field) => !field.startsWith('operations.'));

  it.each(fields)('%s differs from the reference in some dialect', (field) => {
    expect(differs(field)).not.toEqual([]);
  });

  it('docs_url, in the dialect and at the top of a profile', () => {
    expect(profiles.filter(({ json }) => json.dialect.docsUrl !== undefined)).not.toEqual([]);
    expect(profiles.filter(({ json }) => json.docsUrl !== undefined)).not.toEqual([]);
  });

  it('none sets a path the API document fixes, and each keeps the start it fixes (methods: below)', () => {
    const paths = given.filter((g) => g.field.startsWith('paths.'));
    expect(paths.filter((g) => isDocumentPath(g.field.slice('paths.'.length)))).toEqual([]);
    for (const g of paths)
      expect(
        keepsDocumentPrefix(g.field.slice('paths.'.length) as DialectPathName, String(g.value)),
        `${g.name}: ${g.field}`,
      ).toBe(true);
  });

  it('paths with a query', () => {
    expect(
      given.filter((g) => g.field.startsWith('paths.') && String(g.value).includes('?')),
    ).not.toEqual([]);
  });

  it('success statuses of creation, cancel, quotes and webhook endpoints; methods left open', () => {
    for (const op of [
      'quoteCreate',
      'orderCancel',
      'webhookEndpointCreate',
      'webhookEndpointDelete',
    ])
      expect(differs(`operations.${op}.status`), op).not.toEqual([]);
    expect(differs('orderCreatedStatus')).not.toEqual([]);
    const methods = given.filter((g) => g.field.endsWith('.method'));
    for (const g of methods) expect(METHOD_NOT_SHOWN, g.field).toContain(g.field.split('.')[1]);
    expect(differs('operations.webhookEndpointCreate.method')).not.toEqual([]);
    expect(differs('operations.webhookEndpointDelete.method')).not.toEqual([]);
  });

  it('every money format, every errors[] pointer form, both list envelopes, a webhook endpoint without event kinds', () => {
    const values = (field: string) =>
      new Set(given.filter((g) => g.field === field).map((g) => g.value));
    expect(values('money.format')).toEqual(new Set(['object', 'cents', 'decimal']));
    expect(values('errors.form')).toEqual(new Set(['json-pointer', 'dot', 'bracket']));
    expect(values('list.hasMore').has(null)).toBe(true);
    expect(values('list.nextCursor').has(null)).toBe(true);
    expect([...values('list.nextCursor')].some((v) => typeof v === 'string')).toBe(true);
    expect(values('webhookEndpointBody.events').has(null)).toBe(true);
  });

  it('money per place: every place in a format of its own beside the others, in one dialect', () => {
    // E.g. the maximum order value in integer cents beside money objects, and so on.
    for (const place of MONEY_PLACES) {
      const apart = profiles.filter(({ json }) => {
        const money = json.dialect.money as Record<string, unknown> | undefined;
        const stated = money?.[place] as Record<string, unknown> | undefined;
        return (
          stated !== undefined &&
          Object.entries(stated).some(
            ([member, value]) => value !== (money?.[member] ?? reference.get(`money.${member}`)),
          )
        );
      });
      expect(apart, place).not.toEqual([]);
    }
    const mixed = profiles.find(({ json }) => {
      const money = json.dialect.money as Record<string, { format?: string }> | undefined;
      return (
        money?.maxOrderValue?.format === 'cents' &&
        (money as { format?: string }).format === 'object'
      );
    });
    expect(mixed?.name).toBeDefined();
  });

  it('one dialect charges shipping, so its totals differ from the sum of the lines', () => {
    expect(Object.values(SERVER_OPTIONS).some((options) => (options.shippingCents ?? 0) > 0)).toBe(
      true,
    );
  });
});
