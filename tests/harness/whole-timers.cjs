// Preloaded (node --require) into server processes a test starts: every
// setTimeout or setInterval whose delay is not a whole number of milliseconds
// is reported on stderr with its stack, for the test to find in the output.
// Why one matters: services/shared/src/process/whole-ms.ts.
"use strict";
for (const name of ["setTimeout", "setInterval"]) {
  const real = globalThis[name];
  const wrapped = function (callback, ms, ...args) {
    if (typeof ms === "number" && !Number.isInteger(ms)) {
      process.stderr.write(`fractional timer delay: ${name}(…, ${ms})\n${(new Error().stack ?? "").split("\n").slice(2, 6).join("\n")}\n`);
    }
    return real.call(this, callback, ms, ...args);
  };
  Object.defineProperty(wrapped, "name", { value: name });
  // The real function's own properties too (util.promisify's custom form).
  Object.assign(wrapped, real);
  globalThis[name] = wrapped;
}
