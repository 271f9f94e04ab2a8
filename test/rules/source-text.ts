import { readFileSync } from 'node:fs';
import type { SourceDoc } from '../../rules/schema.js';
import { sectionsOf, type Unit, unitsOf } from '../../rules/statements/text.js';

export { normalise, sectionsOf } from '../../rules/statements/text.js';

/** The files a rule's `source.doc` names. */
const SOURCE_FILES: Record<SourceDoc, URL> = {
  api: new URL('../../docs/partner-ordering-api.md', import.meta.url),
  contract: new URL('../../docs/target-contract.md', import.meta.url),
};

/** The normalised sections of both source documents. */
export function sourceSections(): Record<SourceDoc, Map<string, string>> {
  return {
    api: sectionsOf(readFileSync(SOURCE_FILES.api, 'utf8')),
    contract: sectionsOf(readFileSync(SOURCE_FILES.contract, 'utf8')),
  };
}

/** The mechanical units (sentences, table rows) of both source documents. */
export function sourceUnits(): Record<SourceDoc, Unit[]> {
  return {
    api: unitsOf(readFileSync(SOURCE_FILES.api, 'utf8')),
    contract: unitsOf(readFileSync(SOURCE_FILES.contract, 'utf8')),
  };
}
