import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { filesBelow } from '../support/leaks.js';

const LIB = fileURLToPath(new URL('../../lib/', import.meta.url));
const sources = filesBelow(LIB).filter((file) => /\.(ts|mts|mjs)$/.test(file));
const text = (file: string) => readFileSync(file, 'utf8');

describe('one HTTP client, and lower layers below the checks', () => {
  it('makes undici Agents in one place: every request goes through a dispatcher of lib/client/dispatcher.ts', () => {
    const makers = sources.filter((file) => /new Agent\(/.test(text(file)));
    expect(makers.map((file) => relative(LIB, file))).toEqual(['client/dispatcher.ts']);
    // Nor does anything of lib/ send around it: undici's dispatch is called by client/undici.ts
    // only, whose dispatchRequest() is called by HttpClient only.
    const senders = sources.filter((file) =>
      /\bdispatchRequest\(|\bfetch\(/.test(
        text(file).replace(/#fetch\(|\.fetch\(|function dispatchRequest\(/g, ''),
      ),
    );
    expect(
      senders.map((file) => relative(LIB, file)).filter((f) => !f.startsWith('reports/repro/')),
    ).toEqual(['client/http-client.ts']);
    const dispatchers = sources.filter((file) => /\.dispatch\(/.test(text(file)));
    expect(dispatchers.map((file) => relative(LIB, file))).toEqual(['client/undici.ts']);
  });

  it('keeps lib/client and lib/control free of the check layer', () => {
    for (const folder of ['client', 'control']) {
      for (const file of filesBelow(join(LIB, folder))) {
        expect(text(file), relative(LIB, file)).not.toMatch(/from '\.\.\/check\//);
      }
    }
  });

  it('reads JSON pointers in one module, the one every reproduction carries too', () => {
    // A declaration file (.d.mts) only types the reader.
    const readers = sources.filter(
      (file) => !file.endsWith('.d.mts') && /function valueAt\(/.test(text(file)),
    );
    expect(readers.map((file) => relative(LIB, file))).toEqual(['evidence/json-pointer.mjs']);
  });
});
