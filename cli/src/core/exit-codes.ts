import { closedPipeStatus } from "@mc/shared/closed-pipe";

/** Exit codes of contracts/mc.md §4. */
export const exitCodes = {
  ok: 0,
  /** Any fatal or usage error, partial failures, bare `mc`. */
  fatal: 1,
  /** `mc update` failing. */
  updateError: 255,
  sigint: 130,
  sigkill: 137,
  /** stdout closed early (`mc ls | head -1`): 128 + SIGPIPE, as the shell reports Go's mc. */
  closedPipe: closedPipeStatus,
  sigterm: 143,
} as const;

const signalCodes: Readonly<Record<string, number>> = {
  SIGINT: exitCodes.sigint,
  SIGKILL: exitCodes.sigkill,
  SIGPIPE: exitCodes.closedPipe,
  SIGTERM: exitCodes.sigterm,
};

export interface ExitContext {
  /** The command that failed, e.g. "update" or "cp". */
  readonly command?: string;
  /** Set when the process is stopping because of a signal. */
  readonly signal?: NodeJS.Signals;
}

/**
 * The exit code for an error. Reasons do not change it (every failure of an
 * ordinary command is 1); only `mc update` and signals have codes of their own.
 */
export function exitCodeOf(error: unknown, context: ExitContext = {}): number {
  if (context.signal !== undefined) return signalCodes[context.signal] ?? exitCodes.fatal;
  if (error === undefined) return exitCodes.ok;
  return context.command === "update" ? exitCodes.updateError : exitCodes.fatal;
}
