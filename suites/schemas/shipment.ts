import { z } from 'zod';

/**
 * Contract section 2 lists shipments at `GET /orders/{id}/shipments` but shows
 * no shipment fields: the suite holds a shipment only to having an id.
 */
export const ShipmentSchema = z.looseObject({ id: z.string().min(1) });
