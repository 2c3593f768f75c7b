import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeRecordFile } from '../../../cli/files/record-file.ts';
import { testFolder } from '../../helpers/test-folders.ts';

describe('writeRecordFile', () => {
  it('writes a record into a folder it makes, and replaces an old one whole, leaving nothing beside it', () => {
    const dir = join(testFolder('record-'), 'cache', 'dist');
    const file = join(dir, 'manifest.json');
    writeRecordFile(file, '{"version":1}');
    expect(readFileSync(file, 'utf8')).toBe('{"version":1}');
    writeFileSync(join(dir, 'other.json'), 'kept');
    writeRecordFile(file, '{"version":2,"pages":{}}');
    expect(readFileSync(file, 'utf8')).toBe('{"version":2,"pages":{}}');
    expect(readdirSync(dir).sort()).toEqual(['manifest.json', 'other.json']);
  });
});
