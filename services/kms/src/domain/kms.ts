import { createAdminOps } from "./admin-ops.js";
import { createKeyOps } from "./key-ops.js";
import type { KmsDeps } from "./ports.js";

/** The KMS use cases the edges call (REST and Connect alike). */
export function createKms(deps: KmsDeps) {
  return {
    keys: createKeyOps(deps),
    admin: createAdminOps(deps),
    /**
     * What the edges await before authorising `identity` on this replica
     * (undefined: nothing). Root is never revoked, so it is never held up.
     */
    fresh(identity: string | undefined): Promise<void> | undefined {
      if (!deps.lease || identity === undefined || identity === deps.rootIdentity) return undefined;
      return deps.lease.ensure();
    },
  };
}

export type Kms = ReturnType<typeof createKms>;
