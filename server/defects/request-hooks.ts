import type { AppContext } from '../context.js';
import type { RequestCheckBehaviour } from '../http/api-hooks.js';
import { urlOverlookingCredentials } from './requests.js';

/**
 * The request checks (http/api-hooks.ts) a defective server bends: credentials
 * in the query and Secret Keys in bodies overlooked as `query-token-accepted`,
 * `query-secret-accepted`, `secret-in-body-accepted` and
 * `secret-in-token-form-accepted` say. Installed only when defects are on.
 */
export function defectiveRequestChecks(ctx: AppContext): Partial<RequestCheckBehaviour> {
  const { hasDefect } = ctx;
  return {
    urlToCheck: (url) =>
      hasDefect('query-token-accepted') || hasDefect('query-secret-accepted')
        ? urlOverlookingCredentials(url, hasDefect)
        : url,
    overlooksSecretInBody: (tokenForm) =>
      tokenForm ? hasDefect('secret-in-token-form-accepted') : hasDefect('secret-in-body-accepted'),
  };
}
