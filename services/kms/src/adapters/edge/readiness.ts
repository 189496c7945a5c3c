import { AppError } from "@mc/shared/errors";
import { isLeader, type NodeInfo } from "./node-info.js";

const writeProbeMs = 1000;

/** Ready (contract §6), or an `unavailable` error naming why not; `write` also needs a leader with a majority. */
export async function readiness(node: NodeInfo, write: boolean): Promise<{ status: "ready"; leader: boolean }> {
  const reason = node.notReady();
  if (reason !== undefined) throw new AppError("unavailable", `not ready: ${reason}`);
  const unwritable = write ? node.notWritable?.() : undefined;
  if (unwritable !== undefined) throw new AppError("unavailable", `not ready: ${unwritable}`);
  // A leader that still has a majority confirms a read point (ReadIndex) in time.
  if (write && node.raft) {
    await node.raft.linearize(writeProbeMs).catch(() => {
      throw new AppError("unavailable", "not ready: cannot reach a leader with a majority");
    });
  }
  return { status: "ready", leader: isLeader(node) };
}
