// One bucket size of `npm run bench scale` for mc (a child process):
// `node mc-size.ts N M` fills a bucket on a fresh Ceph RGW with N tiny
// objects, M of them under `m/` (the mirror source) and the rest under `r/`,
// then measures, each command under /usr/bin/time (peak RSS of the client):
// - `mc ls -r` and `mc find` of the bucket (wall, first line, peak RSS),
//   against `rclone lsf -R` and `rclone ls`;
// - `mc mirror` of `m/` to an empty bucket (server-side copies), again with
//   nothing to copy, `mc diff` of the two, against `rclone sync` (twice) and
//   `rclone check`;
// - `mc rm -r --force` of the mirrored bucket (and how many DeleteObjects
//   and single DELETE requests RGW saw), against `rclone delete`;
// - for mc's listing and compare commands, the JS heap left after V8's full
//   collections (--trace-gc): what memory holds, apart from GC slack.
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startCephRgw } from "../../tests/harness/ceph-rgw.js";
import { cleanEnv, mcBin } from "../../tests/mc/mc-runner.js";
import { countRequests, liveHeapMiB, measure, medianOf, populate, rcloneEnv, type Measured } from "./mc-run.js";

const listSize = Number(process.argv[2] ?? 10_000);
const mirrorSize = Number(process.argv[3] ?? Math.floor(listSize / 2));
const note = (text: string): void => void process.stderr.write(`  [mc ${listSize}/${mirrorSize}] ${text}\n`);

const scratch = await mkdtemp(join(tmpdir(), "bench-scale-mc-"));
// Objects live in the OSD's RAM: about 3 KiB each with their metadata; 4 GiB holds 150k pairs and more.
const rgw = await startCephRgw({ memstoreBytes: 4 * 1024 ** 3 });
try {
  const home = join(scratch, "home");
  await mkdir(home);
  const base = cleanEnv({ HOME: home, MC_CONFIG_DIR: join(home, "mc"), MC_UPDATE: "off" });
  const rc = rcloneEnv(base, rgw.endpoint, rgw.accessKey, rgw.secretKey);
  const mc = (args: readonly string[]): Promise<Measured> => measure(process.execPath, [mcBin, ...args], base, scratch);
  const rclone = (args: readonly string[]): Promise<Measured> => measure("rclone", ["--config", "/dev/null", ...args], rc, scratch);
  const log = join(rgw.dataDir, "log", "client.rgw.gw.log");

  await mc(["alias", "set", "rgw", rgw.endpoint, rgw.accessKey, rgw.secretKey]);
  for (const b of ["list", "mc-dst", "rc-dst"]) await mc(["mb", `rgw/${b}`]);
  const fillMs = (await populate("list", "m", mirrorSize, scratch, rc)) + (await populate("list", "r", listSize - mirrorSize, scratch, rc));
  const objects = Math.max(listSize, mirrorSize);
  note(`filled ${objects} objects in ${(fillMs / 1000).toFixed(0)} s (${(objects / (fillMs / 1000)).toFixed(0)}/s)`);
  const expect = (what: string, got: number, want: number): void => {
    if (got !== want) throw new Error(`${what}: ${got} lines, expected ${want}`);
  };

  // Listing: a first run warms mc's code cache and RGW's index; then the median of three.
  const settled = async (run: () => Promise<Measured>): Promise<Measured> => (await run(), medianOf(3, run));
  const lsR = await settled(() => mc(["ls", "-r", "rgw/list"]));
  expect("mc ls -r", lsR.lines, objects);
  const find = await settled(() => mc(["find", "rgw/list"]));
  expect("mc find", find.lines, objects);
  const lsf = await settled(() => rclone(["lsf", "-R", "--files-only", "rgw:list"]));
  expect("rclone lsf -R", lsf.lines, objects);
  const rls = await settled(() => rclone(["ls", "rgw:list"]));
  const heap = (args: readonly string[]): Promise<number> => liveHeapMiB(mcBin, args, base);
  const lsRHeap = await heap(["ls", "-r", "rgw/list"]);
  const findHeap = await heap(["find", "rgw/list"]);
  note(`listed: mc ls -r ${lsR.ms.toFixed(0)} ms, ${lsR.peakMiB.toFixed(0)} MiB`);

  // Mirror, diff and remove of the `m/` prefix.
  const mirror = await mc(["mirror", "rgw/list/m", "rgw/mc-dst"]);
  expect("mc mirror", mirror.lines, mirrorSize);
  const mirrorAgain = await medianOf(3, () => mc(["mirror", "rgw/list/m", "rgw/mc-dst"]));
  expect("mc mirror, second pass", mirrorAgain.lines, 0);
  const diff = await medianOf(3, () => mc(["diff", "rgw/list/m", "rgw/mc-dst"]));
  expect("mc diff", diff.lines, 0);
  const mirrorAgainHeap = await heap(["mirror", "rgw/list/m", "rgw/mc-dst"]);
  const diffHeap = await heap(["diff", "rgw/list/m", "rgw/mc-dst"]);
  // The plan of a first pass (every copy to make), without making them.
  const planHeap = await heap(["mirror", "--dry-run", "rgw/list/m", "rgw/rc-dst"]);
  note(`mirrored: mc ${mirror.ms.toFixed(0)} ms, ${mirror.peakMiB.toFixed(0)} MiB`);
  const sync = await rclone(["sync", "rgw:list/m", "rgw:rc-dst", "--transfers", "16", "--checkers", "16"]);
  const syncAgain = await rclone(["sync", "rgw:list/m", "rgw:rc-dst", "--transfers", "16", "--checkers", "16"]);
  const check = await medianOf(3, () => rclone(["check", "--size-only", "rgw:list/m", "rgw:rc-dst"]));
  const remove = await mc(["rm", "-r", "--force", "rgw/mc-dst"]);
  expect("mc rm -r", remove.lines, mirrorSize);
  const deleteObjects = await countRequests(log, /"POST \/mc-dst\/?\?delete/);
  const singleDeletes = await countRequests(log, /"DELETE \/mc-dst\//);
  const rcDelete = await rclone(["delete", "rgw:rc-dst", "--checkers", "16", "--transfers", "16"]);
  note(`removed: mc ${remove.ms.toFixed(0)} ms in ${deleteObjects} DeleteObjects + ${singleDeletes} DELETE`);

  const result = {
    objects,
    mirrored: mirrorSize,
    fillMs,
    ...Object.fromEntries(
      Object.entries({ lsR, find, lsf, rls, mirror, mirrorAgain, diff, sync, syncAgain, check, remove, rcDelete }).flatMap(([name, m]) => [
        [`${name}Ms`, m.ms],
        [`${name}FirstMs`, m.firstMs],
        [`${name}MiB`, m.peakMiB],
      ]),
    ),
    lsRHeap,
    findHeap,
    mirrorAgainHeap,
    diffHeap,
    planHeap,
    deleteObjects,
    singleDeletes,
    rcDeletes: await countRequests(log, /"(DELETE \/rc-dst\/|POST \/rc-dst\/?\?delete)/),
  };
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
} finally {
  await rgw.stop();
  await rm(scratch, { recursive: true, force: true });
}
