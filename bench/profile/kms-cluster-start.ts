// Where a 3-node cluster's start-up goes (issue 26): builds a cluster holding
// PROF_KEYS keys (default 100,000) in PROF_DIR (kept, so later runs skip the
// build), stops it, then restarts all three at once and prints, per node,
// the time to ready (PROF_ONE=1: only one member restarts, beside the two
// others running: a rolling restart). With PROF_CPU=1 the nodes run under
// --cpu-prof (profiles in PROF_DIR/prof) and the top functions of the
// three start-ups are printed.
// Run: PROF_DIR=/tmp/kcs node --import tsx bench/profile/kms-cluster-start.ts
import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { createKmsClient } from "@mc/kms";
import { startNatsServer } from "../../tests/harness/nats-server.js";
import { writeServerCerts } from "../../tests/harness/tls-certs.js";
import { agreedLeader, apiKeyOf, startMember, waitReady, writeClusterConfigs, type Member } from "../../tests/kms/cluster-harness.js";
import { printTable, selfTimes } from "./cpu-table.js";

const keys = Number(process.env["PROF_KEYS"] ?? 100_000);
const dir = process.env["PROF_DIR"] ?? "/tmp/kms-cluster-start";
const state = join(dir, "state.json");
const nats = await startNatsServer();
await mkdir(dir, { recursive: true });
let members: Member[];
if (!existsSync(state)) {
  const certs = await writeServerCerts(join(dir, "certs"));
  members = await writeClusterConfigs(dir, 3, nats.url, certs);
  for (const m of members) startMember(m);
  const ca = await readFile(certs.caFile);
  for (const m of members) await waitReady(ca, m, 120_000);
  const apiKey = apiKeyOf(members) ?? "";
  const clients = await Promise.all(members.map((m) => createKmsClient({ server: m.host, ca, apiKey })));
  const lead = await agreedLeader(clients);
  const c = clients[members.findIndex((m) => m.host.replace(/[^A-Za-z0-9_-]/g, "_") === lead.id)] ?? clients[0];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: 64 }, async () => {
    while (next < keys) {
      const i = next++;
      const r = await c!.send("POST", `/v1/key/create/tenant-${String(i).padStart(7, "0")}`, {});
      if (r.status !== 200) throw new Error(`create: ${r.status}`);
    }
  }));
  process.stdout.write(`built ${keys} keys in ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
  for (const cl of clients) cl.close();
  for (const m of members) await m.proc?.stop();
  await writeFile(state, JSON.stringify({ members: members.map((m) => ({ ...m, proc: undefined })), caFile: certs.caFile }));
}
const saved = JSON.parse(await readFile(state, "utf8")) as { members: Member[]; caFile: string };
members = saved.members;
const ca = await readFile(saved.caFile);
// The NATS URL changes with each run: point the configs at this run's server.
for (const m of members) await writeFile(m.configFile, (await readFile(m.configFile, "utf8")).replace(/nats:\/\/127\.0\.0\.1:\d+/g, nats.url));
const profDir = join(dir, "prof", String(Date.now()));
const t0 = performance.now();
const readyAt = new Map<string, number>();
// PROF_ONE=1: the other two run; only the last member restarts (a rolling restart, as an operator does one).
const one = process.env["PROF_ONE"] === "1";
if (one) {
  for (const m of members.slice(0, -1)) startMember(m);
  for (const m of members.slice(0, -1)) await waitReady(ca, m, 300_000);
}
if (process.env["PROF_CPU"] === "1") process.env["KMS_PROF"] = profDir;
const restarted = one ? members.slice(-1) : members;
const t1 = performance.now();
for (const m of restarted) startMember(m);
await Promise.all(restarted.map(async (m) => { await waitReady(ca, m, 300_000); readyAt.set(m.host, performance.now() - t1); }));
process.stdout.write(`${one ? "one member restarted beside two running" : "all three started at once"} (the others up after ${((t1 - t0) / 1000).toFixed(1)} s)\n`);
for (const m of restarted) {
  process.stdout.write(`--- ${m.host}: ready at ${readyAt.get(m.host)?.toFixed(0)} ms\n`);
  process.stdout.write(`${(m.proc?.output() ?? "").split("\n").filter((l) => l.trim() !== "").slice(0, 12).join("\n")}\n`);
}
for (const m of members) await m.proc?.stop();
await nats.stop();
if (process.env["PROF_CPU"] === "1") {
  process.stdout.write(`\nCPU of the start-up${one ? "" : "s (µs/op is per node)"}:\n`);
  printTable(await selfTimes(profDir), [], restarted.length, 30);
}
