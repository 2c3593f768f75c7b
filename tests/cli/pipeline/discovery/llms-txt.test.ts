import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { llmsTxtFile } from '../../../../cli/pipeline/discovery/llms-txt.ts';
import { DEFAULT_PATHS } from '../../../../cli/paths.ts';
import { LANGUAGES } from '../../../../cli/site/languages.ts';
import { resolveUrl } from '../../../../cli/site/resolve-url.ts';
import { loadContentPages } from '../../../../cli/site/markdown/content-pages.ts';
import { isIndexed, siteRoutes } from '../../../../cli/site/routes.ts';
import { loadSiteConfig } from '../../../../cli/site/site-config.ts';
import { useBuiltSite } from '../../../helpers/built-site.ts';

const SITE = loadSiteConfig(DEFAULT_PATHS.contentDir).siteUrl;
const ROUTES = siteRoutes(loadContentPages(DEFAULT_PATHS.contentDir).pages);
const built = useBuiltSite();

/**
 * An llms.txt read by the llmstxt.org rules: one H1 first, then a blockquote, free text, and H2
 * sections whose lines are Markdown list links (`- [name](url)`, optionally `: notes`).
 * Throws on a line that fits none of these.
 */
function parseLlmsTxt(text: string): { title: string; summary: string; sections: Map<string, { name: string; url: string; notes: string }[]> } {
  const lines = text.split('\n');
  expect(lines[0]).toMatch(/^# \S/);
  expect(lines.filter((l) => /^# /.test(l))).toHaveLength(1);
  const summary = lines.find((l) => l.startsWith('> '));
  expect(lines.findIndex((l) => l.startsWith('> '))).toBeLessThan(lines.findIndex((l) => l.startsWith('## ')));
  const sections = new Map<string, { name: string; url: string; notes: string }[]>();
  let current: string | null = null;
  for (const line of lines.slice(1)) {
    if (line.startsWith('## ')) sections.set((current = line.slice(3)), []);
    else if (current !== null && line !== '') {
      const link = /^- \[([^\]]+)\]\(([^)\s]+)\)(?:: (.+))?$/.exec(line);
      if (!link) throw new Error(`not a list link in section "${current}": ${line}`);
      sections.get(current)!.push({ name: link[1]!, url: link[2]!, notes: link[3] ?? '' });
    }
  }
  return { title: lines[0]!.slice(2), summary: summary!.slice(2), sections };
}

describe('llms.txt', () => {
  it.each(LANGUAGES)('%s: parses as the format says, and every link resolves to a built page or index', (lang) => {
    const text = readFileSync(join(built.outDir, llmsTxtFile(lang)), 'utf8');
    const { title, summary, sections } = parseLlmsTxt(text);
    expect(title).toBe('MaskWise');
    expect(summary.length).toBeGreaterThan(70);
    const links = [...sections.values()].flat();
    const exists = (file: string) => existsSync(join(built.outDir, file));
    for (const { url } of links) {
      expect(url.startsWith(`${SITE}/`)).toBe(true);
      const path = url.slice(SITE.length);
      const resolution = resolveUrl(path, exists);
      expect(resolution.type, url).toBe('file');
    }
    // Every indexed page of the language once, each with its description; every other language's index.
    const pages = ROUTES.allRoutes([lang]).filter((r) => isIndexed(r.page) && r.path === r.canonical);
    const pageLinks = links.filter((l) => !l.url.endsWith('/llms.txt'));
    expect(pageLinks.map((l) => l.url).sort()).toEqual(pages.map((r) => SITE + r.path).sort());
    expect(new Set(pageLinks.map((l) => l.url)).size).toBe(pageLinks.length);
    for (const link of pageLinks) expect(link.notes.length, link.url).toBeGreaterThan(30);
    expect(links.filter((l) => l.url.endsWith('/llms.txt')).map((l) => l.url)).toEqual(LANGUAGES.filter((l) => l !== lang).map((l) => `${SITE}/${llmsTxtFile(l)}`));
    expect([...sections.keys()].at(-1)).toBe('Optional');
  });

  it('en: lists the regulation pages under their own heading, after the solutions', () => {
    const { sections } = parseLlmsTxt(readFileSync(join(built.outDir, llmsTxtFile('en')), 'utf8'));
    expect([...sections.keys()]).toEqual(['Quick links', 'Solutions', 'By regulation', 'Choose a language', 'Optional']);
    expect(sections.get('By regulation')!.map((l) => l.url.slice(SITE.length)).sort()).toEqual(['/ccpa', '/gdpr', '/hipaa', '/pci-dss', '/sox']);
  });
});
