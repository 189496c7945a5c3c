import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { usageError } from "../../core/errors.js";
import { adminTarget } from "../../minio-admin/admin-target.js";
import { parseRemoteBucket, setRemoteTarget } from "../../minio-admin/bucket-target.js";
import { replicateFailure, replicateFlags } from "../../minio-admin/replicate-common.js";
import { addRule } from "../../minio-admin/replication-rules.js";
import { getReplication, putReplication } from "../../minio-admin/replication-s3.js";
import { parseSize } from "../../util/humanize.js";

/**
 * `mc replicate add ALIAS/BUCKET --remote-bucket URL --priority N` (upstream
 * cmd/replicate-add.go): the remote target through the admin API
 * (set-remote-target, which answers its ARN), then a rule to that ARN added
 * to the bucket's `?replication` configuration.
 */
export class ReplicateAddCommand extends BaseCommand {
  static override paths = [["replicate", "add"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "add a server side replication configuration rule",
    examples: [
      ["Replicate a bucket to a bucket on another MinIO server.", "$0 replicate add myminio/mybucket --remote-bucket https://REMOTEKEY:REMOTESECRET@minio-b.example.net/mybucket --priority 1"],
      ["Replicate only tagged objects, synchronously, at most 100 MiB/s.", "$0 replicate add myminio/mybucket --remote-bucket https://REMOTEKEY:REMOTESECRET@minio-b.example.net/mybucket --tags \"replicate=yes\" --sync --bandwidth 100MiB --priority 2"],
      ["Replicate objects and deletes under a prefix into a storage class.", "$0 replicate add myminio/mybucket --remote-bucket https://REMOTEKEY:REMOTESECRET@minio-b.example.net/mybucket --id docs --replicate \"delete,delete-marker\" --storage-class STANDARD_IA --priority 3"],
    ],
  });
  arn = Option.String("--arn", { description: "unique role ARN", hidden: true });
  id = Option.String("--id", { description: "id for the rule, should be a unique value" });
  tags = Option.String("--tags", { description: "format '<key1>=<value1>&<key2>=<value2>&<key3>=<value3>', multiple values allowed for multiple key/value pairs" });
  storageClass = Option.String("--storage-class", { description: "storage class for destination, valid values are either \"STANDARD\" or \"REDUCED_REDUNDANCY\"" });
  disable = Option.Boolean("--disable", { description: "disable the rule" });
  priority = Option.String("--priority", { description: "priority of the rule, should be unique and is a required field" });
  remoteBucket = Option.String("--remote-bucket", { description: "remote bucket, should be a unique value for the configuration" });
  replicate = Option.String("--replicate", { description: "comma separated list to enable replication of soft deletes, permanent deletes, existing objects and metadata sync (default: \"delete-marker,delete,existing-objects,metadata-sync\")" });
  pathStyle = Option.String("--path", { description: "bucket path lookup supported by the server. Valid options are ['auto', 'on', 'off'] (default: \"auto\")" });
  region = Option.String("--region", { description: "region of the destination bucket (optional)" });
  bandwidth = Option.String("--bandwidth", { description: "set bandwidth limit in bytes per second (K,B,G,T for metric and Ki,Bi,Gi,Ti for IEC units)" });
  sync = Option.Boolean("--sync", { description: "enable synchronous replication for this target. default is async" });
  healthcheck = Option.String("--healthcheck-seconds", { description: "health check interval in seconds (default: 60)" });
  disableProxy = Option.Boolean("--disable-proxy", { description: "disable proxying in active-active replication. If unset, default behavior is to proxy" });
  args = Option.Rest({ name: "ALIAS/BUCKET" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 1) throw usageError("replicate add needs one ALIAS/BUCKET.");
    if (!this.remoteBucket) throw usageError("--remote-bucket flag needs to be specified.");
    const path = this.pathStyle ?? "auto";
    if (!["on", "off", "auto"].includes(path)) throw usageError("unrecognized bucket path style. Valid options are `[on, off, auto]`.");
    const priority = this.priority ?? "0";
    if (!/^-?\d+$/.test(priority)) throw usageError(`invalid value "${priority}" for flag --priority`);
    const health = this.healthcheck ?? "60";
    if (!/^\d+$/.test(health)) throw usageError(`invalid value "${health}" for flag --healthcheck-seconds`);
    const bandwidth = this.bandwidth === undefined || this.bandwidth === "" ? 0 : parseSize(this.bandwidth);
    if (bandwidth === undefined) throw usageError(`invalid bandwidth value \`${this.bandwidth ?? ""}\``);
    const flags = replicateFlags(this.replicate ?? "delete-marker,delete,existing-objects,metadata-sync", false);
    const target = adminTarget(ctx, this.args[0], true);
    const remote = parseRemoteBucket(ctx, this.remoteBucket);
    const arn = await setRemoteTarget(target.client, target.path, {
      sourcebucket: "",
      endpoint: remote.url.host,
      credentials: { accessKey: remote.accessKey, secretKey: remote.secretKey },
      targetbucket: remote.bucket,
      secure: remote.url.protocol === "https:",
      path,
      api: "s3v4",
      arn: "",
      type: "replication",
      region: this.region ?? "",
      bandwidthlimit: bandwidth,
      replicationSync: this.sync === true,
      storageclass: "",
      healthCheckDuration: Number(health) * 1e9,
      disableProxy: this.disableProxy === true,
      resetBeforeDate: "",
      resetID: "",
    }).catch((err: unknown) => {
      throw replicateFailure("unable to configure remote target", err);
    });
    const cfg = await getReplication(target.client, target.path).catch((err: unknown) => {
      throw replicateFailure("unable to fetch replication configuration", err);
    });
    const id = this.id ?? "";
    let next;
    try {
      next = addRule(cfg, { id, tags: this.tags ?? "", storageClass: this.storageClass ?? "", priority: String(Number(priority)), ruleStatus: this.disable ? "disable" : "enable", destBucket: arn, ...flags, replicaSync: "enable" });
    } catch (err) {
      throw replicateFailure("unable to add replication rule", err);
    }
    await putReplication(target.client, target.path, next).catch((err: unknown) => {
      throw replicateFailure("unable to add replication rule", err);
    });
    const url = this.args[0] ?? "";
    ctx.output.result({ op: "add", status: "success", url, id }, id !== "" ? `Replication configuration rule with ID \`${id}\` applied to ${url}.` : `Replication configuration rule applied to ${url} successfully.`);
  }
}
