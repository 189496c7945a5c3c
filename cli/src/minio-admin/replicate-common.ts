import { isAppError } from "@mc/shared/errors";
import { explainedError, mcError, usageError } from "../core/errors.js";
import { adminFailure } from "./admin-errors.js";
import { RuleError } from "./replication-rules.js";

/** What a server without MinIO's replication lacks, for the one-line failure. */
export const replicationCapability = "Bucket replication";

/**
 * The error a replicate command reports: a server without the admin API (or
 * answering the S3 extensions with something else) in one line naming the
 * capability and the server's code; MinIO's own refusals under upstream's
 * fatal message (`action`).
 */
export function replicateFailure(action: string, err: unknown): Error {
  if (isAppError(err)) return adminFailure(action, replicationCapability, err);
  if (err instanceof RuleError) return mcError(`${action}.`, err, "invalid_argument");
  const e = err as { notAnswer?: boolean; code?: string };
  // A 2xx that is not MinIO's answer, or a refusal of the method itself (Ceph RGW outside multisite answers PUT ?replication MethodNotAllowed).
  if (e.notAnswer === true || e.code === "MethodNotAllowed" || e.code === "NotImplemented") {
    return explainedError(`${replicationCapability} needs MinIO's S3 replication API, which this server does not have.`, Object.assign(new Error(`Server error code: ${e.code ?? ""}`), err), "unimplemented");
  }
  return mcError(`${action}.`, err, typeof e.code === "string" && e.code !== "" ? "failed_precondition" : "unavailable");
}

/** `--replicate a,b`: which of delete-marker, delete, metadata-sync, existing-objects are on (upstream's values). */
export function replicateFlags(value: string, allowEmpty: boolean): { deleteMarkers: string; deletes: string; replicaSync: string; existing: string } {
  const out = { deleteMarkers: "disable", deletes: "disable", replicaSync: "disable", existing: "disable" };
  for (const raw of value.split(",")) {
    const opt = raw.trim().toLowerCase();
    if (opt === "delete-marker") out.deleteMarkers = "enable";
    else if (opt === "delete") out.deletes = "enable";
    else if (opt === "metadata-sync" || opt === "replica-metadata-sync") out.replicaSync = "enable";
    else if (opt === "existing-objects") out.existing = "enable";
    else if (!(allowEmpty && raw === "")) {
      throw usageError(`invalid value for --replicate flag ${value}: --replicate flag takes one or more comma separated string with values "delete", "delete-marker", "metadata-sync", "existing-objects" or "" to disable these settings`);
    }
  }
  return out;
}

/** An `--x enable|disable` flag. */
export function enableDisable(flag: string, value: string): boolean {
  const v = value.toLowerCase();
  if (v !== "enable" && v !== "disable") throw usageError(`--${flag} can be either [enable|disable]`);
  return v === "enable";
}

/** upstream's PrettyTable row: each cell `%-N.Ns` (longer cells cut with `...`), joined by the separator. */
export function prettyRow(widths: readonly number[], cells: readonly string[], sep = " | "): string {
  return cells.map((c, i) => {
    const w = widths[i] ?? 0;
    const cut = c.length > w ? `${c.slice(0, w - 3)}...` : c;
    return cut.padEnd(w).slice(0, w);
  }).join(sep);
}

/** humanize.Comma: 1234567 → 1,234,567. */
export const comma = (n: number): string => String(Math.trunc(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

