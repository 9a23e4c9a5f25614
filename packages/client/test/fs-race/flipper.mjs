// Flips folders between a real directory (holding inside files) and a symlink to a folder outside
// the workspace, or (`kind: "file"`) files between a regular file and a symlink to a file outside,
// as fast as it can, until its stdin closes. Runs as its own process so that the flips race the
// server for real. Argument: a JSON list of { path, outside, kind? } entries.
import { mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";

const targets = JSON.parse(process.argv[2]);
let stop = false;
process.stdin.on("end", () => (stop = true));
process.stdin.on("close", () => (stop = true));
process.stdin.resume();

let serial = 0;
/** A fresh real folder beside `target`, with the files the race tests search for. */
function prepareDir(target) {
  const dir = `${target}.dir${serial++}`;
  mkdirSync(path.join(dir, "sub"), { recursive: true });
  writeFileSync(path.join(dir, "inside.txt"), "needle inside\n");
  writeFileSync(path.join(dir, "sub", "inner.txt"), "needle inner\n");
  // What the edits, the move and the delete of the race work on (the outside folder has the same names).
  writeFileSync(path.join(dir, "edit.txt"), "needle edit\n");
  writeFileSync(path.join(dir, "move.txt"), "needle move\n");
  writeFileSync(path.join(dir, "doomed.txt"), "doomed\n");
  // What the OpenCode write and the anchored hashline edit work on.
  writeFileSync(path.join(dir, "write.txt"), "needle write\n");
  writeFileSync(path.join(dir, "anchored.txt"), "needle anchored\n");
  return dir;
}
/** A fresh regular file beside `target`, holding what the file-flip race reads and edits. */
function prepareFile(target) {
  const file = `${target}.file${serial++}`;
  writeFileSync(file, "needle flip\n");
  return file;
}
function prepareLink(target, outside) {
  const link = `${target}.lnk${serial++}`;
  symlinkSync(outside, link);
  return link;
}

// Half of the flips follow each other at once, a third hold the state a few milliseconds, and the
// rest hold it long enough (50-150 ms) for a whole write to finish in a folder that stays put.
const pause = new Int32Array(new SharedArrayBuffer(4));
function hold() {
  const dice = Math.random();
  if (dice < 0.5) return;
  Atomics.wait(pause, 0, 0, dice < 0.85 ? Math.random() * 5 : 50 + Math.random() * 100);
}

// A server call may be creating a file in a folder just moved aside: removal then fails and is retried.
const leftovers = [];
function removeLater(dir) {
  leftovers.push(dir);
  for (let i = leftovers.length - 1; i >= 0; i--) {
    try {
      rmSync(leftovers[i], { recursive: true, force: true });
      leftovers.splice(i, 1);
    } catch {
      // Busy: next time.
    }
  }
}

let flips = 0;
function flipOnce() {
  for (const { path: target, outside, kind } of targets) {
    const asLink = flips % 2 === 0;
    const next = asLink ? prepareLink(target, outside) : kind === "file" ? prepareFile(target) : prepareDir(target);
    const trash = `${target}.old${serial++}`;
    try {
      renameSync(target, trash);
    } catch {
      // Missing (first round): nothing to move away.
    }
    // A server call creating a file there may have made the folder again in between: move it aside too.
    for (let attempt = 0; ; attempt++) {
      try {
        renameSync(next, target);
        break;
      } catch (error) {
        if (attempt >= 10) throw error;
        const again = `${target}.old${serial++}`;
        try {
          renameSync(target, again);
          removeLater(again);
        } catch {
          // Gone again meanwhile: retry the rename.
        }
      }
    }
    removeLater(trash);
  }
  flips++;
  hold();
}

// Yield to the event loop now and then so that stdin's end is noticed.
function loop() {
  const until = Date.now() + 20;
  while (!stop && Date.now() < until) flipOnce();
  if (stop) {
    process.stdout.write(JSON.stringify({ flips }) + "\n");
    process.exit(0);
  }
  setImmediate(loop);
}
process.stdout.write("ready\n");
loop();
