import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

// The rules themselves are checked on the real code by `npm run lint:deps` (a stage of
// `npm test`). This file checks that they catch what they are meant to: it cruises
// fixture/, a tiny tree with the project's folder names where each rule is broken once, with
// the repository's own .dependency-cruiser.cjs.

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const FIXTURE = fileURLToPath(new URL('fixture/', import.meta.url));
const DEPCRUISE = `${ROOT}node_modules/dependency-cruiser/bin/dependency-cruise.mjs`;

/** Runs depcruise inside the fixture, so the rules' `^templates/`… paths match there. */
function depcruise(outputType: 'json' | 'err-long') {
  const run = spawnSync(
    process.execPath,
    [DEPCRUISE, 'cli', 'templates', 'ingest', '--config', `${ROOT}.dependency-cruiser.cjs`, '--output-type', outputType],
    { cwd: FIXTURE, encoding: 'utf8' },
  );
  if (run.error) throw run.error;
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

interface Violation {
  type: 'dependency' | 'cycle' | 'module' | string;
  from: string;
  to: string;
  unresolvedTo?: string;
  dependencyTypes?: string[];
  rule: { name: string; severity: string };
}
interface CruiseResult {
  modules: { source: string; dependencies: { resolved: string }[] }[];
  summary: { violations: Violation[] };
}

/** `rule: from → to`, naming an npm package as imported rather than by its file in node_modules. */
function describeViolation(v: Violation): string {
  if (v.type === 'module') return `${v.rule.name}: ${v.from}`;
  const to = v.dependencyTypes?.some((type) => type.startsWith('npm')) ? v.unresolvedTo : v.to; // npm, npm-dev, …
  return `${v.rule.name}: ${v.from} → ${to}`;
}

describe('dependency rules (.dependency-cruiser.cjs) on a fixture that breaks each once', () => {
  let result: CruiseResult;
  beforeAll(() => {
    const run = depcruise('json');
    expect(run.stderr).toBe('');
    result = JSON.parse(run.stdout) as CruiseResult;
  });

  it('reports every broken rule by name with the offending import, and nothing else', () => {
    expect(result.summary.violations.map(describeViolation).sort()).toEqual([
      'cache-below-its-stage: cli/pipeline/cache/records.ts → cli/pipeline/render-page.tsx',
      'contract-no-node-builtins: ingest/contract/schema.ts → fs',
      'contract-only-zod-mini: ingest/contract/schema.ts → zod',
      'ingest-not-to-site: ingest/http/app.ts → cli/site/model.ts',
      'no-circular: cli/check/links.ts → cli/check/pages.ts',
      // One folder cycle, reported from each of its two folders.
      'no-folder-cycle: cli/assets → cli/pipeline',
      'no-folder-cycle: cli/pipeline → cli/assets',
      'no-orphans: ingest/ops/leftover.ts',
      'not-to-unresolvable: cli/verify/html-scan.ts → ./missing.ts',
      'one-front-matter-reader: cli/check/pages.ts → gray-matter',
      'render-without-cache: cli/pipeline/render-pages.ts → cli/pipeline/cache/page-key.ts',
      'site-model-stands-alone: cli/site/model.ts → cli/pipeline/stage.ts',
      'source-not-to-tests: cli/serve/start.ts → tests/helper.ts',
      'templates-only-cli-site: templates/pages/Bad.tsx → cli/pipeline/stage.ts',
    ]);
    expect(new Set(result.summary.violations.map((v) => v.rule.severity))).toEqual(new Set(['error']));
  });

  it('sees the allowed imports (.ts/.tsx paths, zod/mini, node: built-ins in the model) and lets them pass', () => {
    const edges = result.modules.flatMap((m) => m.dependencies.map((d) => `${m.source} → ${d.resolved}`));
    const allowed = [
      'templates/pages/Good.tsx → cli/site/routes.ts',
      'cli/site/model.ts → cli/site/routes.ts',
      'cli/site/routes.ts → path',
      'ingest/http/app.ts → ingest/contract/schema.ts',
      'ingest/contract/schema.ts → ingest/contract/limits.ts',
    ];
    expect(edges).toEqual(expect.arrayContaining(allowed));
    expect(edges).toContainEqual(expect.stringMatching(/^ingest\/contract\/limits\.ts → .*node_modules\/zod\/mini\//));
    const reported = result.summary.violations.map((v) => `${v.from} → ${v.to}`);
    for (const edge of allowed) expect(reported).not.toContain(edge);
    expect(reported.filter((edge) => edge.startsWith('ingest/contract/limits.ts'))).toEqual([]);
  });

  it('prints the rule, the import and the rule’s explanation, and exits non-zero (what `npm run lint:deps` shows)', () => {
    const run = depcruise('err-long');
    expect(run.code).not.toBe(0);
    expect(run.stdout).toContain('error templates-only-cli-site: templates/pages/Bad.tsx → cli/pipeline/stage.ts');
    expect(run.stdout).toContain('A template imports from cli/ outside cli/site/.');
    expect(run.stdout).toContain('14 dependency violations (14 errors, 0 warnings)');
  });
});
