import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listFiles, writeOutFile } from '../../../cli/files/folder-files.ts';
import { testFolder } from '../../helpers/test-folders.ts';

describe('listFiles', () => {
  it('names every file under the folder relative to it with forward slashes, and neither folders nor links', () => {
    const dir = testFolder('list-files');
    writeOutFile(dir, 'index.html', 'home');
    writeOutFile(dir, 'de/about.html', 'über');
    writeOutFile(dir, 'de/form/not-accepted/index.html', 'nein');
    writeOutFile(dir, '.well-known/security.txt', 'contact');
    mkdirSync(join(dir, 'empty'));
    symlinkSync(join(dir, 'index.html'), join(dir, 'link.html'));
    symlinkSync(join(dir, 'de'), join(dir, 'linked-folder'));
    writeFileSync(join(dir, 'de', 'kontakt.html'), 'kontakt');
    expect([...listFiles(dir)].sort()).toEqual(['.well-known/security.txt', 'de/about.html', 'de/form/not-accepted/index.html', 'de/kontakt.html', 'index.html']);
  });
});
