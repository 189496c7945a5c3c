/**
 * Logs the status warnings (even voter count, slow peers) when their kind
 * changes, so the log says it once rather than on every check; the numbers
 * inside a warning (round trips) may move without a new line.
 */
export function watchWarnings(warnings: () => readonly string[], log: (line: string) => void): NodeJS.Timeout {
  let last = "";
  const timer = setInterval(() => {
    let now: readonly string[];
    try {
      now = warnings();
    } catch {
      return;
    }
    const kinds = now.map((w) => w.replace(/[\d.]+/g, "#")).join("|");
    if (kinds !== last) for (const w of now) log(`kms: cluster warning: ${w}`);
    last = kinds;
  }, 5000);
  timer.unref();
  return timer;
}
