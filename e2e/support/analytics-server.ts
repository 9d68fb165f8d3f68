// A stand-in for a self-hosted analytics service (Plausible's script and event endpoint): the
// app is configured with its script URL, and the specs read back which events arrived. Started
// by playwright.config.ts as a webServer on 127.0.0.1.
import { createServer } from 'node:http';

const port = Number(process.env.E2E_ANALYTICS_PORT);

interface AnalyticsEvent {
  name: string;
  url: string;
  domain: string | null;
}
const events: AnalyticsEvent[] = [];

// Like Plausible's script: reads data-domain, sends a page view beacon to the host it came from,
// and another on each client-side navigation.
const SCRIPT = `(function () {
  var script = document.currentScript;
  var domain = script && script.getAttribute('data-domain');
  var endpoint = new URL('/api/event', script.src).href;
  function send() {
    navigator.sendBeacon(endpoint, JSON.stringify({ n: 'pageview', u: location.href, d: domain }));
  }
  var pushState = history.pushState;
  history.pushState = function () {
    pushState.apply(this, arguments);
    send();
  };
  send();
})();
`;

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  res.setHeader('Access-Control-Allow-Origin', '*');
  if (req.method === 'GET' && url.pathname === '/js/script.js') {
    res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
    res.end(SCRIPT);
    return;
  }
  if (req.method === 'POST' && url.pathname === '/api/event') {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      try {
        const event = JSON.parse(body) as { n?: string; u?: string; d?: string | null };
        events.push({ name: event.n ?? '', url: event.u ?? '', domain: event.d ?? null });
      } catch {
        // A malformed event is not counted.
      }
      res.writeHead(202);
      res.end();
    });
    return;
  }
  if (req.method === 'GET' && url.pathname === '/events') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ events }));
    return;
  }
  res.writeHead(url.pathname === '/health' ? 200 : 404);
  res.end();
});
server.listen(port, '127.0.0.1');

const stop = () => server.close(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
