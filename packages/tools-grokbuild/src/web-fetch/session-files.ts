/**
 * Numbered files in a folder of the session (`web_fetch/1.md`, `downloads/2.pdf`, `images/3.png`):
 * the counter resumes from the files on disk, and a name is never overwritten.
 */
import { randomUUID } from "node:crypto";
import { chmod, link, mkdir, open, readdir, unlink } from "node:fs/promises";
import path from "node:path";

/** Writes numbered files into one sub-folder of a session folder. */
export class SessionFileStore {
  #next: number | undefined;

  constructor(readonly dirName: string) {}

  /** Saves `data` as `<sessionDir>/<dirName>/<n>.<ext>` and returns the path. */
  async save(sessionDir: string, data: Buffer | string, ext: string): Promise<string> {
    const dir = path.join(sessionDir, this.dirName);
    await mkdir(dir, { recursive: true });
    await chmod(dir, 0o700);
    if (this.#next === undefined) this.#next = (await highestNumber(dir)) + 1;
    const temp = path.join(dir, `.${randomUUID()}.tmp`);
    const handle = await open(temp, "wx", 0o600);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      // link() refuses an existing name, so a concurrent writer's file is never replaced.
      for (;;) {
        const target = path.join(dir, `${this.#next}.${ext}`);
        this.#next += 1;
        try {
          await link(temp, target);
          return target;
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        }
      }
    } finally {
      await unlink(temp).catch(() => undefined);
    }
  }
}

async function highestNumber(dir: string): Promise<number> {
  const names = await readdir(dir).catch(() => [] as string[]);
  let highest = 0;
  for (const name of names) {
    const match = /^(\d+)\./.exec(name);
    if (match?.[1] !== undefined) highest = Math.max(highest, Number(match[1]));
  }
  return highest;
}
