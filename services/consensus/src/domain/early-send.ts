import type { HardState, Message, Ready } from "./types.js";

/**
 * The messages of a run of not-yet-persisted Readies that may be sent while
 * they are being persisted (Raft thesis §10.2.1: a leader writes to its disk
 * in parallel with replicating to followers). Only a leader's AppendEntries
 * go early, and only when every Ready of the run keeps the durable term and
 * vote: a message of a term not yet on disk could outlive a crash that
 * forgets the term. Commit stays safe because a leader counts entries of the
 * run it is persisting only once a follower acknowledged them, and that
 * acknowledgement is handled in a later Ready, after this run is durable; so
 * no entry is applied or reported committed before the leader's own copy is
 * on disk. Everything else (votes, every answer) still waits for the disk.
 * `durable` is the hard state last persisted, undefined when not known.
 */
export function earlyMessages(run: readonly Ready[], durable: HardState | undefined): Message[] {
  const keepsTerm = run.every((r) => !r.snapshot && (!r.hardState || (durable !== undefined && r.hardState.term === durable.term && r.hardState.votedFor === durable.votedFor)));
  return keepsTerm ? run.flatMap((r) => r.messages.filter((m) => m.type === "append")) : [];
}
