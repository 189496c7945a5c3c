// mc against a server that takes the connection and never answers: the
// connection deadlines end the wait in one line, and a signal ends mc even
// while a request cannot be aborted. Before, both waited forever.
import { createServer, type AddressInfo, type Server } from "node:net";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { suite } from "uvu";
import * as assert from "uvu/assert";
import { waitFor } from "../harness/wait-for.js";
import { runMc, spawnMc } from "./mc-runner.js";

interface Ctx {
  server: Server | undefined;
  connections: number;
  env: Record<string, string>;
  configDir: string;
}

const silent = suite<Ctx>("a server that never answers", { server: undefined, connections: 0, env: {}, configDir: "" });

silent.before(async (ctx) => {
  ctx.configDir = await mkdtemp(join(tmpdir(), "mc-silent-"));
  // The first run writes the configuration (and says so): done here, so each test's output is its own.
  await runMc(["-C", ctx.configDir, "alias", "list"]);
  ctx.server = createServer((socket) => {
    ctx.connections += 1;
    socket.resume();
  });
  await new Promise<void>((resolve) => ctx.server?.listen(0, "127.0.0.1", resolve));
  const { port } = ctx.server.address() as AddressInfo;
  ctx.env = { MC_HOST_hole: `http://key:secret0123@127.0.0.1:${port}` };
});

silent.after(async (ctx) => {
  ctx.server?.close();
  await rm(ctx.configDir, { recursive: true, force: true });
});

silent("should fail in one line once a connection is idle for --conn-read-deadline :: ls, stat, cp, mb", async (ctx) => {
  for (const args of [["ls", "hole/bucket"], ["stat", "hole/bucket/key"], ["cp", "-q", "/etc/hostname", "hole/bucket/key"], ["mb", "hole/bucket"]]) {
    const started = Date.now();
    const r = await runMc(["-C", ctx.configDir, "--conn-read-deadline", "1s", ...args], { env: ctx.env, hangMs: 20_000 });
    assert.is(r.code, 1, args.join(" "));
    assert.is(r.stderr.trim().split("\n").length, 1, r.stderr);
    assert.match(r.stderr, /No data to or from 127\.0\.0\.1:\d+ for 1 s \(--conn-read-deadline, --conn-write-deadline\)/);
    assert.ok(Date.now() - started < 12_000, `${args.join(" ")} took ${Date.now() - started} ms`);
  }
});

silent("should refuse a deadline that is not a duration, in one line", async (ctx) => {
  const r = await runMc(["-C", ctx.configDir, "ls", "--conn-write-deadline", "soon", "hole/bucket"], { env: ctx.env });
  assert.equal([r.code, r.stderr], [1, "mc: <ERROR> Invalid --conn-write-deadline `soon`; use a duration such as 30s or 10m.\n"]);
});

silent("should end at once on SIGTERM while a request waits :: its connection is cut", async (ctx) => {
  const before = ctx.connections;
  const child = spawnMc(["-C", ctx.configDir, "ls", "hole/bucket"], { env: ctx.env });
  const exited = new Promise<string>((resolve) => child.once("exit", (code, signal) => resolve(signal ?? String(code))));
  await waitFor(() => ctx.connections > before, { what: "mc's request" });
  const started = Date.now();
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
  const how = await exited;
  clearTimeout(timer);
  // Before, it waited for the answer (and, with the 10 s backstop only, for the backstop).
  assert.ok(Date.now() - started < 5_000, `ended after ${Date.now() - started} ms`);
  assert.ok(how === "SIGTERM" || how === "143", `ended by ${how}`);
});

silent.run();
