// The mc part of `npm run bench scale`: growth tables of the rows of
// bench/scale/mc-size.ts (one per bucket size) and the targets.
import { printGrowth, type Series } from "./growth.js";

type Result = Record<string, number>;

const col = (rows: readonly Result[], key: string): number[] => rows.map((r) => r[key] ?? 0);

export function printMc(rows: readonly Result[]): void {
  const objects = col(rows, "objects");
  const mirrored = col(rows, "mirrored");
  const timed = (name: string, key: string, first = false): Series[] => [
    { name: `${name}, wall`, unit: "ms", values: col(rows, `${key}Ms`) },
    ...(first ? [{ name: `${name}, first line`, unit: "ms", values: col(rows, `${key}FirstMs`) }] : []),
    { name: `${name}, peak RSS`, unit: "MiB", values: col(rows, `${key}MiB`) },
  ];
  printGrowth("mc listing on Ceph RGW, bucket of N tiny objects in folders of 1,000 (client peak RSS from /usr/bin/time; listings: median of 3)", objects, [
    { name: "fill the bucket (rclone copy, 48 transfers)", unit: "ms", values: col(rows, "fillMs") },
    ...timed("mc ls -r", "lsR", true),
    ...timed("mc find", "find", true),
    { name: "mc ls -r, JS heap live after full GC", unit: "MiB", values: col(rows, "lsRHeap") },
    { name: "mc find, JS heap live after full GC", unit: "MiB", values: col(rows, "findHeap") },
    ...timed("rclone lsf -R --files-only", "lsf", true),
    ...timed("rclone ls", "rls", true),
  ]);
  printGrowth("mc mirror / diff / rm of M objects, bucket to bucket on one RGW (server-side copies; second passes, diff, check: median of 3)", mirrored, [
    ...timed("mc mirror (copies M)", "mirror"),
    ...timed("mc mirror again (nothing to copy)", "mirrorAgain"),
    ...timed("mc diff (no difference)", "diff"),
    { name: "mc mirror --dry-run, JS heap live (the plan)", unit: "MiB", values: col(rows, "planHeap") },
    { name: "mc mirror again, JS heap live after full GC", unit: "MiB", values: col(rows, "mirrorAgainHeap") },
    { name: "mc diff, JS heap live after full GC", unit: "MiB", values: col(rows, "diffHeap") },
    ...timed("rclone sync (copies M)", "sync"),
    ...timed("rclone sync again", "syncAgain"),
    ...timed("rclone check --size-only", "check"),
    ...timed("mc rm -r --force", "remove"),
    { name: "mc rm -r: DeleteObjects requests", unit: "n", values: col(rows, "deleteObjects") },
    { name: "mc rm -r: single DELETE requests", unit: "n", values: col(rows, "singleDeletes") },
    ...timed("rclone delete", "rcDelete"),
    { name: "rclone delete: delete requests", unit: "n", values: col(rows, "rcDeletes") },
  ]);
  const first = rows[0];
  const last = rows.at(-1);
  if (!first || !last) return;
  const lsRatio = (last["lsRMiB"] ?? 0) / (first["lsRMiB"] ?? 1);
  const mirrorRatio = (last["mirrorMiB"] ?? 0) / (last["syncMiB"] ?? 1);
  const mirrorAgainRatio = (last["mirrorAgainMiB"] ?? 0) / (last["syncAgainMiB"] ?? 1);
  process.stdout.write(
    `  targets: mc ls -r RSS at ${last["objects"]} x${lsRatio.toFixed(2)} of ${first["objects"]} (<= 1.5: ${lsRatio <= 1.5 ? "met" : "NOT met"}); ` +
      `mc mirror of ${last["mirrored"]} RSS x${mirrorRatio.toFixed(2)} of rclone sync (<= 1.5: ${mirrorRatio <= 1.5 ? "met" : "NOT met"}), nothing to copy x${mirrorAgainRatio.toFixed(2)}\n`,
  );
}
