import { ApiProblem } from '../problems/api-problem.js';
import { defectsOf } from './defect.js';

/** §5 rule 8 and the scope table. */
export const SCOPE_DEFECTS = defectsOf('SCOPE', [
  {
    name: 'cancel-scope-not-enforced',
    breaks: 'POST /orders/{id}/cancel serves any token, orders:write or not',
    replaces: () => ({ scopes: { cancelOrder: () => null } }),
  },
  {
    name: 'required-scope-missing',
    breaks: 'insufficient_scope answers carry no required_scope',
    replaces: () => ({
      credentials: {
        scopeRefusal: (refusal) => (needed) => {
          const refused = refusal(needed);
          const { requiredScope: _dropped, ...options } = refused.options;
          return new ApiProblem(refused.code, refused.detail, options);
        },
      },
    }),
  },
  {
    name: 'account-needs-orders-read',
    breaks: 'GET /account needs orders:read',
    replaces: () => ({ scopes: { account: () => 'orders:read' } }),
  },
]);
