/** Writes docs/rules.md from the rule catalogue: `npm run docs:rules`. */
import { writeFileSync } from 'node:fs';
import { catalogue } from '../rules/index.js';
import { catalogueMarkdown } from '../rules/markdown.js';

const target = new URL('../docs/rules.md', import.meta.url);
writeFileSync(target, catalogueMarkdown(catalogue));
console.log(`wrote docs/rules.md (${catalogue.length} rules)`);
