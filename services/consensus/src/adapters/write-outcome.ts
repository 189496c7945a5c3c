import { AppError } from "@mc/shared";

/**
 * The two honest ways a write fails (contract §5, §8): 503 when it certainly
 * reached no log that can commit it (safe to retry), 504 when it may have
 * been applied. Client-facing text names no subject, cluster or node; the
 * cause goes to the node's log instead.
 */
export const noLeader = (): AppError => new AppError("unavailable", "cluster has no leader");

/** A client's write (it carries a request id, so a retry with it is answered with the first outcome). */
export const outcomeUnknown = (cause?: unknown): AppError =>
  new AppError("deadline_exceeded", "outcome unknown: the change may have been applied; retry with the same request id", cause === undefined ? undefined : { cause });

/** A membership change or leadership transfer that was not confirmed in time. */
export const changeOutcomeUnknown = (): AppError => new AppError("deadline_exceeded", "outcome unknown: the change may have been applied");

/** The waiters' answer when another leader's entry took the index: this one was never committed. */
export const overwrittenMessage = "leadership changed before the command committed; it was not applied, retry it";

// What a leader (or this node) answers before appending anything.
const refusedBeforeAppend = new Set(["not the leader", "leadership transfer in progress", "a configuration change is in progress", "cluster has no leader"]);

export type AttemptFailure = "not_appended" | "unknown" | "other";

/**
 * How one attempt at a write failed. "not_appended": no log holds it (a
 * refusal, no responder on the bus, or an entry overwritten by another
 * leader's); "unknown": it may have been appended (a timeout, a lost
 * connection, a stopped node); "other": a real error to pass on.
 */
export function classifyFailure(err: unknown): AttemptFailure {
  if (!(err instanceof AppError)) return "other";
  // Only an entry another leader overwrote is certainly not applied; "aborted" also stands for a
  // canceled Connect call, whose command may have been on its way into a log.
  if (err.reason === "aborted") return err.message === overwrittenMessage ? "not_appended" : "unknown";
  if (err.reason === "unavailable") {
    // NATS told us nobody subscribes to the leader's subject: nothing was delivered.
    if (refusedBeforeAppend.has(err.message) || err.message.startsWith("no service is listening")) return "not_appended";
    return "unknown";
  }
  if (err.reason === "deadline_exceeded") return "unknown";
  return "other";
}

/** One line for the node's log: the cause in full, which clients never see. */
export function describeCause(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
