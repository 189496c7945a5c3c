import { ConnectError, type Interceptor } from "@connectrpc/connect";
import type { Logger } from "pino";
import { requestIdHeader } from "./request-id.js";

/**
 * Server side: one line per handled call (`rpc`, `ms`, the caller's `reqId`,
 * and `code` when it failed).
 */
export function createRpcLogInterceptor(log: Logger): Interceptor {
  return (next) => async (req) => {
    const started = performance.now();
    const rpc = `${req.service.typeName}/${req.method.name}`;
    const reqId = req.header.get(requestIdHeader) ?? undefined;
    try {
      const res = await next(req);
      log.info({ reqId, rpc, ms: Math.round((performance.now() - started) * 10) / 10 }, "rpc");
      return res;
    } catch (err) {
      const code = err instanceof ConnectError ? err.code : undefined;
      log.warn({ reqId, rpc, ms: Math.round((performance.now() - started) * 10) / 10, code }, "rpc failed");
      throw err;
    }
  };
}
