import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/**
 * A WebAuthn authenticator in software (ES256, "none" attestation, user present and verified), so
 * tests drive passkey registration and sign-in through the real verification code.
 */

type Cbor = number | string | Uint8Array | Cbor[] | Map<Cbor, Cbor> | { [key: string]: Cbor };

function head(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 256) return Buffer.from([(major << 5) | 24, length]);
  const buf = Buffer.alloc(3);
  buf[0] = (major << 5) | 25;
  buf.writeUInt16BE(length, 1);
  return buf;
}

/** Just enough CBOR for attestation objects and COSE keys. */
export function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') {
    return value >= 0 ? head(0, value) : head(1, -1 - value);
  }
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)]);
  const entries = value instanceof Map ? [...value.entries()] : Object.entries(value);
  return Buffer.concat([
    head(5, entries.length),
    ...entries.flatMap(([key, item]) => [cbor(key), cbor(item)]),
  ]);
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

export class SoftwareAuthenticator {
  readonly credentialId = randomBytes(32);
  private readonly privateKey: KeyObject;
  private readonly publicJwk: { x: string; y: string };
  private counter = 0;

  constructor(
    private readonly rpId: string,
    private readonly origin: string,
  ) {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = privateKey;
    const jwk = publicKey.export({ format: 'jwk' });
    this.publicJwk = { x: jwk.x ?? '', y: jwk.y ?? '' };
  }

  private authData(withCredential: boolean): Buffer {
    this.counter += 1;
    const rpIdHash = createHash('sha256').update(this.rpId).digest();
    // UP | UV, plus AT when a credential is attached.
    const flags = Buffer.from([withCredential ? 0x45 : 0x05]);
    const count = Buffer.alloc(4);
    count.writeUInt32BE(this.counter);
    if (!withCredential) return Buffer.concat([rpIdHash, flags, count]);
    const coseKey = cbor(
      new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(this.publicJwk.x, 'base64url')],
        [-3, Buffer.from(this.publicJwk.y, 'base64url')],
      ]),
    );
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    return Buffer.concat([
      rpIdHash,
      flags,
      count,
      Buffer.alloc(16),
      idLength,
      this.credentialId,
      coseKey,
    ]);
  }

  private clientData(type: string, challenge: string): Buffer {
    return Buffer.from(
      JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }),
    );
  }

  /** The browser's answer to navigator.credentials.create with these options. */
  register(options: { challenge: string }) {
    const clientDataJSON = this.clientData('webauthn.create', options.challenge);
    const attestationObject = cbor({ fmt: 'none', attStmt: {}, authData: this.authData(true) });
    return {
      id: b64url(this.credentialId),
      rawId: b64url(this.credentialId),
      type: 'public-key' as const,
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(attestationObject),
        transports: ['internal'],
      },
    };
  }

  /** The browser's answer to navigator.credentials.get with these options. */
  assert(options: { challenge: string }) {
    const clientDataJSON = this.clientData('webauthn.get', options.challenge);
    const authenticatorData = this.authData(false);
    const signature = sign(
      'sha256',
      Buffer.concat([authenticatorData, createHash('sha256').update(clientDataJSON).digest()]),
      this.privateKey,
    );
    return {
      id: b64url(this.credentialId),
      rawId: b64url(this.credentialId),
      type: 'public-key' as const,
      clientExtensionResults: {},
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authenticatorData),
        signature: b64url(signature),
      },
    };
  }
}
