// Issue 21, attribution before change: where one node of a 3-node KMS
// cluster spends its CPU per committed key creation. Only the profiled node
// runs under --cpu-prof (the leader, or one follower); creations are fed at a
// FIXED rate (PROF_RATE per second, default 500) spread over the three nodes
// as the bench does, so the profile shows the cost per creation, not the
// smear of an oversubscribed machine. Only the measured window's samples count.
// `node --import tsx bench/profile/kms-cluster.ts [leader|follower]`
import "./source-paths.js";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createKmsClient, type KmsClient } from "@mc/kms";
import { startProcess } from "../../tests/harness/processes.js";
import { agreedLeader, apiKeyOf, emptyClusterCtx, idOf, setUpCluster, startMember, tearDownCluster, waitReady, type Member } from "../../tests/kms/cluster-harness.js";
import { kmsBin } from "../../tests/kms/kms-harness.js";
import { clusterRules } from "./cluster-rules.js";
import { nowUs, printCategories, stackCategories } from "./cpu-table.js";

const role = process.argv[2] === "follower" ? "follower" : "leader";
const rate = Number(process.env.PROF_RATE ?? 500);
const seconds = Number(process.env.PROFILE_SECONDS ?? 5);

/**
 * CPU time (user + system, ms) a process used so far, from /proc: unlike the
 * profile's samples, which land on whatever the thread was doing when the
 * machine preempted it, this is what the node really spent, whatever the load.
 */
async function cpuMs(pid: number | undefined): Promise<number> {
  const stat = await readFile(`/proc/${pid ?? 0}/stat`, "utf8").catch(() => "");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) || 0) + (Number(fields[12]) || 0)) * 10; // clock ticks of 10 ms (USER_HZ 100)
}

const ctx = emptyClusterCtx();
const profDir = await mkdtemp(join(tmpdir(), "kms-cluster-profile-"));
const clients: KmsClient[] = [];
try {
  await setUpCluster(ctx, "kms-cluster-profile-", 3);
  const [profiled, ...others] = ctx.members as [Member, Member, Member];
  // --cpu-prof is refused in NODE_OPTIONS: the profiled node is started here.
  const startProfiled = (): void => {
    profiled.proc = startProcess(process.execPath, ["--cpu-prof", "--cpu-prof-dir", profDir, kmsBin, "server", "--config", profiled.configFile], { env: { ...process.env, KMS_HSM_KEY: "" } });
  };
  startProfiled();
  for (const m of others) startMember(m);
  for (const m of ctx.members) await waitReady(ctx.ca, m);
  const apiKey = apiKeyOf(ctx.members);
  for (const m of ctx.members) clients.push(await createKmsClient({ server: m.host, ca: ctx.ca, maxSockets: 64, ...(apiKey ? { apiKey } : {}) }));
  // Make the profiled node the leader (or a follower): restart whichever node leads until it fits.
  // A restarted profiled node writes a second profile; only the window's samples count, so that is harmless.
  for (let tries = 0; ; tries++) {
    const leader = await agreedLeader(clients);
    if ((leader.id === idOf(profiled)) === (role === "leader")) break;
    if (tries > 30) throw new Error(`could not make the profiled node the ${role}`);
    const m = ctx.members.find((x) => idOf(x) === leader.id) as Member;
    await m.proc?.kill();
    if (m === profiled) startProfiled();
    else startMember(m);
    await waitReady(ctx.ca, m);
  }
  const final = await agreedLeader(clients);
  const profiledRole = final.id === idOf(profiled) ? "leader" : "follower";
  let next = 0;
  let done = 0;
  let failed = 0;
  const inflight = new Set<Promise<void>>();
  // Open loop: every 10 ms, the creations due by then; each answer counted.
  const feed = async (ms: number): Promise<void> => {
    const start = Date.now();
    let sent = 0;
    while (Date.now() - start < ms) {
      const due = Math.floor(((Date.now() - start) * rate) / 1000);
      for (; sent < due; sent++) {
        const i = next++;
        const p = (clients[i % clients.length] as KmsClient)
          .send("POST", `/v1/key/create/prof-${i}`, {})
          .then(
            (res) => {
              if (res.status === 200) done++;
              else failed++;
            },
            () => {
              failed++;
            },
          )
          .finally(() => inflight.delete(p));
        inflight.add(p);
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    await Promise.all(inflight);
  };
  await feed(2000);
  done = 0;
  failed = 0;
  const cpuBefore = await Promise.all(ctx.members.map((m) => cpuMs(m.proc?.child.pid)));
  const fromUs = nowUs();
  await feed(seconds * 1000);
  const toUs = nowUs();
  const cpuAfter = await Promise.all(ctx.members.map((m) => cpuMs(m.proc?.child.pid)));
  for (const c of clients) c.close();
  clients.length = 0;
  // SIGTERM: the node exits normally and writes its profile.
  await profiled.proc?.stop(15000);
  process.stdout.write(`${profiledRole} profiled: ${done} creations committed in ${seconds} s at ${rate}/s offered (${failed} failed), spread over 3 nodes; that node's samples of the window only\n`);
  // Whole-process CPU (all threads: fsync and crypto workers too) per creation, for every node.
  ctx.members.forEach((m, i) => {
    const ms = (cpuAfter[i] ?? 0) - (cpuBefore[i] ?? 0);
    const what = `${idOf(m) === final.id ? "leader" : "follower"}${m === profiled ? " (profiled)" : ""}`;
    process.stdout.write(`  process CPU of ${what.padEnd(22)} ${((1000 * ms) / Math.max(1, done)).toFixed(0).padStart(6)} µs per creation (/proc, all threads)\n`);
  });
  printCategories(await stackCategories(profDir, clusterRules, { fromUs, toUs }), done, 25);
} finally {
  for (const c of clients) c.close();
  await tearDownCluster(ctx);
  // PROF_KEEP=1 leaves the .cpuprofile files for a closer look (their folder is printed).
  if (process.env.PROF_KEEP) process.stdout.write(`profiles kept in ${profDir}\n`);
  else await rm(profDir, { recursive: true, force: true });
}
