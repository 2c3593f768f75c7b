/**
 * A build's plan as a value: for each page, render, keep or delete, and whether the output checks
 * run, each with its reason. Pure: the previous build's records and this build's keys come in,
 * and what the output folders hold is asked of a view passed in (`PlanFiles`), so a test gives a
 * plain fake. The build follows the plan; `sitegen build --explain` prints it.
 *
 *   const plan = planPages({ previous, shared, pages, inputsOf, stringValue, files });
 *   plan.get('de/about.html') // { decision: 'render', reason: 'strings it reads changed: nav.about', … }
 */
import type { Lang } from '../../site/languages.ts';

/**
 * What a page reads besides what every page reads (its route is part of the routes table, which
 * every page reads), each as a hash: a page whose three are unchanged renders the same HTML.
 */
export interface PageInputs {
  /** Its social card's URL. */
  card: string;
  /** Its Markdown file (a legal text or a page added as Markdown); empty for a template alone. */
  markdown: string;
  /** The values of the strings it read, in this build's messages. */
  strings: string;
}

/** What the previous build recorded of a page. */
export interface RecordedPage {
  inputs: PageInputs;
  /** The string keys it read. */
  keys: readonly string[];
}

/** The previous build's records, as the plan reads them. */
export interface PreviousRecords {
  /** What every page read, by part (`code`, `site`, …): hash. */
  shared: Readonly<Record<string, string>>;
  /** Each page it made, by output file. */
  pages: ReadonlyMap<string, RecordedPage>;
  /** A string's value then (its hash), by language and key; undefined when not recorded. */
  stringValue(lang: Lang, key: string): string | undefined;
}

/** What the output folders hold, as the plan asks it: the file system passed in. */
export interface PlanFiles {
  /** Whether the served output or its spare still holds the page's files as the previous build wrote them. */
  holdsPage(file: string): boolean;
}

/** A page of this build. */
export interface PlannedPage {
  file: string;
  path: string;
  lang: Lang;
}

/** What the build does with one page (by its output file; a page to delete has no path in this build), and why. */
export interface PageDecision {
  file: string;
  path: string;
  decision: 'render' | 'keep' | 'delete';
  reason: string;
}

/** Whether the output checks (and the host configurations) run, and why. */
export interface ChecksDecision {
  run: boolean;
  reason: string;
}

/** The whole plan of a build, as `--explain` prints it. */
export interface BuildPlan {
  pages: PageDecision[];
  checks: ChecksDecision;
}

/** What `planPages` is given. */
export interface PagePlanInput<P extends PlannedPage = PlannedPage> {
  /** Null when there are none (a first build, `--no-cache`, or records that cannot be read). */
  previous: PreviousRecords | null;
  /** This build's shared parts, as `PreviousRecords.shared`. */
  shared: Readonly<Record<string, string>>;
  pages: readonly P[];
  /**
   * This build's inputs of a page the last build recorded: its strings over the keys it read
   * then (`recorded.keys`); a language whose strings all say what they said then may answer the
   * recorded hash without hashing them again.
   */
  inputsOf(page: P, recorded: RecordedPage): PageInputs;
  /** A string's value now (its hash), as `PreviousRecords.stringValue`. */
  stringValue(lang: Lang, key: string): string;
  files: PlanFiles;
}

/** How the shared parts read in a reason. */
const SHARED_PARTS: Readonly<Record<string, string>> = {
  code: 'the rendering code (project modules, locked packages)',
  site: 'site.json',
  placeholders: 'the placeholder values',
  routes: 'the routes table',
  frontMatter: "the Markdown pages' front matter",
  assets: 'the linked assets (stylesheet, islands, images)',
  languages: 'the languages built',
  year: 'the year',
};

/** The parts that differ between two sets of shared hashes, named for a reason. */
function changedShared(before: Readonly<Record<string, string>>, now: Readonly<Record<string, string>>): string[] {
  const parts = new Set([...Object.keys(before), ...Object.keys(now)]);
  return [...parts].filter((part) => before[part] !== now[part]).map((part) => SHARED_PARTS[part] ?? part);
}

/** A list of names for a reason, cut after five. */
function named(names: readonly string[]): string {
  return names.length <= 5 ? names.join(', ') : `${names.slice(0, 5).join(', ')} and ${names.length - 5} more`;
}

/** Why a page with a record must be rendered again; null when it may be kept. */
function renderReason<P extends PlannedPage>(page: P, recorded: RecordedPage, input: PagePlanInput<P>, previous: PreviousRecords): string | null {
  const now = input.inputsOf(page, recorded);
  if (now.card !== recorded.inputs.card) return 'its social card changed';
  if (now.markdown !== recorded.inputs.markdown) return 'its Markdown file changed';
  if (now.strings !== recorded.inputs.strings) {
    const keys = recorded.keys.filter((key) => previous.stringValue(page.lang, key) !== input.stringValue(page.lang, key));
    return keys.length > 0 ? `strings it reads changed: ${named(keys)}` : 'strings it reads changed';
  }
  if (!input.files.holdsPage(page.file)) return 'its files are in neither the output nor the spare as the last build wrote them';
  return null;
}

/**
 * The decision for every page of this build (render or keep) and for every page the previous
 * build made that this one does not (delete), by output file, in the order given.
 */
export function planPages<P extends PlannedPage>(input: PagePlanInput<P>): Map<string, PageDecision> {
  const plan = new Map<string, PageDecision>();
  const { previous } = input;
  const everyPage =
    previous === null ? 'no records of a previous build' : changedShared(previous.shared, input.shared).map((part) => `${part} changed, which every page reads`).join('; ') || null;
  for (const page of input.pages) {
    const recorded = previous?.pages.get(page.file);
    const reason = everyPage ?? (recorded ? renderReason(page, recorded, input, previous!) : 'new page: the last build did not make it');
    plan.set(page.file, { file: page.file, path: page.path, decision: reason === null ? 'keep' : 'render', reason: reason ?? 'what it reads and its files are as the last build left them' });
  }
  for (const file of previous?.pages.keys() ?? []) {
    if (!plan.has(file)) plan.set(file, { file, path: '', decision: 'delete', reason: 'the last build made it; this build has no such page' });
  }
  return plan;
}

/** Pages rendered beyond which the checks run instead of reading every rendered page's skeleton to compare (a third of a render each). */
export function skeletonsCompared(pages: number): number {
  return Math.max(50, pages / 10);
}

/**
 * Whether the output checks run: `key` is the hash of what they read (the pages' tags, scripts
 * and styles, the sitemap without its dates, robots.txt, the list of files), empty when it was
 * not taken; `previousKey` the last build's.
 */
export function planChecks({ rendered, pages, key, previousKey }: { rendered: number; pages: number; key: string; previousKey: string | undefined }): ChecksDecision {
  if (key === '') return { run: true, reason: `${rendered} pages rendered, more than ${Math.floor(skeletonsCompared(pages))}: checked rather than compared` };
  if (previousKey === undefined || previousKey === '') return { run: true, reason: 'no record of the last build’s checks' };
  if (key !== previousKey) return { run: true, reason: "what they read changed (the pages' tags, scripts and styles, the sitemap, robots.txt or the list of files)" };
  return { run: false, reason: 'what they read is as the last build left it' };
}

/** The plan of a build that found its inputs and output as the last build left them (the build record): every page kept, no checks. */
export function unchangedPlan(pages: readonly Pick<PlannedPage, 'file' | 'path'>[]): BuildPlan {
  const reason = "the build's inputs and its output are as the last build recorded them";
  return { pages: pages.map((page) => ({ file: page.file, path: page.path, decision: 'keep', reason })), checks: { run: false, reason } };
}

/**
 * The plan as `--explain` prints it: a line per page, then the checks.
 *
 * @example explainLines(plan) // ['render  /de/about  strings it reads changed: nav.about', …, 'checks  skip  what they read is as the last build left it']
 */
export function explainLines(plan: BuildPlan): string[] {
  const width = Math.max(6, ...plan.pages.map((page) => (page.path || page.file).length));
  const lines = plan.pages.map((page) => `${page.decision.padEnd(6)}  ${(page.path || page.file).padEnd(width)}  ${page.reason}`);
  lines.push(`checks  ${(plan.checks.run ? 'run' : 'skip').padEnd(width)}  ${plan.checks.reason}`);
  return lines;
}
