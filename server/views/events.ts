import { rfc3339 } from '../domain/time.js';
import type { StoredEvent } from '../store/events.js';
import type { WebhookEndpoint } from '../store/webhook-endpoints.js';

/** Contract §2 event: `{id, type, created_at, livemode, data: {object}}`. */
export function eventView(event: StoredEvent) {
  return {
    id: event.id,
    object: 'event' as const,
    type: event.type,
    created_at: rfc3339(event.createdAt),
    livemode: event.mode === 'live',
    data: { object: JSON.parse(event.objectJson) as unknown },
  };
}

/** Contract §2 webhook endpoint: the `{url, events}` it was created with, plus id and mode. */
export function webhookEndpointView(endpoint: WebhookEndpoint) {
  return {
    id: endpoint.id,
    object: 'webhook_endpoint' as const,
    url: endpoint.url,
    events: endpoint.events,
    created_at: rfc3339(endpoint.createdAt),
    livemode: endpoint.mode === 'live',
  };
}
