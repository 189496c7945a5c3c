import { isAppError } from "@mc/shared";
import { Option } from "clipanion";
import { BaseCommand } from "../runtime/base-command.js";
import type { McContext } from "../runtime/context.js";
import { mcError, usageError } from "../core/errors.js";
import { kmsAlias, openKms, type KmsAlias, type KmsLib } from "./kms-alias.js";

/**
 * What every `mc admin kms` command shares: the enclave flag (KES's
 * `--enclave`, sent as the `Kms-Enclave` header) and one way of turning
 * failures into mc errors, so that every command reports a KMS answer as
 * "<what failed>. <the KMS's message>." and anything else as unreachable.
 */
export abstract class KmsCommand extends BaseCommand {
  enclave = Option.String("-e,--enclave", { description: "the KMS enclave to act in (default: default)" });

  /** The positional arguments: `need` required ones, then up to `optional` more; `names` says which in the usage error. */
  protected positional(args: readonly string[], names: string, need: number, optional = 0): string[] {
    if (args.length < need || args.length > need + optional || args.slice(0, need).some((a) => a === "")) {
      throw usageError(`mc ${this.path.join(" ")} needs ${names}.`);
    }
    return [...args];
  }

  /** Runs `fn` with a client for the alias; `failure` names what failed when the KMS answers with an error. */
  protected async withKms<T>(ctx: McContext, aliasName: string | undefined, failure: string, fn: (kms: KmsLib, alias: KmsAlias) => Promise<T>): Promise<T> {
    const alias = kmsAlias(ctx, aliasName);
    const kms = await openKms(ctx, alias, this.enclave);
    try {
      return await fn(kms, alias);
    } catch (err) {
      if (kms.isClientError(err)) throw mcError(failure, err);
      if (isAppError(err)) throw err;
      throw mcError(`Unable to reach the KMS of alias \`${alias.name}\`.`, err);
    } finally {
      kms.client.close();
    }
  }

  /** `Field: value` lines, the text form of our own KMS commands (contracts/kms.md §10). */
  protected fields(ctx: McContext, value: Record<string, unknown>, text: Record<string, unknown>): void {
    const show = (v: unknown): string => (Array.isArray(v) ? v.join(", ") : String(v));
    ctx.output.result(value, Object.entries(text).map(([k, v]) => `${k}: ${show(v)}`).join("\n"));
  }
}

/** Every page of a `/v1/<kind>/list/<pattern>` route. */
export async function listAll(kms: KmsLib, kind: "key" | "policy" | "identity" | "enclave", pattern: string): Promise<string[]> {
  const field = kind === "identity" ? "identities" : "names";
  const out: string[] = [];
  let continueAt = "";
  for (;;) {
    const query = continueAt === "" ? "" : `?continue_at=${encodeURIComponent(continueAt)}`;
    const page = await kms.client.call<Record<string, unknown>>("GET", `/v1/${kind}/list/${encodeURIComponent(pattern)}${query}`);
    const items = page[field];
    if (Array.isArray(items)) out.push(...items.filter((i): i is string => typeof i === "string"));
    const next = typeof page["continue_at"] === "string" ? page["continue_at"] : "";
    if (next === "" || next === continueAt) break;
    continueAt = next;
  }
  return out;
}

export const seg = encodeURIComponent;
