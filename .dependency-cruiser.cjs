// Architecture rules for `npm run lint:deps` (dependency-cruiser 17).
//
// The layering they keep: the site model (cli/site/) at the bottom, the build stages above it,
// the command line on top; templates are views of the model and never import a stage; the
// ingest service stands alone and shares only its browser-safe contract (ingest/contract/).
//
// Paths in the rules are relative to the folder depcruise runs in (the repository root, or
// the fixture in tests/architecture/, whose folders are named the same), and are regular
// expressions, not globs.
//
// tests/ is cruised too, but only so that `not-to-unresolvable` checks its imports: every
// other rule starts from `SOURCE`.

const path = require('node:path');

/** Where the program lives; the architecture rules apply to these folders (and their files) only. */
const SOURCE = '^(cli|templates|ingest)(/|$)';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'This import closes a cycle between files (the cycle is listed above). A cycle means ' +
        'neither file can be understood, tested or moved without the other. Move what both need ' +
        'into a third file that imports neither, or pass it in as a parameter.',
      from: { path: SOURCE },
      to: { circular: true },
    },
    {
      // Cycles between folders. A file-level cycle check misses these: cli/pipeline/a.ts may
      // import cli/assets/b.ts while cli/assets/c.ts imports cli/pipeline/d.ts, with no file in
      // a cycle. dependency-cruiser 17 can run `circular` on the folder graph instead
      // (`scope: 'folder'`), where a folder's dependencies are those of every file beneath
      // it, leaving out the ones that stay inside it. So a sub-folder and its parent
      // (cli/site/ → cli/paths.ts) never count as a cycle by themselves, but siblings at any
      // depth (cli/pipeline ↔ cli/assets, templates ↔ cli/site) do. This needs no list of
      // allowed directions to keep up to date as folders are added.
      name: 'no-folder-cycle',
      scope: 'folder',
      severity: 'error',
      comment:
        'These folders import each other (the cycle is listed above), so none can be read or ' +
        'changed alone. Dependencies between folders point one way, e.g. in cli/: site/ (the ' +
        'model) at the bottom, the stages above it, main.ts on top. Move what both use into ' +
        'the lower folder (or a new one below both), or pass it in from the higher one.',
      from: { path: SOURCE },
      to: { path: SOURCE, circular: true },
    },
    {
      name: 'templates-only-cli-site',
      severity: 'error',
      comment:
        'A template imports from cli/ outside cli/site/. Templates are views of the site model ' +
        '(cli/site/: languages, routes, config, i18n, markdown, head tags, asset paths) and must ' +
        'not depend on the build stages or the command line. Move what the template needs into ' +
        'cli/site/, or compute it in the stage and pass it in as a prop.',
      from: { path: '^templates/' },
      to: { path: '^cli/', pathNot: '^cli/site/' },
    },
    {
      name: 'templates-only-ingest-contract',
      severity: 'error',
      comment:
        'A template imports from ingest/ outside ingest/contract/. The islands run in the ' +
        'browser and may share only the browser-safe contract (schemas, limits, error codes, ' +
        'countries) with the service, never its HTTP, store or mail code.',
      from: { path: '^templates/' },
      to: { path: '^ingest/', pathNot: '^ingest/contract/' },
    },
    {
      name: 'ingest-not-to-site',
      severity: 'error',
      comment:
        'The ingest service imports from cli/ or templates/. The service is deployed on its own ' +
        'and must build and run without the site generator. Dependencies go the other way: the ' +
        'site may import ingest/contract/.',
      from: { path: '^ingest/' },
      to: { path: '^(cli|templates)/' },
    },
    {
      name: 'contract-no-node-builtins',
      severity: 'error',
      comment:
        'ingest/contract/ imports a Node.js built-in module. The contract is bundled into the ' +
        'browser islands, where node: modules do not exist. Keep Node-only code in ingest/http/ ' +
        'or ingest/store/.',
      from: { path: '^ingest/contract/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'contract-only-zod-mini',
      severity: 'error',
      comment:
        'ingest/contract/ imports something other than its own files and zod/mini. The contract ' +
        'is loaded by the browser islands, so each import adds to every form page; zod/mini is ' +
        'the tree-shakable build (full `zod` is not). Move the code that needs more into ' +
        'ingest/http/ and keep the contract to schemas, limits, error codes and countries.',
      from: { path: '^ingest/contract/' },
      to: {
        dependencyTypesNot: ['core'], // reported by contract-no-node-builtins
        pathNot: ['^ingest/contract/', '(^|/)node_modules/zod/mini/'],
      },
    },
    {
      name: 'site-model-stands-alone',
      severity: 'error',
      comment:
        'A file in cli/site/ imports code outside cli/site/ and the shared contract. cli/site/ is ' +
        'the site model at the bottom of the layers: stages, templates and the command line ' +
        'import it, never the other way round; below it is only the contract it shares with the ' +
        'service (ingest/contract/: the language list, the service pages). npm packages and ' +
        'node: built-ins are fine; move anything else it needs into cli/site/.',
      from: { path: '^cli/site/' },
      to: { dependencyTypes: ['local'], pathNot: ['^cli/site/', '^ingest/contract/'] },
    },
    {
      name: 'render-without-cache',
      severity: 'error',
      comment:
        'The render stage (cli/pipeline/render-page.tsx, render-pages.ts) imports the build cache ' +
        '(cli/pipeline/cache/). Rendering takes the routes to render and returns documents with ' +
        'the keys they read (PageRoute, RenderedDocument: cli/pipeline/page-document.ts), which ' +
        'the cache reads through types of its own, and the plan of what to render is passed in.',
      from: { path: '^cli/pipeline/render-pages?[.]tsx?$' },
      to: { path: '^cli/pipeline/cache/' },
    },
    {
      // The cache sits below the pipeline that uses it, as the plan beside it does: the stage
      // imports the cache, never the other way round, so the cache can be read and tested alone.
      name: 'cache-below-its-stage',
      severity: 'error',
      comment:
        'The build cache (cli/pipeline/cache/) imports a module of its parent stage ' +
        '(cli/pipeline/*.ts: rendering, the build, its options and result, the page writer). The ' +
        'cache records what the stages hand it and decides nothing about how a page is drawn or ' +
        'written: declare the fields it reads as a type of its own (a PageRoute or a ' +
        'RenderedDocument fits it structurally), or move what both use below both (cli/files/, ' +
        'cli/site/).',
      from: { path: '^cli/pipeline/cache/' },
      to: { path: '^cli/pipeline/[^/]+$' },
    },
    {
      name: 'one-front-matter-reader',
      severity: 'error',
      comment:
        'Program code imports gray-matter. Its default engines evaluate a "---js" front matter as ' +
        'code, so a page in a pull request could run a program wherever sitegen reads it. Front ' +
        'matter is read in one place, cli/site/markdown/front-matter.ts (YAML only, safe schema): ' +
        'use splitFrontMatter from there.',
      from: { path: SOURCE },
      to: { path: '(^|/)node_modules/gray-matter/' },
    },
    {
      name: 'source-not-to-tests',
      severity: 'error',
      comment:
        'Program code imports a file from tests/. Tests depend on the program, never the ' +
        'other way round; move the shared code into the program and import it from the test.',
      from: { path: SOURCE },
      to: { path: '^tests/' },
    },
    {
      name: 'not-to-unresolvable',
      severity: 'error',
      comment:
        'This import cannot be resolved to a file: a moved or misspelt path, or an npm package ' +
        'missing from package.json (then `npm install` it). Relative imports name the file with ' +
        'its .ts/.tsx extension.',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'no-orphans',
      severity: 'error',
      comment:
        'This file imports nothing and nothing imports it, so it is probably left over from a ' +
        'refactoring: delete it. If something loads it in a way imports do not show (read as ' +
        'text, started as a worker), add it to pathNot here with the reason.',
      from: {
        orphan: true,
        path: SOURCE,
        pathNot: [
          // Read as text and inlined into each page by cli/assets/island-loader.ts.
          '^templates/islands/loader[.]js$',
        ],
      },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: ['node_modules'] },
    // The fixture of tests/architecture/ breaks every rule on purpose; it is cruised only by
    // its own test, from inside its folder.
    exclude: { path: ['^tests/architecture/fixture/'] },
    // Resolve like tsc does (module NodeNext, imports that name the .ts file). An absolute
    // path, so the fixture test can cruise its own folder with this same file.
    tsConfig: { fileName: path.join(__dirname, 'tsconfig.json') },
    // Count `import type` as a dependency too: a view that needs a stage's types is coupled
    // to that stage all the same.
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types', 'typings'],
    },
  },
};
