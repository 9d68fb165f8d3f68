// The e2e mailbox: a real SMTP server the app sends to (MAIL_TRANSPORT=smtp), and a small HTTP
// endpoint the specs read captured messages from. Started by playwright.config.ts as a webServer.
import { createServer } from 'node:http';
import { startSmtpCapture } from '../../apps/api/test/helpers/smtp-capture.js';

const smtpPort = Number(process.env.E2E_SMTP_PORT);
const httpPort = Number(process.env.E2E_MAILBOX_PORT);
const capture = await startSmtpCapture(smtpPort);

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost');
  if (url.pathname === '/messages') {
    const to = url.searchParams.get('to')?.toLowerCase();
    const messages = capture.messages
      .filter((m) => !to || m.to.some((r) => r.toLowerCase() === to))
      .map(({ to: recipients, subject, headers, text, html }) => ({
        to: recipients,
        subject,
        headers: Object.fromEntries(headers),
        text,
        html,
      }));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ messages }));
    return;
  }
  res.writeHead(url.pathname === '/health' ? 200 : 404);
  res.end();
});
server.listen(httpPort, '127.0.0.1');

const stop = () => {
  server.close();
  void capture.close().then(() => process.exit(0));
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
