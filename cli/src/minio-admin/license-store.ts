import { isAppError } from "@mc/shared/errors";
import type { AdminClient } from "./admin-client.js";
import { getConfigKV, parseServerConfig } from "./subsys-config.js";

/**
 * Where a cluster's SUBNET license lives (upstream setSubnetLicense /
 * getSubnetLicenseFromConfig): in the server's `subnet` configuration when
 * its `subnet` sub-system has a `license` key, else in mc's config.json.
 */
export interface SubnetConfig {
  /** The server's `subnet` sub-system knows `license`. */
  readonly supported: boolean;
  readonly license: string;
}

/** GET get-config-kv?key=subnet; a server without the sub-system (MinIO's "unknown sub-system subnet") has none. */
export async function readSubnetConfig(client: AdminClient): Promise<SubnetConfig> {
  let text: string;
  try {
    text = await getConfigKV(client, "subnet");
  } catch (err) {
    if (isAppError(err) && err.details["adminApi"] === "present" && /unknown sub-system subnet/i.test(err.message)) return { supported: false, license: "" };
    throw err;
  }
  const subnet = parseServerConfig(text).find((c) => c.subSystem === "subnet" && c.target === "");
  const license = subnet?.values.get("license");
  return { supported: license !== undefined, license: license ?? "" };
}

/** madmin `SetConfigKV("subnet license=…")`: PUT set-config-kv, encrypted. */
export async function writeServerLicense(client: AdminClient, license: string): Promise<void> {
  await client.request({ method: "PUT", path: "/set-config-kv", body: new TextEncoder().encode(`subnet license=${license}`), encrypt: true });
}
