import { z } from 'zod';
import { EVENT_TYPES } from '../store/events.js';

/** http(s) URLs only: a webhook endpoint is somewhere events could be delivered. */
const EndpointUrl = z
  .string()
  .min(1)
  .max(2048)
  .refine((value) => {
    if (!URL.canParse(value)) return false;
    const { protocol } = new URL(value);
    return protocol === 'https:' || protocol === 'http:';
  }, 'must be an absolute http or https URL');

/** Contract §2: `POST /webhook-endpoints` `{url, events?}`; `events` defaults to every type ("*"). */
export const WebhookEndpointBodySchema = z.strictObject({
  url: EndpointUrl,
  events: z
    .array(z.enum(['*', ...EVENT_TYPES]))
    .min(1)
    .max(EVENT_TYPES.length + 1)
    .refine((list) => new Set(list).size === list.length, 'must not repeat an event type')
    .optional(),
});
