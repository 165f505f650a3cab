import { createReadStream, existsSync, mkdirSync, readdirSync, rmSync, statSync, unlinkSync, copyFileSync, renameSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { Readable } from 'node:stream';
import { checkKey, checkPrefix, type MediaStore, type StoredEntry, type StoredStat } from './types';

/** The single-box store: keys are files under `root` (the data directory); writes go to a temp name, then rename. */
export class LocalMediaStore implements MediaStore {
  readonly kind = 'local' as const;
  readonly where: string;
  constructor(private root: string) { this.where = root; }

  /** The local path of a key (checked: never outside the root). */
  path(key: string): string { return join(this.root, checkKey(key)); }

  async put(key: string, data: Uint8Array | string): Promise<void> {
    const p = this.path(key);
    mkdirSync(dirname(p), { recursive: true });
    const tmp = `${p}.put-${process.pid}`;
    await Bun.write(tmp, data);
    renameSync(tmp, p);
  }

  async putFile(key: string, path: string): Promise<void> {
    const p = this.path(key);
    if (p === path) return;
    mkdirSync(dirname(p), { recursive: true });
    const tmp = `${p}.put-${process.pid}`;
    copyFileSync(path, tmp);
    renameSync(tmp, p);
  }

  async getFile(key: string, path: string): Promise<boolean> {
    const p = this.path(key);
    if (!existsSync(p)) return false;
    if (p === path) return true;
    mkdirSync(dirname(path), { recursive: true });
    copyFileSync(p, path);
    return true;
  }

  async read(key: string, range?: { start: number; end: number }): Promise<ReadableStream<Uint8Array> | null> {
    const st = await this.stat(key);
    if (!st) return null;
    const s = createReadStream(this.path(key), range ? { start: range.start, end: range.end } : {});
    return Readable.toWeb(s) as unknown as ReadableStream<Uint8Array>;
  }

  async stat(key: string): Promise<StoredStat | null> {
    try {
      const st = statSync(this.path(key));
      if (!st.isFile()) return null;
      return { size: st.size, mtimeMs: st.mtimeMs, etag: `"${Math.floor(st.mtimeMs / 1000).toString(16)}-${st.size.toString(16)}"` };
    } catch { return null; }
  }

  async list(prefix: string): Promise<StoredEntry[]> {
    checkPrefix(prefix);
    const out: StoredEntry[] = [];
    const walk = (dir: string, rel: string) => {
      let names: string[];
      try { names = readdirSync(dir); } catch { return; }
      for (const n of names.sort()) {
        const p = join(dir, n);
        const st = statSync(p, { throwIfNoEntry: false });
        if (!st) continue;
        if (st.isDirectory()) walk(p, `${rel}${n}/`);
        else if (st.isFile()) out.push({ key: `${rel}${n}`, size: st.size });
      }
    };
    walk(prefix ? join(this.root, prefix) : this.root, prefix);
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async delete(key: string): Promise<void> {
    try { unlinkSync(this.path(key)); } catch { /* already gone */ }
  }

  async deletePrefix(prefix: string): Promise<number> {
    if (!checkPrefix(prefix)) throw new Error('refusing to delete the whole media store');
    const n = (await this.list(prefix)).length;
    rmSync(join(this.root, prefix.split('/').join(sep)), { recursive: true, force: true });
    return n;
  }
}
