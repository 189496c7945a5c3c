import type { Bus } from "@mc/shared/bus";

export interface BusHealth {
  /** Round trip over the bus, in milliseconds; rejects if the bus does not answer. */
  ping(timeoutMs?: number): Promise<number>;
  close(): void;
}

/**
 * Proves the bus carries messages: a request to a subject this process
 * answers itself, so it needs nothing but the bus (in-process or NATS).
 */
export function createBusHealth(bus: Bus): BusHealth {
  const subject = `${bus.newInbox()}.ping`;
  const sub = bus.subscribe(subject, (msg) => {
    if (msg.reply !== undefined) bus.publish(msg.reply, msg.data);
  });
  const replies = bus.newInbox();
  const waiting = new Map<string, () => void>();
  let next = 0;
  const replySub = bus.subscribe(`${replies}.*`, (msg) => waiting.get(msg.subject)?.());
  return {
    ping(timeoutMs = 2000) {
      const token = `${replies}.${++next}`;
      const started = performance.now();
      return new Promise<number>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(token);
          reject(new Error(`bus did not answer within ${timeoutMs} ms`));
        }, timeoutMs);
        waiting.set(token, () => {
          clearTimeout(timer);
          waiting.delete(token);
          resolve(performance.now() - started);
        });
        bus.publish(subject, new Uint8Array(0), { reply: token });
      });
    },
    close() {
      sub.unsubscribe();
      replySub.unsubscribe();
    },
  };
}
