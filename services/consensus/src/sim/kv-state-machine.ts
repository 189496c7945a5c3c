/** The simulator's replicated state machine: a string map fed JSON puts. */
export interface KvCommand {
  readonly id: string;
  readonly key: string;
  readonly value: string;
}

export interface KvStateMachine {
  apply(data: Uint8Array): KvCommand;
  get(key: string): string;
  snapshot(): Uint8Array;
  restore(data: Uint8Array): void;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function encodeKvCommand(command: KvCommand): Uint8Array {
  return encoder.encode(JSON.stringify(command));
}

export function decodeKvCommand(data: Uint8Array): KvCommand {
  return JSON.parse(decoder.decode(data)) as KvCommand;
}

export function createKvStateMachine(): KvStateMachine {
  let map = new Map<string, string>();
  return {
    apply(data) {
      const cmd = decodeKvCommand(data);
      map.set(cmd.key, cmd.value);
      return cmd;
    },
    get: (key) => map.get(key) ?? "",
    snapshot: () => encoder.encode(JSON.stringify([...map])),
    restore(data) {
      map = new Map(data.length === 0 ? [] : (JSON.parse(decoder.decode(data)) as [string, string][]));
    },
  };
}
