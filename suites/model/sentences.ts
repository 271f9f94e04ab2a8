/**
 * The sentence of the API document each model step judges (quoted verbatim but
 * for Markdown marks): a failing step names its own, so a reproduction quotes
 * the cancel window where the cancel failed, not the rule's first sentence.
 */
export const MODEL_SENTENCES = {
  placed: { section: '4', quote: 'Each new order is sent with a unique Idempotency-Key.' },
  replayed: {
    section: '4',
    quote:
      'When the same request with the same key is sent again and the order was already placed, the response is 200 with header Idempotent-Replayed: true and the existing order, not a second order.',
  },
  conflicting: {
    section: '4',
    quote: 'The same key with a different body gives 409 idempotency_conflict.',
  },
  duplicate: {
    section: '4',
    quote:
      'A second order with an external_id already used in the account gives 409 duplicate_external_id.',
  },
  readById: { section: '4', quote: 'GET | /orders/{id} | orders:read | Read an order.' },
  readByExternalId: {
    section: '4',
    quote: 'The existing order is fetched with GET /orders/by-external-id/{external_id}.',
  },
  cancelled: {
    section: '3',
    quote:
      'POST /orders/{id}/cancel | Within the 24-hour window, production not started, order not already cancelled | Order is cancelled.',
  },
  notCancellable: {
    section: '3',
    quote:
      'POST /orders/{id}/cancel | The 24-hour window has closed, or production has started, or the order is already cancelled | 409 not_cancellable. detail says which.',
  },
} as const;

export type ModelSentence = (typeof MODEL_SENTENCES)[keyof typeof MODEL_SENTENCES];
