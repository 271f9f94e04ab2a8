import { z } from 'zod';

/**
 * The access token response (API document section 2): four fields of fixed
 * types. Their values (`Bearer`, 3600, the token's shape, the granted scopes)
 * are rules of their own with their own checks, so this holds only the types.
 */
export const TokenResponseSchema = z.object({
  access_token: z.string().min(1),
  token_type: z.string().min(1),
  expires_in: z.number().int(),
  scope: z.string(),
});
