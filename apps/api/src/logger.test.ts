import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, resolveLogFormat, type LogFormat } from './logger.js';

/** A destination that says whether it is a terminal, and keeps what is written. */
function sink(isTTY: boolean) {
  const stream = Object.assign(new PassThrough(), { isTTY });
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  return { stream, text: () => text };
}

function logOnce(format: LogFormat, isTTY: boolean): string {
  const out = sink(isTTY);
  const logger = createLogger({ level: 'info', format, destination: out.stream });
  logger.info(
    { req: { method: 'GET', headers: { authorization: 'Bearer secret-token' } } },
    'request served',
  );
  logger.flush();
  return out.text();
}

describe('logger', () => {
  it('is readable on a terminal and JSON elsewhere, unless configured', () => {
    expect(resolveLogFormat('auto', true)).toBe('pretty');
    expect(resolveLogFormat('auto', false)).toBe('json');
    expect(resolveLogFormat('json', true)).toBe('json');
    expect(resolveLogFormat('pretty', false)).toBe('pretty');
  });

  it('writes one JSON object per line when the output is not a terminal', () => {
    const line = logOnce('auto', false).trim();
    const parsed = JSON.parse(line) as { msg: string; level: number; req: unknown };
    expect(parsed.msg).toBe('request served');
    expect(parsed.level).toBe(30);
    expect(JSON.stringify(parsed.req)).not.toContain('secret-token');
  });

  it('writes readable lines on a terminal: time, level, message, never the token', () => {
    const text = logOnce('auto', true);
    expect(text.startsWith('{')).toBe(false);
    // Colours on a terminal; the text without them reads "[12:34:56] INFO: request served".
    const plain = text.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '');
    expect(plain).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: request served$/m);
    expect(text).not.toContain('secret-token');
  });

  it('writes readable lines without colours when pretty is configured for a file or pipe', () => {
    const text = logOnce('pretty', false);
    expect(text).toMatch(/^\[\d\d:\d\d:\d\d\] INFO: request served$/m);
    expect(text).not.toContain(String.fromCharCode(27));
  });

  it('a process on a real terminal prints readable lines to standard output', () => {
    // `script` (util-linux, in every Debian) runs the command on a pseudo-terminal.
    const here = path.dirname(new URL(import.meta.url).pathname);
    const program = [
      `import { createLogger } from ${JSON.stringify(path.join(here, 'logger.ts'))};`,
      `createLogger({ level: 'info', format: 'auto' }).info('ready on a terminal');`,
    ].join('\n');
    const command = `${process.execPath} --import tsx --input-type=module -e ${shellQuote(program)}`;
    const out = execFileSync('script', ['-qec', command, '/dev/null'], {
      encoding: 'utf8',
      timeout: 30_000,
    });
    const plain = out.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '');
    expect(plain).toMatch(/\[\d\d:\d\d:\d\d\] INFO: ready on a terminal/);
    expect(plain).not.toContain('"msg"');
  });
});

function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
