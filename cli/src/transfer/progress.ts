import { iBytes } from "../util/humanize.js";

export interface Progress {
  addTotal(bytes: number): void;
  add(bytes: number): void;
  done(): void;
}

/** A one-line progress bar, drawn only on a terminal and never under --quiet, --json or a pipe. */
export function createProgress(enabled: boolean, stream: NodeJS.WritableStream = process.stdout): Progress {
  let total = 0;
  let current = 0;
  const started = Date.now();
  let last = 0;
  const draw = (force: boolean): void => {
    if (!enabled) return;
    const now = Date.now();
    if (!force && now - last < 200) return;
    last = now;
    const width = 30;
    const ratio = total > 0 ? Math.min(1, current / total) : 0;
    const filled = Math.round(ratio * width);
    const speed = current / Math.max(0.001, (now - started) / 1000);
    stream.write(`\r${iBytes(current)} / ${iBytes(total)} [${"█".repeat(filled)}${"░".repeat(width - filled)}] ${iBytes(Math.round(speed))}/s   `);
  };
  return {
    addTotal(bytes) {
      total += bytes;
    },
    add(bytes) {
      current += bytes;
      draw(false);
    },
    done() {
      if (!enabled) return;
      draw(true);
      stream.write("\n");
    },
  };
}
