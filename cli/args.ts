/** `--name value`, `--flag` and positional arguments; enough for chasqui's commands without a parser dependency. */
export interface ParsedArgs {
  positional: string[];
  options: Record<string, string | true>;
}

export function parseArgs(argv: string[]): ParsedArgs {
  const positional: string[] = [];
  const options: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg.startsWith('--')) {
      const [name, inline] = arg.slice(2).split('=', 2);
      if (inline !== undefined) options[name] = inline;
      else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) options[name] = argv[++i];
      else options[name] = true;
    } else positional.push(arg);
  }
  return { positional, options };
}
