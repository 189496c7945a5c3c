import type { DescService } from "@bufbuild/protobuf";
import type { ConnectRouter } from "@connectrpc/connect";
import { createRouteTable, InvalidPathError, type RestRoute } from "@mc/shared/rest";
import { adminOperations } from "./admin-operations.js";
import { keyOperations } from "./key-operations.js";
import { nodeOperations } from "./node-operations.js";
import type { EdgeDeps, KmsOperation } from "./operation.js";

/**
 * The KMS's one table (contract §4, plus the Connect-only cluster RPCs):
 * each row names a use case once, with its RPC, its REST route, the policy
 * path both edges check and audit it as, and its read rule. The REST routes,
 * the Connect handlers, the public paths, the served services and the
 * timeout wording are all derived from it.
 */
export const kmsOperations: readonly KmsOperation[] = [...keyOperations, ...adminOperations, ...nodeOperations];

/** Paths that need no certificate and are not audited (contract §6, §9), on both edges. */
export const publicPaths: ReadonlySet<string> = new Set(kmsOperations.filter((o) => o.isPublic).flatMap((o) => [o.path, o.rpcPath]));

/** The Connect services of the edge, whose input messages bodies are checked against. */
export const kmsServices: readonly DescService[] = [...new Set(kmsOperations.map((o) => o.rpc.parent))];

/** The REST routes of the edge (`PUT` is taken for `POST` by the handler). */
export const createKmsRoutes = (d: EdgeDeps): RestRoute[] => kmsOperations.flatMap((o) => o.restRoute(d) ?? []);

/** Every RPC of the table, on a Connect router. */
export function registerConnectServices(router: ConnectRouter, d: EdgeDeps): void {
  for (const o of kmsOperations) o.register(router, d);
}

const byRpcPath = new Map(kmsOperations.map((o) => [o.rpcPath, o]));
const restTable = createRouteTable(kmsOperations.flatMap((o) => (o.restMethod ? [{ methods: [o.restMethod], pattern: o.path, value: o }] : [])));

/** The row a request names, by its Connect path or its REST method and path; undefined when none does. */
export function operationOf(method: string | undefined, path: string): KmsOperation | undefined {
  if (path.startsWith("/kms.v1.")) return byRpcPath.get(path);
  try {
    const found = restTable.match(method === "PUT" ? "POST" : (method ?? ""), path);
    return found.kind === "found" ? found.value : undefined;
  } catch (err) {
    if (err instanceof InvalidPathError) return undefined;
    throw err;
  }
}
