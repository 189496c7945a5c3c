import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { ResolvedAlias } from "../../config/aliases.js";
import type { McContext } from "../../runtime/context.js";
import { mcError } from "../../core/errors.js";

const redact = (key: string): string => `${key.split(":")[0] ?? ""}:****`;

export class AliasListCommand extends BaseCommand {
  static override paths = [["alias", "list"], ["alias", "ls"]];
  static override usage = Command.Usage({
    category: "Alias commands",
    description: "list aliases in configuration file",
    examples: [
      ["List every alias.", "$0 alias list"],
      ["Show one alias.", "$0 alias list myalias"],
      ["List aliases as JSON lines.", "$0 alias list --json"],
    ],
  });
  name = Option.String({ required: false, name: "[ALIAS]" });

  async run(ctx: McContext): Promise<void> {
    const all = [...ctx.aliases.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const shown = this.name === undefined ? all : all.filter((a) => a.name === this.name?.replace(/\/+$/, ""));
    if (this.name !== undefined && shown.length === 0) throw mcError(`No such alias \`${this.name}\` found.`, undefined, "not_found");
    shown.forEach((a, i) => this.print(ctx, a, i === 0));
  }

  private print(ctx: McContext, a: ResolvedAlias, first: boolean): void {
    // Keys and API are blanked when either key is empty.
    const keys = a.accessKey !== "" && a.secretKey !== "";
    const src = a.src;
    if (ctx.output.json) {
      const obj: Record<string, unknown> = { status: "success", alias: a.name, URL: a.url };
      if (keys) Object.assign(obj, { accessKey: a.accessKey, secretKey: a.secretKey, api: a.api });
      obj["path"] = a.path;
      if (a.apiKey !== undefined) obj["apiKey"] = redact(a.apiKey);
      if (a.clientCert !== undefined) Object.assign(obj, { clientCert: a.clientCert, clientKey: a.clientKey ?? "" });
      obj["src"] = src;
      ctx.output.printJson(obj);
      return;
    }
    const lines = [
      `${first ? "" : "\n"}${a.name}`,
      `  URL       : ${a.url}`,
      `  AccessKey : ${keys ? a.accessKey : ""}`,
      `  SecretKey : ${keys ? a.secretKey : ""}`,
      `  API       : ${keys ? a.api : ""}`,
      `  Path      : ${a.path}`,
      ...(a.apiKey === undefined ? [] : [`  APIKey    : ${redact(a.apiKey)}`]),
      ...(a.clientCert === undefined ? [] : [`  ClientCert: ${a.clientCert}`, `  ClientKey : ${a.clientKey ?? ""}`]),
      `  Src       : ${src}`,
    ];
    ctx.output.line(lines.join("\n"));
  }
}
