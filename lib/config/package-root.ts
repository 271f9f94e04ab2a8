import { fileURLToPath } from 'node:url';

/**
 * The suite's own directory (where `suites/`, `config/` and `server/` live),
 * which is not the user's working directory when run through `npx`.
 */
export const PACKAGE_ROOT = fileURLToPath(new URL('../../', import.meta.url));
