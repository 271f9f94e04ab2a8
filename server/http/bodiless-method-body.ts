import type { IncomingMessage } from 'node:http';
import { BODY_LIMIT_BYTES } from '../config/api.js';
import { bodyTooLarge } from '../problems/body-too-large.js';

/** Whether a request announces a body (RFC 9112 §6.1, §6.2). */
export function announcesBody(raw: IncomingMessage): boolean {
  const length = raw.headers['content-length'];
  return raw.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Reads the body Fastify leaves unread on GET and HEAD (it parses none there),
 * so that a Secret Key in it can be refused like on any other method (§5.4).
 * Over the body limit it is 413, as elsewhere.
 */
export function readBodilessMethodBody(raw: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    raw.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > BODY_LIMIT_BYTES) {
        raw.removeAllListeners('data');
        raw.resume();
        reject(bodyTooLarge());
        return;
      }
      chunks.push(chunk);
    });
    raw.on('end', () => resolve(Buffer.concat(chunks)));
    raw.on('error', reject);
  });
}
