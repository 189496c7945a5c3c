// `npm run cluster -- down`: stops every process the launcher started (by
// its pid file, checked against the state folder) and verifies none is left.
import { rm } from "node:fs/promises";
import { knownNames, pidFile, readPid, runningPid, stopAll } from "./processes.js";
import { ClusterError } from "./up.js";

/** Stop order: the front first, the bus last, so no service loses NATS while still serving. */
const order = (name: string): number => ["gateway", "releases", "kms", "nats"].findIndex((p) => name.startsWith(p));

export async function down(dir: string): Promise<{ stopped: string[] }> {
  const names = (await knownNames(dir)).sort((a, b) => order(a) - order(b));
  const running: { name: string; pid: number }[] = [];
  for (const name of names) {
    const pid = await runningPid(dir, name);
    if (pid !== undefined) running.push({ name, pid });
  }
  for (const group of ["gateway", "releases", "kms", "nats"]) {
    const batch = running.filter((r) => r.name.startsWith(group));
    const left = await stopAll(dir, batch.map((r) => r.pid));
    if (left.length > 0) throw new ClusterError(`could not stop pid ${left.join(", ")}`);
  }
  for (const name of names) {
    if ((await readPid(dir, name)) !== undefined && (await runningPid(dir, name)) !== undefined) throw new ClusterError(`${name} is still running`);
    await rm(pidFile(dir, name), { force: true });
  }
  return { stopped: running.map((r) => r.name) };
}
