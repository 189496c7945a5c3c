import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { mcError, usageError } from "../../core/errors.js";
import { adminFailure } from "../../minio-admin/admin-errors.js";
import { adminTarget } from "../../minio-admin/admin-target.js";
import { setConfigKV } from "../../minio-admin/support.js";
import { configSubsystems, getConfigKV, parseServerConfig } from "../../minio-admin/subsys-config.js";

const capability = "Callhome configuration";

/**
 * `mc support callhome enable|disable|status ALIAS` (upstream
 * cmd/support-callhome.go): the server's `callhome enable=on|off` setting
 * (help-config-kv first: a server without the sub-system cannot have it).
 * mc itself sends nothing to SUBNET; what the server does with the setting
 * is the server's own traffic.
 */
export class SupportCallhomeCommand extends BaseCommand {
  static override paths = [["support", "callhome"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "configure callhome settings",
    details: "enable - Enable callhome\n\ndisable - Disable callhome\n\nstatus - Display callhome settings",
    examples: [
      ["Enable callhome for cluster with alias 'myminio'", "$0 support callhome enable myminio"],
      ["Disable callhome for cluster with alias 'myminio'", "$0 support callhome disable myminio"],
      ["Check callhome status for cluster with alias 'myminio'", "$0 support callhome status myminio"],
    ],
  });
  airgap = Option.Boolean("--airgap", false, { description: "use in environments without network access to SUBNET (always on)" });
  args = Option.Rest({ name: "enable|disable|status ALIAS" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 2) throw usageError("support callhome needs enable|disable|status and ALIAS.");
    const action = this.args[0] ?? "";
    if (!["enable", "disable", "status"].includes(action)) throw mcError("Invalid arguments.", new Error(`Invalid argument '${action}'. Must be one of [disable enable status]`), "invalid_argument");
    const target = adminTarget(ctx, this.args[1]);
    const fail = (what: string) => (err: unknown): never => {
      throw adminFailure(what, capability, err);
    };
    const supported = (await configSubsystems(target.client).catch(fail("Unable to get minio config keys"))).includes("callhome");
    let enabled: boolean;
    if (action === "status") {
      enabled = false;
      if (supported) {
        const config = parseServerConfig(await getConfigKV(target.client, "callhome").catch(fail("Unable to get server config for 'callhome'")));
        const entry = config.find((c) => c.subSystem === "callhome" && c.target === "");
        // No `enable` key means on (upstream isFeatureEnabled).
        if (entry !== undefined) enabled = (entry.values.get("enable") ?? "on") === "on";
      }
    } else {
      if (!supported) throw mcError("Your version of MinIO doesn't support this configuration.", undefined, "unimplemented");
      enabled = action === "enable";
      await setConfigKV(target.client, `callhome enable=${enabled ? "on" : "off"}`).catch(fail("Unable to set callhome config on minio"));
    }
    const status = enabled ? "enabled" : "disabled";
    ctx.output.result({ status }, `Callhome is ${status}`);
  }
}
