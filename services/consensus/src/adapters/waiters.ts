import { AppError } from "@mc/shared/errors";
import { createFifoMap } from "@mc/shared/fifo-map";
import type { Entry } from "../domain/types.js";
import { overwrittenMessage } from "./write-outcome.js";
import { wholeMs } from "@mc/shared/node";

export interface AppliedEntry {
  readonly index: number;
  readonly term: number;
  readonly result: unknown;
}

/** Promises that settle as the local state machine applies entries and read states arrive. */
export interface Waiters {
  /** Settles when the entry at `index` is applied: resolved if its term is `term`, else rejected (not committed). */
  onIndex(index: number, term: number, timeoutMs: number): Promise<AppliedEntry>;
  onApplied(index: number, timeoutMs: number): Promise<void>;
  onReadState(ctx: string, timeoutMs: number): Promise<number>;
  applied(entry: Entry, result: unknown): void;
  appliedUpTo(index: number): void;
  readState(ctx: string, index: number): void;
  failAll(error: Error): void;
}

interface Pending<T> {
  resolve: (value: T) => void;
  reject: (error: Error) => void;
}

const keepResults = 4096;

export function createWaiters(): Waiters {
  let appliedIndex = 0;
  // Every applied entry goes in and the oldest goes out: a FifoMap, not a Map asked for its first key (see fifo-map.ts).
  const recent = createFifoMap<number, { term: number; result: unknown }>(keepResults);
  const byIndex = new Map<number, (Pending<AppliedEntry> & { term: number })[]>();
  const upTo: (Pending<void> & { index: number })[] = [];
  const reads = new Map<string, Pending<number>>();
  const all = new Set<Pending<never>>();

  function track<T>(timeoutMs: number, what: string, register: (p: Pending<T>) => void, unregister: (p: Pending<T>) => void): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        unregister(p);
        all.delete(p as Pending<never>);
        reject(new AppError("deadline_exceeded", `${what} not done within ${timeoutMs} ms; the outcome is unknown`));
      }, wholeMs(timeoutMs));
      const p: Pending<T> = {
        resolve: (v) => {
          clearTimeout(timer);
          all.delete(p as Pending<never>);
          resolve(v);
        },
        reject: (e) => {
          clearTimeout(timer);
          all.delete(p as Pending<never>);
          reject(e);
        },
      };
      all.add(p as Pending<never>);
      register(p);
    });
  }

  function settle(p: Pending<AppliedEntry>, index: number, term: number): void {
    const r = recent.get(index);
    if (!r) p.resolve({ index, term, result: undefined });
    else if (r.term === term) p.resolve({ index, term, result: r.result });
    // Never a client's answer: the propose loop and viaLeader turn it into a retry or 503 (see write-outcome).
    else p.reject(new AppError("aborted", overwrittenMessage));
  }

  return {
    onIndex(index, term, timeoutMs) {
      if (index <= appliedIndex) return new Promise((resolve, reject) => settle({ resolve, reject }, index, term));
      return track<AppliedEntry>(
        timeoutMs,
        `entry ${index}`,
        (p) => byIndex.set(index, [...(byIndex.get(index) ?? []), { ...p, term }]),
        (p) => byIndex.set(index, (byIndex.get(index) ?? []).filter((x) => x.resolve !== p.resolve)),
      );
    },
    onApplied(index, timeoutMs) {
      if (index <= appliedIndex) return Promise.resolve();
      return track<void>(
        timeoutMs,
        `apply up to ${index}`,
        (p) => upTo.push({ ...p, index }),
        (p) => upTo.splice(upTo.findIndex((x) => x.resolve === p.resolve) >>> 0, 1),
      );
    },
    onReadState(ctx, timeoutMs) {
      return track<number>(timeoutMs, "read index", (p) => reads.set(ctx, p), () => reads.delete(ctx));
    },
    applied(entry, result) {
      appliedIndex = entry.index;
      recent.set(entry.index, { term: entry.term, result });
      const list = byIndex.get(entry.index);
      if (list) {
        byIndex.delete(entry.index);
        for (const p of list) settle(p, entry.index, p.term);
      }
    },
    appliedUpTo(index) {
      appliedIndex = Math.max(appliedIndex, index);
      for (const [i, list] of byIndex) {
        if (i > appliedIndex) continue;
        byIndex.delete(i);
        for (const p of list) settle(p, i, p.term);
      }
      for (let k = upTo.length - 1; k >= 0; k--) {
        const w = upTo[k];
        if (w && w.index <= appliedIndex) {
          upTo.splice(k, 1);
          w.resolve();
        }
      }
    },
    readState(ctx, index) {
      const p = reads.get(ctx);
      reads.delete(ctx);
      p?.resolve(index);
    },
    failAll(error) {
      for (const p of [...all]) p.reject(error);
      byIndex.clear();
      upTo.length = 0;
      reads.clear();
    },
  };
}
