import { readFileSync } from 'node:fs';

/**
 * The JavaScript a reproduction carries, read once: the pieces of
 * runtime/ (and the conditions checks judge with, and the JSON-pointer reader) joined into one module,
 * their imports of each other left out. The `.mjs` form runs the whole
 * replay; the curl form makes its values at its start and judges at its end.
 */
const PIECES = {
  pointer: new URL('../../evidence/json-pointer.mjs', import.meta.url),
  condition: new URL('../../violations/condition.mjs', import.meta.url),
  visible: new URL('./runtime/visible.mjs', import.meta.url),
  template: new URL('./runtime/template.mjs', import.meta.url),
  headers: new URL('./runtime/headers.mjs', import.meta.url),
  step: new URL('./runtime/step-text.mjs', import.meta.url),
  judge: new URL('./runtime/judge.mjs', import.meta.url),
  http: new URL('./runtime/http.mjs', import.meta.url),
  fresh: new URL('./runtime/fresh.mjs', import.meta.url),
  cleanup: new URL('./runtime/cleanup.mjs', import.meta.url),
  replay: new URL('./runtime/replay.mjs', import.meta.url),
  main: new URL('./runtime/main.mjs', import.meta.url),
  curl: new URL('./runtime/curl-main.mjs', import.meta.url),
  curlInit: new URL('./runtime/curl-init.mjs', import.meta.url),
};

type Piece = keyof typeof PIECES;

const SHARED: Piece[] = ['pointer', 'condition', 'visible', 'template', 'headers', 'step', 'judge'];

type Form = 'mjs' | 'curl' | 'curlInit';
let cache: Record<Form, string> | undefined;

/**
 * The runtime of `repro/<RULE>.mjs` (`mjs`), of the curl form's judgement at
 * its end (`curl`) or of the values it makes at its start (`curlInit`).
 */
export function runtimeText(form: Form): string {
  cache ??= {
    mjs: joined([...SHARED, 'fresh', 'http', 'cleanup', 'replay', 'main']),
    curl: joined([...SHARED, 'curl']),
    curlInit: joined(['template', 'fresh', 'curlInit']),
  };
  return cache[form];
}

function joined(pieces: Piece[]): string {
  return pieces
    .map((piece) =>
      readFileSync(PIECES[piece], 'utf8')
        // Their imports of each other: the pieces are one module here.
        .replace(/^import\s[^;]*?\sfrom\s+'\.{1,2}\/[^']*';\n/gm, '')
        .trim(),
    )
    .join('\n\n');
}
