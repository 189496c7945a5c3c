// A loopback TCP proxy a test can cut and restore, to take one process off
// NATS (its connection drops, its reconnects are refused) while the rest of
// the deployment carries on.
import { connect, createServer, type Socket } from "node:net";

export interface TcpProxy {
  readonly port: number;
  /** Drops every proxied connection and refuses new ones until restore(). */
  cut(): void;
  restore(): void;
  /** When the last connection was let through (performance.now()), or undefined. */
  lastConnectedAt(): number | undefined;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let cut = false;
  let connectedAt: number | undefined;
  const server = createServer((client) => {
    if (cut) {
      client.destroy();
      return;
    }
    const upstream = connect(targetPort, "127.0.0.1");
    connectedAt = performance.now();
    for (const s of [client, upstream]) {
      open.add(s);
      s.once("close", () => open.delete(s));
      // Either side ending or failing ends both, as a dropped link does.
      s.once("error", () => (client.destroy(), upstream.destroy()));
    }
    client.once("close", () => upstream.destroy());
    upstream.once("close", () => client.destroy());
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    port,
    cut() {
      cut = true;
      for (const s of open) s.destroy();
    },
    restore() {
      cut = false;
    },
    lastConnectedAt: () => connectedAt,
    async close() {
      for (const s of open) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
