// A reader that stops early (`mc ls -r A/b | head -1`) closes our stdout.
// Go's mc is killed by SIGPIPE on its next write: no message, status 141.
// Node ignores SIGPIPE and reports EPIPE as an 'error' event (a crash with a
// stack when nobody listens, or "write EPIPE" through a command's catch), so
// every program of the project ends the same way Go does, from the first
// place that sees it. Its own subpath (`@mc/shared/closed-pipe`) keeps mc's
// fast `--version` bundle free of the rest of this package.
import { basename } from "node:path";
import type { Writable } from "node:stream";

/** The status of a process ended by SIGPIPE (128 + 13), as a shell reports it. */
export const closedPipeStatus = 141;

/** The write failed because the reading end is gone. */
export function isClosedPipe(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { code?: unknown }).code === "EPIPE";
}

export interface OutputGuardOptions {
  readonly streams?: readonly NodeJS.WriteStream[];
  /** The name the default failure line starts with (default: the script's, `kms` for kms.js). */
  readonly program?: string;
  /** The one line for stderr when stdout fails otherwise (a full disk, an I/O error); default: `<program>: cannot write to standard output: <error>`, the program named after its script. */
  readonly failureLine?: (err: Error) => string;
}

/**
 * Ends the process at once, silently, with 141 when stdout or stderr is
 * closed, and with one line on stderr and status 1 when stdout fails
 * otherwise (`mc cat obj > /dev/full`: a crash with a stack of the bundled
 * source before). Registered before any command runs, so this listener is
 * the first to hear of it, ahead of a command's own stream handling.
 */
export function endOnClosedPipe(options: OutputGuardOptions = {}): void {
  const streams = options.streams ?? [process.stdout, process.stderr];
  const program = options.program ?? basename(process.argv[1] ?? "node").replace(/\.[cm]?[jt]s$/, "");
  const line = options.failureLine ?? ((err: Error) => `${program}: cannot write to standard output: ${err.message}`);
  for (const stream of streams) {
    asyncFailures(stream);
    stream.on("error", (err) => {
      if (isClosedPipe(err)) process.exit(closedPipeStatus);
      // A stderr that fails cannot carry the line either.
      if (stream !== process.stderr) process.stderr.write(`${line(err)}\n`, () => process.exit(1));
      else process.exit(1);
    });
  }
}

/**
 * Stdout redirected to a file writes synchronously, and a failed write throws
 * at whichever call wrote, often inside another stream's 'data' handler,
 * where nothing catches it. Reported as the stream's own failure instead, it
 * reaches the one listener above, as a pipe's or a terminal's does.
 */
function asyncFailures(stream: Writable): void {
  const write = stream._write.bind(stream);
  stream._write = (chunk: unknown, encoding: BufferEncoding, done: (error?: Error | null) => void): void => {
    try {
      write(chunk, encoding, done);
    } catch (err) {
      done(err instanceof Error ? err : new Error(String(err)));
    }
  };
}
