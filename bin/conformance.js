#!/usr/bin/env node
// `npx partner-ordering-conformance` (and `npm run bench`): the suite ships
// as TypeScript, so this shim registers tsx's loader and hands over to the
// CLI. Plain JavaScript on purpose: it must run before any TypeScript can.
import { fileURLToPath } from 'node:url';

// The Node versions of package.json "engines": ^22.12 || ^24 || ^26 (the maintained lines).
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const supported = (major === 22 && minor >= 12) || major === 24 || major === 26;
if (!supported) {
  process.stderr.write(
    `conformance: error: this Node.js (${process.versions.node}) is not supported; use 22.12+, 24 or 26 (scripts/node.sh brings one)\n`,
  );
  process.exit(2);
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
