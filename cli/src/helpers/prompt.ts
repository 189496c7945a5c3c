import { createInterface } from "node:readline";
import type { Readable, Writable } from "node:stream";

/** Lines of stdin, read one at a time (keys piped in: `printf 'AK\nSK\n' | mc alias set x URL`). */
export function createLineReader(input: Readable): () => Promise<string> {
  const lines: string[] = [];
  const waiters: ((line: string) => void)[] = [];
  let closed = false;
  const rl = createInterface({ input, terminal: false });
  rl.on("line", (line) => {
    const waiter = waiters.shift();
    if (waiter) waiter(line);
    else lines.push(line);
  });
  rl.on("close", () => {
    closed = true;
    for (const waiter of waiters.splice(0)) waiter("");
  });
  return () => {
    const line = lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (closed) return Promise.resolve("");
    return new Promise((resolve) => waiters.push(resolve));
  };
}

export type Ask = (question: string, hidden: boolean) => Promise<string>;

/**
 * Questions on a terminal. The terminal is in raw mode and we echo ourselves,
 * so a secret is not shown; one buffer serves every question, so answers typed
 * (or pasted) ahead are not lost between prompts.
 */
export function createTtyAsk(input: NodeJS.ReadStream = process.stdin, output: Writable = process.stderr): { ask: Ask; close(): void } {
  let buffer = "";
  let hidden = false;
  let wake: (() => void) | undefined;
  const onData = (data: string): void => {
    if (data.includes("\u0003")) {
      // Raw mode swallows Ctrl-C: nothing is in flight at a prompt, so leave as SIGINT would.
      input.setRawMode?.(false);
      output.write("\n");
      process.exit(130);
    }
    buffer += data;
    if (!hidden) output.write(data.replace(/[\r\n].*$/s, ""));
    wake?.();
  };
  input.setEncoding("utf8");
  input.setRawMode?.(true);
  input.on("data", onData);
  input.resume();
  const ask: Ask = async (question, isHidden) => {
    hidden = isHidden;
    output.write(question);
    if (!hidden && buffer !== "") output.write(buffer.replace(/[\r\n].*$/s, ""));
    for (;;) {
      const end = buffer.search(/[\r\n]/);
      if (end >= 0) {
        let line = buffer.slice(0, end);
        buffer = buffer.slice(end + 1).replace(/^\n/, "");
        output.write("\n");
        while (line.includes("\u007f")) line = line.replace(/.?\u007f/s, "");
        return line;
      }
      await new Promise<void>((resolve) => (wake = resolve));
    }
  };
  return {
    ask,
    close() {
      input.off("data", onData);
      input.setRawMode?.(false);
      input.pause();
    },
  };
}
