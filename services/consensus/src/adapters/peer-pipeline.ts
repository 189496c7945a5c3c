import { mergeAppends } from "../domain/append-merge.js";
import type { AppendRequest, RequestMessage } from "../domain/types.js";
import type { PeerSender, SendOutcome } from "./consensus-transport.js";

export interface PeerPipeline {
  send(message: RequestMessage): void;
}

/**
 * At most `maxInflight` AppendEntries per peer on the wire; later ones wait
 * and are merged into one batch (mergeAppends), so the number of round trips
 * stays flat as proposals grow. Votes, snapshots and TimeoutNow go at once.
 * `onOutcome` hears about every message actually sent, never the merged-away ones.
 */
export function createPeerPipeline(sender: PeerSender, maxInflight: number, onOutcome: (m: RequestMessage, outcome: SendOutcome) => void): PeerPipeline {
  const peers = new Map<string, { inflight: number; waiting: AppendRequest | undefined }>();

  function transmit(m: RequestMessage, done?: () => void): void {
    void sender.send(m).then((outcome) => {
      done?.();
      onOutcome(m, outcome);
    });
  }

  function sendAppend(m: AppendRequest): void {
    const peer = peers.get(m.to) ?? { inflight: 0, waiting: undefined };
    peers.set(m.to, peer);
    if (peer.inflight >= maxInflight) {
      peer.waiting = peer.waiting ? (mergeAppends(peer.waiting, m) ?? m) : m;
      return;
    }
    peer.inflight += 1;
    transmit(m, () => {
      peer.inflight -= 1;
      const next = peer.waiting;
      peer.waiting = undefined;
      if (next) sendAppend(next);
    });
  }

  return {
    send(m) {
      if (m.type === "append") sendAppend(m);
      else transmit(m);
    },
  };
}
