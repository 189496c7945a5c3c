import { randomBytes } from "node:crypto";
import type { Bus, BusHandler, BusMessage, BusSubscription, PublishOptions, SubscribeOptions } from "./bus.js";
import { subjectMatches } from "./subject-match.js";

interface Entry {
  readonly pattern: string;
  readonly queue: string | undefined;
  readonly handler: BusHandler;
  readonly owner: object;
}

export interface MemoryBroker {
  /** A new connection to the broker; closing it drops its subscriptions. */
  connect(): Bus;
}

export interface MemoryBrokerOptions {
  /** Defaults to NATS's default of 1 MiB. */
  readonly maxPayload?: number;
}

const emptyHeaders: ReadonlyMap<string, string> = new Map();

function sizeOf(data: Uint8Array, headers: ReadonlyMap<string, string> | undefined): number {
  let size = data.byteLength;
  if (headers) for (const [k, v] of headers) size += k.length + v.length + 4;
  return size;
}

/**
 * An in-process broker with NATS semantics, for the embedded mode: delivery
 * is asynchronous (never re-entrant), queue groups pick one member at random,
 * and a request nobody listens to gets a "no responders" status.
 */
export function createMemoryBroker(options: MemoryBrokerOptions = {}): MemoryBroker {
  const maxPayload = options.maxPayload ?? 1024 * 1024;
  let entries: Entry[] = [];

  function deliver(handler: BusHandler, msg: BusMessage): void {
    queueMicrotask(() => handler(msg));
  }

  function route(subject: string, data: Uint8Array, opts: PublishOptions): boolean {
    const msg: BusMessage = {
      subject,
      data,
      headers: opts.headers ?? emptyHeaders,
      reply: opts.reply,
      noResponders: false,
    };
    const groups = new Map<string, Entry[]>();
    let delivered = false;
    for (const e of entries) {
      if (!subjectMatches(e.pattern, subject)) continue;
      if (e.queue === undefined) {
        deliver(e.handler, msg);
        delivered = true;
        continue;
      }
      const members = groups.get(e.queue) ?? [];
      members.push(e);
      groups.set(e.queue, members);
    }
    for (const members of groups.values()) {
      const chosen = members[Math.floor(Math.random() * members.length)];
      if (chosen) {
        deliver(chosen.handler, msg);
        delivered = true;
      }
    }
    return delivered;
  }

  return {
    connect(): Bus {
      const owner = {};
      const closeCallbacks: Array<() => void> = [];
      let closed = false;
      let inboxes = 0;
      const prefix = `_INBOX.${randomBytes(9).toString("base64url")}`;
      return {
        maxPayload,
        publish(subject, data, opts = {}) {
          if (closed) throw new Error("bus connection is closed");
          if (sizeOf(data, opts.headers) > maxPayload) throw new Error("maximum payload exceeded");
          const delivered = route(subject, data, opts);
          const reply = opts.reply;
          if (!delivered && reply !== undefined) {
            const status: BusMessage = { subject: reply, data: new Uint8Array(0), headers: emptyHeaders, reply: undefined, noResponders: true };
            for (const e of entries) if (subjectMatches(e.pattern, reply)) deliver(e.handler, status);
          }
        },
        subscribe(pattern: string, handler: BusHandler, opts: SubscribeOptions = {}): BusSubscription {
          if (closed) throw new Error("bus connection is closed");
          const entry: Entry = { pattern, queue: opts.queue, handler, owner };
          entries = [...entries, entry];
          const unsubscribe = (): void => {
            entries = entries.filter((e) => e !== entry);
          };
          return {
            unsubscribe,
            drain() {
              unsubscribe();
              // Deliveries are microtasks: one macrotask later they have all run.
              return new Promise<void>((resolve) => setImmediate(resolve));
            },
          };
        },
        newInbox() {
          inboxes += 1;
          return `${prefix}.${inboxes}`;
        },
        flush: () => Promise.resolve(),
        onClose(callback) {
          closeCallbacks.push(callback);
        },
        close() {
          if (!closed) {
            closed = true;
            entries = entries.filter((e) => e.owner !== owner);
            for (const cb of closeCallbacks) cb();
          }
          return Promise.resolve();
        },
      };
    },
  };
}
