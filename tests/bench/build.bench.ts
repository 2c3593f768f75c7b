/**
 * `npm run bench:build`: times `sitegen build` as a user runs it (wall time of the whole command,
 * three runs) and prints, per page, the gzip bytes of its HTML, CSS and JavaScript, split into what
 * loads before first render and what loads later.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { PROJECT_ROOT } from '../../cli/paths.ts';
import { fileForPath } from '../../cli/site/routes.ts';
import { pageWeight } from './page-weight.ts';

const RUNS = 3;
const outDir = mkdtempSync(join(tmpdir(), 'bench-build-'));
const wall: number[] = [];
let pages = 0;
for (let run = 0; run < RUNS; run++) {
  const started = performance.now();
  const result = spawnSync(process.execPath, [join(PROJECT_ROOT, 'cli', 'bin.js'), 'build', '--out', outDir], { encoding: 'utf8' });
  wall.push(performance.now() - started);
  if (result.status !== 0) throw new Error(`sitegen build failed:\n${result.stderr}`);
  pages = Number(result.stdout.match(/built (\d+) pages/)?.[1] ?? 0);
}
const best = Math.min(...wall);
const median = [...wall].sort((a, b) => a - b)[Math.floor(RUNS / 2)]!;

console.log(`\nsitegen build --lang all (${RUNS} runs, wall time of the whole command incl. Node start-up)\n`);
console.table({
  build: {
    pages,
    'best ms': Math.round(best),
    'median ms': Math.round(median),
    'ms/page (median)': +(median / pages).toFixed(1),
    'target ms': 3000,
    'within target': median < 3000 ? 'yes' : 'NO',
  },
});

const sample = ['/', '/about', '/contact', '/privacy', '/de', '/de/about', '/de/contact', '/de/datenschutz', '/404'];
const rows: Record<string, Record<string, number | string>> = {};
for (const path of sample) {
  const weight = pageWeight(outDir, fileForPath(path));
  rows[path] = {
    'HTML gz': weight.htmlGzip,
    'CSS gz (blocking)': weight.cssGzip,
    'JS gz before render': weight.jsBeforeRenderGzip,
    'later: React runtime gz': weight.jsRuntimeGzip,
    'later: island code gz': weight.jsIslandsGzip,
    'island code ≤ 15 KB': weight.jsIslandsGzip <= 15 * 1024 ? 'yes' : 'NO',
  };
}
console.log('\nBytes per page (gzip level 9). Before render: HTML + CSS + blocking scripts. Later: modules loaded only when an island hydrates (menu touched, form scrolled into view).\n');
console.table(rows);
console.log(`sitemap.xml gzip: ${gzipSync(readFileSync(join(outDir, 'sitemap.xml')), { level: 9 }).length} B`);
