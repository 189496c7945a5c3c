import type { McContext } from "../runtime/context.js";
import { formatDate } from "../util/humanize.js";
import type { BucketLock } from "../storage/s3/versions/versions-retention.js";

/** Upstream's retention result line and JSON (op, mode, validity, urlpath, versionID, status). */
export function printRetentionChange(ctx: McContext, op: "set" | "clear", url: string, versionId: string, mode: string, validity: string): void {
  const version = versionId ? ` (version-id=${versionId})` : "";
  ctx.output.result(
    { op, mode, validity, urlpath: url, versionID: versionId, status: "success" },
    `Object retention successfully ${op === "clear" ? "cleared" : "set"} for \`${url}\`${version}.`,
  );
}

export function printRetentionInfo(ctx: McContext, url: string, versionId: string, mode: string, until: string): void {
  const version = versionId ? ` (version-id=${versionId})` : "";
  const expired = until !== "" && Date.parse(until) <= Date.now() ? " (expired)" : "";
  const text = mode === "" ? `\`${url}\`${version}: no retention` : `\`${url}\`${version}: ${mode} until ${formatDate(new Date(until))}${expired}`;
  ctx.output.result({ op: "info", mode, until, urlpath: url, versionID: versionId, status: "success" }, text);
}

/** The bucket's default retention (retention --default). */
export function printBucketLock(ctx: McContext, op: "set" | "clear" | "info", url: string, lock: BucketLock): void {
  let text: string;
  if (op === "clear") text = `Default retention of \`${url}\` cleared successfully.`;
  else if (lock.mode === "") text = `\`${url}\` has object lock enabled and no default retention.`;
  else text = `Default retention of \`${url}\`${op === "set" ? " set to" : ":"} ${lock.mode} mode for ${lock.validity}.`;
  ctx.output.result({ op, enabled: lock.enabled ? "Enabled" : "", mode: lock.mode, validity: lock.validity, url, status: "success" }, text);
}

const center = (s: string, width: number): string => {
  const left = Math.max(0, Math.floor((width - s.length) / 2));
  return `${" ".repeat(left)}${s}`.padEnd(width);
};

/** Upstream's legal hold row: `[    ON    ]  key`, with the version id between when given. */
export function printLegalHold(ctx: McContext, url: string, key: string, versionId: string, status: string): void {
  const shown = status === "" ? "Not set" : status;
  const text = `[ ${center(shown, 8)} ] ${versionId ? ` ${versionId} ` : ""} ${key}`;
  ctx.output.result({ legalhold: status, urlpath: url, key, versionID: versionId, status: "success" }, text);
}

export function printLegalHoldChange(ctx: McContext, op: "set" | "clear", url: string, versionId: string): void {
  const version = versionId ? ` (version-id=${versionId})` : "";
  ctx.output.result({ op, urlpath: url, versionID: versionId, status: "success" }, `Object legal hold successfully ${op === "clear" ? "cleared" : "set"} for \`${url}\`${version}.`);
}
