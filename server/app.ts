import type { IncomingMessage } from 'node:http';
import Fastify, { type FastifyInstance } from 'fastify';
import { type Behaviour, correctBehaviour } from './behaviour.js';
import { API_BASE, BODY_LIMIT_BYTES, CONTROL_BASE } from './config/api.js';
import type { AppContext } from './context.js';
import { controlPlugin } from './control/plugin.js';
import { type DefectName, selectDefects } from './defects/catalogue.js';
import { withDefects } from './defects/compose.js';
import { DialectLayer } from './dialect/layer.js';
import { REFERENCE_DIALECT } from './dialect/model.js';
import { parseProfile } from './dialect/profile.js';
import { newId } from './domain/ids.js';
import { installRequestHooks } from './http/api-hooks.js';
import { installRawBodyParser } from './http/body.js';
import { installConnectionShare } from './http/connection-share.js';
import { CredentialGuard } from './http/credential-guard.js';
import { installDatabaseDeadline } from './http/database-deadline.js';
import { allowHalfClose } from './http/half-close.js';
import { installRequestsPerSocket } from './http/requests-per-socket.js';
import { loggerOptions } from './logging.js';
import { type AppOptions, DEFAULT_DOCS_URL, DEFAULT_LIMITS } from './options.js';
import {
  answerConnect,
  answerUnknownExpectation,
  clientErrorHandler,
  frameworkErrorHandler,
} from './problems/framework.js';
import { installProblemHandlers } from './problems/install.js';
import { installHealthRoutes } from './routes/health.js';
import { apiRoutes } from './routes/index.js';
import { installOpenApiRoute } from './routes/openapi.js';
import { openStore } from './store/index.js';
import './auth/principal.js';

export type { AppOptions } from './options.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The app context: store, clock, faults, rate limiter. */
    ctx: AppContext;
    /** The test-only defects this app was built with (AppOptions.defects); none for the reference. */
    defects: readonly DefectName[];
  }
}

const HOUSEKEEPING_EVERY_MS = 10 * 60_000;

/**
 * Builds the reference server (does not listen). Everything it owns (the
 * database, the housekeeping timer) is released by `app.close()`.
 */
export async function buildApp(opts: AppOptions = {}): Promise<FastifyInstance> {
  if (opts.controlToken !== undefined && opts.controlToken === '') {
    throw new Error('controlToken must not be empty');
  }
  // A profile's dialect is spoken by a presentation layer at the boundary; without one, none is installed.
  const dialect = opts.profile === undefined ? undefined : parseProfile(opts.profile);
  const layer = dialect === undefined ? undefined : new DialectLayer(dialect);
  const docsUrl = (opts.docsUrl ?? dialect?.docsUrl ?? DEFAULT_DOCS_URL).replace(/\/+$/, '');
  const shippingCents = opts.shippingCents ?? 0;
  if (!Number.isSafeInteger(shippingCents) || shippingCents < 0) {
    throw new Error('shippingCents must be a whole number of cents, 0 or more');
  }
  const limits = { ...DEFAULT_LIMITS, ...opts.limits };
  // Checked before anything opens: a misspelt defect must not start a correct server.
  const defects = selectDefects(opts.defects ?? []);
  const store = await openStore({
    db: opts.db,
    durability: opts.durability,
    databaseUrl: opts.databaseUrl,
    databasePoolMax: opts.databasePoolMax,
    databaseWaitMs: opts.databaseWaitMs,
    onDatabaseGiveUp: opts.onDatabaseGiveUp,
  });
  try {
    const ctx: AppContext = {
      store,
      docsUrl,
      shippingCents,
      faults: store.faults,
      rateLimiter: store.rateLimits,
      guard: new CredentialGuard(opts.controlToken),
      now: (account) => Date.now() + account.clockOffsetMs,
    };
    // What the server does, composed once: the reference's behaviour, or the test-only defects beside it.
    const correct = correctBehaviour(ctx);
    const defective = defects.length === 0 ? undefined : await withDefects(correct, defects, ctx);
    const behaviour: Behaviour = defective?.behaviour ?? correct;
    const app = Fastify({
      logger: opts.logger === true ? loggerOptions(ctx.guard.redactor) : false,
      bodyLimit: BODY_LIMIT_BYTES,
      genReqId: () => newId('req'),
      requestIdHeader: false,
      ...(opts.trustProxy?.length ? { trustProxy: [...opts.trustProxy] } : {}),
      return503OnClosing: false,
      routerOptions: { maxParamLength: 1000 },
      ...(layer ? { rewriteUrl: (req: IncomingMessage) => layer.rewriteUrl(req) } : {}),
      frameworkErrors: frameworkErrorHandler(docsUrl),
      clientErrorHandler: clientErrorHandler(docsUrl),
      connectionTimeout: limits.idleTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      // Counted by installRequestsPerSocket instead: Node's own answers past it are bare 503s.
      maxRequestsPerSocket: 0,
      http: {
        headersTimeout: limits.headersTimeoutMs,
        // How often Node looks for requests past their time limit: a tenth of the shortest one.
        connectionsCheckingInterval: Math.max(
          10,
          Math.min(
            1_000,
            Math.floor(Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs) / 10),
          ),
        ),
        // A request without Host gets problem+json from the API hooks, not Node's empty 400.
        requireHostHeader: false,
      },
    });
    app.server.maxConnections = limits.maxConnections;
    installConnectionShare(app.server, limits.maxConnectionsPerAddress, opts.trustProxy);
    allowHalfClose(app.server);
    app.server.on('checkExpectation', answerUnknownExpectation(docsUrl, ctx.guard.redactor));
    app.server.on('connect', answerConnect(docsUrl, ctx.guard.redactor));
    app.decorate('ctx', ctx);
    app.decorate('defects', Object.freeze(defects.map((defect) => defect.name as DefectName)));
    app.decorateRequest('principal', null);

    const housekeeping = async () => {
      const now = Date.now();
      await store.housekeeping.run(now);
      await ctx.rateLimiter.sweep(now);
    };
    await housekeeping();
    const timer = setInterval(() => {
      // A failed sweep (database briefly away) is retried at the next tick.
      housekeeping().catch(() => undefined);
    }, HOUSEKEEPING_EVERY_MS);
    timer.unref();
    app.addHook('onClose', async () => {
      clearInterval(timer);
      await store.close();
    });

    installProblemHandlers(app, docsUrl);
    installRawBodyParser(app);
    layer?.install(app);
    if (limits.maxRequestsPerSocket > 0) installRequestsPerSocket(app, limits.maxRequestsPerSocket);
    installRequestHooks(app, behaviour.requestChecks);
    if (store.engine === 'postgres') installDatabaseDeadline(app, limits.databaseWaitPerRequestMs);
    installHealthRoutes(app);
    installOpenApiRoute(
      app,
      dialect ?? REFERENCE_DIALECT,
      docsUrl,
      dialect ? 'the dialect of its profile' : 'the reference dialect',
    );
    defective?.install(app);
    await app.register(apiRoutes(ctx, behaviour), { prefix: API_BASE });
    if (opts.controlToken !== undefined) {
      await app.register(controlPlugin(ctx, opts.controlToken, behaviour.keys), {
        prefix: CONTROL_BASE,
      });
    }
    await app.ready();
    return app;
  } catch (error) {
    await store.close();
    throw error;
  }
}
