/** One line of the Prometheus text format: a sample's name, labels and value. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LINE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)",?/gy;

/** Every sample of a scrape (comments left out); throws on a line that is not one. */
export function parseSamples(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = LINE.exec(line);
    if (!match) throw new Error(`not a sample: ${line}`);
    const [, name = '', body = '', value = ''] = match;
    const labels: Record<string, string> = {};
    let at = 0;
    while (at < body.length) {
      LABEL.lastIndex = at;
      const m = LABEL.exec(body);
      if (!m) throw new Error(`labels not understood: ${line}`);
      labels[m[1] ?? ''] = (m[2] ?? '').replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
      at = LABEL.lastIndex;
    }
    samples.push({ name, labels, value: Number(value) });
  }
  return samples;
}

/** A parsed scrape: the value of a sample by name and labels (all of them, exactly). */
export class Scrape {
  readonly samples: Sample[];

  constructor(readonly text: string) {
    this.samples = parseSamples(text);
  }

  /** The sample of exactly these labels; 0 when there is none (a counter not yet moved). */
  value(name: string, labels: Record<string, string> = {}): number {
    const keys = Object.keys(labels);
    const found = this.samples.find(
      (s) =>
        s.name === name &&
        Object.keys(s.labels).length === keys.length &&
        keys.every((key) => s.labels[key] === labels[key]),
    );
    return found?.value ?? 0;
  }

  /** Every sample of this name. */
  named(name: string): Sample[] {
    return this.samples.filter((s) => s.name === name);
  }
}
