import type { Product } from '../../control/types.js';
import { valueAt } from '../../evidence/json-pointer.js';
import { pathOf } from '../../target/dialect.js';
import { envelopeOf } from '../infer.js';
import { productsIn } from '../products.js';
import { get, type Steps } from './shared.js';

/** Where a catalog commonly is below `/catalog` (section 4), when not where the profile says. */
const CATALOG_PATHS = ['/catalog/products', '/catalog/items', '/catalog'];

/**
 * A page of one product out of several: the list envelope. A 4xx to the page size: the
 * envelope from a page without it (the parameter stays a TODO).
 */
export async function catalogPage(s: Steps): Promise<void> {
  const { d, session, token, draft } = s;
  let page = await get(s, 'catalogProducts', undefined, { [d.list.limitParam]: '1' });
  // Not at the profile's path: the usual ones (the product beside its list).
  for (const list of CATALOG_PATHS) {
    if (page.status !== 404 || list === d.paths.catalogProducts) continue;
    const other = await session.send(
      { method: 'GET', path: list, query: { [d.list.limitParam]: '1' } },
      token,
    );
    if (other.status === 404 || other.status === 405) continue;
    d.paths.catalogProducts = list;
    d.paths.catalogProduct = `${list}/{sku}`;
    page = other;
    break;
  }
  if (page.status === 400 || page.status === 422) {
    draft.todos.push(
      `dialect.list.limitParam: ${page.request} answered ${page.status} to the page size "${d.list.limitParam}": write the target's page-size parameter`,
    );
    page = await get(s, 'catalogProducts');
  }
  if (s.answered('catalogProducts', page) && page.status === 200) {
    s.got('operations.catalogProducts.status');
    const startEnvelope =
      Array.isArray(valueAt(page.json, d.list.items)) &&
      (d.list.hasMore === null || typeof valueAt(page.json, d.list.hasMore) === 'boolean');
    const envelope = envelopeOf(page.json);
    // Names no rule of the probe knows, where the starting profile says: the profile's envelope stands.
    const took = s.take(
      'list.items',
      'todo' in envelope && startEnvelope
        ? { value: { items: d.list.items, hasMore: d.list.hasMore, nextCursor: d.list.nextCursor } }
        : envelope,
      (envelope) => {
        d.list = { ...d.list, ...envelope };
        s.got('list.hasMore', 'list.nextCursor');
      },
    );
    // One item asked, one shown: the page-size parameter is the target's.
    const shown = valueAt(page.json, d.list.items);
    if (took && Array.isArray(shown) && shown.length === 1) s.got('list.limitParam');
  } else {
    // Never keep the reference's envelope silently.
    draft.todos.push(
      `dialect.list: not seen (${page.request} answered ${page.status}); write the envelope and paging of your lists${page.status === 404 ? '' : ` (a 4xx may be the page-size parameter, dialect.list.limitParam "${d.list.limitParam}")`}`,
    );
  }
}

/** The products to order from when the control API gave none: a page of the catalog as long as the profile allows. */
export async function productsToOrder(s: Steps): Promise<Product[]> {
  const { d, session, token } = s;
  const res = await session.send(
    {
      method: 'GET',
      path: pathOf(d, 'catalogProducts'),
      query: { [d.list.limitParam]: String(d.list.maxLimit) },
    },
    token,
  );
  return res.status === 200 ? productsIn(res.json, d) : [];
}

/** One product of the catalog: its path, its SKU and its price (a money place). */
export async function catalogProduct(s: Steps, products: readonly Product[]): Promise<void> {
  const { d } = s;
  const sku = products[0]?.sku;
  if (sku) {
    const product = await get(s, 'catalogProduct', { sku });
    if (s.answered('catalogProduct', product) && product.status === 200) {
      s.got('operations.catalogProduct.status');
      const price = valueAt(product.json, d.answers.product.unitPrice);
      if (price !== undefined) {
        s.got('answers.product.unitPrice');
        s.money.push({
          place: 'prices',
          value: price,
          where: `${product.request} at ${d.answers.product.unitPrice}`,
        });
      }
      if (valueAt(product.json, d.answers.product.sku) === sku) s.got('answers.product.sku');
    }
  }
}
