import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { FileMissingError, FileStoreUnavailableError, type ObjectStore } from './store';

/** Keys as the document files use them: path parts of letters, digits, `.`, `_` and `-`, never `.` or `..` alone. */
const SAFE_KEY = /^(?!.*(^|\/)\.\.?(\/|$))[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/;

/**
 * Objects as files under one directory (`file:///var/lib/chasqui/files`): a single machine's store, or a mounted
 * network filesystem. A write goes to a temporary name, is flushed to disk and renamed, so a crash leaves either the
 * whole object or nothing under its key (and a `.tmp-*` file the sweeper's listing never reports).
 */
export class DirectoryStore implements ObjectStore {
  readonly name: string;

  constructor(private readonly root: string) {
    this.name = `file://${root}`;
  }

  private pathOf(key: string): string {
    if (!SAFE_KEY.test(key)) throw new Error(`refused object key ${JSON.stringify(key)}`);
    return path.join(this.root, key);
  }

  async put(key: string, body: Buffer): Promise<void> {
    const target = this.pathOf(key);
    const temporary = path.join(path.dirname(target), `.tmp-${randomBytes(6).toString('hex')}`);
    try {
      await fs.promises.mkdir(path.dirname(target), { recursive: true });
      const handle = await fs.promises.open(temporary, 'wx');
      try {
        await handle.writeFile(body);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await fs.promises.rename(temporary, target);
    } catch (err) {
      await fs.promises.rm(temporary, { force: true }).catch(() => undefined);
      throw new FileStoreUnavailableError(this.name, 'put', err);
    }
  }

  async get(key: string): Promise<Readable> {
    const file = this.pathOf(key);
    // Opened before it is handed over, so a missing file is an answer here rather than an error mid-stream.
    const handle = await fs.promises.open(file, 'r').catch((err: NodeJS.ErrnoException) => {
      throw err.code === 'ENOENT' ? new FileMissingError(key) : new FileStoreUnavailableError(this.name, 'get', err);
    });
    return handle.createReadStream();
  }

  async head(key: string): Promise<{ size: number; modified: Date } | null> {
    try {
      const stat = await fs.promises.stat(this.pathOf(key));
      return { size: stat.size, modified: stat.mtime };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw new FileStoreUnavailableError(this.name, 'head', err);
    }
  }

  async delete(key: string): Promise<void> {
    await fs.promises.rm(this.pathOf(key), { force: true });
  }

  async *list(): AsyncIterable<{ key: string; size: number; modified: Date }> {
    const walk = async function* (
      dir: string,
      prefix: string,
    ): AsyncGenerator<{ key: string; size: number; modified: Date }> {
      let entries: fs.Dirent[];
      try {
        entries = await fs.promises.readdir(dir, { withFileTypes: true });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
        throw err;
      }
      for (const entry of entries) {
        const key = prefix ? `${prefix}/${entry.name}` : entry.name;
        if (entry.isDirectory()) yield* walk(path.join(dir, entry.name), key);
        else if (entry.isFile() && !entry.name.startsWith('.tmp-')) {
          const stat = await fs.promises.stat(path.join(dir, entry.name));
          yield { key, size: stat.size, modified: stat.mtime };
        }
      }
    };
    yield* walk(this.root, '');
  }

  async close(): Promise<void> {}
}
