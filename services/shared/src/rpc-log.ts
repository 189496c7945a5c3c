import { ConnectError, type Interceptor } from "@connectrpc/connect";
import type { Logger } from "pino";

/**
 * Server side: one line per handled call (`rpc`, `ms`, and `code` when it
 * failed). The request id is added by the logger from the call's context.
 */
export function createRpcLogInterceptor(log: Logger): Interceptor {
  return (next) => async (req) => {
    const started = performance.now();
    const rpc = `${req.service.typeName}/${req.method.name}`;
    try {
      const res = await next(req);
      log.info({ rpc, ms: Math.round((performance.now() - started) * 10) / 10 }, "rpc");
      return res;
    } catch (err) {
      const code = err instanceof ConnectError ? err.code : undefined;
      log.warn({ rpc, ms: Math.round((performance.now() - started) * 10) / 10, code }, "rpc failed");
      throw err;
    }
  };
}
