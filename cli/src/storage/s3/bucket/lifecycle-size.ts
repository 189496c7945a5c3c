import type { Client } from "minio";
import { mcError } from "../../../core/errors.js";
import { getLifecycle, putLifecycle, type LifecycleConfig } from "./lifecycle.js";
import { ruleFilter } from "./lifecycle-rule.js";

/**
 * Stores `next` and, when rule `id` filters on object size, reads it back:
 * a server without size filters (Ceph RGW) stores the rule without them,
 * which would widen an expiry to objects of every size. Then the previous
 * configuration is put back and the command fails.
 */
export async function putLifecycleChecked(client: Client, bucket: string, previous: LifecycleConfig, next: LifecycleConfig, id: string): Promise<void> {
  await putLifecycle(client, bucket, next);
  const wanted = next.Rules.find((r) => r["ID"] === id);
  if (!wanted) return;
  const size = ruleFilter(wanted).size;
  if (size.lt === undefined && size.gt === undefined) return;
  const stored = (await getLifecycle(client, bucket)).Rules.find((r) => r["ID"] === id);
  const kept = stored ? ruleFilter(stored).size : {};
  if (kept.lt === size.lt && kept.gt === size.gt) return;
  await putLifecycle(client, bucket, previous);
  throw mcError(
    `The server does not keep lifecycle size filters (ObjectSizeGreaterThan/ObjectSizeLessThan): it stored rule \`${id}\` without them, which would apply it to objects of any size; the previous configuration was put back.`,
    undefined,
    "failed_precondition",
  );
}
