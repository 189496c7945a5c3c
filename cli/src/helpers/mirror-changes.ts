import { watch } from "node:fs";
import type { Location } from "../storage/location.js";
import { dirPrefix } from "../transfer/plan.js";

export interface Changes {
  /** True (and resets) when something changed since the last call. */
  take(): boolean;
  /** Resolves at the next change or when the signal aborts. */
  next(signal: AbortSignal): Promise<void>;
  close(): void;
}

/** Change notices for a source: fs events locally, a 1 s listing poll on S3. */
export function watchChanges(src: Location): Changes {
  let pending = false;
  let wake: (() => void) | undefined;
  const trigger = (): void => {
    pending = true;
    wake?.();
  };
  const watcher = src.kind === "local" ? watch(dirPrefix(src.key), { recursive: true }, trigger) : undefined;
  const timer = src.kind === "s3" ? setInterval(trigger, 1000) : undefined;
  return {
    take() {
      const was = pending;
      pending = false;
      return was;
    },
    next(signal) {
      return new Promise<void>((resolve) => {
        const done = (): void => {
          signal.removeEventListener("abort", done);
          wake = undefined;
          resolve();
        };
        wake = done;
        signal.addEventListener("abort", done, { once: true });
      });
    },
    close() {
      watcher?.close();
      if (timer) clearInterval(timer);
    },
  };
}
