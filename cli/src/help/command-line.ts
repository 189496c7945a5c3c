// Splits mc's argv into flags and words the way urfave/cli reads it: a global
// flag that takes a value owns the next word, `--` ends the flags.
import { takesNextWord } from "./global-flags.js";

export interface Word {
  readonly word: string;
  /** Index in argv. */
  readonly index: number;
}

export interface CommandLine {
  /** Flags before the first word (`mc -C dir --json ls`): the app's own flags. */
  readonly leading: readonly string[];
  /** Everything that is neither a flag nor a global flag's value. */
  readonly words: readonly Word[];
}

export function splitCommandLine(argv: readonly string[]): CommandLine {
  const leading: string[] = [];
  const words: Word[] = [];
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i] ?? "";
    if (word === "--") {
      for (let j = i + 1; j < argv.length; j++) words.push({ word: argv[j] ?? "", index: j });
      break;
    }
    if (word.startsWith("-") && word !== "-") {
      if (words.length === 0) leading.push(word);
      if (takesNextWord(word)) i++;
    } else words.push({ word, index: i });
  }
  return { leading, words };
}
