import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, onTestFinished } from 'vitest';
import { buildApp } from '../../server/app.js';
import { openWide } from '../../server/defects/store/wide.js';
import { filesBelow } from '../support/files-below.js';
import { describePostgres, freshDatabase } from './support/postgres.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function sources(dir: string): { path: string; text: string }[] {
  return filesBelow(dir, '.ts').map((path) => ({
    path: relative(ROOT, path).replaceAll('\\', '/'),
    text: readFileSync(path, 'utf8'),
  }));
}

/** Production code: the server without its test-only defect catalogue. */
const requestPath = sources(join(ROOT, 'server')).filter(
  (file) => !file.path.startsWith('server/defects/'),
);

describe('defects are values beside the correct server, which knows nothing of them', () => {
  it('the request path asks for no defect and has no defect hooks', () => {
    const asking = requestPath.filter((file) =>
      /\bhasDefect\b|\bHasDefect\b|\bctx\.hooks\b|\bDefectHooks\b/.test(file.text),
    );
    expect(asking.map((file) => file.path)).toEqual([]);
  });

  it('only app.ts, the composition root, imports the defect catalogue', () => {
    const importing = requestPath.filter((file) =>
      /from '(?:\.\.?\/)+(?:\.\.\/)*defects\//.test(file.text),
    );
    expect(importing.map((file) => file.path)).toEqual(['server/app.ts']);
  });

  it('the Store interface offers no defect-only queries', () => {
    const store = requestPath.filter((file) => file.path.startsWith('server/store/'));
    expect(store.filter((file) => /\bwide\b/i.test(file.text)).map((file) => file.path)).toEqual(
      [],
    );
  });

  it('installs no answer rewriting or defect hook on a correct server', async () => {
    const app = await buildApp({});
    onTestFinished(() => app.close());
    expect(app.defects).toEqual([]);
    expect(app.printPlugins()).not.toMatch(/defect/i);
  });

  it('composes a defective server once, at start, from the named defects', async () => {
    const app = await buildApp({ defects: ['cancel-twice', 'token-type-lowercase'] });
    onTestFinished(() => app.close());
    expect(app.defects).toEqual(['cancel-twice', 'token-type-lowercase']);
  });
});

describePostgres('the defect-only queries on PostgreSQL, kept out of the Store', (serverUrl) => {
  it('open over the store of a defective server and answer', async () => {
    const db = await freshDatabase(serverUrl);
    onTestFinished(() => db.drop());
    const app = await buildApp({ databaseUrl: db.url, defects: ['deleted-endpoints-counted'] });
    onTestFinished(() => app.close());
    expect(app.defects).toEqual(['deleted-endpoints-counted']);
    const wide = await openWide(app.ctx.store);
    expect(await wide.firstTokenIssuedAt('no-such-key')).toBeUndefined();
    expect(await wide.endpointCount('no-such-account', { withDeleted: true })).toBe(0);
  });
});
