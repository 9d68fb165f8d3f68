// `npm run bench`: every benchmark prints its figures as ratios against a baseline measured in
// the same run, so results compare across machines. docs/benchmarks.md keeps the latest figures.
import { benchPagination } from './pagination.bench.js';

const suites = [
  { name: `Pagination over ${(100_020).toLocaleString('en')} rows (SQLite)`, run: benchPagination },
];

for (const suite of suites) {
  console.log(`\n${suite.name}`);
  for (const r of await suite.run()) {
    console.log(
      `  ${r.name.padEnd(36)} ${r.ms.toFixed(3).padStart(9)} ms   x${r.ratio.toFixed(2)}`,
    );
  }
}
