import { expect, test } from 'bun:test';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

// DESIGN rule 1 (issue 14): a feature calls another feature through its service, never its store. Type imports of
// row shapes are fine; a value import (a store class, object or function) of another feature's store is not.
const ROOT = join(import.meta.dir, '../../src/features');
/** Known debt, by importing file and store (owned elsewhere; listed so it can only shrink). */
const KNOWN_DEBT = new Set<string>([]);
const IMPORT = /^import\s+(type\s+)?\{([^}]*)\}\s+from\s+'\.\.\/([a-z-]+)\/((?:[a-z-]+-)?store)'/gm;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? files(p) : n.endsWith('.ts') ? [p] : [];
  });
}

test('no feature imports values from another feature\'s store', () => {
  const found: string[] = [];
  for (const p of files(ROOT)) {
    const file = relative(ROOT, p);
    for (const m of readFileSync(p, 'utf8').matchAll(IMPORT)) {
      if (m[1] || m[3] === file.split('/')[0]) continue; // type-only import, or the feature's own store
      const values = m[2].split(',').map((x) => x.trim()).filter((x) => x && !x.startsWith('type '));
      const key = `${file} -> ${m[3]}/${m[4]}`;
      if (values.length && !KNOWN_DEBT.has(key)) found.push(`${key}: ${values.join(', ')}`);
    }
  }
  expect(found).toEqual([]);
});
