// Imported before clipanion (ES modules run in import order): clipanion asks
// Node for the terminal's colour depth as it loads, and Node then writes a
// warning to stderr when NO_COLOR and FORCE_COLOR are both set (uvu sets
// FORCE_COLOR=1 for the programs the tests start), which breaks the "one
// line on stderr" rule. Our programs print no colour; NO_COLOR, the explicit
// wish for none, wins.
if (process.env.NO_COLOR !== undefined && process.env.FORCE_COLOR !== undefined) delete process.env.FORCE_COLOR;

export {};
