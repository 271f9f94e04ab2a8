import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { envExampleText } from '../lib/config/env-example.js';
import { PACKAGE_ROOT } from '../lib/config/package-root.js';

// `npm run docs:env-example`: rewrites .env.example from the option table (a test keeps them equal).
writeFileSync(join(PACKAGE_ROOT, '.env.example'), envExampleText());
