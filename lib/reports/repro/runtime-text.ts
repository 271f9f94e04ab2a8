import { readFileSync } from 'node:fs';

/**
 * The JavaScript a reproduction carries, read once: the pieces of
 * runtime/ (and the conditions checks judge with) joined into one module,
 * their imports of each other left out. The `.mjs` form runs the whole
 * replay; the curl form only judges, at its end.
 */
const PIECES = {
  condition: new URL('../../violations/condition.mjs', import.meta.url),
  visible: new URL('./runtime/visible.mjs', import.meta.url),
  template: new URL('./runtime/template.mjs', import.meta.url),
  headers: new URL('./runtime/headers.mjs', import.meta.url),
  step: new URL('./runtime/step-text.mjs', import.meta.url),
  judge: new URL('./runtime/judge.mjs', import.meta.url),
  http: new URL('./runtime/http.mjs', import.meta.url),
  replay: new URL('./runtime/replay.mjs', import.meta.url),
  main: new URL('./runtime/main.mjs', import.meta.url),
  curl: new URL('./runtime/curl-main.mjs', import.meta.url),
};

type Piece = keyof typeof PIECES;

const SHARED: Piece[] = ['condition', 'visible', 'template', 'headers', 'step', 'judge'];

let cache: Record<'mjs' | 'curl', string> | undefined;

/** The runtime of `repro/<RULE>.mjs` (`mjs`) or of the curl form's judgement (`curl`). */
export function runtimeText(form: 'mjs' | 'curl'): string {
  cache ??= {
    mjs: joined([...SHARED, 'http', 'replay', 'main']),
    curl: joined([...SHARED, 'curl']),
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
