// `@mc/shared/errors`: the one error type and its closed set of reasons. It
// imports nothing, so domain code, the crypto core and `mc` can use it
// without loading any transport (the import-graph check keeps it so).
export { AppError, isAppError, isReason, reasons, toAppError } from "./app-error.js";
export type { AppErrorOptions, Reason } from "./app-error.js";
