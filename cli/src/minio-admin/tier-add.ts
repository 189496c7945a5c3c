import type { McContext } from "../runtime/context.js";
import { mcError, usageError } from "../core/errors.js";
import { adminFailure } from "./admin-errors.js";
import { adminTarget } from "./admin-target.js";
import { addTier, tierCapability, tierConfig, tierMessage, type TierKind } from "./tier.js";

/**
 * `mc ilm tier add KIND ALIAS TIER-NAME …` (upstream cmd/ilm-tier-add.go):
 * the name in upper case, the config encrypted to PUT /tier, then upstream's
 * "Added remote tier NAME of type KIND".
 */
export async function runTierAdd(ctx: McContext, args: readonly string[], kind: TierKind, settings: () => Record<string, string | boolean | undefined>, force: boolean): Promise<void> {
  if (args.length < 2) throw usageError(`ilm tier add ${kind} needs ALIAS and TIER-NAME.`);
  if (args.length > 2) throw mcError("Incorrect number of arguments for tier add command.", undefined, "invalid_argument");
  const name = (args[1] ?? "").toUpperCase();
  if (name === "") throw mcError("Tier name can't be empty.", undefined, "invalid_argument");
  const target = adminTarget(ctx, args[0]);
  const cfg = tierConfig(kind, name, settings());
  await addTier(target.client, cfg, force).catch((err: unknown) => {
    throw adminFailure("Unable to configure remote tier target", tierCapability, err);
  });
  ctx.output.result(tierMessage(name, cfg), `Added remote tier ${name} of type ${kind}`);
}

export const need = (cond: boolean, message: string): void => {
  if (!cond) throw mcError(`${message}.`, undefined, "invalid_argument");
};
