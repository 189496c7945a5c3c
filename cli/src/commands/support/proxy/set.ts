import { Command, Option } from "clipanion";
import { BaseCommand } from "../../../runtime/base-command.js";
import type { McContext } from "../../../runtime/context.js";
import { mcError, usageError } from "../../../core/errors.js";
import { adminFailure } from "../../../minio-admin/admin-errors.js";
import { adminTarget } from "../../../minio-admin/admin-target.js";
import { proxyCapability, setConfigKV } from "../../../minio-admin/support.js";

/**
 * `mc support proxy set ALIAS PROXY_URL` (upstream cmd/support-proxy-set.go):
 * the server's `subnet proxy=` setting. mc itself contacts nothing but the
 * alias's server. The URL must be one absolute http(s) URL: a space would add
 * other keys to the `subnet` setting (upstream sends the text as given).
 */
export class SupportProxySetCommand extends BaseCommand {
  static override paths = [["support", "proxy", "set"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "configure proxy to given URL",
    examples: [
      ["Make the cluster use a proxy for its support calls.", "$0 support proxy set myminio http://proxy.example.net:3128"],
      ["Use a proxy that needs a user and password.", "$0 support proxy set myminio http://user:password@proxy.example.net:3128"],
    ],
  });
  args = Option.Rest({ name: "ALIAS PROXY_URL" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 2) throw usageError("support proxy set needs ALIAS and PROXY_URL.");
    const proxy = this.args[1] ?? "";
    if (proxy === "") throw mcError("Proxy must not be empty.", undefined, "invalid_argument");
    let ok = false;
    try {
      ok = /^https?:$/.test(new URL(proxy).protocol) && !/[\s"'=]/.test(proxy);
    } catch {
      ok = false;
    }
    if (!ok) throw mcError("Invalid proxy:", new Error(`\`${proxy}\` is not an http(s) URL without spaces, quotes or '='`), "invalid_argument");
    const target = adminTarget(ctx, this.args[0]);
    await setConfigKV(target.client, `subnet proxy=${proxy}`).catch((err: unknown) => {
      throw adminFailure(`Unable to set proxy '${proxy}'`, proxyCapability, err);
    });
    ctx.output.result({ status: "success", proxy }, `Proxy is now set to ${proxy}`);
  }
}
