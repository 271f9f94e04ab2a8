import { money } from '../domain/money.js';
import { rfc3339 } from '../domain/time.js';
import type { Quote } from '../store/quotes.js';
import { itemView } from './order.js';

/** Contract §2 quote: `{id, items, subtotal, shipping, total, expires_at}`. */
export function quoteView(quote: Quote) {
  return {
    id: quote.id,
    object: 'quote' as const,
    items: quote.items.map(itemView),
    shipping_address: quote.shippingAddress,
    subtotal: money(quote.subtotal),
    shipping: money(quote.shipping),
    total: money(quote.total),
    created_at: rfc3339(quote.createdAt),
    expires_at: rfc3339(quote.expiresAt),
    livemode: quote.mode === 'live',
  };
}
