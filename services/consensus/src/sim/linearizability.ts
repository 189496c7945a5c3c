/**
 * A Porcupine-style linearizability checker: the Wing & Gong search with
 * Lowe's memoisation of (linearized set, state), run per partition
 * (P-compositionality, e.g. one partition per key).
 */
export interface Operation<I, O> {
  readonly clientId: number;
  readonly input: I;
  readonly call: number;
  /** undefined with return = Infinity: the outcome is unknown (timed out). */
  readonly output: O | undefined;
  readonly return: number;
}

export interface Model<S, I, O> {
  init(): S;
  /** Whether `input` may return `output` in `state`, and the next state; output is undefined for unknown outcomes. */
  step(state: S, input: I, output: O | undefined): readonly [boolean, S];
  partition?(ops: readonly Operation<I, O>[]): Operation<I, O>[][];
  hash(state: S): string;
}

export type CheckResult = "ok" | "illegal" | "unknown";

interface Node<I, O> {
  readonly call: boolean;
  readonly id: number;
  readonly op: Operation<I, O>;
  match: Node<I, O> | undefined;
  prev: Node<I, O> | undefined;
  next: Node<I, O> | undefined;
}

function buildList<I, O>(ops: readonly Operation<I, O>[]): Node<I, O> {
  const events: { time: number; call: boolean; id: number; op: Operation<I, O> }[] = [];
  ops.forEach((op, id) => {
    events.push({ time: op.call, call: true, id, op }, { time: op.return, call: false, id, op });
  });
  // Calls before returns at equal times: closed intervals that touch overlap.
  events.sort((a, b) => a.time - b.time || (a.call === b.call ? 0 : a.call ? -1 : 1));
  const head: Node<I, O> = { call: false, id: -1, op: ops[0] as Operation<I, O>, match: undefined, prev: undefined, next: undefined };
  const calls = new Map<number, Node<I, O>>();
  let tail = head;
  for (const e of events) {
    const node: Node<I, O> = { call: e.call, id: e.id, op: e.op, match: undefined, prev: tail, next: undefined };
    if (e.call) calls.set(e.id, node);
    else {
      const c = calls.get(e.id);
      if (c) c.match = node;
    }
    tail.next = node;
    tail = node;
  }
  return head;
}

function lift<I, O>(n: Node<I, O>): void {
  if (n.prev) n.prev.next = n.next;
  if (n.next) n.next.prev = n.prev;
  const m = n.match;
  if (m) {
    if (m.prev) m.prev.next = m.next;
    if (m.next) m.next.prev = m.prev;
  }
}

function unlift<I, O>(n: Node<I, O>): void {
  const m = n.match;
  if (m) {
    if (m.prev) m.prev.next = m;
    if (m.next) m.next.prev = m;
  }
  if (n.prev) n.prev.next = n;
  if (n.next) n.next.prev = n;
}

function checkSingle<S, I, O>(model: Model<S, I, O>, ops: readonly Operation<I, O>[], budget: { steps: number }): CheckResult {
  if (ops.length === 0) return "ok";
  const head = buildList(ops);
  const cache = new Set<string>();
  const stack: { node: Node<I, O>; state: S }[] = [];
  let linearized = 0n;
  let state = model.init();
  let entry = head.next;
  while (head.next) {
    if (--budget.steps < 0) return "unknown";
    if (!entry) return "illegal";
    if (entry.call) {
      const [ok, next] = model.step(state, entry.op.input, entry.op.return === Infinity ? undefined : entry.op.output);
      const bits = linearized | (1n << BigInt(entry.id));
      const key = `${bits.toString(36)}|${model.hash(next)}`;
      if (ok && !cache.has(key)) {
        cache.add(key);
        stack.push({ node: entry, state });
        state = next;
        linearized = bits;
        lift(entry);
        entry = head.next;
      } else {
        entry = entry.next;
      }
    } else {
      const top = stack.pop();
      if (!top) return "illegal";
      state = top.state;
      linearized &= ~(1n << BigInt(top.node.id));
      unlift(top.node);
      entry = top.node.next;
    }
  }
  return "ok";
}

export function checkOperations<S, I, O>(model: Model<S, I, O>, ops: readonly Operation<I, O>[], maxSteps = 5_000_000): CheckResult {
  const parts = model.partition ? model.partition(ops) : [[...ops]];
  const budget = { steps: maxSteps };
  let result: CheckResult = "ok";
  for (const part of parts) {
    const r = checkSingle(model, part, budget);
    if (r === "illegal") return "illegal";
    if (r === "unknown") result = "unknown";
  }
  return result;
}

export interface KvInput {
  readonly op: "put" | "get";
  readonly key: string;
  readonly value?: string;
}

export interface KvOutput {
  readonly value: string;
}

/** A key-value register per key; absent keys read as "". */
export const kvModel: Model<string, KvInput, KvOutput> = {
  init: () => "",
  step: (state, input, output) => {
    if (input.op === "put") return [true, input.value ?? ""];
    return [output === undefined || output.value === state, state];
  },
  partition: (ops) => {
    const byKey = new Map<string, Operation<KvInput, KvOutput>[]>();
    for (const op of ops) byKey.set(op.input.key, [...(byKey.get(op.input.key) ?? []), op]);
    return [...byKey.values()];
  },
  hash: (state) => state,
};
