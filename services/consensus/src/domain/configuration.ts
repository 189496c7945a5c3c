import type { Configuration, Member, MembershipChange } from "./types.js";

export const emptyConfiguration: Configuration = { voters: [], learners: [] };

export function isVoter(config: Configuration, id: string): boolean {
  return config.voters.some((m) => m.id === id);
}

export function isMember(config: Configuration, id: string): boolean {
  return isVoter(config, id) || config.learners.some((m) => m.id === id);
}

export function memberIds(config: Configuration): string[] {
  return [...config.voters, ...config.learners].map((m) => m.id);
}

export function quorum(config: Configuration): number {
  return Math.floor(config.voters.length / 2) + 1;
}

/** One single-server step; undefined when the change is not allowed. */
export function applyChange(config: Configuration, change: MembershipChange): Configuration | undefined {
  const without = (list: readonly Member[], id: string): Member[] => list.filter((m) => m.id !== id);
  switch (change.type) {
    case "addLearner":
      if (isMember(config, change.member.id)) return undefined;
      return { voters: config.voters, learners: [...config.learners, change.member] };
    case "addVoter":
      if (isVoter(config, change.member.id)) return undefined;
      return { voters: [...config.voters, change.member], learners: without(config.learners, change.member.id) };
    case "remove":
      if (!isMember(config, change.id)) return undefined;
      if (isVoter(config, change.id) && config.voters.length === 1) return undefined;
      return { voters: without(config.voters, change.id), learners: without(config.learners, change.id) };
  }
}

// CONFIG entries carry JSON: small, readable in a log dump, and the same bytes
// in the simulator, the durable log and on the wire.
export function encodeConfiguration(config: Configuration): Uint8Array {
  return new TextEncoder().encode(JSON.stringify(config));
}

export function decodeConfiguration(data: Uint8Array): Configuration {
  const parsed = JSON.parse(new TextDecoder().decode(data)) as Configuration;
  return { voters: parsed.voters, learners: parsed.learners };
}
