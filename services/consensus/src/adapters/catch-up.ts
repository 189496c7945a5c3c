import { AppError } from "@mc/shared/errors";
import type { RaftNode } from "../domain/raft-node.js";
import type { StateSignal } from "./state-signal.js";

/** How far a peer has got: its matched index and the snapshot bytes it acknowledged. */
function markOf(node: RaftNode, id: string): string {
  const p = node.status().peers.find((x) => x.id === id);
  return `${p?.match ?? 0}/${p?.snapshotOffset ?? "-"}`;
}

/**
 * Waits until a joining node's log reaches the leader's (thesis §4.2.1: in
 * rounds, until a round takes less than an election timeout). A node that
 * needs a large snapshot takes as long as the transfer and its restore take,
 * so there is no deadline on the whole: it fails only when the node made no
 * progress (neither its matched index nor the snapshot bytes it acknowledged
 * moved) for `stallMs`.
 */
export async function waitCaughtUp(node: () => RaftNode, changed: StateSignal, id: string, address: string, electionMs: number, stallMs: number): Promise<void> {
  for (let round = 0; round < 10; round++) {
    const started = Date.now();
    const target = node().status().lastIndex;
    let mark = markOf(node(), id);
    for (;;) {
      const seen = await changed.until(() => {
        if ((node().status().peers.find((p) => p.id === id)?.match ?? 0) >= target) return "caught up";
        const now = markOf(node(), id);
        return now === mark ? undefined : now;
      }, stallMs);
      if (seen === "caught up") break;
      if (seen === undefined) throw new AppError("deadline_exceeded", `the new node ${address} did not catch up`);
      mark = seen;
    }
    if (Date.now() - started < electionMs) return;
  }
}
