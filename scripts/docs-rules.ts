/** Writes docs/rules.md and docs/client-rules.md from the rule catalogues: `npm run docs:rules`. */
import { writeFileSync } from 'node:fs';
import { clientCatalogue } from '../rules/client/index.js';
import { clientRulesMarkdown } from '../rules/client/markdown.js';
import { catalogue } from '../rules/index.js';
import { catalogueMarkdown } from '../rules/markdown.js';

writeFileSync(new URL('../docs/rules.md', import.meta.url), catalogueMarkdown(catalogue));
console.log(`wrote docs/rules.md (${catalogue.length} rules)`);
writeFileSync(
  new URL('../docs/client-rules.md', import.meta.url),
  clientRulesMarkdown(clientCatalogue),
);
console.log(`wrote docs/client-rules.md (${clientCatalogue.length} client rules)`);
