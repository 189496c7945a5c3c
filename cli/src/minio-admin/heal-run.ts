import { setTimeout as sleep } from "node:timers/promises";
import type { McContext } from "../runtime/context.js";
import { mcError, usageError } from "../core/errors.js";
import { adminFailure } from "./admin-errors.js";
import { adminTarget } from "./admin-target.js";
import { comma, goDuration } from "./go-format.js";
import { addHealStats, healItemJson, healItemText, healSize, type HealStats, type HealTaskStatus } from "./heal.js";

export const healCapability = "Healing";

export interface HealFlags {
  readonly scan: string;
  readonly recursive: boolean;
  readonly dryRun: boolean;
  readonly forceStart: boolean;
  readonly forceStop: boolean;
  readonly remove: boolean;
}

const encoder = new TextEncoder();
/** Path segments encoded as an S3 key is (Go sends what madmin builds with fmt). */
const segment = (s: string): string => s.split("/").map(encodeURIComponent).join("/");

/**
 * `mc admin heal ALIAS[/BUCKET[/PREFIX]]` (upstream cmd/admin-heal.go,
 * madmin-go v2.0.7 `Heal` and `BackgroundHealStatus`). Without a bucket (and
 * without -r): the background healing status. Otherwise a heal sequence is
 * started (POST /heal/BUCKET/PREFIX with the options) and followed by its
 * client token once a second until the server says finished. Upstream
 * redraws a screen on a terminal; ours prints each item as upstream's quiet
 * mode does, then the totals.
 */
export async function runHeal(ctx: McContext, args: readonly string[], f: HealFlags): Promise<void> {
  if (args.length !== 1) throw usageError("admin heal needs one ALIAS[/BUCKET[/PREFIX]].");
  const scan = f.scan.toLowerCase();
  if (scan !== "normal" && scan !== "deep") throw usageError(`unknown --scan mode \`${f.scan}\` (normal or deep).`);
  if (f.forceStart && f.forceStop) throw mcError("Failed to start heal sequence.", new Error("forceStart and forceStop set to true is not allowed"), "invalid_argument");
  const aliased = (args[0] ?? "").replace(/\\/g, "/");
  const [, bucket = "", ...rest] = aliased.split("/");
  const prefix = rest.join("/");
  const target = adminTarget(ctx, aliased.split("/")[0]);
  if (bucket === "" && !f.recursive) {
    const st = await target.client.json<{ ScannedItemsCount?: number }>({ method: "POST", path: "/background-heal/status" }).catch((err: unknown) => {
      throw adminFailure("Failed to get the status of the background heal", healCapability, err);
    });
    ctx.output.result({ status: "success", HealInfo: st }, `Background healing status:\n ●  ${st.ScannedItemsCount ?? 0} item(s) scanned in total\n`);
    return;
  }
  const path = `/heal/${segment(bucket)}${bucket !== "" && prefix !== "" ? `/${segment(prefix)}` : ""}`;
  const opts = { recursive: f.recursive, dryRun: f.dryRun, remove: f.remove, recreate: false, scanMode: scan === "deep" ? 2 : 1, nolock: false };
  const body = encoder.encode(JSON.stringify(opts));
  if (f.forceStop) {
    await target.client.request({ method: "POST", path, query: { forceStop: "true" }, body }).catch((err: unknown) => {
      throw adminFailure("Failed to stop heal sequence", healCapability, err);
    });
    ctx.output.result({ status: "success", alias: aliased }, `Heal stopped successfully at \`${aliased}\`.`);
    return;
  }
  const force = f.forceStart ? { forceStart: "true" } : {};
  const start = await target.client.json<{ clientToken?: string }>({ method: "POST", path, query: force, body }).catch((err: unknown) => {
    throw adminFailure("Failed to start heal sequence", healCapability, err);
  });
  const stats: HealStats = { bytesScanned: 0, objectsScanned: 0, itemsScanned: 0, objectsHealed: 0, itemsHealed: 0 };
  for (let first = true; ; first = false) {
    if (!first) await sleep(1000, undefined, { signal: ctx.signal });
    const st = await target.client.json<HealTaskStatus>({ method: "POST", path, query: { clientToken: start.clientToken ?? "", ...force } }).catch((err: unknown) => {
      throw adminFailure("Unable to display heal status", healCapability, err);
    });
    for (const item of st.items ?? []) {
      addHealStats(stats, item);
      ctx.output.result(healItemJson(item), healItemText(item));
    }
    const took = Math.max(0, Date.now() - new Date(st.startTime).getTime());
    if (st.summary === "finished") {
      const secs = Math.round(took / 1000);
      ctx.output.result(
        { status: "success", type: "summary", objects_scanned: stats.objectsScanned, objects_healed: stats.objectsHealed, items_scanned: stats.itemsScanned, items_healed: stats.itemsHealed, size: stats.bytesScanned, duration: secs },
        `Healed:\t${comma(stats.objectsHealed)}/${comma(stats.objectsScanned)} objects; ${healSize(stats.bytesScanned)} in ${goDuration(secs * 1e9)}`,
      );
      return;
    }
    if (st.summary === "stopped") throw mcError("Unable to display heal status.", new Error(`Heal had an error - ${st.detail}`), "aborted");
  }
}
