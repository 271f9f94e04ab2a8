// `node --import ./preload.mjs client.mjs`: installs the client defect that
// CLIENT_DEFECT names (defects.mjs) around this process's fetch. Nothing else
// of the client changes.
import { CLIENT_DEFECTS } from './defects.mjs';

const name = process.env.CLIENT_DEFECT;
const defect = CLIENT_DEFECTS.find((d) => d.name === name);
if (!defect) {
  console.error(`preload: no client defect named ${JSON.stringify(name)}`);
  process.exit(2);
}
globalThis.fetch = defect.wrap(globalThis.fetch.bind(globalThis), process.env);
