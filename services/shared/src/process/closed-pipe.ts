// A reader that stops early (`mc ls -r A/b | head -1`) closes our stdout.
// Go's mc is killed by SIGPIPE on its next write: no message, status 141.
// Node ignores SIGPIPE and reports EPIPE as an 'error' event (a crash with a
// stack when nobody listens, or "write EPIPE" through a command's catch), so
// every program of the project ends the same way Go does, from the first
// place that sees it. Its own subpath (`@mc/shared/closed-pipe`) keeps mc's
// fast `--version` bundle free of the rest of this package.

/** The status of a process ended by SIGPIPE (128 + 13), as a shell reports it. */
export const closedPipeStatus = 141;

/** The write failed because the reading end is gone. */
export function isClosedPipe(err: unknown): boolean {
  return typeof err === "object" && err !== null && (err as { code?: unknown }).code === "EPIPE";
}

/**
 * Ends the process at once, silently, with 141 when stdout or stderr is
 * closed. Registered before any command runs, so this listener is the first
 * to hear of it, ahead of a command's own stream handling.
 */
export function endOnClosedPipe(streams: readonly NodeJS.WriteStream[] = [process.stdout, process.stderr]): void {
  for (const stream of streams) {
    stream.on("error", (err) => {
      if (isClosedPipe(err)) process.exit(closedPipeStatus);
      // Any other stream failure stays what it was: an uncaught error.
      throw err;
    });
  }
}
