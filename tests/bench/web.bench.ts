/**
 * `npm run bench:web`: builds the site, serves it locally as production hosts do (the local static
 * server: clean URLs, the `_headers` security headers, precompressed files, `/api` forwarded to a
 * real ingest service) and runs Lighthouse's mobile configuration on home, about, contact and
 * privacy in English and German — and on the same pages as bare HTML without any script, the
 * baseline. Prints the four category scores, LCP, CLS, TBT, bytes transferred and JavaScript
 * bytes per page, the LCP ratio page/baseline, what the home pages' first screen needs, and the
 * W3C Nu HTML checker's verdict on every built page. Numbers only: no pass/fail assertions.
 * Lighthouse runs `BENCH_RUNS` times per URL (default 3) and the median run by performance score
 * is reported: a busy machine makes single runs vary by tens of points.
 *
 * `--smoke`: English and German built, one Lighthouse run on /de and one on its baseline, the
 * Nu checker on that page only. Without Lighthouse or Chromium the Lighthouse rows say so; without Java, the Nu
 * checker's line does.
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSite } from '../../cli/pipeline/build-site.ts';
import { DEFAULT_PATHS, INGEST_BIN, PROJECT_ROOT } from '../../cli/paths.ts';
import { precompress } from '../../cli/assets/precompress.ts';
import { fileForPath, pathFor, type PageId } from '../../cli/site/routes.ts';
import { createStaticServer } from '../../cli/serve/static-server.ts';
import { FIRST_ROUND_TRIP_BYTES, firstRender } from './first-render.ts';
import { runLighthouse, type LighthouseSummary } from './lighthouse-run.ts';
import { runVnu } from './vnu.ts';
import { figure, installed, SMOKE, skippedRow, targetColumns } from './smoke.ts';

const PAGES: PageId[] = ['home', 'about', 'contact', 'privacy'];
const RUNS = SMOKE ? 1 : Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const LANGS = ['en', 'de'] as const;
const measured = SMOKE ? [pathFor('home', 'de')] : LANGS.flatMap((lang) => PAGES.map((page) => pathFor(page, lang)));
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
// Why Lighthouse cannot run here, or null when it can.
const noLighthouse = !existsSync(join(PROJECT_ROOT, 'node_modules', '.bin', 'lighthouse'))
  ? 'Lighthouse not installed (npm install)'
  : !existsSync(chromePath)
    ? `no Chromium at ${chromePath} (apt-get install -y chromium, or set CHROME_PATH)`
    : null;

const work = mkdtempSync(join(tmpdir(), 'bench-web-'));
const outDir = join(work, 'dist');
const started = performance.now();
// A smoke run builds the two languages it reads (the whole site is a fifth of its time here).
const build = await buildSite({ ...DEFAULT_PATHS, outDir, ...(SMOKE ? { langs: LANGS } : {}) });
if (build.errors.length > 0) throw new Error(`build failed:\n${build.errors.join('\n')}`);
console.log(`built ${build.pages.length} pages in ${Math.round(performance.now() - started)} ms into ${outDir}`);

// The baseline: the same pages with every <script> element removed (no loader, no islands' props, no JSON-LD).
const bareDir = join(work, 'bare');
cpSync(outDir, bareDir, { recursive: true });
for (const path of measured) {
  const file = fileForPath(path);
  writeFileSync(join(bareDir, file), readFileSync(join(outDir, file), 'utf8').replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, ''));
  rmSync(join(bareDir, `${file}.gz`), { force: true });
  rmSync(join(bareDir, `${file}.br`), { force: true });
}
precompress(bareDir, measured.map(fileForPath));

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const ingestPort = 20_000 + Math.floor(Math.random() * 20_000);
const ingest = spawn(process.execPath, [INGEST_BIN, 'serve'], {
  cwd: work,
  env: { ...process.env, PORT: String(ingestPort), HOST: '127.0.0.1', DATA_DIR: join(work, 'data'), TRUST_PROXY: '127.0.0.1', LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'inherit', 'inherit'],
});
for (let i = 0; i < 200; i++) {
  if (await fetch(`http://127.0.0.1:${ingestPort}/readyz`).then((r) => r.ok, () => false)) break;
  await new Promise((r) => setTimeout(r, 100));
}
const site = createStaticServer({ root: outDir, apiTarget: `http://127.0.0.1:${ingestPort}` });
const bare = createStaticServer({ root: bareDir });
const siteUrl = await listen(site);
const bareUrl = await listen(bare);

/** Runs Lighthouse `RUNS` times and returns the run with the median performance score (then median LCP). */
async function medianRun(url: string): Promise<LighthouseSummary & { spread: string }> {
  const runs: LighthouseSummary[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await runLighthouse(url, join(work, 'report.json')));
  const sorted = [...runs].sort((a, b) => a.performance - b.performance || b.lcpMs - a.lcpMs);
  return {
    ...sorted[Math.floor(sorted.length / 2)]!,
    spread: `performance ${runs.map((r) => r.performance).join(',')}, TBT ms ${runs.map((r) => Math.round(r.tbtMs)).join(',')}`,
  };
}

const results: { path: string; page: LighthouseSummary & { spread: string }; baseline: LighthouseSummary }[] = [];
try {
  for (const path of noLighthouse === null ? measured : []) {
    process.stdout.write(`lighthouse ${path} (${RUNS}× page, ${RUNS}× bare) … `);
    const page = await medianRun(siteUrl + path);
    const baseline = await medianRun(bareUrl + path);
    results.push({ path, page, baseline });
    process.stdout.write(`${page.performance}/${page.accessibility}/${page.bestPractices}/${page.seo} (each run: ${page.spread}; bare: ${baseline.spread})\n`);
  }
} finally {
  site.close();
  bare.close();
  ingest.kill('SIGTERM');
}

const kb = (bytes: number) => +(bytes / 1024).toFixed(1);
console.log(
  `\nLighthouse 12.8, mobile configuration (simulated slow 4G, 4× CPU slowdown), Debian Chromium, median of ${RUNS} runs.` +
    (SMOKE ? ' Smoke run: no target judged.\n' : ' Targets: 100 in every category, CLS 0, TBT 0 ms, LCP ≤ 1.1 × baseline.\n'),
);
console.table(
  Object.fromEntries([
    ...measured.filter(() => noLighthouse !== null).map((path) => [path, skippedRow(noLighthouse!)]),
    ...results.map(({ path, page, baseline }) => [
      path,
      {
        perf: page.performance,
        a11y: page.accessibility,
        'best pr.': page.bestPractices,
        seo: page.seo,
        'LCP ms': Math.round(page.lcpMs),
        CLS: +page.cls.toFixed(3),
        'TBT ms': Math.round(page.tbtMs),
        'transfer KB': kb(page.totalBytes),
        'JS KB': kb(page.scriptBytes),
        'bare LCP ms': Math.round(baseline.lcpMs),
        // What the machine's style/layout/parse work costs without any script: the floor for TBT.
        'bare TBT ms': Math.round(baseline.tbtMs),
        'LCP ratio': +(figure(page.lcpMs, `${path}: LCP`, 1) / figure(baseline.lcpMs, `${path} without scripts: LCP`, 1)).toFixed(3),
      },
    ]),
  ]),
);
for (const { path, page } of results) {
  if (page.missed.length > 0) console.log(`${path}: audits below full marks: ${page.missed.join(', ')}`);
}

console.log(`\nFirst screen of the home pages (target: within the first ${FIRST_ROUND_TRIP_BYTES} B of gzip HTML, nothing render-blocking)\n`);
console.table(
  Object.fromEntries(
    LANGS.map((lang) => {
      const path = pathFor('home', lang);
      const first = firstRender(readFileSync(join(outDir, fileForPath(path)), 'utf8'));
      const within = first.htmlGzip <= FIRST_ROUND_TRIP_BYTES && first.blocking.length === 0;
      return [path, { 'HTML gzip B to end of hero': first.htmlGzip, 'render-blocking': first.blocking.join(' ') || 'none', ...targetColumns({ 'within 14 KB': within ? 'yes' : 'NO' }) }];
    }),
  ),
);

if (installed('java', ['-version'])) {
  // The whole site takes the checker about a minute here; a smoke run checks the measured pages.
  const vnu = runVnu(outDir, SMOKE ? measured.map(fileForPath) : undefined);
  figure(vnu.files, 'pages the Nu checker checked', 1);
  console.log(`\nW3C Nu HTML checker on ${vnu.files} built pages: ${vnu.errors.length} errors, ${vnu.warnings.length} warnings (${vnu.infos} informational notes)`);
  for (const message of [...vnu.errors, ...vnu.warnings].slice(0, 20)) {
    console.log(`  ${message.url.replace(`file:${outDir}/`, '')}:${message.lastLine ?? '?'}: ${message.type}${message.subType ? `/${message.subType}` : ''}: ${message.message}`);
  }
} else {
  console.log('\nW3C Nu HTML checker: skipped, no Java here (apt-get install -y default-jre-headless)');
}
rmSync(work, { recursive: true, force: true });
