/**
 * Numbered files in a folder of the session (`web_fetch/1.md`, `downloads/2.pdf`, `images/3.png`):
 * the counter resumes from the files on disk, and a name is never overwritten. Written through the
 * runtime's confined file layer: the folder is checked on its descriptor (a link out of the
 * session's roots is refused), and the temporary each save starts from is journalled, so a server
 * killed mid-save leaves nothing behind after its restart (issue #23 item 3).
 */
import path from "node:path";
import { createUniqueFileInDir, openDirConfined, type FsScope } from "@grok-tools/runtime/fs";

/** Where saves go: the session's folder, with the session's confinement and temporaries journal. */
export type SessionFolder = FsScope & { readonly sessionDir: string };

/** Writes numbered files into one sub-folder of a session folder. */
export class SessionFileStore {
  #next: number | undefined;

  constructor(readonly dirName: string) {}

  /** Saves `data` as `<sessionDir>/<dirName>/<n>.<ext>` and returns the path. */
  async save(session: SessionFolder, data: Buffer | string, ext: string): Promise<string> {
    const folder = path.join(session.sessionDir, this.dirName);
    const dir = await openDirConfined(session, folder, { create: true });
    try {
      await dir.handle.chmod(0o700);
      if (this.#next === undefined) this.#next = highestNumber((await dir.entries()).map((entry) => entry.name)) + 1;
      // The counter is shared by concurrent saves; link() settles a race with another writer.
      const nextName = (): string => {
        const n = this.#next ?? 1;
        this.#next = n + 1;
        return `${n}.${ext}`;
      };
      try {
        const name = await createUniqueFileInDir(dir, nextName, data, { mode: 0o600, journal: session.tempJournal, tempFor: this.dirName });
        return path.join(folder, name);
      } catch (error) {
        throw dir.explain(error);
      }
    } finally {
      await dir.close();
    }
  }
}

/** The highest `<n>.` prefix among `names`, or 0. */
function highestNumber(names: readonly string[]): number {
  let highest = 0;
  for (const name of names) {
    const match = /^(\d+)\./.exec(name);
    if (match?.[1] !== undefined) highest = Math.max(highest, Number(match[1]));
  }
  return highest;
}
