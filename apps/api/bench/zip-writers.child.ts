// One zip writer in a process of its own, so that its peak RSS is its own (download.bench.ts runs
// it). Usage: zip-writers.child.ts <own|yazl|yazl-bare> archive <folder> <out>
//             zip-writers.child.ts <own|yazl|yazl-bare> cancel <folder>
//             zip-writers.child.ts <own|yazl|yazl-bare> many <count>
// Prints one line of JSON. `folder` is a collection's folder on local storage (one folder per
// file, each holding `original`), read through the local driver's own file body (1 MiB reads).
import { createWriteStream } from 'node:fs';
import { open, readdir, readlink, stat } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import { FileBody } from '../src/storage/file-body.js';
import { zipStream as ownZipStream, type ZipEntry } from '../src/downloads/zip/zip-writer.js';
import { zipStream as yazlZipStream } from './yazl-zip.js';

const [writer = 'own', mode = 'archive', arg = '', out = ''] = process.argv.slice(2);

/** yazl as its README shows it (and Outline's export uses it): every entry added up front. */
function bareYazl(entries: ZipEntry[]): Readable {
  const zip = new ZipFile();
  for (const entry of entries)
    zip.addReadStreamLazy(
      entry.name,
      { size: entry.size, mtime: entry.mtime, compress: entry.compress },
      (deliver) => {
        entry.open().then(
          (source) => deliver(null, source),
          (err: unknown) => deliver(err, Readable.from([])),
        );
      },
    );
  zip.end();
  const output = zip.outputStream;
  if (!(output instanceof Readable)) throw new Error('yazl: the output is not a Readable');
  return output;
}

function archive(entries: ZipEntry[]): Readable {
  if (writer === 'own') return ownZipStream(entries);
  if (writer === 'yazl') return yazlZipStream(entries);
  if (writer === 'yazl-bare') return bareYazl(entries);
  throw new Error(`unknown writer ${writer}`);
}

async function fileEntries(folder: string): Promise<ZipEntry[]> {
  const ids = (await readdir(folder)).sort();
  return Promise.all(
    ids.map(async (id, i) => {
      const file = path.join(folder, id, 'original');
      const { size } = await stat(file);
      return {
        name: `Photos/IMG_${String(i).padStart(4, '0')}.jpg`,
        size,
        mtime: new Date(),
        compress: false,
        open: async () => new FileBody(await open(file), 0, size - 1),
      };
    }),
  );
}

/** File descriptors of this process open on files under `folder`. */
async function openUnder(folder: string): Promise<number> {
  let count = 0;
  for (const fd of await readdir('/proc/self/fd')) {
    const target = await readlink(`/proc/self/fd/${fd}`).catch(() => '');
    if (target.startsWith(folder)) count++;
  }
  return count;
}

const sink = () =>
  new Writable({
    write(_chunk: Buffer, _encoding, callback) {
      callback();
    },
  });

const rssBefore = process.memoryUsage().rss;
const started = performance.now();
const result: Record<string, number> = {};
if (mode === 'archive') {
  await pipeline(archive(await fileEntries(arg)), createWriteStream(out));
} else if (mode === 'many') {
  const data = Buffer.alloc(100, 'a');
  const entries = Array.from({ length: Number(arg) }, (_, i) => ({
    name: `Documents/${i}.txt`,
    size: data.length,
    mtime: new Date(),
    compress: false,
    open: () => Promise.resolve(Readable.from([data], { objectMode: false })),
  }));
  await pipeline(archive(entries), sink());
} else if (mode === 'cancel') {
  // The consumer goes away 100 MiB in (a job aborted, storage failing): the archive stream is
  // destroyed, as pipeline() destroys it; is the file being read closed?
  const stream = archive(await fileEntries(arg));
  let seen = 0;
  await new Promise<void>((resolve) => {
    stream.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      if (seen >= 100 * 1024 * 1024) {
        stream.destroy();
        resolve();
      }
    });
    stream.on('error', () => resolve());
  });
  await new Promise((resolve) => setTimeout(resolve, 500));
  result.openAfterCancel = await openUnder(arg);
}
result.ms = performance.now() - started;
result.rssGrowthMb = (process.resourceUsage().maxRSS * 1024 - rssBefore) / 1024 ** 2;
console.log(JSON.stringify(result));
process.exit(0);
