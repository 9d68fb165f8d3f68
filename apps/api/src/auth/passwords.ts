import { hash, verify } from '@node-rs/argon2';

/**
 * OWASP's argon2id recommendation: 19 MiB, 2 iterations, 1 lane. `algorithm: 2` is Argon2id (the
 * package's const enum cannot be imported under verbatimModuleSyntax).
 */
const PARAMS = { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return hash(password, PARAMS);
}

let dummyHash: Promise<string> | undefined;

/**
 * Verifies against the stored hash, or, when there is none (unknown user, provider-only account),
 * against a dummy hash of the same cost, so both answers take about the same time.
 */
export async function verifyPassword(
  stored: string | null | undefined,
  password: string,
): Promise<boolean> {
  if (!stored) {
    dummyHash ??= hashPassword('raccolta-timing-equaliser');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}
