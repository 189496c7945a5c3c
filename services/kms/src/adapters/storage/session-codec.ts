import type { ApplyResult, Session } from "../../domain/state.js";

// The proposer sessions, encoded apart from the rest of the state (a section
// of its own in the snapshot) so that their shape can change here alone.

/** A JSON value for the sessions section. */
export function encodeSessions(sessions: ReadonlyMap<string, Session>): unknown {
  return Array.from(sessions, ([id, s]) => [id, s.sequence.toString(), s.result]);
}

/** The sessions from what `encodeSessions` gave (also the `sessions` field of a first-version snapshot). */
export function decodeSessions(json: unknown): Map<string, Session> {
  const rows = json as [string, string, ApplyResult][];
  return new Map(rows.map(([id, seq, result]) => [id, { sequence: BigInt(seq), result }]));
}
