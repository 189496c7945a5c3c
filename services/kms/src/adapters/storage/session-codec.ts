import type { ApplyResult, Session } from "../../domain/state.js";

// The session table in a snapshot: one line per record, oldest first (the
// order is the eviction order, so it must survive the round trip), kept here
// alone so the table's shape can change in one place.

export type SessionLine = ["s", string, string, ApplyResult];

export function* sessionLines(sessions: ReadonlyMap<string, Session>): Generator<SessionLine> {
  for (const [key, s] of sessions) yield ["s", key, s.target, s.result];
}

export function addSession(sessions: Map<string, Session>, line: SessionLine): void {
  sessions.set(line[1], { target: line[2], result: line[3] });
}
