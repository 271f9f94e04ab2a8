#!/usr/bin/env node
// `npx partner-ordering-conformance` (and `npm run bench`): the suite ships
// as TypeScript, so this shim registers tsx's loader and hands over to the
// CLI. Plain JavaScript on purpose: it must run before any TypeScript can.
import { fileURLToPath } from 'node:url';

// The Node versions of package.json "engines": ^20.19 || ^22.12 || 24 (below 24.19) || ^26.
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const supported =
  (major === 20 && minor >= 19) || (major === 22 && minor >= 12) || major === 24 || major >= 26;
if (!supported) {
  process.stderr.write(
    `conformance: error: this Node.js (${process.versions.node}) is not supported; use 20.19+, 22.12+, 24 up to 24.18, or 26\n`,
  );
  process.exit(2);
}
if (major === 24 && minor >= 19) {
  // nodejs/node#65446: better-sqlite3 12 trips an assertion of Node 24.19+; only the bundled reference needs it.
  process.stderr.write(
    `conformance: warning: Node.js ${process.versions.node} aborts the bundled reference server; a run against --target works\n`,
  );
}
// The big JavaScript dependencies are loaded natively first: a module loaded
// through tsx's hooks costs memory for its whole life, and vitest/vite alone
// would add ~150 MB that way. The TypeScript that imports them later finds
// them in Node's module cache.
await Promise.all(['vitest/node', 'undici', 'zod'].map((name) => import(name)));
const { register } = await import('tsx/esm/api');
// The suite's own tsconfig, not that of the project it is installed in.
register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
await import('../lib/cli/main.ts');
