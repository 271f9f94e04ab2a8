import { normalizeIp } from '../auth/ip-allowlist.js';
import { ApiProblem } from '../problems/api-problem.js';
import { defectsOf } from './defect.js';

/** §5 rule 9: IP allowlists. */
export const IP_DEFECTS = defectsOf('IP', [
  {
    name: 'ip-allowlist-ignored',
    breaks: "a key's IP allowlist is not enforced",
    replaces: () => ({
      credentials: {
        keyGates: (gates) => (key, account, ip) => gates({ ...key, ipAllowlist: [] }, account, ip),
      },
    }),
  },
  {
    name: 'ip-allowlist-ranges-ignored',
    breaks: 'allowlist CIDR ranges match only their first address',
    replaces: () => ({
      credentials: {
        // The allowlist read as plain addresses, each CIDR block matching only the address before its slash.
        keyGates: (gates) => (key, account, ip) => {
          const address = normalizeIp(ip);
          const listed =
            key.ipAllowlist.length === 0 ||
            key.ipAllowlist.some((entry) => (entry.split('/')[0] ?? '') === address);
          if (!listed) {
            throw new ApiProblem(
              'ip_not_allowed',
              'This key is limited to certain IP addresses and the call came from another.',
            );
          }
          gates({ ...key, ipAllowlist: [] }, account, ip);
        },
      },
    }),
  },
]);
