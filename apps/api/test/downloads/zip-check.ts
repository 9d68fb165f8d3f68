import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface ZipListing {
  name: string;
  size: number;
  sha256: string;
  /** 0 stored, 8 deflated. */
  method: number;
}

const LIST = `
import hashlib, json, sys, zipfile
with zipfile.ZipFile(sys.argv[1]) as z:
    bad = z.testzip()
    if bad is not None:
        sys.exit('bad CRC in ' + bad)
    out = []
    for info in z.infolist():
        h = hashlib.sha256()
        with z.open(info) as f:
            for chunk in iter(lambda: f.read(1 << 20), b''):
                h.update(chunk)
        out.append({'name': info.filename, 'size': info.file_size, 'sha256': h.hexdigest(), 'method': info.compress_type})
    print(json.dumps(out))
`;

/**
 * Checks an archive with two independent readers: `unzip -t` (every CRC) and Python's zipfile
 * (which also hashes every entry's bytes), and answers the entries.
 */
export async function inspectZip(file: string): Promise<ZipListing[]> {
  await run('unzip', ['-t', '-qq', file]);
  const { stdout } = await run('python3', ['-c', LIST, file], { maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(stdout) as ZipListing[];
}
