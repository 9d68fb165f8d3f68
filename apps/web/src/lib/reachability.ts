/**
 * Whether the API answered the last time it was asked. `navigator.onLine` only knows whether
 * the device has a network: on a Wi-Fi without internet, behind a captive portal, or in a page
 * started from the service worker's cache it can say true while no request gets through. The API
 * client reports every answer and every request that got none; the upload app treats "no
 * answer" like "offline" and probes until the server answers again.
 */
type Listener = () => void;

let unreachable = false;
const listeners = new Set<Listener>();

/** Called by the API client: `true` when any HTTP answer arrived, `false` when none did. */
export function reportReachability(reached: boolean): void {
  if (unreachable === !reached) return;
  unreachable = !reached;
  for (const listener of listeners) listener();
}

/** True from a request that got no answer until the next one that did. */
export function isServerUnreachable(): boolean {
  return unreachable;
}

export function subscribeReachability(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
