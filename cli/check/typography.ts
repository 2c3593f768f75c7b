/**
 * `sitegen check`'s typography rules, per language, over every string and Markdown page: an
 * ellipsis is one character ("…", never "..."); French puts a narrow no-break space (U+202F, or a
 * no-break space U+00A0) before ; : ? ! » and after «, never an ordinary space; German, Italian
 * and Dutch prose quotes with their own marks („…“, «…», “…”), never the straight " of a
 * typewriter; Spanish writes a comma after "por ejemplo". Code spans, HTML tags, URLs and
 * {{placeholders}} are not prose and are left alone.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Problem } from '../site/errors.ts';
import { LANGUAGES, type Lang } from '../site/languages.ts';
import { readLocaleFile } from '../site/translations/translation-files.ts';

/** One rule: what it finds in prose, and what to write instead. */
interface Rule {
  langs: readonly Lang[] | 'all';
  pattern: RegExp;
  advice: string;
}

const RULES: readonly Rule[] = [
  { langs: 'all', pattern: /\.\.\./g, advice: 'write the ellipsis "…" (one character), not three dots' },
  { langs: ['fr'], pattern: / [;:?!»]/g, advice: 'French puts a narrow no-break space (U+202F) before ; : ? ! », not an ordinary space' },
  { langs: ['fr'], pattern: /« /g, advice: 'French puts a narrow no-break space (U+202F) after «, not an ordinary space' },
  { langs: ['de', 'it', 'nl'], pattern: /"/g, advice: 'quote with the language\'s marks („…“ in German, «…» or “…” in Italian, “…” in Dutch), not a straight "' },
  { langs: ['es'], pattern: /\bpor ejemplo(?=\s+[\p{L}\d])/giu, advice: 'Spanish writes a comma after "por ejemplo"' },
];

/** The prose of a text: code spans, HTML tags, URLs, placeholders and Markdown link targets blanked out. */
function prose(text: string): string {
  return text
    .replace(/`[^`]*`/g, (m) => ' '.repeat(m.length))
    .replace(/<[^>]*>/g, (m) => ' '.repeat(m.length))
    .replace(/\]\([^)]*\)/g, (m) => ' '.repeat(m.length))
    .replace(/\b(?:https?|mailto):[^\s)]*/g, (m) => ' '.repeat(m.length))
    .replace(/\{\{[^}]*\}\}/g, (m) => 'x'.repeat(m.length));
}

/**
 * The typography problems of one text in `lang`: each with what was found and the advice.
 *
 * @example typographyFindings('fr', 'Envoi en cours...') // → [{ found: '...', advice: 'write the ellipsis …' }]
 */
export function typographyFindings(lang: Lang, text: string): Array<{ found: string; advice: string }> {
  const clean = prose(text);
  // One finding per rule and text: the first place, and how many more there are.
  return RULES.filter((rule) => rule.langs === 'all' || rule.langs.includes(lang)).flatMap((rule) => {
    const matches = [...clean.matchAll(rule.pattern)];
    if (matches.length === 0) return [];
    const first = matches[0]!;
    const found = text.slice(Math.max(0, first.index - 12), first.index + first[0].length + 12).trim();
    const more = matches.length > 1 ? ` (and ${matches.length - 1} more in this text)` : '';
    return [{ found, advice: rule.advice + more }];
  });
}

/** The typography problems of every string and Markdown page under `contentDir` (paths relative to `root`). */
export function checkTypography(contentDir: string, root: string): Problem[] {
  const problems: Problem[] = [];
  const report = (file: string, line: number, lang: Lang, text: string) => {
    for (const { found, advice } of typographyFindings(lang, text)) problems.push({ code: 'typography', file, line, message: `"${found}": ${advice}` });
  };
  for (const lang of LANGUAGES) {
    // A missing or unreadable locale file is the translations check's problem.
    const locale = readLocaleFile(contentDir, root, lang);
    if (!('code' in locale)) for (const [key, value] of Object.entries(locale.flat)) report(locale.file, locale.lines.get(key) ?? 1, lang, value);
    const pagesDir = join(contentDir, 'pages', lang);
    if (!existsSync(pagesDir)) continue;
    for (const name of readdirSync(pagesDir).filter((n) => n.endsWith('.md'))) {
      const path = join(pagesDir, name);
      let fenced = false;
      let frontMatter = false;
      readFileSync(path, 'utf8').split('\n').forEach((text, index) => {
        if (index === 0 && text === '---') frontMatter = true;
        else if (frontMatter && text === '---') frontMatter = false;
        if (/^```/.test(text)) fenced = !fenced;
        if (fenced) return;
        // Front matter values are prose too (title, description); its keys and dashes are not.
        report(relative(root, path), index + 1, lang, frontMatter ? text.replace(/^[\w-]+:\s*/, '') : text);
      });
    }
  }
  return problems;
}
