import { connect, createInbox, headers as natsHeaders, type MsgHdrs, type NatsConnection } from "@nats-io/transport-node";
import type { Bus, BusMessage } from "./bus.js";

export interface NatsBusOptions {
  /** One or more `nats://host:port` URLs. */
  readonly servers: string | readonly string[];
  /** Shown in the server's connection list, to tell processes apart. */
  readonly name?: string;
  /** Pause between reconnect attempts; tests shorten it to see many attempts quickly. */
  readonly reconnectWaitMs?: number;
}

const emptyHeaders: ReadonlyMap<string, string> = new Map();

function fromNats(h: MsgHdrs | undefined): ReadonlyMap<string, string> {
  if (!h) return emptyHeaders;
  const out = new Map<string, string>();
  for (const [k, values] of h) out.set(k, values.join(", "));
  return out;
}

function toNats(h: ReadonlyMap<string, string> | undefined): MsgHdrs | undefined {
  if (!h || h.size === 0) return undefined;
  const out = natsHeaders();
  for (const [k, v] of h) out.set(k, v);
  return out;
}

/** Wraps an open NATS connection as a Bus. */
export function createNatsBus(nc: NatsConnection): Bus {
  return {
    get maxPayload() {
      return nc.info?.max_payload ?? 1024 * 1024;
    },
    publish(subject, data, options = {}) {
      const h = toNats(options.headers);
      nc.publish(subject, data, {
        ...(h ? { headers: h } : {}),
        ...(options.reply !== undefined ? { reply: options.reply } : {}),
      });
    },
    subscribe(subject, handler, options = {}) {
      const sub = nc.subscribe(subject, {
        ...(options.queue !== undefined ? { queue: options.queue } : {}),
        callback: (err, msg) => {
          if (err) return;
          const message: BusMessage = {
            subject: msg.subject,
            data: msg.data,
            headers: fromNats(msg.headers),
            reply: msg.reply || undefined,
            noResponders: msg.headers?.code === 503 && msg.data.byteLength === 0,
          };
          handler(message);
        },
      });
      return { unsubscribe: () => sub.unsubscribe(), drain: () => sub.drain() };
    },
    newInbox: () => createInbox(),
    flush: () => nc.flush(),
    onClose(callback) {
      void nc.closed().then(callback, callback);
    },
    close: () => nc.close(),
  };
}

/** Connects to NATS and wraps the connection as a Bus. */
export async function connectNatsBus(options: NatsBusOptions): Promise<Bus> {
  const servers = typeof options.servers === "string" ? [options.servers] : [...options.servers];
  // nats.js gives up after 10 reconnect attempts (about 20 s) and closes the
  // connection for good: a service would then stay cut off after NATS comes
  // back from a longer outage. A service keeps trying for as long as it runs.
  const nc = await connect({
    servers,
    maxReconnectAttempts: -1,
    reconnectTimeWait: options.reconnectWaitMs ?? 2000,
    ...(options.name ? { name: options.name } : {}),
  });
  return createNatsBus(nc);
}
