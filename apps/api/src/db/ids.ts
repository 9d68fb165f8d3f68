import { v7 } from 'uuid';

/** Time-ordered UUIDs keep new rows at the end of indexes and make ids a stable tie-breaker. */
export function newId(): string {
  return v7();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}
