import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import {
  DOCUMENT_PATHS,
  OPERATION_PATHS,
  pathTemplate,
  REFERENCE_DIALECT,
} from '../../server/dialect/model.js';
import { parseProfile } from '../../server/dialect/profile.js';
import { openApiDocument } from '../../server/openapi/document.js';
import { API_CODES } from '../../server/problems/codes.js';
import { ROOT } from '../matrices/area-checks.js';
import { DIALECTS, dialectFile } from '../matrices/run-dialects.js';
import { emptyDir } from '../support/temp-dir.js';

const exec = promisify(execFile);

/**
 * The OpenAPI 3.1 document of a dialect (server/openapi/), as the reference
 * serves it at `GET /openapi.json`: linted clean by Redocly CLI for the
 * reference and every dialect of test/dialects/, and holding what the API
 * document says of each operation. (Its answers are judged against it over
 * whole runs, its draft back and its generated client in test/matrices/openapi.test.ts.)
 */
type Doc = {
  paths: Record<string, Record<string, Record<string, unknown>>>;
  components: Record<string, Record<string, Record<string, unknown>>>;
};

const NAMES = ['reference', ...DIALECTS];
const apps: FastifyInstance[] = [];
const served = new Map<string, Doc>();

beforeAll(async () => {
  for (const name of NAMES) {
    const profile =
      name === 'reference' ? undefined : JSON.parse(readFileSync(dialectFile(name), 'utf8'));
    const app = await buildApp({ db: ':memory:', ...(profile ? { profile } : {}) });
    apps.push(app);
    const res = await app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    served.set(name, res.json());
  }
});
afterAll(async () => {
  for (const app of apps) await app.close();
});

const docOf = (name: string) => served.get(name) as Doc;

/** The value at a path of keys into parsed JSON, or undefined. */
function dig(value: unknown, ...keys: (string | number)[]): unknown {
  let at = value;
  for (const key of keys) {
    if (typeof at !== 'object' || at === null) return undefined;
    at = (at as Record<string | number, unknown>)[key];
  }
  return at;
}

/** Each operation of the document, by the dialect operations it serves. */
function operations(
  doc: Doc,
): Map<string, { method: string; path: string; op: Record<string, unknown> }> {
  const out = new Map<string, { method: string; path: string; op: Record<string, unknown> }>();
  for (const [path, item] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(item)) {
      const names = op['x-dialect-operation'];
      for (const name of Array.isArray(names) ? names : [names])
        out.set(String(name), { method, path, op });
    }
  return out;
}

describe.each(NAMES)('the OpenAPI document of %s', (name) => {
  it('lints with no error (Redocly CLI, its recommended rules)', async () => {
    const file = join(emptyDir('openapi-lint-'), `${name}.json`);
    writeFileSync(file, JSON.stringify(docOf(name)));
    let stdout: string;
    try {
      ({ stdout } = await exec(
        process.execPath,
        [
          join(ROOT, 'node_modules', '@redocly', 'cli', 'bin', 'cli.js'),
          'lint',
          file,
          '--format=json',
        ],
        {
          env: {
            PATH: process.env.PATH ?? '',
            HOME: process.env.HOME ?? '',
            // No telemetry and no update check: the test sends nothing off this machine.
            REDOCLY_TELEMETRY: 'off',
            REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
          },
        },
      ));
    } catch (error) {
      ({ stdout } = error as { stdout: string });
    }
    const report = JSON.parse(stdout) as {
      totals: { errors: number };
      problems: { ruleId: string; severity: string; message: string }[];
    };
    expect(report.problems.filter((p) => p.severity === 'error')).toEqual([]);
    expect(report.totals.errors).toBe(0);
  });

  it('has every operation at the method and path of the dialect, scoped as §5 says', () => {
    const dialect =
      name === 'reference'
        ? REFERENCE_DIALECT
        : parseProfile(JSON.parse(readFileSync(dialectFile(name), 'utf8')));
    const ops = operations(docOf(name));
    for (const [op, pathName] of Object.entries(OPERATION_PATHS)) {
      const found = ops.get(op);
      expect(found, op).toBeDefined();
      expect(found?.method).toBe(
        dialect.operations[op as keyof typeof OPERATION_PATHS].method.toLowerCase(),
      );
      expect(pathTemplate(dialect, pathName).startsWith(found?.path ?? '?'), op).toBe(true);
    }
    expect(ops.get('token')?.op.security).toEqual([{ keyCredentials: [] }]);
    expect(ops.get('account')?.op.security).toEqual([{ oauth2: [] }]);
    expect(ops.get('orderCreate')?.op.security).toEqual([{ oauth2: ['orders:write'] }]);
    expect(ops.get('eventRead')?.op.security).toEqual([{ oauth2: ['webhooks:manage'] }]);
  });
});

describe('what the document says of the API document', () => {
  const doc = () => docOf('reference');
  const op = (name: string) => operations(doc()).get(name)?.op;

  it('OAuth 2.0 client credentials with the scopes table, Basic credentials at the token request', () => {
    const schemes = doc().components.securitySchemes;
    expect(dig(schemes, 'oauth2', 'type')).toBe('oauth2');
    const flow = dig(schemes, 'oauth2', 'flows', 'clientCredentials');
    expect(dig(flow, 'tokenUrl')).toBe('/api/on-demand/v1/oauth/token');
    expect(Object.keys(dig(flow, 'scopes') as object).sort()).toEqual([
      'catalog:read',
      'orders:read',
      'orders:write',
      'webhooks:manage',
    ]);
    expect(dig(schemes, 'keyCredentials')).toMatchObject({ type: 'http', scheme: 'basic' });
  });

  it('POST /orders: Idempotency-Key (up to 255), 201 first, 200 replay with Idempotent-Replayed, every code §7 gives a placement', () => {
    const place = op('orderCreate');
    expect(dig(place, 'parameters')).toContainEqual(
      expect.objectContaining({
        name: 'Idempotency-Key',
        in: 'header',
        required: true,
        schema: expect.objectContaining({ maxLength: 255 }),
      }),
    );
    expect(Object.keys(dig(place, 'responses') as object)).toEqual(
      expect.arrayContaining([
        '200',
        '201',
        '400',
        '401',
        '402',
        '403',
        '409',
        '415',
        '422',
        '429',
        '500',
        '503',
      ]),
    );
    expect(dig(place, 'responses', '200', 'headers', 'Idempotent-Replayed')).toMatchObject({
      required: true,
    });
    const codes = (status: string) => codesOf(dig(place, 'responses', status));
    expect(codes('400')).toEqual(['credentials_in_url', 'idempotency_key_required']);
    expect(codes('402')).toEqual([
      'card_declined',
      'authentication_required',
      'payment_method_required',
      'payment_failed',
    ]);
    expect(codes('409')).toEqual([
      'idempotency_conflict',
      'duplicate_external_id',
      'account_incomplete',
    ]);
    expect(dig(place, 'responses', '429', 'headers', 'Retry-After')).toMatchObject({
      required: true,
    });
  });

  it('each status lists only codes of that status, each with the condition of §7 in its description', () => {
    for (const item of Object.values(doc().paths))
      for (const operation of Object.values(item))
        for (const [status, response] of Object.entries(operation.responses as object)) {
          if (Number(status) < 400) continue;
          for (const code of codesOf(response)) {
            expect(API_CODES[code as keyof typeof API_CODES].status).toBe(Number(status));
            expect(dig(response, 'description')).toContain(`\`${code}\`: `);
          }
        }
    expect(dig(op('orderCancel'), 'responses', '409', 'description')).toContain(
      'Cancel window (24 hours) closed, production started, or already cancelled.',
    );
  });

  it('money in the format of each place (hooli: the account limit in cents, prices as decimal strings, totals as objects)', () => {
    const schemas = docOf('hooli').components.schemas;
    expect(dig(schemas, 'MoneyMaxOrderValue', 'type')).toBe('integer');
    expect(dig(schemas, 'MoneyPrice')).toMatchObject({
      type: 'string',
      pattern: '^-?[0-9]+\\.[0-9]{2}$',
    });
    expect(dig(schemas, 'MoneyTotal', 'properties')).toMatchObject({
      value: { type: 'integer' },
      currency_code: { type: 'string' },
    });
  });

  it("the paths of the document's endpoint table come from that table, even where an older profile sets them", () => {
    const moved = parseProfile({
      version: 2,
      dialect: { paths: { order: '/purchases/{id}', orderCancel: '/purchases/{id}/void' } },
    });
    const written = openApiDocument(moved) as Doc;
    expect(Object.keys(written.paths).sort()).toEqual(Object.keys(doc().paths).sort());
    expect(Object.keys(written.paths)).toContain(DOCUMENT_PATHS.order);
  });
});

/** The codes a problem answer lists. */
function codesOf(response: unknown): string[] {
  return dig(
    response,
    'content',
    'application/problem+json',
    'schema',
    'allOf',
    1,
    'properties',
    'code',
    'enum',
  ) as string[];
}
