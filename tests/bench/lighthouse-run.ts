import { spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../cli/paths.ts';

/** What the web benchmark reports of one Lighthouse run. */
export interface LighthouseSummary {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  lcpMs: number;
  cls: number;
  tbtMs: number;
  fcpMs: number;
  totalBytes: number;
  scriptBytes: number;
  /** Audits of the four categories that did not score full marks, as `id (score)`. */
  missed: string[];
}

/** Debian's Chromium with the flags that let it run headless here, offline (docs/ENVIRONMENT.md). */
const CHROME_FLAGS = [
  '--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
].join(' ');

interface Audit { score: number | null; numericValue?: number; scoreDisplayMode: string; details?: { items?: { resourceType?: string; transferSize?: number }[] } }
interface Report {
  categories: Record<string, { score: number; auditRefs: { id: string; weight: number }[] }>;
  audits: Record<string, Audit>;
  runtimeError?: { message: string };
}

/**
 * Runs Lighthouse (its default, mobile configuration: simulated slow 4G and a 4× slower CPU) on
 * one URL with the `lighthouse` CLI and Debian's Chromium, and returns the numbers the benchmark
 * prints. Asynchronous, so a server in the same process keeps answering.
 */
export async function runLighthouse(url: string, outFile: string, attempts = 3): Promise<LighthouseSummary> {
  try {
    return await runOnce(url, outFile);
  } catch (error) {
    // Chromium on a busy machine now and then loses the trace (NO_NAVSTART): run again.
    if (attempts > 1 && /NO_NAVSTART|NO_FCP|trace/i.test((error as Error).message)) return runLighthouse(url, outFile, attempts - 1);
    throw error;
  }
}

async function runOnce(url: string, outFile: string): Promise<LighthouseSummary> {
  const child = spawn(
    join(PROJECT_ROOT, 'node_modules', '.bin', 'lighthouse'),
    [url, `--chrome-flags=${CHROME_FLAGS}`, '--output=json', `--output-path=${outFile}`, '--quiet'],
    { env: { ...process.env, CHROME_PATH: process.env.CHROME_PATH ?? '/usr/bin/chromium' }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`lighthouse failed on ${url} (exit ${code}):\n${stderr}`);
  const report = JSON.parse(readFileSync(outFile, 'utf8')) as Report;
  rmSync(outFile, { force: true });
  if (report.runtimeError) throw new Error(`lighthouse on ${url}: ${report.runtimeError.message}`);
  const score = (id: string) => Math.round((report.categories[id]?.score ?? 0) * 100);
  const value = (id: string) => report.audits[id]?.numericValue ?? Number.NaN;
  const resources = report.audits['resource-summary']?.details?.items ?? [];
  const missed = Object.values(report.categories)
    .flatMap((c) => c.auditRefs)
    .map((ref) => ({ id: ref.id, audit: report.audits[ref.id]! }))
    .filter(({ audit }) => audit && audit.score !== null && audit.score < 1 && ['binary', 'numeric', 'metricSavings'].includes(audit.scoreDisplayMode))
    .map(({ id, audit }) => `${id} (${audit.score})`);
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
    lcpMs: value('largest-contentful-paint'),
    cls: value('cumulative-layout-shift'),
    tbtMs: value('total-blocking-time'),
    fcpMs: value('first-contentful-paint'),
    totalBytes: value('total-byte-weight'),
    scriptBytes: resources.find((r) => r.resourceType === 'script')?.transferSize ?? 0,
    missed: [...new Set(missed)],
  };
}
