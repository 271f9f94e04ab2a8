import type { Dialect, OperationName } from '../target/dialect.js';
import { type AnswerKind, itemIdOf, listPage, pageQuery, succeeded } from './answers.js';
import type { ApiClient, HttpResponse } from './context-api.js';

/** A list the suite walks: its operation (for the success status), path and the kind of its items. */
export interface ListSpec {
  operation: OperationName;
  path: string;
  kind: AnswerKind;
}

export type WalkEnd =
  /** The last page was read. */
  | { end: 'complete' }
  /** `visit` asked to stop. */
  | { end: 'stopped' }
  /** More pages than `maxPages`, or a page that says more follow and gives no cursor. */
  | { end: 'incomplete' }
  /** A page was not answered with the operation's success status. */
  | { end: 'refused'; res: HttpResponse };

/**
 * Walks a list page by page through `dialect.list` (envelope, cursor, page
 * size): the one paging of the suite. `visit` gets each page's items and
 * answers true to stop. An envelope not where the profile says ends the check
 * `not_verifiable` naming the list field (`listPage`).
 */
export async function walkList(
  client: ApiClient,
  dialect: Dialect,
  list: ListSpec,
  visit: (items: unknown[], res: HttpResponse) => boolean | undefined | void,
  options: { limit?: number; maxPages?: number } = {},
): Promise<WalkEnd> {
  const { limit = 100, maxPages = 20 } = options;
  let cursor: string | undefined;
  for (let n = 0; n < maxPages; n++) {
    // The method is the dialect's: the document does not show those of webhook endpoints and events.
    const res = await client.send({
      method: dialect.operations[list.operation].method,
      path: list.path,
      query: pageQuery(dialect, { limit, cursor }),
    });
    if (!succeeded(dialect, list.operation, res.status)) return { end: 'refused', res };
    const page = listPage(dialect, res.json, itemIdOf(dialect, list.kind), res.exchange);
    if (visit(page.items, res) === true) return { end: 'stopped' };
    if (!page.more) return { end: 'complete' };
    if (page.cursor === undefined) return { end: 'incomplete' };
    cursor = page.cursor;
  }
  return { end: 'incomplete' };
}
