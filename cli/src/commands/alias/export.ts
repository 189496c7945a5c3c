import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import { aliasNamePattern } from "../../config/aliases.js";
import { orderAlias } from "../../config/config-file.js";
import type { McContext } from "../../runtime/context.js";
import { mcError, usageError } from "../../core/errors.js";

export class AliasExportCommand extends BaseCommand {
  static override paths = [["alias", "export"], ["alias", "e"]];
  static override usage = Command.Usage({
    category: "Alias commands",
    description: "export configuration info to stdout",
    details: "Prints the alias's entry of config.json as one line of JSON: url, accessKey, secretKey, (sessionToken,) api and path.",
    examples: [
      ["Write an alias's credentials to a file.", "$0 alias export myalias > credentials.json"],
      ["Copy an alias under another name.", "$0 alias export myalias | $0 alias import myalias-copy"],
    ],
  });
  args = Option.Rest({ name: "ALIAS" });

  async run(ctx: McContext): Promise<void> {
    if (this.args.length !== 1) throw usageError("alias export needs one ALIAS.");
    const name = (this.args[0] ?? "").replace(/\/+$/, "");
    if (!aliasNamePattern.test(name)) throw mcError(`Invalid alias name \`${this.args[0] ?? ""}\`.`, new Error("Alias must start with a letter and contain only letters, digits, - and _"), "invalid_argument");
    // Only config.json, as upstream: an MC_HOST_ alias is already in the environment.
    const alias = Object.hasOwn(ctx.config.file.aliases, name) ? ctx.config.file.aliases[name] : undefined;
    if (!alias) throw mcError(`Unable to export credentials: no alias \`${name}\` in \`${ctx.config.path}\`.`, undefined, "not_found");
    // The same one line with or without --json: it is the credentials file.
    ctx.output.line(JSON.stringify(orderAlias(alias)));
  }
}
