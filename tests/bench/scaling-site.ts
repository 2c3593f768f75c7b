/**
 * The sites `npm run bench:build` builds at scale: a copy of the project's content with 150 more
 * Markdown pages per language, made from that language's legal texts, and the same Markdown
 * pages as a minimal multilingual Hugo site, for comparison.
 */
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LANGUAGES, LOCALES, NATIVE_NAMES } from '../../cli/site/languages.ts';
import { MARKDOWN_PAGES } from '../../cli/site/markdown/markdown.ts';
import { loadSiteConfig, placeholderValues } from '../../cli/site/site-config.ts';

/** Pages added per language: 7 × 150 = 1,050 (the smoke run adds 7 × 10). */
export const GENERATED_PER_LANGUAGE = 150;

/** A legal text split into its `#` title and the Markdown below it. */
function legalText(contentDir: string, lang: string, name: string): { title: string; body: string } {
  const source = readFileSync(join(contentDir, 'pages', lang, `${name}.md`), 'utf8');
  const [first, ...rest] = source.split('\n');
  return { title: first!.replace(/^#\s+/, ''), body: rest.join('\n') };
}

/**
 * Copies `sourceContentDir` to `<dir>/content` and adds `perLanguage` pages to each
 * language: `pages/<lang>/generated-001.md` … `generated-150.md`, each the body of one of the
 * language's legal texts (in turn) under front matter with its own title and slug. Returns the
 * new content folder.
 *
 * @example scaledContent('/tmp/x', 'content') // '/tmp/x/content', with pages/de/generated-001.md: title "Impressum 001", slug generated-001
 */
export function scaledContent(dir: string, sourceContentDir: string, perLanguage = GENERATED_PER_LANGUAGE): string {
  const contentDir = join(dir, 'content');
  cpSync(sourceContentDir, contentDir, { recursive: true });
  const legalNames = Object.values(MARKDOWN_PAGES);
  for (const lang of LANGUAGES) {
    const texts = legalNames.map((name) => legalText(contentDir, lang, name));
    for (let i = 1; i <= perLanguage; i++) {
      const number = String(i).padStart(3, '0');
      const text = texts[i % texts.length]!;
      // JSON strings are valid YAML, whatever the title holds.
      const front = [`title: ${JSON.stringify(`${text.title} ${number}`)}`, `description: ${JSON.stringify(`${text.title}: generated page ${number} of the build benchmark, made from the legal texts to measure builds at scale.`)}`, `slug: generated-${number}`];
      writeFileSync(join(contentDir, 'pages', lang, `generated-${number}.md`), `---\n${front.join('\n')}\n---\n${text.body}`);
    }
  }
  return contentDir;
}

const BASEOF = `<!DOCTYPE html>
<html lang="{{ .Language.Lang }}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{ .Title }} — {{ .Site.Title }}</title>
<meta name="description" content="{{ .Description }}">
<link rel="canonical" href="{{ .Permalink }}">
{{ range .AllTranslations }}<link rel="alternate" hreflang="{{ .Language.Lang }}" href="{{ .Permalink }}">
{{ end }}</head>
<body>
<nav>{{ range .Site.Home.AllTranslations }}<a href="{{ .RelPermalink }}">{{ .Language.LanguageName }}</a> {{ end }}</nav>
<main>{{ block "main" . }}{{ end }}</main>
</body>
</html>
`;

/**
 * Writes a Hugo site into `dir` with the Markdown pages of `contentDir` (every
 * `pages/<lang>/<name>.md`: the legal texts, the pages added as Markdown and the generated ones)
 * as `content/<name>.<lang>.md`, placeholders filled as sitegen fills them, in the seven
 * languages, with one base layout (title, description, canonical, hreflang links, a language
 * menu). Returns the number of Markdown pages.
 */
export function hugoSite(dir: string, contentDir: string): number {
  const values = placeholderValues(loadSiteConfig(contentDir));
  const fill = (text: string) => text.replace(/\{\{\s*(\w+)\s*\}\}/g, (match, name: string) => (values as Record<string, string>)[name] ?? match);
  const languages = LANGUAGES.map((lang, i) => `[languages.${lang}]\nweight = ${i + 1}\nlanguageName = ${JSON.stringify(NATIVE_NAMES[lang])}\nlanguageCode = ${JSON.stringify(LOCALES[lang].replace('_', '-'))}\n`);
  mkdirSync(join(dir, 'content'), { recursive: true });
  mkdirSync(join(dir, 'layouts', '_default'), { recursive: true });
  writeFileSync(
    join(dir, 'hugo.toml'),
    `baseURL = "https://www.example.org/"\ntitle = "MaskWise"\ndefaultContentLanguage = "en"\ndisableKinds = ["taxonomy", "term", "RSS"]\n\n${languages.join('\n')}`,
  );
  writeFileSync(join(dir, 'layouts', '_default', 'baseof.html'), BASEOF);
  writeFileSync(join(dir, 'layouts', '_default', 'single.html'), '{{ define "main" }}<h1>{{ .Title }}</h1>\n{{ .Content }}{{ end }}\n');
  writeFileSync(join(dir, 'layouts', '_default', 'list.html'), '{{ define "main" }}<h1>{{ .Title }}</h1>{{ end }}\n');
  let pages = 0;
  for (const lang of LANGUAGES) {
    for (const file of readdirSync(join(contentDir, 'pages', lang)).filter((f) => f.endsWith('.md'))) {
      let source = fill(readFileSync(join(contentDir, 'pages', lang, file), 'utf8'));
      // A legal text has no front matter: its `#` heading becomes the title.
      if (!source.startsWith('---\n')) {
        const [first, ...rest] = source.split('\n');
        source = `---\ntitle: ${JSON.stringify(first!.replace(/^#\s+/, ''))}\n---\n${rest.join('\n')}`;
      }
      writeFileSync(join(dir, 'content', `${file.slice(0, -3)}.${lang}.md`), source);
      pages++;
    }
  }
  return pages;
}
