#!/usr/bin/env node
// `npx partner-ordering-conformance` (and `npm run bench`): the suite ships
// as TypeScript, so this shim registers tsx's loader and hands over to the
// CLI. Plain JavaScript on purpose: it must run before any TypeScript can.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  process.stderr.write(
    `conformance: error: Node.js 20.19 or later is required (this is ${process.versions.node})\n`,
  );
  process.exit(2);
}
// The big JavaScript dependencies are loaded natively first: a module loaded
// through tsx's hooks costs memory for its whole life, and vitest/vite alone
// would add ~150 MB that way. The TypeScript that imports them later finds
// them in Node's module cache.
await Promise.all(['vitest/node', 'undici', 'zod'].map((name) => import(name)));
const { register } = await import('tsx/esm/api');
register();
await import('../lib/cli/main.ts');
