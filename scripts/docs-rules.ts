/** Writes docs/rules.md from the rule catalogue and docs/statements.md from the statement index: `npm run docs:rules`. */
import { writeFileSync } from 'node:fs';
import { catalogue, findRule } from '../rules/index.js';
import { catalogueMarkdown } from '../rules/markdown.js';
import { statementIndex } from '../rules/statements/index.js';
import { statementsMarkdown } from '../rules/statements/markdown.js';
import { defectsOf } from '../test/faults/defects-of.js';

writeFileSync(new URL('../docs/rules.md', import.meta.url), catalogueMarkdown(catalogue));
console.log(`wrote docs/rules.md (${catalogue.length} rules)`);
writeFileSync(
  new URL('../docs/statements.md', import.meta.url),
  statementsMarkdown(statementIndex, findRule, defectsOf),
);
console.log(`wrote docs/statements.md (${statementIndex.length} statements)`);
