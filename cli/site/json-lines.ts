/** A colon after a string (sticky: tried where the string ends), which makes the string a key. */
const KEY_COLON = /\s*:/y;

/**
 * Maps every key of a JSON document to the line it is written on, so problems can be reported
 * as `file:line`. Nested keys are dotted.
 *
 * @example jsonKeyLines('{\n  "nav": {\n    "about": "About"\n  }\n}')
 * // Map { 'nav' => 2, 'nav.about' => 3 }
 */
export function jsonKeyLines(text: string): Map<string, number> {
  const lines = new Map<string, number>();
  const path: (string | null)[] = [];
  let line = 1;
  let pendingKey: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\n') line++;
    else if (ch === '"') {
      let j = i + 1;
      let value = '';
      while (j < text.length && text[j] !== '"') {
        if (text[j] === '\\') {
          value += text[j + 1];
          j += 2;
        } else value += text[j++];
      }
      KEY_COLON.lastIndex = j + 1;
      if (KEY_COLON.test(text)) {
        pendingKey = value;
        lines.set([...path.filter((p): p is string => p !== null), value].join('.'), line);
      }
      i = j;
    } else if (ch === '{' || ch === '[') {
      path.push(pendingKey);
      pendingKey = null;
    } else if (ch === '}' || ch === ']') {
      path.pop();
    } else if (ch === ',') {
      pendingKey = null;
    }
  }
  return lines;
}

/**
 * The line of the syntax error `JSON.parse` reported for `text`, from the position its message
 * gives (V8: `… in JSON at position 42`); undefined when the message names none.
 *
 * @example jsonErrorLine('{\n  "a": 1,\n}', new SyntaxError('Expected double-quoted property name in JSON at position 12')) // 3
 */
export function jsonErrorLine(text: string, error: unknown): number | undefined {
  const position = /at position (\d+)/.exec(error instanceof Error ? error.message : '');
  if (!position) return undefined;
  return text.slice(0, Number(position[1])).split('\n').length;
}
