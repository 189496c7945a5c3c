// clipanion's Cli with upstream's help texts: every usage clipanion would
// print (a command's `this.cli.usage(this)` after a usage error, its help
// command) comes from the command's definition in upstream's layout instead,
// with no `#0` placeholders.
import { Cli, Command } from "clipanion";
import { describeCommand, type HelpCommandClass } from "./command-help.js";
import { renderCommandHelp, renderCommandUsage } from "./render-command-help.js";

export class McCli extends Cli {
  override usage(command: HelpCommandClass | Command | null = null, options: { detailed?: boolean } = {}): string {
    const commandClass = command instanceof Command ? (command.constructor as HelpCommandClass) : command;
    if (commandClass === null) return super.usage(null, options);
    const help = describeCommand(commandClass);
    return options.detailed === true ? renderCommandHelp(help) : renderCommandUsage(help);
  }
}
