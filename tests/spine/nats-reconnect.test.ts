import { connectNatsBus, type Bus } from "@mc/shared/bus";
import { once } from "node:events";
import { createServer } from "node:net";
import { test } from "uvu";
import * as assert from "uvu/assert";
import { startNatsServer, type NatsNode } from "../harness/nats-server.js";
import { waitFor } from "../harness/wait-for.js";

const subject = "spine.test.echo";
const waitMs = 100;

/** One request over the bus; resolves false when no answer comes in time. */
async function roundTrip(bus: Bus, text: string): Promise<boolean> {
  const inbox = bus.newInbox();
  return new Promise<boolean>((resolve) => {
    let sub: { unsubscribe(): void } | undefined;
    const finish = (ok: boolean): void => {
      clearTimeout(timer);
      sub?.unsubscribe();
      resolve(ok);
    };
    const timer = setTimeout(() => finish(false), 500);
    try {
      sub = bus.subscribe(inbox, (msg) => finish(new TextDecoder().decode(msg.data) === text));
      bus.publish(subject, new TextEncoder().encode(text), { reply: inbox });
    } catch {
      // A closed connection refuses to subscribe or publish: no answer.
      finish(false);
    }
  });
}

test("a service reconnects after a NATS outage longer than nats.js's default ten attempts", async () => {
  let nats: NatsNode | undefined = await startNatsServer();
  const port = nats.port;
  const server = await connectNatsBus({ servers: nats.url, name: "echo", reconnectWaitMs: waitMs });
  const client = await connectNatsBus({ servers: nats.url, name: "caller", reconnectWaitMs: waitMs });
  let closed = 0;
  let attempts = 0;
  // During the outage the port hangs up on every attempt, and counts them.
  const refuser = createServer((socket) => {
    attempts++;
    socket.destroy();
  });
  server.onClose(() => closed++);
  client.onClose(() => closed++);
  try {
    server.subscribe(subject, (msg) => {
      if (msg.reply) server.publish(msg.reply, msg.data);
    });
    await server.flush();
    assert.ok(await roundTrip(client, "before"), "answer before the outage");
    await nats.stop();
    nats = undefined;
    // The outage lasts until each client has tried about fifteen times, past
    // the ten after which nats.js closes a connection by default.
    refuser.listen(port, "127.0.0.1");
    await once(refuser, "listening");
    await waitFor(() => attempts >= 30, { what: "30 reconnect attempts from the two clients", timeoutMs: 20000 });
    refuser.close();
    await once(refuser, "close");
    nats = await startNatsServer({ port });
    await waitFor(() => roundTrip(client, "after"), { what: "an answer over the bus after NATS came back", timeoutMs: 15000 });
    assert.is(closed, 0, "neither connection was closed");
  } finally {
    if (refuser.listening) refuser.close();
    await client.close();
    await server.close();
    await nats?.stop();
  }
});

test.run();
