import { pino, type Logger } from "pino";

export type { Logger } from "pino";

/**
 * The structured log of every process: JSON lines on stderr (stdout stays
 * for what a user asked for), level from LOG_LEVEL, and credentials redacted
 * wherever a caller passes them by mistake. Request lines carry `reqId`.
 */
export function createLogger(name: string, env: NodeJS.ProcessEnv = process.env): Logger {
  return pino(
    {
      name,
      level: env.LOG_LEVEL ?? "info",
      redact: { paths: ["apiKey", "secretKey", "password", "authorization", "*.apiKey", "*.secretKey", "*.authorization", "headers.authorization"], censor: "[redacted]" },
    },
    pino.destination(2),
  );
}
