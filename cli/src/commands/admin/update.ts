import { Command, Option } from "clipanion";
import { BaseCommand } from "../../runtime/base-command.js";
import type { McContext } from "../../runtime/context.js";
import { createTtyAsk } from "../../helpers/prompt.js";
import { runServerUpdate } from "../../minio-admin/service.js";

/** `mc admin update` (upstream cmd/admin-update.go). */
export class AdminUpdateCommand extends BaseCommand {
  static override paths = [["admin", "update"]];
  static override usage = Command.Usage({
    category: "MinIO commands",
    description: "update all MinIO servers",
    examples: [
      ["Update MinIO server represented by its alias 'play'", "$0 admin update play/"],
      ["Update all MinIO servers in a distributed setup, represented by its alias 'mydist'", "$0 admin update mydist/"],
      ["Update from a binary of your own", "$0 admin update mydist/ https://updates.example.com/minio/release/linux-amd64/minio.sha256sum"],
      ["Update without being asked to confirm on a terminal", "$0 admin update play/ --yes"],
    ],
  });
  yes = Option.Boolean("-y,--yes", false, { description: "Confirms the server update" });
  args = Option.Rest({ name: "ALIAS [UPDATE-URL]" });

  async run(ctx: McContext): Promise<void> {
    // Current upstream asks first on a terminal, unless --yes (a script's stdin is no terminal: never asked).
    const confirm = async (): Promise<boolean> => {
      if (this.yes || !process.stdin.isTTY || !process.stdout.isTTY) return true;
      const tty = createTtyAsk(process.stdin, process.stdout);
      const answer = await tty.ask("You are about to upgrade *MinIO Server*, please confirm [y/N]: ", false).finally(() => tty.close());
      return ["y", "yes"].includes(answer.trim().toLowerCase());
    };
    await runServerUpdate(ctx, this.args, confirm);
  }
}
