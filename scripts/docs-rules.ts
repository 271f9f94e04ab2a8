/** Writes docs/rules.md, docs/statements.md and docs/client-rules.md from the catalogues and the statement index: `npm run docs:rules`. */
import { writeFileSync } from 'node:fs';
import { clientCatalogue } from '../rules/client/index.js';
import { clientRulesMarkdown } from '../rules/client/markdown.js';
import { catalogue, findRule } from '../rules/index.js';
import { catalogueMarkdown } from '../rules/markdown.js';
import { statementIndex } from '../rules/statements/index.js';
import { statementsMarkdown } from '../rules/statements/markdown.js';
import { defectsOf } from '../test/matrices/defects-of.js';

writeFileSync(new URL('../docs/rules.md', import.meta.url), catalogueMarkdown(catalogue));
console.log(`wrote docs/rules.md (${catalogue.length} rules)`);
writeFileSync(
  new URL('../docs/statements.md', import.meta.url),
  statementsMarkdown(statementIndex, findRule, defectsOf),
);
console.log(`wrote docs/statements.md (${statementIndex.length} statements)`);
writeFileSync(
  new URL('../docs/client-rules.md', import.meta.url),
  clientRulesMarkdown(clientCatalogue),
);
console.log(`wrote docs/client-rules.md (${clientCatalogue.length} client rules)`);
