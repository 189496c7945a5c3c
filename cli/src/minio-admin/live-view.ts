import type { Output } from "../core/output.js";

/**
 * How the `support top` views show an ever-changing table: on a terminal the
 * view is redrawn in place; piped, each refresh is printed after the last
 * (like `top -b`), so a reader that goes away is noticed at the next one;
 * with --json each refresh is one record. Refreshes come at most once a
 * second: a burst of events (a whole chunk of a stream) is drawn once.
 */
export interface LiveView {
  /** Something changed: draw soon. */
  changed(): void;
  /** Draw now if anything is pending (the end of a stream, Ctrl-C). */
  flush(): void;
}

export function createLiveView(output: Output, render: () => { text: string; json: unknown }, intervalMs = 1000): LiveView {
  const tty = (output.stdout as { isTTY?: boolean }).isTTY === true && !output.json;
  let shownLines = 0;
  let last = 0;
  let pending = false;
  let timer: NodeJS.Timeout | undefined;
  const draw = (): void => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!pending) return;
    pending = false;
    last = Date.now();
    const { text, json } = render();
    if (output.json) return output.printJson(json);
    if (tty) {
      output.stdout.write(`${shownLines > 0 ? `\x1b[${shownLines}A\r\x1b[J` : ""}${text}\n`);
      shownLines = text.split("\n").length;
      return;
    }
    output.stdout.write(`${text}\n\n`);
  };
  return {
    changed() {
      pending = true;
      if (timer) return;
      // A whole chunk's events first, then at most one view a second.
      timer = setTimeout(draw, Math.max(0, last + intervalMs - Date.now()));
    },
    flush: draw,
  };
}
