import type { Config } from '../config/config.js';

/** Links in e-mails point at the web app, which POSTs the code (never consumed by a GET). */
export function webLink(config: Config, path: string, params: Record<string, string>): string {
  const url = new URL(path, `${config.publicUrl}/`);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
}
