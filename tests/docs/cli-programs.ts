/**
 * The commands and options of the two command lines, read from their commander definitions
 * (`cli/main.ts`, `ingest/main.ts`) without running them: both parse `process.argv` when
 * imported, and a child process per check would cost seconds.
 *
 *   commandsOf("program.command('build').option('--out <dir>', …)\nprogram.command('check')")
 *   → Map { 'build' => Set { '--out', '--help' }, 'check' => Set { '--help' } }
 */

/** Each command's name and the options it accepts (`--help` included, as commander adds it). */
export type Commands = ReadonlyMap<string, ReadonlySet<string>>;

/**
 * Reads the commands defined in the commander program `source`. A group's subcommands
 * (`const webhooks = program.command('webhooks')`, then `webhooks.command('failed')`) are named
 * with the group: `webhooks failed`.
 */
export function commandsOf(source: string): Commands {
  const commands = new Map<string, Set<string>>();
  const groups = new Map([...source.matchAll(/const (\w+) = program\s*\.command\('([\w-]+)'\)/g)].map((m) => [m[1]!, m[2]!]));
  const starts = [...source.matchAll(/(\w+)\s*\.command\('([\w-]+)'\)/g)];
  starts.forEach((start, i) => {
    const body = source.slice(start.index, starts[i + 1]?.index ?? source.length);
    const options = [...body.matchAll(/(?:\.option|\.requiredOption|new Option)\('(--[a-z][\w-]*)/g)].map((m) => m[1]!);
    const group = groups.get(start[1]!);
    commands.set(group === undefined ? start[2]! : `${group} ${start[2]!}`, new Set([...options, '--help']));
  });
  return commands;
}

/** A command line written in a guide: the command (its first word) and every `--option` in it. */
export interface WrittenCommand {
  command: string;
  /** The word after the command, which names a subcommand when the command is a group (`webhooks failed`). */
  next: string;
  options: string[];
}

/**
 * The invocation of program `name` in one line of code from a guide, or null when the line does
 * not run it. `bin` is the program's path (`cli/bin.js`); `npm run <name> --` counts too. The
 * command ends at a shell operator (`|`, `>`, `&&`, `;`, `#`) that stands alone.
 *
 * @example writtenCommand('sitegen', 'cli/bin.js', 'node cli/bin.js build --out /tmp/x # a folder') // → { command: 'build', next: '--out', options: ['--out'] }
 */
export function writtenCommand(name: string, bin: string, line: string): WrittenCommand | null {
  const starts = [new RegExp(`^\\s*(?:\\$ )?${name} +`), new RegExp(`node ${bin.replace(/\./g, '\\.')} +`), new RegExp(`npm run ${name} -- +`)];
  for (const start of starts) {
    const found = start.exec(line);
    if (!found) continue;
    const rest = line.slice(found.index + found[0].length).split(/\s(?:\||>|2>|&&|;|#)(?:\s|$)/)[0]!;
    const [command = '', next = ''] = rest.split(/\s+/);
    return { command, next, options: [...rest.matchAll(/(?<![\w-])--[a-z][\w-]*/g)].map((m) => m[0]) };
  }
  return null;
}
