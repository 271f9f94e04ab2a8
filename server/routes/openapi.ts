import type { FastifyInstance } from 'fastify';
import type { Dialect } from '../dialect/model.js';
import { OPENAPI_PATH, openApiDocument } from '../openapi/document.js';

/**
 * `GET /openapi.json`, outside the API base like the health probes: the
 * OpenAPI 3.1 description of the dialect this server speaks (the reference
 * dialect, or its `--profile`'s), for partners who generate a client or
 * point contract tools at the sandbox. No credentials: it says nothing the
 * API document and the profile do not.
 */
export function installOpenApiRoute(
  app: FastifyInstance,
  dialect: Dialect,
  docsUrl: string,
  title: string,
): void {
  // Written at the first request, then kept: most servers (and tests) never serve it.
  let text: string | undefined;
  app.get(OPENAPI_PATH, async (_request, reply) => {
    text ??= JSON.stringify(openApiDocument({ ...dialect, docsUrl }, { title }));
    return reply
      .type('application/json; charset=utf-8')
      .header('cache-control', 'no-cache')
      .send(text);
  });
}
