import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { mcError, usageError } from "../../core/errors.js";
import { adminTarget } from "../../minio-admin/admin-target.js";
import { listRemoteTargets, parseRemoteBucket, setRemoteTarget, type BucketTarget, type TargetUpdate } from "../../minio-admin/bucket-target.js";
import { enableDisable, replicateFailure, replicateFlags } from "../../minio-admin/replicate-common.js";
import { editRule, type RuleOptions } from "../../minio-admin/replication-rules.js";
import { getReplication, putReplication } from "../../minio-admin/replication-s3.js";
import { parseSize } from "../../util/humanize.js";

/**
 * `mc replicate update ALIAS/BUCKET --id ID [FLAGS]` (upstream
 * cmd/replicate-update.go): with `--remote-bucket`, the rule's remote target
 * is changed first (set-remote-target?update=true with one flag per change),
 * then the rule itself.
 */
export class ReplicateUpdateCommand extends BaseCommand {
  static override paths = [["replicate", "update"], ["replicate", "edit"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "modify an existing server side replication configuration rule",
    examples: [
      ["Change a rule's priority.", "$0 replicate update myminio/mybucket --id docs --priority 5"],
      ["Disable a rule.", "$0 replicate update myminio/mybucket --id docs --state disable"],
      ["Point a rule at new remote credentials and replicate synchronously.", "$0 replicate update myminio/mybucket --id docs --remote-bucket https://REMOTEKEY:NEWSECRET@minio-b.example.net/mybucket --sync enable"],
    ],
  });
  id = Option.String("--id", { description: "id for the rule, should be a unique value" });
  tags = Option.String("--tags", { description: "format '<key1>=<value1>&<key2>=<value2>&<key3>=<value3>', multiple values allowed for multiple key/value pairs" });
  storageClass = Option.String("--storage-class", { description: "storage class for destination, valid values are either \"STANDARD\" or \"REDUCED_REDUNDANCY\"" });
  state = Option.String("--state", { description: "change rule status. Valid values are [enable|disable]" });
  priority = Option.String("--priority", { description: "priority of the rule, should be unique and is a required field" });
  remoteBucket = Option.String("--remote-bucket", { description: "destination bucket, should be a unique value for the configuration" });
  replicate = Option.String("--replicate", { description: "comma separated list to enable replication of soft deletes, permanent deletes, existing objects and metadata sync. Valid options are \"delete-marker\",\"delete\",\"existing-objects\",\"metadata-sync\" and \"\"" });
  sync = Option.String("--sync", { description: "enable synchronous replication for this target. Valid values are enable,disable" });
  proxy = Option.String("--proxy", { description: "enable proxying in active-active replication. Valid values are enable,disable" });
  bandwidth = Option.String("--bandwidth", { description: "Set bandwidth limit in bytes per second (K,B,G,T for metric and Ki,Bi,Gi,Ti for IEC units)" });
  healthcheck = Option.String("--healthcheck-seconds", { description: "health check duration in seconds (default: 60)" });
  pathStyle = Option.String("--path", { description: "bucket path lookup supported by the server. Valid options are '[on,off,auto]' (default: \"auto\")" });
  args = Option.Rest({ name: "ALIAS/BUCKET" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 1) throw usageError("replicate update needs one ALIAS/BUCKET.");
    if (this.state !== undefined && !["enable", "disable"].includes(this.state.toLowerCase())) throw usageError("--state can be either `enable` or `disable`");
    if (this.priority !== undefined && !/^-?\d+$/.test(this.priority)) throw usageError(`invalid value "${this.priority}" for flag --priority`);
    if (this.healthcheck !== undefined && !/^\d+$/.test(this.healthcheck)) throw usageError(`invalid value "${this.healthcheck}" for flag --healthcheck-seconds`);
    const targetChanges = this.sync !== undefined || this.bandwidth !== undefined || this.proxy !== undefined || this.healthcheck !== undefined || this.pathStyle !== undefined;
    if (this.remoteBucket === undefined && targetChanges) throw usageError("--remote-bucket is a required flag");
    const flags = this.replicate === undefined ? undefined : replicateFlags(this.replicate, true);
    const target = adminTarget(ctx, this.args[0], true);
    const cfg = await getReplication(target.client, target.path).catch((err: unknown) => {
      throw replicateFailure("Unable to get replication configuration", err);
    });
    if (this.id === undefined) throw usageError("--id is a required flag");
    const targets = await listRemoteTargets(target.client, target.path).catch((err: unknown) => {
      throw replicateFailure("Unable to fetch remote target", err);
    });
    const arn = cfg.Rules.find((r) => r.ID === this.id)?.Destination.Bucket ?? "";
    if (this.remoteBucket !== undefined) {
      const [changed, updates] = this.changedTarget(ctx, targets, arn, target.path);
      await setRemoteTarget(target.client, target.path, changed, updates).catch((err: unknown) => {
        throw replicateFailure(`Unable to update remote target \`${changed.endpoint}\` from \`${changed.sourcebucket}\` -> \`${changed.targetbucket}\``, err);
      });
    }
    const opts: RuleOptions = {
      id: this.id,
      tags: this.tags ?? "",
      storageClass: this.storageClass ?? "",
      ruleStatus: this.state?.toLowerCase() ?? "",
      destBucket: arn,
      isSCSet: this.storageClass !== undefined,
      isTagSet: this.tags !== undefined,
      ...(this.priority !== undefined ? { priority: String(Number(this.priority)) } : {}),
      ...(flags ?? {}),
    };
    try {
      await putReplication(target.client, target.path, editRule(cfg, opts));
    } catch (err) {
      throw replicateFailure("Could not modify replication rule", err);
    }
    const url = this.args[0] ?? "";
    ctx.output.result({ op: "update", status: "success", url, id: this.id }, this.id !== "" ? `Replication configuration rule with ID \`${this.id}\` applied to ${url}.` : `Replication configuration rule applied to ${url} successfully.`);
  }

  /** upstream modifyRemoteTarget: the listed target (its secret never listed), with each change flagged. */
  private changedTarget(ctx: McContext, targets: readonly BucketTarget[], arn: string, sourceBucket: string): [BucketTarget, TargetUpdate[]] {
    const found = targets.find((t) => t.arn === arn);
    if (found === undefined) throw mcError(`\`${arn}\` not found in replication config.`, undefined, "not_found");
    const parts = arn.split(":");
    if (!arn.startsWith("arn:minio:") || parts.length !== 6 || !parts[4] || !parts[5]) throw mcError(`Malformed ARN \`${arn}\` in replication config.`, undefined, "invalid_argument");
    if (parts[5] !== found.targetbucket) throw mcError(`Expected remote bucket ${found.targetbucket}, got ${parts[5]} for rule id ${this.id ?? ""}.`, undefined, "invalid_argument");
    const t: BucketTarget = { ...found, credentials: { accessKey: found.credentials?.accessKey ?? "" } };
    const updates: TargetUpdate[] = [];
    if (this.sync !== undefined) {
      t.replicationSync = enableDisable("sync", this.sync);
      updates.push("sync");
    }
    if (this.proxy !== undefined) {
      t.disableProxy = !enableDisable("proxy", this.proxy);
      updates.push("proxy");
    }
    const remote = parseRemoteBucket(ctx, this.remoteBucket ?? "");
    if (remote.bucket !== t.targetbucket) throw mcError(`configured remote target bucket \`${remote.bucket}\` does not match ${t.targetbucket}\` for this ARN \`${t.arn}\`.`, undefined, "invalid_argument");
    if (sourceBucket !== t.sourcebucket) throw mcError(`configured source bucket \`${sourceBucket}\` does not match ${t.sourcebucket}\` for this ARN \`${t.arn}\`.`, undefined, "invalid_argument");
    const secure = remote.url.protocol === "https:";
    t.secure = secure;
    t.credentials = { accessKey: remote.accessKey, secretKey: remote.secretKey };
    // Unlike add, update names the port even when it is the scheme's default (upstream does the same).
    t.endpoint = `${remote.url.hostname.includes(":") ? `[${remote.url.hostname.replace(/^\[|\]$/g, "")}]` : remote.url.hostname}:${remote.url.port || (secure ? "443" : "80")}`;
    updates.push("creds");
    if (this.bandwidth !== undefined) {
      const bw = parseSize(this.bandwidth);
      if (bw === undefined) throw usageError("Invalid bandwidth number");
      t.bandwidthlimit = bw;
      updates.push("bandwidth");
    }
    if (this.healthcheck !== undefined) {
      t.healthCheckDuration = Number(this.healthcheck) * 1e9;
      updates.push("healthcheck");
    }
    if (this.pathStyle !== undefined) {
      t.path = this.pathStyle;
      updates.push("path");
    }
    return [t, updates];
  }
}
