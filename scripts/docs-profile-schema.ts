/** Writes config/profile.schema.json from the zod profile schema: `npm run docs:profile-schema`. */
import { writeFileSync } from 'node:fs';
import { profileJsonSchema } from '../lib/config/profile-json-schema.js';

writeFileSync(new URL('../config/profile.schema.json', import.meta.url), profileJsonSchema());
console.log('wrote config/profile.schema.json');
