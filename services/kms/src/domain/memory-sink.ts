import { apply } from "./apply.js";
import type { CommandSink } from "./ports.js";
import type { KmsState } from "./state.js";

/**
 * A command sink that applies at once, without persistence: the in-memory
 * fake for tests, and the shape the durable log and Raft implement.
 */
export function createMemorySink(state: KmsState, now: () => string = () => new Date().toISOString()): CommandSink {
  let sequence = 0n;
  return {
    propose(payload, issuedBy) {
      sequence += 1n;
      return Promise.resolve(apply(state, { clientId: "memory", sequence, issuedAt: now(), issuedBy, payload }));
    },
  };
}
