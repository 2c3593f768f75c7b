/**
 * `npm run bench:build`: times `sitegen build` as a user runs it (wall time of the whole command,
 * three runs) and prints, per page, the gzip bytes of its HTML, CSS and JavaScript, split into what
 * loads before first render and what loads later. Then the same at scale (issue 17): the site
 * with 7 × 150 more Markdown pages made from the legal texts, against the targets (whole build
 * ≤ 3 s, render ≤ 2 ms a page, peak memory ≤ 500 MB), beside Hugo building the same Markdown
 * pages when `hugo` is installed.
 *
 * Usage: npx tsx tests/bench/build.bench.ts [--smoke] [--content DIR]. `--smoke`: one run of each
 * build, 7 × 10 generated pages, no target judged. `--content` builds another content folder
 * than the project's (tests/bench/smoke.test.ts gives it a broken one).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { DEFAULT_PATHS, PROJECT_ROOT } from '../../cli/paths.ts';
import { LANGUAGES } from '../../cli/site/languages.ts';
import { fileForPath } from '../../cli/site/routes.ts';
import { pageWeight } from './page-weight.ts';
import { GENERATED_PER_LANGUAGE, hugoSite, scaledContent } from './scaling-site.ts';
import { figure, installed, option, SMOKE, targetColumns } from './smoke.ts';

const RUNS = SMOKE ? 1 : 3;
const GENERATED = SMOKE ? 10 : GENERATED_PER_LANGUAGE;
const sourceContentDir = option('--content') ?? DEFAULT_PATHS.contentDir;
const sitegen = join(PROJECT_ROOT, 'cli', 'bin.js');
const outDir = mkdtempSync(join(tmpdir(), 'bench-build-'));
const wall: number[] = [];
let pages = 0;
for (let run = 0; run < RUNS; run++) {
  const started = performance.now();
  const result = spawnSync(process.execPath, [sitegen, 'build', '--content', sourceContentDir, '--out', outDir], { encoding: 'utf8' });
  wall.push(performance.now() - started);
  if (result.status !== 0) throw new Error(`sitegen build failed:\n${result.stdout}${result.stderr}`);
  pages = figure(Number(result.stdout.match(/built (\d+) pages/)?.[1]), 'pages built', 1);
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
    ...targetColumns({ 'target ms': 3000, 'within target': median < 3000 ? 'yes' : 'NO' }),
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
    ...targetColumns({ 'island code ≤ 15 KB': weight.jsIslandsGzip <= 15 * 1024 ? 'yes' : 'NO' }),
  };
}
console.log('\nBytes per page (gzip level 9). Before render: HTML + CSS + blocking scripts. Later: modules loaded only when an island hydrates (menu touched, form scrolled into view).\n');
console.table(rows);
console.log(`sitemap.xml gzip: ${gzipSync(readFileSync(join(outDir, 'sitemap.xml')), { level: 9 }).length} B`);

// ---- Scaling: 7 × 150 more Markdown pages (7 × 10 in a smoke run) ----

const TARGETS = { wallMs: 3000, renderMsPerPage: 2, peakMb: 500 };
const medianOf = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const range = (values: readonly number[], digits = 0) => `${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)}`;
const verdict = (value: number, target: number) => (value <= target ? 'met' : 'NOT met');

const scaleDir = mkdtempSync(join(tmpdir(), 'bench-scale-'));
const contentDir = scaledContent(scaleDir, sourceContentDir, GENERATED);
const scaled = { wallMs: [] as number[], renderMsPerPage: [] as number[], peakMb: [] as number[], pages: 0 };
for (let run = 0; run < RUNS; run++) {
  const started = performance.now();
  const result = spawnSync(process.execPath, [sitegen, 'build', '--content', contentDir, '--out', join(scaleDir, 'out'), '--timings'], { encoding: 'utf8' });
  scaled.wallMs.push(performance.now() - started);
  if (result.status !== 0) throw new Error(`sitegen build of the scaled site failed:\n${result.stdout}${result.stderr}`);
  scaled.pages = figure(Number(result.stdout.match(/built (\d+) pages/)?.[1]), 'scaled site: pages built', pages + 1);
  scaled.renderMsPerPage.push(figure(Number(result.stdout.match(/render \d+ \(([\d.]+) per page\)/)?.[1]), 'scaled site: render ms per page (--timings)'));
  scaled.peakMb.push(figure(Number(result.stdout.match(/peak memory (\d+) MB/)?.[1]), 'scaled site: peak memory MB (--timings)', 1));
}

/** Hugo's version line, or null when it is not installed; a Hugo that is installed but fails stops the benchmark. */
function hugoVersion(): string | null {
  if (!installed('hugo', ['version'])) return null;
  const run = spawnSync('hugo', ['version'], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`hugo version failed:\n${run.stderr}`);
  return run.stdout.trim();
}

const version = hugoVersion();
let hugo: { wallMs: number[]; peakMb: number[]; pages: number } | null = null;
if (version) {
  const hugoDir = join(scaleDir, 'hugo');
  hugo = { wallMs: [], peakMb: [], pages: hugoSite(hugoDir, contentDir) };
  // GNU time reports Hugo's peak memory; without it, only the wall time is shown.
  const timeBin = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;
  for (let run = 0; run < RUNS; run++) {
    const args = ['--quiet', '--source', hugoDir, '--destination', join(hugoDir, 'public')];
    const started = performance.now();
    const result = timeBin ? spawnSync(timeBin, ['-f', 'peak %M KB', 'hugo', ...args], { encoding: 'utf8' }) : spawnSync('hugo', args, { encoding: 'utf8' });
    hugo.wallMs.push(performance.now() - started);
    if (result.status !== 0) throw new Error(`hugo failed:\n${result.stderr}`);
    const peakKb = Number(result.stderr.match(/peak (\d+) KB/)?.[1] ?? NaN);
    if (Number.isFinite(peakKb)) hugo.peakMb.push(peakKb / 1024);
  }
}

const generated = LANGUAGES.length * GENERATED;
console.log(
  `\nScaling: ${scaled.pages} pages (the site's ${scaled.pages - generated} + ${LANGUAGES.length} × ${GENERATED} Markdown pages made from the legal texts), ` +
    `${RUNS} runs of \`sitegen build --content <copy> --timings\`; render per page is the render stage over all pages, peak memory the process's resident set\n`,
);
const hugoColumn = (values: readonly number[] | undefined, digits = 0) => (values && values.length > 0 ? +medianOf(values).toFixed(digits) : version ? '–' : 'not installed');
console.table({
  'whole build, wall ms': {
    'sitegen median': Math.round(medianOf(scaled.wallMs)),
    range: range(scaled.wallMs),
    ...targetColumns({ target: `≤ ${TARGETS.wallMs}`, 'target met': verdict(medianOf(scaled.wallMs), TARGETS.wallMs) }),
    'Hugo median': hugoColumn(hugo?.wallMs),
  },
  'render, ms per page': {
    'sitegen median': medianOf(scaled.renderMsPerPage),
    range: range(scaled.renderMsPerPage, 2),
    ...targetColumns({ target: `≤ ${TARGETS.renderMsPerPage}`, 'target met': verdict(medianOf(scaled.renderMsPerPage), TARGETS.renderMsPerPage) }),
    'Hugo median': '–',
  },
  'peak memory, MB': {
    'sitegen median': medianOf(scaled.peakMb),
    range: range(scaled.peakMb),
    ...targetColumns({ target: `≤ ${TARGETS.peakMb}`, 'target met': verdict(medianOf(scaled.peakMb), TARGETS.peakMb) }),
    'Hugo median': hugoColumn(hugo?.peakMb),
  },
});
if (version && hugo) {
  console.log(
    `Hugo: ${version.split(' ').slice(0, 2).join(' ')}, the same ${hugo.pages} Markdown pages (the ${generated} generated, the legal texts and the pages added as Markdown) ` +
      `in a minimal ${LANGUAGES.length}-language layout, \`hugo --quiet\`, ${RUNS} runs: median ${Math.round(medianOf(hugo.wallMs))} ms (${range(hugo.wallMs)})`,
  );
} else {
  console.log('Hugo: not installed, comparison skipped (apt-get install -y hugo).');
}
// The scaled site's content, output and Hugo site are about 200 MB.
rmSync(scaleDir, { recursive: true, force: true });
rmSync(outDir, { recursive: true, force: true });
