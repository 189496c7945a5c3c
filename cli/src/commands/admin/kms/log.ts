import { Command, Option } from "clipanion";
import type { McContext } from "../../../runtime/context.js";
import { mcError, usageError } from "../../../core/errors.js";
import { followAudit } from "../../../kms/kms-audit-stream.js";
import { KmsCommand } from "../../../kms/kms-command.js";

interface AuditRecord {
  time?: string;
  request?: { ip?: string; enclave?: string; path?: string; identity?: string };
  response?: { code?: number; time?: number };
}

/** One line per request: time, status, identity, client, enclave, path, handling time (KES `kes log --audit` columns). */
function textOf(line: string): string {
  let r: AuditRecord;
  try {
    r = JSON.parse(line) as AuditRecord;
  } catch {
    return line;
  }
  const q = r.request ?? {};
  const micros = r.response?.time ?? 0;
  const took = micros >= 1000 ? `${(micros / 1000).toFixed(1)}ms` : `${micros}µs`;
  return [r.time ?? "", String(r.response?.code ?? ""), q.identity ?? "", q.ip ?? "", q.enclave ?? "", q.path ?? "", took].join("  ");
}

/**
 * `mc admin kms log ALIAS --audit`: follows the audit stream (contracts/kms.md
 * §9) until Ctrl-C (130) or a closed pipe (141). A caller sees only its own
 * enclave's events; root sees all. Records never hold key material.
 */
export class AdminKmsLogCommand extends KmsCommand {
  static override paths = [["admin", "kms", "log"]];
  static override usage = Command.Usage({
    category: "Admin commands",
    description: "follow the KMS audit log",
    details: "Prints each request as the node handles it, until Ctrl-C. With --json each line is the audit record as the KMS wrote it.",
    examples: [
      ["Follow the KMS audit log.", "$0 admin kms log --audit mykms"],
      ["Follow the audit log of one enclave as JSON lines.", "$0 admin kms log --audit --json --enclave tenant-1 mykms"],
    ],
  });
  args = Option.Rest({ name: "ALIAS" });
  audit = Option.Boolean("--audit", { description: "follow the audit log (the only log the KMS offers)" });

  async run(ctx: McContext): Promise<number> {
    const [aliasName] = this.positional(this.args, "ALIAS", 1);
    if (this.audit !== true) throw usageError("choose the log to follow: --audit.");
    await this.withKms(ctx, aliasName, "Failed to follow the audit log.", async ({ lib, ca }, alias) => {
      await followAudit({ lib, server: alias.url, credential: alias.credential, ca, enclave: this.enclave, signal: ctx.signal }, (line) => {
        ctx.output.stdout.write(`${ctx.output.json ? line : textOf(line)}\n`);
      });
      if (!ctx.signal.aborted) throw mcError(`The KMS of alias \`${alias.name}\` ended the audit stream.`);
    });
    return 0;
  }
}
