// The end of a reproduction's curl form: one node for the whole judgement (never one per value).
// The sh script saved each answer it judges in its folder (<step>.s status, .h headers as curl
// wrote them, .b body, .x curl's exit) and the values it learned (`values`: name TAB value);
// this judges them with the same judge as repro/<RULE>.mjs and exits as it does.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { headersFrom } from './headers.mjs';
import { EXIT, judgeReplay } from './judge.mjs';
import { visible } from './visible.mjs';

/** Curl's exit when an answer was over --max-filesize. */
const OVER_CAP = '63';

export function judgeCurl(REPRO, dir, env) {
  const values = new Map();
  const saved = join(dir, 'values');
  if (existsSync(saved)) {
    for (const line of readFileSync(saved, 'utf8').split('\n')) {
      const tab = line.indexOf('\t');
      if (tab > 0) values.set(line.slice(0, tab), line.slice(tab + 1));
    }
  }
  for (const [name, def] of Object.entries(REPRO.vars)) {
    if (def.kind === 'env' && env[def.name]) values.set(name, env[def.name]);
  }
  const answers = new Map();
  for (const step of REPRO.steps) {
    const file = (ext) => join(dir, `${step.id}.${ext}`);
    if (!existsSync(file('s'))) continue;
    // `<status> <size downloaded>`, as curl's --write-out wrote it.
    const status = Number(readFileSync(file('s'), 'utf8').trim().split(/\s+/)[0]);
    if (!Number.isInteger(status) || status < 100) continue;
    const overCap = existsSync(file('x')) && readFileSync(file('x'), 'utf8').trim() === OVER_CAP;
    const text = existsSync(file('b')) ? readFileSync(file('b'), 'utf8') : '';
    let json;
    if (!overCap) {
      try {
        json = text ? JSON.parse(text) : undefined;
      } catch {
        json = undefined;
      }
    }
    const headers = existsSync(file('h')) ? headerBlock(readFileSync(file('h'), 'latin1')) : {};
    answers.set(step.id, { status, headers, text, json, overCap });
  }
  const secrets = [];
  for (const [name, def] of Object.entries(REPRO.vars)) {
    const secret =
      (def.kind === 'env' && def.name !== 'PARTNER_ACCESS_KEY_ID') ||
      (def.kind === 'answer' && /secret|token|password/i.test(def.pointer));
    if (secret && values.get(name)) secrets.push(values.get(name));
  }
  return judgeReplay(REPRO, answers, values, secrets);
}

/** The last header block curl wrote (after any 100 Continue): lower-case names, repeats joined. */
function headerBlock(text) {
  const blocks = text.split(/\r?\n\r?\n/).filter((block) => /^HTTP\//.test(block));
  const pairs = [];
  for (const line of (blocks.at(-1) ?? '').split(/\r?\n/).slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0) pairs.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return headersFrom(pairs);
}

/** Judges and writes the exit code to `verdict` in the folder: a crash of node is never taken for exit 1. */
export function curlMain(REPRO) {
  const dir = process.argv[2] ?? '.';
  let result;
  try {
    result = judgeCurl(REPRO, dir, process.env);
  } catch (error) {
    result = {
      exit: EXIT.cannot,
      lines: [`CANNOT RUN: the judgement failed: ${error?.message ?? error}`],
    };
  }
  for (const line of result.lines) console.log(visible(line));
  writeFileSync(join(dir, 'verdict'), `${result.exit}\n`);
}
