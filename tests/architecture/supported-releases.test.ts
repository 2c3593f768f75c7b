/**
 * The releases the project ships on are supported ones, and what package.json, the README and the
 * container proof say about them agree (docs/developers.md, "Supported releases and install
 * scripts"). It broke as: the image on Node 20 after its end of life, the compose recipe on
 * nginx 1.22, and `engines` and the README naming only Node 20.19.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../cli/paths.ts';

const read = (path: string) => readFileSync(join(PROJECT_ROOT, path), 'utf8');

/** The end of life of each Node LTS line (nodejs.org's release schedule). */
const NODE_END_OF_LIFE: Readonly<Record<number, string>> = { 20: '2026-04-30', 22: '2027-04-30', 24: '2028-04-30' };

/** The image the Dockerfile's FROM lines name, as `{ tag, major, suite }`; every stage must name the same one. */
function dockerfileBase(): { tag: string; major: number; suite: string } {
  const tags = [...new Set([...read('Dockerfile').matchAll(/^FROM\s+(\S+)/gm)].map((m) => m[1]!))];
  expect(tags, 'every stage of the Dockerfile builds on one image').toHaveLength(1);
  const match = /^node:(\d+)-([a-z]+)-slim$/.exec(tags[0]!);
  expect(match, `the Dockerfile's base ${tags[0]} is node:MAJOR-SUITE-slim`).not.toBeNull();
  return { tag: tags[0]!, major: Number(match![1]), suite: match![2]! };
}

/** The Node majors package.json's `engines` range admits, from ranges of the form `^20.19.0 || ^22.12.0`. */
function engineMajors(): number[] {
  const range = (JSON.parse(read('package.json')) as { engines: { node: string } }).engines.node;
  return range.split('||').map((part) => {
    const match = /^\s*\^(\d+)\.\d+\.\d+\s*$/.exec(part);
    expect(match, `engines.node's "${part.trim()}" is a caret range of one major`).not.toBeNull();
    return Number(match![1]);
  });
}

describe('supported releases', () => {
  it('the image runs a Node LTS line before its end of life', () => {
    const { major } = dockerfileBase();
    const endOfLife = NODE_END_OF_LIFE[major];
    expect(endOfLife, `Node ${major} is an LTS line with a known end of life`).toBeDefined();
    expect(new Date().toISOString().slice(0, 10) < endOfLife!, `Node ${major} reached its end of life on ${endOfLife}`).toBe(true);
  });

  it("the image's Node is not one the locked better-sqlite3 aborts on (12 and older compiled for Node 24.19 or later: nodejs/node#65446)", () => {
    const { major } = dockerfileBase();
    const lock = JSON.parse(read('package-lock.json')) as { packages: Record<string, { version: string }> };
    const driverMajor = Number(lock.packages['node_modules/better-sqlite3']!.version.split('.')[0]);
    // better-sqlite3 13 wraps its objects through Node-API instead of node::ObjectWrap, whose
    // destructor aborts the process from Node 24.19 on; the container proof collects statements
    // in the image to show it.
    expect(major < 24 || driverMajor >= 13, `Node ${major} with better-sqlite3 ${driverMajor}`).toBe(true);
  });

  it("engines admits the image's Node, and the README names every line engines admits and the image's tag", () => {
    const { tag, major } = dockerfileBase();
    const majors = engineMajors();
    expect(majors).toContain(major);
    const readme = read('README.md');
    for (const line of majors) expect(readme, `the README names Node ${line}`).toMatch(new RegExp(`Node[^.]*\\b${line}\\b`));
    expect(readme).toContain(tag);
  });

  it('the compose recipe names an nginx line that nginx.org still fixes (the stable 1.30 or newer)', () => {
    const tag = /^\s*image:\s*nginx:(\d+)\.(\d+)\s*$/m.exec(read('deploy/compose.yaml'));
    expect(tag, 'deploy/compose.yaml names nginx:MAJOR.MINOR').not.toBeNull();
    const [major, minor] = [Number(tag![1]), Number(tag![2])];
    expect(major > 1 || minor >= 30, `nginx ${major}.${minor}`).toBe(true);
  });

  it("the container proof's mail sink runs on the stand-in of the Dockerfile's base, not a second Node", () => {
    expect(read('tests/docker/recipe/proof.yaml')).toMatch(/^\s*image: \$\{PROOF_NODE_IMAGE:\?\}$/m);
    expect(read('tests/docker/lib/recipe.sh')).toContain('PROOF_NODE_IMAGE=$BASE_TAG');
  });
});
