// A load generator in its own process (so it does not share the server's event loop): N keep-alive
// connections, each sending GET requests one after another for a fixed time. Prints one JSON line:
// requests, errors (non-2xx answers and socket errors), requests per second, p50 and p99 in ms.
// Usage: node load-client.mjs URL CONNECTIONS SECONDS [AUTHORIZATION]
import http from 'node:http';

const [url, connectionsArg = '50', secondsArg = '8', authorization] = process.argv.slice(2);
if (!url) throw new Error('usage: load-client.mjs URL CONNECTIONS SECONDS [AUTHORIZATION]');
const connections = Number(connectionsArg);
const seconds = Number(secondsArg);
const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
const headers = authorization ? { authorization } : {};
const latencies = [];
let errors = 0;

function once() {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const req = http.get(url, { agent, headers }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => {
        latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
        if (res.statusCode < 200 || res.statusCode >= 300) errors++;
        resolve();
      });
    });
    req.on('error', () => {
      errors++;
      resolve();
    });
  });
}

const deadline = Date.now() + seconds * 1000;
const started = Date.now();
await Promise.all(
  Array.from({ length: connections }, async () => {
    while (Date.now() < deadline) await once();
  }),
);
const elapsed = (Date.now() - started) / 1000;
agent.destroy();
latencies.sort((a, b) => a - b);
const at = (q) =>
  latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] ?? NaN;
console.log(
  JSON.stringify({
    requests: latencies.length,
    errors,
    rps: latencies.length / elapsed,
    p50: at(0.5),
    p99: at(0.99),
  }),
);
