import { classifyFailure, noLeader, outcomeUnknown } from "@mc/consensus";
import { AppError } from "@mc/shared";

const noLeaderText = noLeader().message;
const unknownText = outcomeUnknown().message;

/** 504: the write may have been applied; a retry with its request id is answered with its first outcome. */
export const outcomeUnknownError = (): AppError => outcomeUnknown();

/**
 * What a client is told when a write fails in the cluster: exactly one of
 * the two honest answers for a transport or leadership failure (503 "cluster
 * has no leader": certainly not applied; 504 "outcome unknown": maybe), the
 * error itself otherwise (a real failure the edge maps as usual). Never the
 * runner's internal `aborted` (409 would read "already exists") nor a text
 * that names a subject, node or entry: the cause goes to the log.
 */
export function clientFacingWriteError(err: unknown, log: (line: string) => void): unknown {
  if (!(err instanceof AppError)) return err;
  if (err.reason === "unavailable" && err.message === noLeaderText) return err;
  if (err.reason === "deadline_exceeded" && err.message === unknownText) return err;
  const kind = classifyFailure(err);
  if (kind === "other") return err;
  log(`kms: write failed: ${err.message}`);
  return kind === "not_appended" ? noLeader() : outcomeUnknown();
}
