/**
 * A computed delay for setTimeout or setInterval, in whole milliseconds
 * (rounded up). Node keeps the delay on the Timeout object as given, so one
 * fractional delay turns that field from a small integer into a double for
 * every timer of the process: V8 migrates the objects and throws away the
 * optimized code of the timer and HTTP internals that read it, under load.
 * Node also keeps one timer list per distinct delay.
 */
export function wholeMs(ms: number): number {
  return ms > 0 ? Math.ceil(ms) : 0;
}
