import { z } from 'zod';

/** Contract section 2: `POST /webhook-endpoints` takes `{url, events?}` and answers the endpoint with its id. */
export const WebhookEndpointSchema = z.object({
  id: z.string().min(1),
  url: z.url(),
  events: z.array(z.string()).optional(),
});
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;
