import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BODY_LIMIT_BYTES, MAX_JSON_DEPTH } from '../config/api.js';
import { ApiProblem } from '../problems/api-problem.js';
import { exceedsDepth } from '../validation/json-depth.js';
import { holdsSecretKey, secretInBodyProblem } from '../validation/secret-in-body.js';
import { isUtf8Charset, parseMediaType } from './media-type.js';

/**
 * Every body is read as raw bytes, whatever its Content-Type, and interpreted
 * by the route after authentication. So a refusal comes in the order the API
 * document implies (401 before 415 before 422), and a body Fastify could not
 * parse becomes a documented problem instead of a framework error.
 */
export function installRawBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    '*',
    { parseAs: 'buffer', bodyLimit: BODY_LIMIT_BYTES },
    (_request, body, done) => done(null, body),
  );
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

function bodyText(request: FastifyRequest): string {
  // RFC 9110 §8.4, §15.5.16: a content coding the server does not apply is 415, not a body
  // read as if it were plain (which would accept `gzip` bytes as text, or misread them).
  const coding = request.headers['content-encoding']?.trim().toLowerCase();
  if (coding !== undefined && coding !== '' && coding !== 'identity') {
    throw new ApiProblem(
      'unsupported_media_type',
      `Content-Encoding ${coding} is not supported; send the body uncoded.`,
    );
  }
  const raw = request.body;
  if (!(raw instanceof Buffer) || raw.length === 0) return '';
  try {
    return utf8.decode(raw);
  } catch {
    throw new ApiProblem('validation_failed', 'The request body is not valid UTF-8.', {
      errors: [{ detail: 'The body is not valid UTF-8.', pointer: '' }],
    });
  }
}

function malformed(detail: string): ApiProblem {
  return new ApiProblem('validation_failed', detail, { errors: [{ detail, pointer: '' }] });
}

/**
 * §4: bodies are JSON (`Content-Type: application/json`, otherwise 415).
 * Contract §2: malformed JSON is 422 `validation_failed` with pointer "".
 * A Secret Key anywhere in the body is refused (§5.4).
 */
export function readJsonBody(request: FastifyRequest): unknown {
  const media = parseMediaType(request.headers['content-type']);
  if (media?.type !== 'application/json') {
    throw new ApiProblem(
      'unsupported_media_type',
      'The body must be JSON sent with Content-Type: application/json.',
    );
  }
  return parseJsonBody(request);
}

/** The body parsed as JSON, whatever its media type (readJsonBody checks that first). */
export function parseJsonBody(request: FastifyRequest): unknown {
  const media = parseMediaType(request.headers['content-type']);
  if (!isUtf8Charset(media?.charset)) {
    throw new ApiProblem('unsupported_media_type', 'JSON bodies must be UTF-8 (RFC 8259).');
  }
  const text = bodyText(request);
  if (text.trim() === '') throw malformed('The request body is empty; send a JSON object.');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw malformed('The request body is not valid JSON.');
  }
  if (exceedsDepth(value, MAX_JSON_DEPTH)) {
    throw malformed(`The JSON body nests deeper than ${MAX_JSON_DEPTH} levels.`);
  }
  // The raw text was scanned by a hook (http/api-hooks.ts); this catches escapes of escapes.
  if (text.includes('\\u')) {
    const held = request.server.ctx.guard.bodyCredential(JSON.stringify(value));
    if (held) throw secretInBodyProblem('', held);
  }
  return value;
}

/**
 * §4 POST /oauth/token: `application/x-www-form-urlencoded`, otherwise 415.
 * RFC 6749 §3.2: a parameter sent twice is refused.
 */
export function readFormBody(request: FastifyRequest): URLSearchParams {
  const form = parseFormBody(request);
  // §5.4: the Secret Key travels only in the Basic header; `client_secret` in the form is refused.
  if (form.has('client_secret')) throw secretInBodyProblem('client_secret');
  for (const [name, value] of form) if (holdsSecretKey(value)) throw secretInBodyProblem(name);
  return form;
}

/** The token request form (415 unless a UTF-8 form, 422 for a repeated parameter), secrets unchecked. */
export function parseFormBody(request: FastifyRequest): URLSearchParams {
  const media = parseMediaType(request.headers['content-type']);
  if (media?.type !== 'application/x-www-form-urlencoded') {
    throw new ApiProblem(
      'unsupported_media_type',
      'The token request must be a form sent with Content-Type: application/x-www-form-urlencoded.',
    );
  }
  if (!isUtf8Charset(media.charset)) {
    throw new ApiProblem('unsupported_media_type', 'The form must be UTF-8.');
  }
  const text = bodyText(request);
  const form = new URLSearchParams(text);
  const seen = new Set<string>();
  for (const [name] of form) {
    if (seen.has(name)) {
      throw new ApiProblem(
        'validation_failed',
        `The form parameter ${name} is sent more than once.`,
        {
          errors: [{ detail: 'Parameters must not be repeated (RFC 6749 §3.2).', pointer: name }],
        },
      );
    }
    seen.add(name);
  }
  return form;
}
