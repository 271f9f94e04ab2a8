import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Which secrets any file below `dir` shows readably, in any encoding a JSON,
 * HTTP or HTML writer may have left them in. A secret counts as readable when
 * any of its random pieces (split at every character that is not a letter or
 * digit, six characters or more) is in a file's text, in the text decoded
 * (`\uXXXX`, `\/` and every backslash escape, percent-encoding, HTML
 * references, several times over), or in its base64 at any alignment.
 * Deliberately written apart from the suite's redactor, which it judges.
 *
 * Each secret shown comes with where: a line per file, form and piece, with the text around
 * it, so that a failure says whether the suite wrote a secret or a piece of one stood in other
 * text by chance.
 */
export function leakedSecrets(dir: string, secrets: Iterable<string>): Map<string, string[]> {
  const all = [...secrets];
  const leaked = new Map<string, string[]>();
  for (const file of filesBelow(dir)) {
    const text = readFileSync(file, 'utf8');
    for (const [form, view] of [
      ['as written', text],
      ['decoded', decodeAll(text)],
    ] as const) {
      for (const secret of all) {
        for (const piece of shownPieces(view, secret)) {
          const at = view.indexOf(piece);
          const around = JSON.stringify(view.slice(Math.max(0, at - 60), at + piece.length + 60));
          const where = leaked.get(secret) ?? [];
          where.push(`${file} (${form}): ${piece} of ${secret} in ${around}`);
          leaked.set(secret, where);
        }
      }
    }
  }
  return leaked;
}

/** Whether `text`, as it is or decoded, shows any random piece of `secret` (or its base64). */
export function readableIn(text: string, secret: string): boolean {
  return showsIn(text, secret) || showsIn(decodeAll(text), secret);
}

function showsIn(view: string, secret: string): boolean {
  return shownPieces(view, secret).length > 0;
}

/** The random pieces of `secret` (and its base64 cores) that `view` holds. */
function shownPieces(view: string, secret: string): string[] {
  const pieces = secret.split(/[^\p{L}\p{N}]+/u).filter((p) => p.length >= 6);
  return [...pieces, ...base64Cores(secret)].filter((piece) => view.includes(piece));
}

export function filesBelow(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesBelow(path));
    else out.push(path);
  }
  return out;
}

/** Backslash escapes, percent-encoding and HTML references undone, until nothing changes (at most four times). */
export function decodeAll(text: string): string {
  let out = text;
  for (let i = 0; i < 4; i++) {
    const next = out
      .replace(/\\u([0-9a-fA-F]{4})/g, (_m, hex: string) =>
        String.fromCharCode(Number.parseInt(hex, 16)),
      )
      .replace(/\\([^u])/g, '$1')
      .replace(/%([0-9a-fA-F]{2})/g, (_m, hex: string) =>
        String.fromCharCode(Number.parseInt(hex, 16)),
      )
      .replace(/&#x([0-9a-fA-F]+);/g, (_m, hex: string) =>
        String.fromCodePoint(Number.parseInt(hex, 16)),
      )
      .replace(/&#(\d+);/g, (_m, dec: string) => String.fromCodePoint(Number(dec)))
      .replace(/&(amp|lt|gt|quot|apos|sol|plus|equals);/g, (_m, name: string) => NAMED[name] ?? '');
    if (next === out) break;
    out = next;
  }
  return out;
}

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  sol: '/',
  plus: '+',
  equals: '=',
};

/** The part of base64(prefix + secret) that does not depend on the prefix, for each alignment; both alphabets. */
function base64Cores(secret: string): string[] {
  const out: string[] = [];
  for (const form of new Set([
    secret,
    encodeURIComponent(secret),
    JSON.stringify(secret).slice(1, -1),
  ])) {
    const bytes = Buffer.from(form, 'utf8');
    for (let skip = 0; skip < 3; skip++) {
      const usable = bytes.subarray(skip, skip + Math.floor((bytes.length - skip) / 3) * 3);
      if (usable.length < 12) continue;
      out.push(usable.toString('base64'), usable.toString('base64url'));
    }
  }
  return out;
}
