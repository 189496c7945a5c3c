// `@mc/shared/node`: what the Node programs of the project share: atomic
// file writes, a time-slice budget for long loops, the request id header,
// and the structured logger (pino). Not for domain code or the crypto core.
export { syncDir, tempPrefix, writeFileAtomic } from "./fs/write-atomic.js";
export type { AtomicWriteOptions } from "./fs/write-atomic.js";
export { fullSpeed, pacedBudget, sliceBudget } from "./process/slice-budget.js";
export { wholeMs } from "./process/whole-ms.js";
export type { Pace, SliceBudget } from "./process/slice-budget.js";
export { acceptRequestId, requestIdHeader, requestIdOptions } from "./request-id.js";
export { createLogger } from "./logger.js";
export type { Logger } from "./logger.js";
