// The start of a reproduction's curl form: one node makes the client's values and the made-up
// credentials (fresh.mjs, as repro/<RULE>.mjs makes them) and writes every value the script sends
// from the start in the four forms the script uses: as it is, in a URL, inside a JSON string, in a
// form. The values it made go to the folder's `values` file too, for the judgement at the end.
import { appendFileSync } from 'node:fs';
import { fresh, madeUp } from './fresh.mjs';
import { ENCODE } from './template.mjs';

export function curlInit(VARS, valuesFile) {
  const lines = [];
  for (const [name, def] of Object.entries(VARS)) {
    let value;
    if (def.kind === 'client') value = fresh(def.shape);
    else if (def.kind === 'made') value = madeUp(def.prefix, def.shape);
    else if (def.kind === 'env') value = process.env[def.name] ?? '';
    else continue;
    lines.push(value, ENCODE.url(value), ENCODE.json(value), ENCODE.form(value));
    if (def.kind !== 'env') appendFileSync(valuesFile, `${name}\t${value}\n`);
  }
  process.stdout.write(lines.map((line) => `${line}\n`).join(''));
}
