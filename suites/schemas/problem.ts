import { z } from 'zod';

/**
 * The error object (API document section 2, RFC 9457): the fields every error
 * carries and their types. The values some of them must hold (`type` URI,
 * `status`, `instance`, where `decline_code` and `required_scope` appear) are
 * rules of their own, checked apart.
 */
export const ProblemSchema = z.object({
  type: z.string().min(1),
  title: z.string().min(1),
  status: z.number().int(),
  detail: z.string().min(1),
  instance: z.string().min(1),
  code: z.string().min(1),
  request_id: z.string().min(1),
  errors: z
    .array(z.object({ detail: z.string().min(1), pointer: z.string().optional() }))
    .optional(),
  decline_code: z.string().optional(),
  required_scope: z.string().optional(),
});
