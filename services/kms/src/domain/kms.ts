import { createAdminOps } from "./admin-ops.js";
import { createKeyOps } from "./key-ops.js";
import type { KmsDeps } from "./ports.js";

/** The KMS use cases the edges call (REST and Connect alike). */
export function createKms(deps: KmsDeps) {
  return { keys: createKeyOps(deps), admin: createAdminOps(deps) };
}

export type Kms = ReturnType<typeof createKms>;
