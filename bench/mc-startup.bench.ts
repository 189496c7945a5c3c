// Start-up of the mc single executable (issue 23) against rclone and aws, in
// one run (`npm run bench mc` includes it): `--version`, `--help`,
// `alias list` and `ls ALIAS/BUCKET` (10 objects on Ceph RGW), with rclone's
// version/help/listremotes/lsf and aws's --version/help/configure list/s3 ls.
// The three clients run in turn, command by command, MC_BENCH_STARTUP_RUNS
// times (default 15), so a burst of load on the shared cores hits all of
// them alike; the median wall time of each is printed with the ratios
// mc/rclone (target <= 1.0) and mc/aws, with the load average. All run
// without NODE_EXTRA_CA_CERTS (node parses the whole CA store at start-up when
// it is set); when the bench's own environment sets it, its cost to
// `mc --version` is printed after the table.
import { execFile, spawn } from "node:child_process";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { startCephRgw } from "../tests/harness/ceph-rgw.js";
import { cleanEnv, repoRoot } from "../tests/mc/mc-runner.js";

const runs = Number(process.env["MC_BENCH_STARTUP_RUNS"] ?? 15);
const work = await mkdtemp(join(tmpdir(), "mc-startup-bench-"));
const mc = join(work, "mc");
process.stdout.write("building the mc single executable...\n");
await promisify(execFile)(process.execPath, [join(repoRoot, "cli/scripts/sea-build.mjs"), "--release", "RELEASE.2026-11-27T00-00-00Z", "--out", mc], { cwd: repoRoot });
const rgw = await startCephRgw();

try {
  const bucket = "startup";
  const configDir = join(work, "mc-config");
  const rcloneConf = join(work, "rclone.conf");
  await writeFile(rcloneConf, `[rgw]\ntype = s3\nprovider = Other\naccess_key_id = ${rgw.accessKey}\nsecret_access_key = ${rgw.secretKey}\nendpoint = ${rgw.endpoint}\nforce_path_style = true\n`);
  await mkdir(join(work, "aws"), { recursive: true });
  await writeFile(join(work, "aws", "config"), "[default]\nregion = us-east-1\n");
  await writeFile(join(work, "aws", "credentials"), `[default]\naws_access_key_id = ${rgw.accessKey}\naws_secret_access_key = ${rgw.secretKey}\n`);
  // No node on the PATH of mc's runs: it is one file.
  // MC_UPDATE=off: a release build would otherwise ask the public release service once a day (and rclone asks nobody).
  // No NODE_EXTRA_CA_CERTS: with it set, node reads and parses the whole CA store before running any
  // script (tens of ms; rclone and aws ignore it), which a user's shell does not do; its cost is printed below.
  const env = { ...cleanEnv({ HOME: work, PATH: "/usr/bin:/bin", MC_UPDATE: "off", NODE_EXTRA_CA_CERTS: undefined }), AWS_CONFIG_FILE: join(work, "aws", "config"), AWS_SHARED_CREDENTIALS_FILE: join(work, "aws", "credentials"), AWS_REQUEST_CHECKSUM_CALCULATION: "when_required", PAGER: "cat", MANPAGER: "cat" };
  const run = (cmd: string, args: readonly string[], runEnv: NodeJS.ProcessEnv = env): Promise<number> =>
    new Promise((resolve, reject) => {
      const started = performance.now();
      const child = spawn(cmd, args, { env: runEnv, stdio: ["ignore", "ignore", "pipe"] });
      let err = "";
      child.stderr.on("data", (c: Buffer) => (err += c.toString()));
      child.once("error", reject);
      child.once("close", (code) => (code === 0 ? resolve(performance.now() - started) : reject(new Error(`${cmd} ${args.join(" ")} exited ${code}: ${err.trim()}`))));
    });
  const setup = async (cmd: string, args: readonly string[]): Promise<void> => void (await run(cmd, args));
  await setup(mc, ["-C", configDir, "alias", "set", "rgw", rgw.endpoint, rgw.accessKey, rgw.secretKey]);
  await setup(mc, ["-C", configDir, "mb", `rgw/${bucket}`]);
  for (let i = 0; i < 10; i++) await writeFile(join(work, `o${i}.txt`), `object ${i}\n`);
  await setup(mc, ["-C", configDir, "cp", "-q", ...Array.from({ length: 10 }, (_, i) => join(work, `o${i}.txt`)), `rgw/${bucket}/`]);

  const aws = "/usr/bin/aws";
  const rows: Array<{ name: string; clients: Array<[string, string, string[]]> }> = [
    { name: "version", clients: [["mc", mc, ["--version"]], ["rclone", "rclone", ["version"]], ["aws", aws, ["--version"]]] },
    { name: "help", clients: [["mc", mc, ["--help"]], ["rclone", "rclone", ["help"]], ["aws", aws, ["help"]]] },
    { name: "alias list", clients: [["mc", mc, ["-C", configDir, "alias", "list"]], ["rclone", "rclone", ["--config", rcloneConf, "listremotes"]], ["aws", aws, ["configure", "list"]]] },
    { name: "ls bucket", clients: [["mc", mc, ["-C", configDir, "ls", `rgw/${bucket}`]], ["rclone", "rclone", ["--config", rcloneConf, "lsf", `rgw:${bucket}`]], ["aws", aws, ["--endpoint-url", rgw.endpoint, "s3", "ls", `s3://${bucket}`]]] },
  ];
  const median = (xs: number[]): number => {
    const s = [...xs].sort((a, b) => a - b);
    return s.length % 2 === 1 ? (s[s.length >> 1] ?? 0) : ((s[s.length / 2 - 1] ?? 0) + (s[s.length / 2] ?? 0)) / 2;
  };
  const load = (): string => loadavg().map((l) => l.toFixed(2)).join(" ");
  process.stdout.write(`\nstart-up, median wall time of ${runs} alternating runs (ms); load average ${load()}\n`);
  process.stdout.write(`${"command".padEnd(12)}${"mc".padStart(9)}${"rclone".padStart(9)}${"aws".padStart(9)}${"mc/rclone".padStart(11)}${"mc/aws".padStart(9)}\n`);
  for (const row of rows) {
    const times = new Map<string, number[]>(row.clients.map(([n]) => [n, []]));
    for (const [, cmd, args] of row.clients) await run(cmd, args); // warm the page cache
    for (let i = 0; i < runs; i++) {
      // Rotate who goes first, so no client always follows the same neighbour.
      const order = row.clients.map((_, j) => row.clients[(i + j) % row.clients.length]);
      for (const c of order) if (c) times.get(c[0])?.push(await run(c[1], c[2]));
    }
    const [m, r, a] = ["mc", "rclone", "aws"].map((n) => median(times.get(n) ?? []));
    process.stdout.write(`${row.name.padEnd(12)}${(m ?? 0).toFixed(0).padStart(9)}${(r ?? 0).toFixed(0).padStart(9)}${(a ?? 0).toFixed(0).padStart(9)}${((m ?? 0) / (r ?? 1)).toFixed(2).padStart(11)}${((m ?? 0) / (a ?? 1)).toFixed(2).padStart(9)}\n`);
  }
  const extraCas = process.env["NODE_EXTRA_CA_CERTS"];
  if (extraCas) {
    const withCas = { ...env, NODE_EXTRA_CA_CERTS: extraCas };
    const plain: number[] = [];
    const withIt: number[] = [];
    for (let i = 0; i < runs; i++) {
      plain.push(await run(mc, ["--version"]));
      withIt.push(await run(mc, ["--version"], withCas));
    }
    process.stdout.write(`mc --version with this environment's NODE_EXTRA_CA_CERTS: ${median(withIt).toFixed(0)} ms, without: ${median(plain).toFixed(0)} ms (node's own start-up; the table runs without it)\n`);
  }
  process.stdout.write(`load average at the end ${load()}\n`);
} finally {
  await rgw.stop();
  await rm(work, { recursive: true, force: true });
}
