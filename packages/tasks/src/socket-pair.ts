/**
 * Connected AF_UNIX stream pairs, the kind libuv makes for a `pipe` stdio slot, built
 * without a child: one end can then be a child's stdout and stderr at once, which saves
 * the `sh -c 'exec "$@" 2>&1'` exec in front of the namespace wrapper.
 */
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";

/** Hex characters of the token a new connection must present. */
const TOKEN_CHARS = 32;

/** How long building a pair may take before the caller falls back. */
export const SOCKET_PAIR_TIMEOUT_MS = 2_000;

interface Listener {
  address: string;
}

let listener: Promise<Listener | undefined> | undefined;
const waiting = new Map<string, (socket: net.Socket) => void>();

/**
 * One listening socket per process, in a fresh 0700 folder (only this user can connect)
 * and removed at exit. A connection is paired only when it presents a token we issued,
 * so a stray connection can never receive a command's output.
 */
function ensureListener(): Promise<Listener | undefined> {
  listener ??= new Promise((resolve) => {
    let dir: string;
    try {
      dir = mkdtempSync(path.join(os.tmpdir(), "grok-tools-pipes-"));
    } catch {
      resolve(undefined);
      return;
    }
    const address = path.join(dir, "s");
    const server = net.createServer((socket) => {
      socket.on("error", () => undefined);
      const timer = setTimeout(() => socket.destroy(), SOCKET_PAIR_TIMEOUT_MS);
      timer.unref();
      const onReadable = () => {
        const token = socket.read(TOKEN_CHARS) as Buffer | null;
        if (token === null) return;
        socket.off("readable", onReadable);
        clearTimeout(timer);
        const claim = waiting.get(token.toString("latin1"));
        if (!claim) {
          socket.destroy();
          return;
        }
        waiting.delete(token.toString("latin1"));
        claim(socket);
      };
      // Paused-mode reads: nothing past the token is consumed here.
      socket.on("readable", onReadable);
    });
    server.on("error", () => resolve(undefined));
    server.listen(address, () => {
      server.unref();
      process.once("exit", () => rmSync(dir, { recursive: true, force: true }));
      resolve({ address });
    });
  });
  return listener;
}

/** A connected pair: `childEnd` goes to the child (then is closed here), `ourEnd` is read. */
export interface SocketPair {
  childEnd: net.Socket;
  ourEnd: net.Socket;
}

/** The next pair, made ahead between calls (it carries no data and belongs to no session). */
let ready: Promise<SocketPair | undefined> | undefined;

/**
 * A connected pair, or undefined when this process cannot make one (the caller then uses a
 * shell instead). Hands out the pair made ahead and starts making the next one.
 */
export async function createSocketPair(): Promise<SocketPair | undefined> {
  const made = ready;
  ready = makeSocketPair().then((pair) => {
    // Idle, it must not keep the process alive.
    pair?.childEnd.unref();
    pair?.ourEnd.unref();
    return pair;
  });
  const pair = made ? await made : undefined;
  if (pair && !pair.childEnd.destroyed && !pair.ourEnd.destroyed) {
    pair.childEnd.ref();
    pair.ourEnd.ref();
    return pair;
  }
  return makeSocketPair();
}

async function makeSocketPair(): Promise<SocketPair | undefined> {
  const server = await ensureListener();
  if (!server) return undefined;
  const token = randomBytes(TOKEN_CHARS / 2).toString("hex");
  return new Promise((resolve) => {
    const childEnd = net.connect(server.address);
    const fail = () => {
      if (!waiting.delete(token)) return;
      clearTimeout(timer);
      childEnd.destroy();
      resolve(undefined);
    };
    const timer = setTimeout(fail, SOCKET_PAIR_TIMEOUT_MS);
    waiting.set(token, (ourEnd) => {
      clearTimeout(timer);
      childEnd.off("error", fail);
      childEnd.on("error", () => undefined);
      ourEnd.pause();
      resolve({ childEnd, ourEnd });
    });
    childEnd.on("error", fail);
    childEnd.write(token);
  });
}
