import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import { writeConfig } from "../../config/config-file.js";
import type { McContext } from "../../runtime/context.js";
import { mcError } from "../../core/errors.js";

export class AliasRemoveCommand extends BaseCommand {
  static override paths = [["alias", "remove"], ["alias", "rm"]];
  static override usage = Command.Usage({
    category: "Alias commands",
    description: "remove an alias from configuration file",
    examples: [
      ["Remove an alias.", "$0 alias remove myalias"],
      ["Remove it with the short name.", "$0 alias rm myalias"],
    ],
  });
  name = Option.String({ name: "ALIAS" });

  async run(ctx: McContext): Promise<void> {
    const name = this.name.replace(/\/+$/, "");
    if (!(name in ctx.config.file.aliases)) throw mcError(`No such alias \`${name}\` found.`, undefined, "not_found");
    delete ctx.config.file.aliases[name];
    await writeConfig(ctx.config.dir, ctx.config.file);
    ctx.output.result({ status: "success", alias: name }, `Removed \`${name}\` successfully.`);
  }
}
