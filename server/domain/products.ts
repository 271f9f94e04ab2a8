/** Contract §2 catalog: a product as the account's product list holds it (money in cents). */
export interface Product {
  sku: string;
  name: string;
  /** Integer cents (contract §2: control-protocol money values are integer cents). */
  unit_price: number;
  min_quantity: number;
  ships_by_freight: boolean;
}

/**
 * Contract §3: a new account's default product list has at least five products,
 * one shipped by freight and one with `min_quantity` above 1, so that every
 * order rule of §4 can be broken with the defaults alone.
 */
export const DEFAULT_PRODUCTS: readonly Product[] = Object.freeze(
  [
    {
      sku: 'TSHIRT-BLK-M',
      name: 'Classic T-shirt, black, M',
      unit_price: 1500,
      min_quantity: 1,
      ships_by_freight: false,
    },
    {
      sku: 'MUG-WHT-11OZ',
      name: 'Ceramic mug, white, 11 oz',
      unit_price: 900,
      min_quantity: 1,
      ships_by_freight: false,
    },
    {
      sku: 'POSTER-A2',
      name: 'Poster, A2, matte',
      unit_price: 1200,
      min_quantity: 1,
      ships_by_freight: false,
    },
    {
      sku: 'HOODIE-GRY-L',
      name: 'Hoodie, grey, L',
      unit_price: 3500,
      min_quantity: 1,
      ships_by_freight: false,
    },
    {
      sku: 'STICKER-SHEET',
      name: 'Sticker sheet',
      unit_price: 150,
      min_quantity: 10,
      ships_by_freight: false,
    },
    {
      sku: 'CANVAS-XL-FRAMED',
      name: 'Framed canvas, XL',
      unit_price: 24000,
      min_quantity: 1,
      ships_by_freight: true,
    },
  ].map((product) => Object.freeze(product)),
);
