export { newIdempotencyKey } from '../../lib/check/index.js';
