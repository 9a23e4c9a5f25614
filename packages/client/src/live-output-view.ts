// How `grok-tools call --stream` shows a tool's live output: decoded as UTF-8 as it arrives and
// written to stderr (stdout stays the result, as without --stream), with a spinner line on a
// terminal only (tool name, elapsed time, bytes so far), erased before output and at the end.

/** Where the view writes; the CLI's io. */
export interface LiveOutputIo {
  stderr: (text: string) => void;
  stderrIsTTY?: boolean;
}

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
/** How often the spinner line is redrawn. */
export const SPINNER_INTERVAL_MS = 100;
/** Erases the current terminal line and returns to its start. */
const CLEAR_LINE = "\r\x1b[2K";

function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
}

export class LiveOutputView {
  private readonly decoder = new TextDecoder("utf-8");
  private readonly started = Date.now();
  private readonly timer: NodeJS.Timeout | undefined;
  private bytes = 0;
  private frame = 0;
  /** Whether the last live text ended a line (the spinner only draws on a line of its own). */
  private atLineStart = true;
  private spinnerShown = false;

  constructor(
    private readonly toolName: string,
    private readonly io: LiveOutputIo,
  ) {
    if (io.stderrIsTTY) {
      this.timer = setInterval(() => this.drawSpinner(), SPINNER_INTERVAL_MS);
      this.timer.unref();
      this.drawSpinner();
    }
  }

  /** One chunk of live output. */
  write(data: Uint8Array): void {
    this.bytes += data.length;
    const text = this.decoder.decode(data, { stream: true });
    if (text === "") return;
    this.clearSpinner();
    this.io.stderr(text);
    this.atLineStart = text.endsWith("\n");
    this.drawSpinner();
  }

  /** The stream ended: flush a partial character, end the last line, erase the spinner. */
  finish(): void {
    if (this.timer) clearInterval(this.timer);
    const rest = this.decoder.decode();
    this.clearSpinner();
    if (rest !== "") {
      this.io.stderr(rest);
      this.atLineStart = rest.endsWith("\n");
    }
    if (!this.atLineStart) this.io.stderr("\n");
    this.atLineStart = true;
  }

  private drawSpinner(): void {
    if (!this.io.stderrIsTTY || !this.atLineStart) return;
    const seconds = ((Date.now() - this.started) / 1000).toFixed(1);
    const frame = FRAMES[this.frame++ % FRAMES.length]!;
    this.io.stderr(`${CLEAR_LINE}${frame} ${this.toolName} running · ${seconds}s · ${formatBytes(this.bytes)} of live output`);
    this.spinnerShown = true;
  }

  private clearSpinner(): void {
    if (!this.spinnerShown) return;
    this.io.stderr(CLEAR_LINE);
    this.spinnerShown = false;
  }
}
