import { CONTROL_BASE } from '../config/api.js';
import { type BodyCredential, credentialInBody } from '../validation/secret-in-body.js';
import { hasCredentialsInUrl, isControlPath } from './credentials-in-url.js';
import { Redactor } from './redact.js';

/** Shortest control token looked for in bodies; a shorter one would match ordinary text. */
const MIN_CONTROL_TOKEN_MATCH = 8;

/**
 * What one app knows about credentials: which URLs carry one (§5.6) and how
 * to mask them in answers. It holds the control token, so the rest of the app
 * never needs to.
 */
export class CredentialGuard {
  readonly redactor: Redactor;
  readonly #controlToken: string | undefined;

  constructor(controlToken: string | undefined) {
    this.#controlToken = controlToken;
    this.redactor = new Redactor(controlToken);
  }

  /**
   * §5.6: on every path, unknown ones and the control prefix included. Only
   * the mounted control API (its prefix as a whole segment) takes Access Key
   * IDs in its paths (contract §3 `/__control/keys/{access_key_id}`).
   */
  urlHoldsCredentials(url: string): boolean {
    return hasCredentialsInUrl(url, {
      accessKeyIdsAllowed: this.#controlToken !== undefined && isControlPath(url, CONTROL_BASE),
      controlToken: this.#controlToken,
    });
  }

  /**
   * The credential a request body holds (a Secret Key, §5.4; an access token
   * or the control token too), escaped or not; undefined when none.
   */
  bodyCredential(text: string): BodyCredential | undefined {
    const token = this.#controlToken;
    return credentialInBody(
      text,
      token !== undefined && token.length >= MIN_CONTROL_TOKEN_MATCH ? token : undefined,
    );
  }

  /** The mounted control API's requests (its prefix as a whole path segment). */
  isControlRequest(url: string): boolean {
    return this.#controlToken !== undefined && isControlPath(url, CONTROL_BASE);
  }
}
