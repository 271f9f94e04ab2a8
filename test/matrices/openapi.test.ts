import { beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from './run-dialects.js';
import { type OpenApiRun, runOpenApiMatrix } from './run-openapi.js';

/**
 * The OpenAPI document both ways, for the reference and every dialect of
 * test/dialects/ (test/matrices/run-openapi.ts): the document the reference
 * serves for the dialect, drafted back with `--draft-profile-from`, gives a
 * profile right in every field, that certifies the server with no hand
 * edit; every answer of that whole run is what the document describes
 * (Prism's validators); and a client generated from it (openapi-typescript,
 * openapi-fetch) type-checks and places, reads and cancels an order.
 */
const NAMES = ['reference', ...DIALECTS];
let runs: OpenApiRun[];

beforeAll(async () => {
  runs = await runOpenApiMatrix(NAMES);
});

const runOf = (name: string) => {
  const run = runs.find((r) => r.dialect === name);
  if (!run) throw new Error(`no run of ${name}`);
  return run;
};

describe.each(NAMES)('%s', (name) => {
  it('its OpenAPI drafted back gives every field of its profile (N of N), the dialect probe agreeing', () => {
    const run = runOf(name);
    expect(run.draftExit, run.draftOutput).toBe(0);
    expect(run.draftOutput).not.toMatch(/^TODO:/m);
    expect(run.fields).toBeGreaterThan(100);
    expect(run.wrong).toEqual([]);
    expect(run.right).toBe(run.fields);
  });

  it('the drafted profile, with no hand edit, certifies the server: exit 0, 0 failed, 0 error', () => {
    const run = runOf(name);
    expect(run.run.problem ?? '').toBe('');
    expect({
      exit: run.run.exitCode,
      failed: run.run.failed,
      error: run.counts.error ?? 0,
    }).toEqual({
      exit: 0,
      failed: [],
      error: 0,
    });
  });

  it('every answer of that run to a valid request is one the OpenAPI document describes (Prism)', () => {
    const run = runOf(name);
    expect(run.violations).toEqual([]);
    // Judged for real: hundreds of answers to valid requests, a run's worth.
    expect(run.judged.valid).toBeGreaterThan(500);
  });

  it('a client generated from it type-checks, then gets a token, reads the account, places, reads and cancels an order', () => {
    const { client } = runOf(name);
    expect(client.typecheck, client.typecheck.output).toEqual({ code: 0, output: '' });
    expect(client.run.code, client.run.output).toBe(0);
    const report = JSON.parse(client.run.output.trim().split('\n').at(-1) ?? '{}');
    expect(Object.keys(report.steps ?? {})).toEqual([
      'token',
      'account',
      'place',
      'read',
      'cancel',
    ]);
  });
});
