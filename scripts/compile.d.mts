// Types of scripts/compile.mjs (plain JavaScript: it runs before any TypeScript can), for the tests.
export function sourceHash(root: string): string;
export function compileTree(
  root: string,
  outDir: string,
  hash?: string,
  record?: Record<string, unknown>,
): Promise<string>;
/** The compiled tree of a checkout's current sources, built if need be (throws without esbuild). */
export function compiledCopy(root: string): Promise<string>;
