import { createPrivateKey, createPublicKey, type KeyObject, sign, verify } from 'node:crypto';

/**
 * Ed25519 signatures of manifest.json's exact bytes (node:crypto; no
 * library needed). manifest.sig holds the signature in base64 on one line.
 */
export function readPrivateKey(pem: string): KeyObject {
  const key = createPrivateKey(pem);
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new Error(`is a ${key.asymmetricKeyType ?? 'symmetric'} key, not an Ed25519 private key`);
  }
  return key;
}

/** A public key file, or the public half of a private key file. */
export function readPublicKey(pem: string): KeyObject {
  const key = createPublicKey(pem);
  if (key.asymmetricKeyType !== 'ed25519') {
    throw new Error(`is a ${key.asymmetricKeyType ?? 'symmetric'} key, not an Ed25519 key`);
  }
  return key;
}

export function signBytes(bytes: Buffer, key: KeyObject): string {
  return `${sign(null, bytes, key).toString('base64')}\n`;
}

export function verifyBytes(bytes: Buffer, signature: string, key: KeyObject): boolean {
  try {
    return verify(null, bytes, key, Buffer.from(signature.trim(), 'base64'));
  } catch {
    return false;
  }
}
