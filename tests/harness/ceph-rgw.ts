/**
 * A throwaway Ceph cluster (one monitor, one memstore OSD, no manager) plus
 * radosgw on 127.0.0.1, as a strict S3 peer for tests
 * (`/work/shared/reference/s3-peer-ceph.md`).
 *
 *   const rgw = await startCephRgw();
 *   // rgw.endpoint = "http://127.0.0.1:<port>", rgw.accessKey, rgw.secretKey, rgw.region
 *   // rgw.admin(["bucket", "list"]) runs radosgw-admin against this cluster
 *   await rgw.stop();
 *
 * Start one per test file and share it between suites (bring-up takes ~4 s).
 * Every daemon runs in the foreground as a child of the test process, so the
 * process registry in processes.ts kills exactly these pids when the test
 * exits, fails or is interrupted; stop() also removes the data directory.
 */
import { execFile } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createConnection, createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startProcess, type Started } from "./processes.js";
import { waitFor } from "./wait-for.js";

export interface CephRgw {
  /** `http://127.0.0.1:<port>`, path-style addressing. */
  readonly endpoint: string;
  readonly port: number;
  readonly accessKey: string;
  readonly secretKey: string;
  /** Any SigV4 region works; this is the one to use. */
  readonly region: string;
  /** A second user (`test2`) for cross-user tests. */
  readonly accessKey2: string;
  readonly secretKey2: string;
  /** Absolute path of the cluster's data directory (logs under log/). */
  readonly dataDir: string;
  /** Runs `radosgw-admin -c <conf> ...args` and returns its stdout. */
  admin(args: readonly string[]): Promise<string>;
  /** Stops every daemon of this cluster (SIGKILL: the data is thrown away) and deletes the data directory. */
  stop(): Promise<void>;
}

export interface CephRgwOptions {
  /** Memstore capacity of the OSD; objects live in RAM. Default 2 GiB. */
  readonly memstoreBytes?: number;
  readonly accessKey?: string;
  readonly secretKey?: string;
  /** Storage classes besides STANDARD on the default placement (radosgw restarts once to load them). */
  readonly storageClasses?: readonly string[];
  /** Accept bucket names of the old rules (upper case, `_`), as AWS still serves buckets made under them. */
  readonly relaxedBucketNames?: boolean;
}

const kmsKeys =
  "testkey-1=YmluCmJvb3N0CmJvb3N0LWJ1aWxkCmNlcGguY29uZgo= testkey-2=aWIKTWFrZWZpbGUKbWFuCm91dApzcmMKVGVzdGluZwo=";

function run(cmd: string, args: readonly string[], input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(cmd, args, { maxBuffer: 16 * 1024 * 1024, timeout: 60000 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${cmd} ${args.join(" ")} failed: ${err.message}\n${stderr}`));
      else resolve(stdout);
    });
    if (input !== undefined) child.stdin?.end(input);
  });
}

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once("error", () => resolve(false));
    srv.listen(port, "127.0.0.1", () => srv.close(() => resolve(true)));
  });
}

/**
 * The ports the kernel hands out on its own: to every outgoing connection and
 * to every server of the suite that listens on port 0 (free-port.ts). A
 * range probed free there can be taken before radosgw binds it (CI run 16:
 * "failed to bind address 127.0.0.1:59168: Address already in use").
 */
function kernelPorts(): { low: number; high: number } {
  try {
    const [low, high] = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/).map(Number);
    if (low && high) return { low, high };
  } catch {
    // Not Linux: Linux's default.
  }
  return { low: 32768, high: 60999 };
}

/**
 * A base port whose next 40 ports are free too (mon on +1, OSD messengers in
 * +2…+40), below the kernel's own range so that nothing else is handed them.
 */
async function pickPortRange(): Promise<number> {
  const { low } = kernelPorts();
  const from = 10000;
  const span = Math.max(1000, low - 41 - from);
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = from + Math.floor(Math.random() * span);
    let ok = true;
    for (let p = base; p <= base + 40 && ok; p++) ok = await portFree(p);
    if (ok) return base;
  }
  throw new Error("no free range of 41 loopback ports found");
}

function config(fsid: string, dir: string, port: number, memstoreBytes: number, relaxedBucketNames: boolean): string {
  return `[global]
fsid = ${fsid}
mon host = [v2:127.0.0.1:${port + 1}]
mon initial members = a
public addr = 127.0.0.1
cluster addr = 127.0.0.1
ms bind msgr1 = false
ms bind msgr2 = true
ms bind port min = ${port + 2}
ms bind port max = ${port + 40}
auth cluster required = cephx
auth service required = cephx
auth client required = cephx
run dir = ${dir}/run
pid file = ${dir}/run/$name.pid
admin socket = ${dir}/run/$cluster-$name.asok
log file = ${dir}/log/$name.log
crash dir = ${dir}/crash
mon data = ${dir}/mon/$cluster-$id
mgr data = ${dir}/mgr/$cluster-$id
osd data = ${dir}/osd/$cluster-$id
rgw data = ${dir}/rgw/$cluster-$id
osd objectstore = memstore
memstore device bytes = ${memstoreBytes}
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
osd crush chooseleaf type = 0
mon allow pool size one = true
mon allow pool delete = true
mon warn on pool no redundancy = false
mon max pg per osd = 1000
mon warn on insecure global id reclaim allowed = false
mon data avail warn = 2
mon data avail crit = 1
mon cluster log file = ${dir}/log/cluster.log
paxos propose interval = 0.1
paxos min wait = 0.01

[client]
keyring = ${dir}/$name.keyring

[client.rgw.gw]
rgw frontends = beast endpoint=127.0.0.1:${port}
rgw crypt require ssl = false
rgw crypt s3 kms backend = testing
rgw crypt s3 kms encryption keys = ${kmsKeys}
rgw lc debug interval = 10
rgw enable static website = true
rgw enable apis = s3, s3website, swift, swift_auth, admin, sts, iam, notifications
rgw relaxed s3 bucket names = ${relaxedBucketNames}
`;
}

/** True once the port answers an HTTP request (any status). */
function answersHttp(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port });
    let data = "";
    socket.setTimeout(2000, () => socket.destroy());
    socket.on("connect", () => socket.write("GET / HTTP/1.0\r\n\r\n"));
    socket.on("data", (chunk: Buffer) => {
      data += chunk.toString();
      if (data.length >= 5) socket.destroy();
    });
    socket.on("close", () => resolve(data.startsWith("HTTP/")));
    socket.on("error", () => resolve(false));
  });
}

export async function startCephRgw(options: CephRgwOptions = {}): Promise<CephRgw> {
  try {
    return await startOnce(options);
  } catch (err) {
    // Another process took a port of the range between the probe and the bind: once more, elsewhere.
    if (!/Address already in use|failed to bind/.test(err instanceof Error ? err.message : "")) throw err;
    return startOnce(options);
  }
}

async function startOnce(options: CephRgwOptions): Promise<CephRgw> {
  const accessKey = options.accessKey ?? "TESTACCESSKEY0000001";
  const secretKey = options.secretKey ?? "testsecretkey0000000000000000000000000001";
  const dir = await mkdtemp(join(tmpdir(), "ceph-rgw-"));
  const port = await pickPortRange();
  const conf = join(dir, "ceph.conf");
  const daemons: Started[] = [];
  const ceph = (args: readonly string[], input?: string): Promise<string> => run("ceph", ["-c", conf, "--connect-timeout", "10", ...args], input);
  const admin = (args: readonly string[]): Promise<string> => run("radosgw-admin", ["-c", conf, ...args]);
  // Foreground (-f) so the daemons stay our children and die with us.
  const daemon = (cmd: string, args: readonly string[]): Started => {
    const started = startProcess(cmd, ["-f", "-c", conf, ...args], { cwd: dir });
    daemons.push(started);
    return started;
  };
  // If the test process is interrupted, processes.ts kills the daemons and exits; the directory goes too.
  const removeOnExit = (): void => rmSync(dir, { recursive: true, force: true });
  process.once("exit", removeOnExit);
  const stop = async (): Promise<void> => {
    await Promise.all(daemons.reverse().map((d) => d.kill()));
    await rm(dir, { recursive: true, force: true });
    process.off("exit", removeOnExit);
  };
  try {
    for (const sub of ["mon", "mgr", "osd", "rgw", "run", "log", "crash"]) await mkdir(join(dir, sub));
    const fsid = (await run("uuidgen", [])).trim();
    await writeFile(conf, config(fsid, dir, port, options.memstoreBytes ?? 2 * 1024 ** 3, options.relaxedBucketNames ?? false));

    const monKeyring = join(dir, "mon.keyring");
    const adminKeyring = join(dir, "client.admin.keyring");
    await run("ceph-authtool", ["--create-keyring", monKeyring, "--gen-key", "-n", "mon.", "--cap", "mon", "allow *"]);
    await run("ceph-authtool", [
      "--create-keyring", adminKeyring, "--gen-key", "-n", "client.admin",
      "--cap", "mon", "allow *", "--cap", "osd", "allow *", "--cap", "mds", "allow *", "--cap", "mgr", "allow *",
    ]);
    await run("ceph-authtool", [monKeyring, "--import-keyring", adminKeyring]);
    const monmap = join(dir, "monmap");
    await run("monmaptool", ["--create", "--fsid", fsid, "--addv", "a", `[v2:127.0.0.1:${port + 1}]`, monmap]);
    await run("ceph-mon", ["-c", conf, "--mkfs", "-i", "a", "--monmap", monmap, "--keyring", monKeyring]);
    const mon = daemon("ceph-mon", ["-i", "a"]);
    await waitFor(() => ceph(["mon", "stat"]).then(() => true), { what: `ceph-mon (${mon.output().slice(-300)})`, timeoutMs: 30000, intervalMs: 100 });
    await ceph(["config", "set", "mon", "auth_allow_insecure_global_id_reclaim", "false"]);

    // OSD bootstrap: register the key with the monitor first, then mkfs.
    const osdUuid = (await run("uuidgen", [])).trim();
    const osdSecret = (await run("ceph-authtool", ["--gen-print-key"])).trim();
    const osdId = (await ceph(["osd", "new", osdUuid, "-i", "-"], JSON.stringify({ cephx_secret: osdSecret }))).trim();
    const osdDir = join(dir, "osd", `ceph-${osdId}`);
    await mkdir(osdDir, { recursive: true });
    await run("ceph-authtool", ["--create-keyring", join(osdDir, "keyring"), "--name", `osd.${osdId}`, "--add-key", osdSecret]);
    await run("ceph-osd", ["-c", conf, "-i", osdId, "--mkfs", "--osd-uuid", osdUuid, "--log-file", join(dir, "log", "osd-mkfs.log")]);
    const osd = daemon("ceph-osd", ["-i", osdId]);
    await waitFor(
      () => ceph(["osd", "stat", "-f", "json"]).then((out) => (JSON.parse(out) as { num_up_osds?: number }).num_up_osds === 1),
      { what: `ceph-osd up (${osd.output().slice(-300)})`, timeoutMs: 60000, intervalMs: 100 },
    );

    const rgwKeyring = await ceph(["auth", "get-or-create", "client.rgw.gw", "mon", "allow rw", "osd", "allow rwx", "mgr", "allow rw"]);
    await writeFile(join(dir, "client.rgw.gw.keyring"), rgwKeyring);
    const rgw = daemon("radosgw", ["-n", "client.rgw.gw"]);
    await waitFor(() => answersHttp(port), {
      what: `radosgw on port ${port} (see ${dir}/log/client.rgw.gw.log) ${rgw.output().slice(-300)}`,
      timeoutMs: 120000,
      intervalMs: 100,
    });
    await admin(["user", "create", "--uid=test", "--display-name=test", `--access-key=${accessKey}`, `--secret=${secretKey}`]);
    await admin(["user", "create", "--uid=test2", "--display-name=test2", `--access-key=${accessKey}2`, `--secret=${secretKey}2`]);
    // The default zone exists only once radosgw has run, and radosgw reads its placement at start.
    if (options.storageClasses?.length) {
      for (const sc of options.storageClasses) {
        await admin(["zonegroup", "placement", "add", "--rgw-zonegroup", "default", "--placement-id", "default-placement", "--storage-class", sc]);
        await admin(["zone", "placement", "add", "--rgw-zone", "default", "--placement-id", "default-placement", "--storage-class", sc, "--data-pool", "default.rgw.buckets.data"]);
      }
      await rgw.stop(15000);
      daemons.splice(daemons.indexOf(rgw), 1);
      const again = daemon("radosgw", ["-n", "client.rgw.gw"]);
      await waitFor(() => answersHttp(port), { what: `radosgw restart on port ${port} ${again.output().slice(-300)}`, timeoutMs: 120000, intervalMs: 100 });
    }
  } catch (err) {
    const log = await readFile(join(dir, "log", "client.rgw.gw.log"), "utf8").catch(() => "");
    await stop();
    throw new Error(`${err instanceof Error ? err.message : String(err)}\n${log.slice(-2000)}`);
  }
  return {
    endpoint: `http://127.0.0.1:${port}`,
    port,
    accessKey,
    secretKey,
    region: "us-east-1",
    accessKey2: `${accessKey}2`,
    secretKey2: `${secretKey}2`,
    dataDir: dir,
    admin,
    stop,
  };
}
