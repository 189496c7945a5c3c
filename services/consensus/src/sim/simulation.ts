import { isVoter, memberIds } from "../domain/configuration.js";
import { createPrng, type Random } from "../domain/prng.js";
import { earlyMessages } from "../domain/early-send.js";
import { maxFaults, paramsForSeed, replayCommand, type SimParams, type SimReport } from "./sim-params.js";
import { createRaftNode, type RaftNode } from "../domain/raft-node.js";
import type { Configuration, Member, Message, Ready, SnapshotData } from "../domain/types.js";
import { createEventQueue } from "./event-queue.js";
import { createKvStateMachine, encodeKvCommand, type KvStateMachine } from "./kv-state-machine.js";
import { checkOperations, kvModel, type KvInput, type KvOutput, type Operation } from "./linearizability.js";
import { createSafetyChecks, SafetyViolation } from "./safety-checks.js";
import { describeMessage, describeNode } from "./sim-trace.js";
import { createSimDisk, diskTermAt, loadDisk, persistReady, type SimDisk } from "./sim-disk.js";

interface SimNode {
  readonly id: string;
  readonly tickMs: number;
  readonly disk: SimDisk;
  readonly bootstrap: Configuration;
  up: boolean;
  gen: number;
  core: RaftNode;
  kv: KvStateMachine;
  applied: number;
  snapshotIndex: number;
  /** The run of Readies being persisted (one fsync), as the ready loop takes them. */
  queue: Ready[];
  /** Readies pushed while a run is being persisted: the next run. */
  next: Ready[];
  flushing: boolean;
  pendingPuts: Map<number, { client: number; opNo: number; cmdId: string }>;
  pendingReads: Map<string, { client: number; opNo: number; key: string; index: number | undefined }>;
}

interface Client {
  readonly id: number;
  opNo: number;
  hint: string;
  current: { opNo: number; input: KvInput; call: number; submitted: boolean } | undefined;
}

type Event =
  | { k: "tick"; node: string; gen: number }
  | { k: "deliver"; m: Message }
  | { k: "flush"; node: string; gen: number }
  | { k: "fault" }
  | { k: "heal" }
  | { k: "restart"; node: string }
  | { k: "attempt"; client: number; opNo: number }
  | { k: "timeout"; client: number; opNo: number }
  | { k: "next"; client: number }
  | { k: "end" };

const typeCode: Record<Message["type"], number> = { vote: 1, voteResp: 2, append: 3, appendResp: 4, snapshot: 5, snapshotResp: 6, timeoutNow: 7 };

const fnv32 = (data: SnapshotData): Uint8Array => {
  let h = 0x811c9dc5;
  for (const b of data.subarray(0, data.length)) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return new Uint8Array([h >>> 24, (h >>> 16) & 0xff, (h >>> 8) & 0xff, h & 0xff]);
};

/**
 * A stored snapshot read back a piece at a time, as the real runner reads its
 * snapshot file: every piece is a copy, so the core can rely on no aliasing.
 */
const onDisk = (data: Uint8Array): SnapshotData => ({ length: data.length, subarray: (begin, end) => data.slice(begin, end) });

/** Receives one line per simulated event when a run is traced (`--verbose`). */
export type TraceSink = (line: string) => void;

/** One seeded run: the same seed always yields the same events, checks and trace hash. */
export function runSimulation(seed: number, overrides: Partial<SimParams> = {}, trace?: TraceSink): SimReport {
  const params: SimParams = { ...paramsForSeed(seed), ...overrides };
  const rng: Random = createPrng(seed);
  const queue = createEventQueue<Event>();
  const checks = createSafetyChecks();
  const history: Operation<KvInput, KvOutput>[] = [];
  const nodes = new Map<string, SimNode>();
  const blocked = new Set<string>();
  let now = 0;
  let events = 0;
  let hash = 0x811c9dc5;
  let loss = params.loss;
  let duplicate = params.duplicate;
  let active = true;
  const counts = { crashes: 0, lostWrites: 0, partitions: 0, transfers: 0, configChanges: 0, snapshotsInstalled: 0, compactions: 0 };
  // Lines are built only when traced: a plain run pays nothing for them.
  const say = (line: () => string): void => {
    if (trace) trace(`${now.toFixed(1).padStart(7)} ${line()}`);
  };
  const show = (node: SimNode): void => say(() => `  ${describeNode(node.id, node.core)}`);
  const mix = (n: number): void => {
    hash = Math.imul(hash ^ (n | 0), 0x01000193) >>> 0;
  };
  const ids = Array.from({ length: params.voters + params.spares }, (_, i) => `n${i + 1}`);
  const member = (id: string): Member => ({ id, address: `${id}.sim:7373` });
  const founding: Configuration = { voters: ids.slice(0, params.voters).map(member), learners: [] };

  function boot(node: SimNode): void {
    node.gen += 1;
    node.up = true;
    node.core = createRaftNode({ id: node.id, random: createPrng(Math.floor(rng() * 2 ** 31)), bootstrap: node.bootstrap, snapshotChunkBytes: 96, checkQuorum: params.checkQuorum, checksum: fnv32 }, loadDisk(node.disk));
    node.kv = createKvStateMachine();
    node.kv.restore(node.disk.snapshot?.data ?? new Uint8Array(0));
    // As the runner: the restored snapshot's bytes are read from the disk when a follower needs them.
    if (node.disk.snapshot) node.core.holdSnapshotData(node.disk.snapshot.meta, onDisk(node.disk.snapshot.data));
    node.applied = node.disk.snapshot?.meta.index ?? 0;
    node.snapshotIndex = node.applied;
    node.queue = [];
    node.next = [];
    node.flushing = false;
    node.pendingPuts = new Map();
    node.pendingReads = new Map();
    queue.push(now + node.tickMs, { k: "tick", node: node.id, gen: node.gen });
    say(() => `boot ${node.id} (gen ${node.gen}) from disk: hard state t${node.disk.hardState.term} vote ${node.disk.hardState.votedFor || "-"} commit ${node.disk.hardState.commit}`);
    show(node);
  }

  for (const [i, id] of ids.entries()) {
    const node = {
      id, tickMs: 10 * (0.8 + 0.4 * rng()), disk: createSimDisk(), bootstrap: i < params.voters ? founding : { voters: [], learners: [] },
      up: false, gen: 0, applied: 0, snapshotIndex: 0, queue: [], next: [], flushing: false, pendingPuts: new Map(), pendingReads: new Map(),
    } as unknown as SimNode;
    nodes.set(id, node);
    boot(node);
  }

  const leaders = (): { id: string; node: RaftNode }[] =>
    [...nodes.values()].filter((n) => n.up && n.core.status().role === "leader").map((n) => ({ id: n.id, node: n.core }));

  // AppendEntries a leader sent while their Ready was still waiting for its (simulated) fsync.
  const sentEarly = new WeakSet<Message>();

  function handle(node: SimNode, ready: Ready): void {
    checks.observed(node.id, node.core, leaders);
    // As the ready loop: a Ready pushed while a run is being persisted waits for the next run.
    if (node.flushing) node.next.push(ready);
    else startRun(node, [ready]);
  }

  function startRun(node: SimNode, run: Ready[]): void {
    node.queue = run;
    // As the ready loop does (early-send.ts), as the run starts to persist: a crash before
    // the flush loses the entries, not these messages.
    for (const m of earlyMessages(run, node.disk.hardState)) {
      sentEarly.add(m);
      say(() => `early ${node.id}: ${describeMessage(m)}`);
      send(m);
    }
    node.flushing = true;
    queue.push(now + rng() * 2, { k: "flush", node: node.id, gen: node.gen });
  }

  function flush(node: SimNode): void {
    while (node.queue.length > 0) {
      const ready = node.queue.shift() as Ready;
      const before = node.disk.hardState;
      persistReady(node.disk, ready);
      // As the runner: once stored, the snapshot is sent from the disk, not from memory.
      if (ready.snapshot && node.disk.snapshot) node.core.holdSnapshotData(ready.snapshot.meta, onDisk(node.disk.snapshot.data));
      const first = ready.entries[0];
      say(() => {
        const parts = [
          ready.snapshot ? `snapshot ${ready.snapshot.meta.index}/${ready.snapshot.meta.term}` : "",
          first ? `entries ${first.index}..${ready.entries.at(-1)?.index ?? 0}@${[...new Set(ready.entries.map((e) => e.term))].join(",")}` : "",
          ready.hardState ? `hard state t${ready.hardState.term} vote ${ready.hardState.votedFor || "-"} commit ${ready.hardState.commit}` : "",
          ready.committed.length > 0 ? `apply ${ready.committed[0]?.index ?? 0}..${ready.committed.at(-1)?.index ?? 0}` : "",
          ready.restore ? `restore ${ready.restore.meta.index}` : "",
          ready.messages.length > 0 ? `send ${ready.messages.length}` : "",
        ].filter((p) => p !== "");
        return `flush ${node.id}: ${parts.join(", ") || "nothing"}`;
      });
      checks.persisted(node.id, before, node.disk.hardState, ready.entries, first ? diskTermAt(node.disk, first.index - 1) : undefined);
      for (const m of ready.messages) if (!sentEarly.has(m)) send(m);
      apply(node, ready);
    }
    node.flushing = false;
    if (node.next.length > 0) {
      const run = node.next;
      node.next = [];
      startRun(node, run);
    }
  }

  function send(m: Message): void {
    if (blocked.has(`${m.from}|${m.to}`)) return say(() => `  cut  ${describeMessage(m)}`);
    if (rng() < loss) return say(() => `  lost ${describeMessage(m)}`);
    queue.push(now + 0.5 + rng() * 4, { k: "deliver", m });
    if (rng() < duplicate) {
      queue.push(now + 0.5 + rng() * 8, { k: "deliver", m });
      say(() => `  dup  ${describeMessage(m)}`);
    }
  }

  function apply(node: SimNode, ready: Ready): void {
    if (ready.restore) {
      counts.snapshotsInstalled++;
      node.kv.restore(ready.restore.data);
      node.applied = ready.restore.meta.index;
      node.snapshotIndex = Math.max(node.snapshotIndex, node.applied);
    }
    for (const e of ready.committed) {
      if (e.index !== node.applied + 1) throw new SafetyViolation(`${node.id} applied ${e.index} after ${node.applied}`);
      checks.applied(node.id, e);
      node.applied = e.index;
      if (e.type !== "normal") continue;
      const cmd = node.kv.apply(e.data);
      const put = node.pendingPuts.get(e.index);
      if (put) {
        node.pendingPuts.delete(e.index);
        if (put.cmdId === cmd.id) complete(put.client, put.opNo, { value: "" });
      }
    }
    for (const rs of ready.readStates) {
      const r = node.pendingReads.get(rs.ctx);
      if (r) r.index = rs.index;
    }
    for (const [ctx, r] of node.pendingReads) {
      if (r.index !== undefined && r.index <= node.applied) {
        node.pendingReads.delete(ctx);
        complete(r.client, r.opNo, { value: node.kv.get(r.key) });
      }
    }
    if (node.applied - node.snapshotIndex >= params.snapshotEvery) {
      node.snapshotIndex = node.applied;
      counts.compactions++;
      node.queue.push(node.core.compact(node.applied, node.kv.snapshot()));
    }
  }

  // --- clients ---------------------------------------------------------------
  const clients: Client[] = Array.from({ length: params.clients }, (_, id) => ({ id, opNo: 0, hint: "", current: undefined }));
  const keys = ["w", "x", "y", "z"];

  function nextOp(c: Client): void {
    if (!active) return;
    c.opNo += 1;
    const key = keys[Math.floor(rng() * keys.length)] ?? "x";
    const input: KvInput = rng() < 0.6 ? { op: "put", key, value: `${c.id}.${c.opNo}` } : { op: "get", key };
    c.current = { opNo: c.opNo, input, call: now, submitted: false };
    queue.push(now + 200, { k: "timeout", client: c.id, opNo: c.opNo });
    attempt(c, c.opNo);
  }

  function attempt(c: Client, opNo: number): void {
    const op = c.current;
    if (!op || op.opNo !== opNo || op.submitted) return;
    const up = [...nodes.values()].filter((n) => n.up);
    const hinted = nodes.get(c.hint);
    const target = hinted?.up ? hinted : up[Math.floor(rng() * up.length)];
    if (!target) return void queue.push(now + 20, { k: "attempt", client: c.id, opNo });
    let result;
    if (op.input.op === "put") {
      const cmdId = `${c.id}.${opNo}`;
      result = target.core.propose(encodeKvCommand({ id: cmdId, key: op.input.key, value: op.input.value ?? "" }));
      if (result.ok) target.pendingPuts.set(result.index, { client: c.id, opNo, cmdId });
    } else {
      const ctx = `${c.id}.${opNo}`;
      result = target.core.readIndex(ctx);
      if (result.ok) target.pendingReads.set(ctx, { client: c.id, opNo, key: op.input.key, index: undefined });
    }
    say(() => `client ${c.id} ${op.input.op} ${op.input.key}${op.input.value ? `=${op.input.value}` : ""} at ${target.id}: ${result.ok ? "accepted" : `refused (${result.reason})`}`);
    handle(target, result.ready);
    if (result.ok) op.submitted = true;
    else {
      c.hint = result.leaderId !== "" && result.leaderId !== target.id ? result.leaderId : (ids[Math.floor(rng() * ids.length)] ?? "");
      queue.push(now + 5 + rng() * 10, { k: "attempt", client: c.id, opNo });
    }
  }

  function complete(client: number, opNo: number, output: KvOutput | undefined): void {
    const c = clients[client];
    const op = c?.current;
    if (!c || !op || op.opNo !== opNo) return;
    say(() => `client ${client} ${op.input.op} ${op.input.key} ${output ? `ok ${output.value ?? ""}` : "timed out (unknown)"}`);
    if (output || op.input.op === "put") history.push({ clientId: client, input: op.input, call: op.call, output, return: output ? now : Infinity });
    c.current = undefined;
    queue.push(now + rng() * 15, { k: "next", client });
  }

  // --- faults ----------------------------------------------------------------
  function crash(node: SimNode): void {
    node.up = false;
    node.gen += 1;
    // Whatever was not fsynced yet is lost, and nothing that depended on it was sent.
    const unflushed = [...node.queue, ...node.next];
    if (unflushed.some((r) => r.entries.length > 0 || r.hardState)) counts.lostWrites++;
    counts.crashes++;
    say(() => `crash ${node.id}: ${unflushed.length} unflushed ready(s) lost`);
    node.queue = [];
    node.next = [];
    node.pendingPuts.clear();
    node.pendingReads.clear();
  }

  function partition(): void {
    counts.partitions++;
    blocked.clear();
    const live = [...ids];
    const cut = (a: string, b: string): void => {
      blocked.add(`${a}|${b}`);
      blocked.add(`${b}|${a}`);
    };
    const kind = rng();
    if (kind < 0.35) {
      const leader = leaders()[0]?.id;
      const victim = leader && rng() < 0.7 ? leader : live[Math.floor(rng() * live.length)];
      for (const other of live) if (other !== victim && victim) cut(victim, other);
    } else if (kind < 0.7) {
      const shuffled = [...live].sort(() => rng() - 0.5);
      const minority = shuffled.slice(0, Math.floor(live.length / 2));
      for (const a of minority) for (const b of live) if (!minority.includes(b)) cut(a, b);
    } else {
      // Partial: a ring (each node reaches only its neighbours) or one cut link.
      if (live.length >= 5) {
        for (let i = 0; i < live.length; i++) for (let j = i + 2; j < live.length; j++) if (!(i === 0 && j === live.length - 1)) cut(live[i] ?? "", live[j] ?? "");
      } else cut(live[0] ?? "", live[1] ?? "");
    }
    say(() => `partition: cut ${[...blocked].filter((p) => p < p.split("|").reverse().join("|")).join(" ")}`);
    queue.push(now + 200 + rng() * 700, { k: "heal" });
  }

  function membershipChange(): void {
    const l = leaders().sort((a, b) => b.node.status().term - a.node.status().term)[0];
    if (!l) return;
    const s = l.node.status();
    const members = new Set(memberIds(s.configuration));
    const outside = ids.filter((id) => !members.has(id));
    const learner = s.configuration.learners[0];
    let result: ReturnType<RaftNode["changeMembership"]> | undefined;
    if (learner) result = l.node.changeMembership({ type: "addVoter", member: learner });
    else if (outside.length > 0 && rng() < 0.6) result = l.node.changeMembership({ type: "addLearner", member: member(outside[0] ?? "") });
    else if (s.configuration.voters.length > 3) {
      const victims = s.configuration.voters.filter((v) => isVoter(s.configuration, v.id));
      const v = victims[Math.floor(rng() * victims.length)];
      if (v) result = l.node.changeMembership({ type: "remove", id: v.id });
    }
    const node = nodes.get(l.id);
    const outcome = result;
    say(() => `membership change at ${l.id}: ${outcome ? (outcome.ok ? `accepted at ${outcome.index}: ${outcome.configuration.voters.map((v) => v.id).join(",")} + learners ${outcome.configuration.learners.map((v) => v.id).join(",") || "-"}` : `refused (${outcome.reason})`) : "none"}`);
    if (result?.ok) counts.configChanges++;
    if (result && node) handle(node, result.ready);
  }

  function fault(): void {
    const r = rng();
    const upNodes = [...nodes.values()].filter((n) => n.up);
    if (r < 0.3) partition();
    else if (r < 0.55) {
      const victim = upNodes[Math.floor(rng() * upNodes.length)];
      if (victim) {
        crash(victim);
        queue.push(now + 50 + rng() * 350, { k: "restart", node: victim.id });
      }
    } else if (r < 0.7) {
      const l = leaders()[0];
      const voters = l?.node.status().configuration.voters.filter((v) => v.id !== l.id) ?? [];
      const to = voters[Math.floor(rng() * voters.length)];
      const node = l && nodes.get(l.id);
      if (l && to && node) {
        counts.transfers++;
        say(() => `transfer leadership ${l.id} -> ${to.id}`);
        handle(node, l.node.transferLeadership(to.id).ready);
      }
    } else if (params.membership) membershipChange();
    queue.push(now + params.faultEveryMs * (0.5 + rng()), { k: "fault" });
  }

  // --- run -------------------------------------------------------------------
  if (params.faultEveryMs < params.activeMs) queue.push(200, { k: "fault" });
  for (const c of clients) queue.push(100 + c.id, { k: "next", client: c.id });
  queue.push(params.activeMs, { k: "end" });
  const stopAt = params.activeMs + params.settleMs;
  let error: string | undefined;
  try {
    for (let ev = queue.pop(); ev && ev.time <= stopAt; ev = queue.pop()) {
      now = ev.time;
      events++;
      const e = ev.value;
      mix(Math.floor(now * 1000));
      switch (e.k) {
        case "tick": {
          const node = nodes.get(e.node);
          if (!node || !node.up || node.gen !== e.gen) break;
          const before = trace ? describeNode(node.id, node.core) : "";
          handle(node, node.core.tick());
          if (trace && describeNode(node.id, node.core) !== before) {
            say(() => `tick ${node.id}`);
            show(node);
          }
          queue.push(now + node.tickMs, e);
          break;
        }
        case "deliver": {
          const node = nodes.get(e.m.to);
          mix(typeCode[e.m.type] * 1000 + ids.indexOf(e.m.from) * 10 + ids.indexOf(e.m.to));
          if (!node || !node.up || blocked.has(`${e.m.from}|${e.m.to}`)) {
            say(() => `deliver ${describeMessage(e.m)}: ${node?.up ? "cut" : "node down"}`);
            break;
          }
          say(() => `deliver ${describeMessage(e.m)}`);
          handle(node, node.core.step(e.m));
          show(node);
          break;
        }
        case "flush": {
          const node = nodes.get(e.node);
          if (node && node.up && node.gen === e.gen) flush(node);
          break;
        }
        case "fault":
          if (active) fault();
          break;
        case "heal":
          say(() => "heal");
          blocked.clear();
          break;
        case "restart": {
          const node = nodes.get(e.node);
          if (node && !node.up) boot(node);
          break;
        }
        case "attempt":
          attempt(clients[e.client] as Client, e.opNo);
          break;
        case "timeout": {
          const c = clients[e.client];
          // A client that timed out tries someone else next time.
          if (c?.current?.opNo === e.opNo) c.hint = ids[Math.floor(rng() * ids.length)] ?? "";
          complete(e.client, e.opNo, undefined);
          break;
        }
        case "next":
          nextOp(clients[e.client] as Client);
          break;
        case "end":
          say(() => "end of faults: heal, no loss, restart every node");
          active = false;
          loss = 0;
          duplicate = 0;
          blocked.clear();
          for (const node of nodes.values()) if (!node.up) boot(node);
          break;
      }
    }
    const leader = leaders().sort((a, b) => b.node.status().term - a.node.status().term)[0];
    if (!leader) throw new SafetyViolation(`liveness: no leader ${params.settleMs} ms after healing`);
    const ls = leader.node.status();
    for (const v of ls.configuration.voters) {
      const n = nodes.get(v.id);
      if (n && n.applied !== ls.commit) throw new SafetyViolation(`liveness: ${v.id} applied ${n.applied}, leader ${leader.id} committed ${ls.commit}`);
    }
  } catch (err) {
    if (!(err instanceof Error)) throw err;
    error = `${err.name}: ${err.message} (seed ${seed}, t=${now.toFixed(1)} ms)`;
  }
  for (const c of clients) if (c.current?.input.op === "put") history.push({ clientId: c.id, input: c.current.input, call: c.current.call, output: undefined, return: Infinity });
  const linearizable = checkOperations(kvModel, history);
  if (!error && linearizable !== "ok") error = `linearizability: client history is ${linearizable} (seed ${seed})`;
  const leader = leaders()[0];
  return {
    seed, params, ok: error === undefined, ...(error ? { error } : {}), replay: replayFor(seed, overrides), events, leaderTerms: checks.leaderTerms,
    opsOk: history.filter((o) => o.return !== Infinity).length, opsUnknown: history.filter((o) => o.return === Infinity).length,
    commitIndex: leader?.node.status().commit ?? 0, linearizable, traceHash: hash.toString(16).padStart(8, "0"), counts,
  };
}

/** The command that replays a run; overrides other than --max-faults are named, since the CLI cannot set them. */
function replayFor(seed: number, overrides: Partial<SimParams>): string {
  const keys = Object.keys(overrides) as (keyof SimParams)[];
  if (keys.length === 0) return replayCommand(seed);
  if (keys.length === Object.keys(maxFaults).length && keys.every((k) => overrides[k] === maxFaults[k])) return replayCommand(seed, true);
  return `${replayCommand(seed)} (with overrides ${JSON.stringify(overrides)})`;
}

export { maxFaults, paramsForSeed, replayCommand };
export type { SimParams, SimReport };
