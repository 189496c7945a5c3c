import { pino, type Logger } from "pino";
import { currentRequestId } from "./request-id.js";

export type { Logger } from "pino";

/**
 * The structured log of every process: JSON lines on stderr (stdout stays
 * for what a user asked for), level from LOG_LEVEL, the current request id
 * as `reqId` on every line written while a request is being served, and
 * credentials redacted wherever a caller passes them by mistake.
 */
export function createLogger(name: string, env: NodeJS.ProcessEnv = process.env): Logger {
  return pino(
    {
      name,
      level: env.LOG_LEVEL ?? "info",
      mixin: () => {
        const reqId = currentRequestId();
        return reqId === undefined ? {} : { reqId };
      },
      redact: { paths: ["apiKey", "secretKey", "password", "authorization", "*.apiKey", "*.secretKey", "*.authorization", "headers.authorization"], censor: "[redacted]" },
    },
    pino.destination(2),
  );
}
