import type { SecondFactorMethod } from '@raccolta/contracts';
import type { Db } from '../../db/create-db.js';

/** The second factors a user has turned on (a confirmed TOTP, any passkey). */
export async function factorsOf(db: Db, userId: string): Promise<SecondFactorMethod[]> {
  const [totp, passkey] = await Promise.all([
    db
      .selectFrom('user_totp')
      .select('confirmed_at')
      .where('user_id', '=', userId)
      .executeTakeFirst(),
    db
      .selectFrom('passkeys')
      .select('id')
      .where('user_id', '=', userId)
      .limit(1)
      .executeTakeFirst(),
  ]);
  const methods: SecondFactorMethod[] = [];
  if (totp !== undefined && totp.confirmed_at !== null) methods.push('totp');
  if (passkey !== undefined) methods.push('webauthn');
  return methods;
}

export async function hasSecondFactor(db: Db, userId: string): Promise<boolean> {
  return (await factorsOf(db, userId)).length > 0;
}
