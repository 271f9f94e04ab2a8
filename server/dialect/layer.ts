import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_BASE } from '../config/api.js';
import { AnswerShapes } from './answers.js';
import { orderBodyToReference, type ReferenceBody, webhookBodyToReference } from './bodies.js';
import {
  type Dialect,
  OPERATION_PATHS,
  type OperationName,
  type PathName,
  pathTemplate,
  REFERENCE_DIALECT,
} from './model.js';
import { formatPointer, isObject, tokens } from './pointer.js';
import { DialectRouter, LIST_OPERATIONS, UNKNOWN } from './router.js';

/**
 * The presentation layer: a server that speaks a dialect other than the
 * reference's. The domain (routes, rules, storage) speaks only the
 * reference dialect; this layer maps both ways at the boundary:
 * - before routing (`rewriteUrl`): the dialect's method and path (query
 *   included) become the reference operation's, paging parameters and event
 *   kinds their reference names, keys and tokens the reference prefix;
 * - before the route reads the body (`preValidation`): the order, quote and
 *   webhook endpoint bodies become the reference's;
 * - before sending (`onSend`): success statuses, `Location`, answers (money,
 *   pointers, list envelope, status names, event kinds) and problems
 *   (`errors[]` pointers, `instance`) become the dialect's.
 * A server built without a profile installs none of it.
 */
export class DialectLayer {
  readonly #dialect: Dialect;
  readonly #router: DialectRouter;
  readonly #answers: AnswerShapes;
  readonly #prefixIn: RegExp | undefined;
  readonly #prefixOut: string;

  constructor(dialect: Dialect) {
    this.#dialect = dialect;
    this.#router = new DialectRouter(dialect);
    this.#answers = new AnswerShapes(dialect);
    const prefix = dialect.keyPrefix;
    this.#prefixIn =
      prefix === REFERENCE_DIALECT.keyPrefix
        ? undefined
        : new RegExp(`${prefix}_((?:test|live)_(?:sk|ak)|at)_`, 'g');
    this.#prefixOut = `${prefix}_$1_`;
  }

  /** Fastify's `rewriteUrl`: the reference URL of a request of the dialect. */
  rewriteUrl(req: IncomingMessage): string {
    let url = req.url ?? '/';
    if (this.#prefixIn) {
      url = this.#keysIn(url);
      this.#authorizationIn(req);
    }
    if (url !== API_BASE && !url.startsWith(`${API_BASE}/`) && !url.startsWith(`${API_BASE}?`))
      return url;
    const question = url.indexOf('?');
    const path = question === -1 ? url : url.slice(0, question);
    const query = question === -1 ? '' : url.slice(question + 1);
    const matched = this.#router.match(req.method ?? 'GET', path.slice(API_BASE.length), query);
    const state: DialectState = { path, op: matched?.op };
    (req as DialectRequest)[STATE] = state;
    if (!matched) return `${NO_ROUTE}${url}`;
    req.method = matched.method;
    return matched.url;
  }

  install(app: FastifyInstance): void {
    // Before the request hooks (http/api-hooks.ts): they scan the body for Secret Keys.
    app.addHook('preValidation', (request, _reply, done) => {
      this.#bodyIn(request);
      done();
    });
    app.addHook('onSend', (request, reply, payload, done) => {
      done(null, this.#answerOut(request, reply, payload));
    });
  }

  #keysIn(text: string): string {
    return this.#prefixIn && text.includes(`${this.#dialect.keyPrefix}_`)
      ? text.replace(this.#prefixIn, 'odp_$1_')
      : text;
  }

  #authorizationIn(req: IncomingMessage): void {
    const header = req.headers.authorization;
    if (header === undefined) return;
    const [scheme = '', value = ''] = header.split(/ +(.*)/s);
    if (/^basic$/i.test(scheme)) {
      // RFC 6749 §2.3.1: user and password are form-encoded inside the base64 (`%5F` for `_`).
      const decoded = Buffer.from(value, 'base64').toString('latin1');
      const colon = decoded.indexOf(':');
      const parts = colon === -1 ? [decoded] : [decoded.slice(0, colon), decoded.slice(colon + 1)];
      const mapped = parts
        .map((part) => {
          const plain = formDecode(part);
          if (plain === undefined) return part;
          const keys = this.#keysIn(plain);
          return keys === plain ? part : encodeURIComponent(keys);
        })
        .join(':');
      if (mapped !== decoded)
        req.headers.authorization = `${scheme} ${Buffer.from(mapped, 'latin1').toString('base64')}`;
    } else req.headers.authorization = this.#keysIn(header);
  }

  #bodyIn(request: FastifyRequest): void {
    let raw = request.body;
    if (!(raw instanceof Buffer) || raw.length === 0) return;
    if (this.#prefixIn)
      raw = Buffer.from(this.#keysIn((raw as Buffer).toString('latin1')), 'latin1');
    if (request.method === 'POST' && CONTROL_FAULTS.test(request.url)) {
      request.body = this.#faultIn(raw as Buffer);
      return;
    }
    const state = (request.raw as DialectRequest)[STATE];
    const translate = state?.op === undefined ? undefined : this.#bodyTranslator(state.op);
    if (state && translate) {
      const parsed = parseJson(raw as Buffer);
      if (parsed.ok) {
        const reference = translate(parsed.value);
        state.body = reference;
        const text = JSON.stringify(reference.body);
        raw = Buffer.from(this.#prefixIn ? this.#keysIn(text) : text, 'utf8');
      }
    }
    request.body = raw;
  }

  /**
   * Contract §3 faults name the method and path of the requests they break:
   * the dialect's, which the domain knows by the reference operation's.
   */
  #faultIn(raw: Buffer): Buffer {
    const parsed = parseJson(raw);
    if (!parsed.ok || !isObject(parsed.value)) return raw;
    const fault = parsed.value;
    if (typeof fault.method !== 'string' || typeof fault.path !== 'string') return raw;
    const full = fault.path.startsWith(`${API_BASE}/`)
      ? fault.path.slice(API_BASE.length)
      : fault.path;
    const question = full.indexOf('?');
    const matched = this.#router.match(
      fault.method.toUpperCase(),
      question === -1 ? full : full.slice(0, question),
      question === -1 ? '' : full.slice(question + 1),
    );
    if (!matched) return raw;
    fault.method = matched.method;
    fault.path = matched.url;
    return Buffer.from(JSON.stringify(fault), 'utf8');
  }

  #bodyTranslator(op: OperationName): ((value: unknown) => ReferenceBody) | undefined {
    const d = this.#dialect;
    if (op === 'orderCreate') return (v) => orderBodyToReference(d.orderBody, true, v);
    if (op === 'quoteCreate') return (v) => orderBodyToReference(d.quoteBody, false, v);
    if (op === 'webhookEndpointCreate') return (v) => webhookBodyToReference(d, v);
    return undefined;
  }

  #answerOut(request: FastifyRequest, reply: FastifyReply, payload: unknown): unknown {
    let out = payload;
    if (this.#prefixIn && typeof out === 'string' && out.includes('odp_')) {
      out = out.replace(/odp_((?:test|live)_(?:sk|ak)|at)_/g, this.#prefixOut);
    }
    const state = (request.raw as DialectRequest)[STATE];
    if (!state) return out;
    const status = reply.statusCode;
    if (status >= 400) return this.#problemOut(request, state, out);
    if (state.op === undefined || status < 200 || status >= 300) return out;
    const op = state.op;
    const referenceStatus = REFERENCE_DIALECT.operations[op].status;
    const dialectStatus = this.#dialect.operations[op].status;
    let body: unknown;
    if (typeof out === 'string' && out !== '') {
      try {
        body = JSON.parse(out);
      } catch {
        return out;
      }
    }
    const location = reply.getHeader('location');
    if (location !== undefined) {
      const read = CREATED_READS[op];
      const id = AnswerShapes.idOf(body);
      if (read !== undefined && id !== undefined)
        reply.header('location', `${API_BASE}${fill(pathTemplate(this.#dialect, read), id)}`);
    }
    if (status === referenceStatus && dialectStatus !== referenceStatus) {
      reply.code(dialectStatus);
      if (dialectStatus === 204) return null;
      if (body === undefined) {
        reply.type('application/json; charset=utf-8');
        return '{}';
      }
    }
    if (body === undefined) return out;
    return JSON.stringify(this.#answers.answer(op, body));
  }

  #problemOut(request: FastifyRequest, state: DialectState, payload: unknown): unknown {
    if (typeof payload !== 'string') return payload;
    let body: unknown;
    try {
      body = JSON.parse(payload);
    } catch {
      return payload;
    }
    if (!isObject(body)) return payload;
    if (typeof body.instance === 'string') {
      body.instance = request.server.ctx.guard.redactor.text(state.path);
    }
    if (state.op === undefined && body.code === 'not_found') {
      body.detail = request.server.ctx.guard.redactor.text(
        `No route ${request.raw.method ?? 'GET'} ${state.path}.`,
      );
    }
    const errors = body.errors;
    if (Array.isArray(errors)) {
      const member = this.#dialect.errors.member;
      let parameter: { name: string; detail: unknown } | undefined;
      body.errors = errors.map((entry: unknown) => {
        if (!isObject(entry)) return entry;
        const { pointer, ...rest } = entry;
        if (typeof pointer !== 'string') return entry;
        const mapped = this.#errorPointer(state, pointer, rest);
        if (mapped.parameter) parameter = { name: mapped.to, detail: rest.detail };
        return { ...rest, [member]: mapped.to };
      });
      // `Query parameter limit: …` names the parameter as the client did.
      if (parameter && errors.length === 1 && typeof body.detail === 'string')
        body.detail = `Query parameter ${parameter.name}: ${String(parameter.detail)}`;
    }
    return JSON.stringify(body);
  }

  /** An `errors[]` pointer in the dialect: a body pointer in its form, or a query parameter's name. */
  #errorPointer(
    state: DialectState,
    pointer: string,
    entry: Record<string, unknown>,
  ): { to: string; parameter: boolean } {
    if (pointer === '' || pointer.startsWith('/')) {
      const mapped = state.body?.toDialect(pointer) ?? pointer;
      const from = tokens(pointer).join('.');
      const to = tokens(mapped).join('.');
      if (from !== to && typeof entry.detail === 'string' && entry.detail.startsWith(`${from} `)) {
        entry.detail = `${to}${entry.detail.slice(from.length)}`;
      }
      return { to: formatPointer(mapped, this.#dialect.errors.form), parameter: false };
    }
    const list = this.#dialect.list;
    let name = pointer;
    if (name.startsWith(UNKNOWN)) name = name.slice(UNKNOWN.length);
    else if (state.op !== undefined && LIST_OPERATIONS.has(state.op)) {
      if (name === 'limit') {
        name = list.limitParam;
        entry.detail = `must be an integer from 1 to ${list.maxLimit}.`;
      } else if (name === 'starting_after') name = list.cursorParam;
    }
    return { to: name, parameter: true };
  }
}

/** The read operation's path that a creation's `Location` names. */
const CREATED_READS: Partial<Record<OperationName, PathName>> = {
  orderCreate: OPERATION_PATHS.orderRead,
  quoteCreate: OPERATION_PATHS.quoteRead,
  webhookEndpointCreate: OPERATION_PATHS.webhookEndpointRead,
};

function fill(template: string, id: string): string {
  return template.replace(/\{\w+\}/g, encodeURIComponent(id));
}

function formDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text.replaceAll('+', ' '));
  } catch {
    return undefined;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function parseJson(raw: Buffer): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(utf8.decode(raw)) };
  } catch {
    return { ok: false };
  }
}

const CONTROL_FAULTS = /^\/__control\/accounts\/[^/?]+\/faults(?:\?|$)/;

/** Where a request of the dialect that matches none of its operations goes: to no route. */
const NO_ROUTE = '/__no-such-route';

const STATE = Symbol('dialect');

interface DialectState {
  /** The request's own path (the dialect's), for `instance`. */
  path: string;
  /** The operation it asks for; none: it matches no route of the dialect. */
  op: OperationName | undefined;
  /** The body as the domain read it, and the way back for its pointers. */
  body?: ReferenceBody;
}

type DialectRequest = IncomingMessage & { [STATE]?: DialectState };
