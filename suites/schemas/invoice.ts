import { z } from 'zod';

/**
 * Contract section 2 places the invoice at `GET /orders/{id}/invoice` but shows
 * no invoice fields: the suite holds an invoice only to having an id.
 */
export const InvoiceSchema = z.looseObject({ id: z.string().min(1) });
export type Invoice = z.infer<typeof InvoiceSchema>;
