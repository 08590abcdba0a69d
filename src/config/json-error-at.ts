/**
 * Where a JSON text stops being JSON, as a line and a column (1-based): Node's JSON.parse names a
 * character position for some errors and none for others ("Unexpected token '}', ... is not valid
 * JSON"). A small recursive-descent reader of RFC 8259 that stops at the first character no JSON
 * text can have there. Used only after JSON.parse refused the text.
 */
export interface TextPosition {
  readonly line: number;
  readonly column: number;
}

export function positionAt(text: string, offset: number): TextPosition {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - (before.lastIndexOf('\n') + 1) + 1 };
}

class Stop {
  constructor(readonly offset: number) {}
}

/** The offset of the first character that breaks JSON (the text's length when it ends too soon); -1 when the text is JSON. */
export function jsonErrorOffset(text: string): number {
  let i = 0;
  const fail = (): never => {
    throw new Stop(i);
  };
  const space = (): void => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const literal = (word: string): void => {
    for (const char of word) {
      if (text[i] !== char) fail();
      i++;
    }
  };
  const string = (): void => {
    i++; // the opening quote
    for (;;) {
      if (i >= text.length) fail();
      const char = text[i]!;
      if (char === '"') {
        i++;
        return;
      }
      if (char < ' ') fail();
      if (char === '\\') {
        i++;
        const escape = text[i];
        if (escape === 'u') {
          for (let k = 1; k <= 4; k++) {
            if (!/[0-9a-fA-F]/.test(text[i + k] ?? '')) {
              i += k;
              fail();
            }
          }
          i += 5;
          continue;
        }
        if (escape === undefined || !'"\\/bfnrt'.includes(escape)) fail();
      }
      i++;
    }
  };
  const number = (): void => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!match || match[0] === '-') fail();
    i += match![0].length;
  };
  /** An object or an array: items separated by commas up to `close`. */
  const sequence = (close: string, item: () => void): void => {
    i++;
    space();
    if (text[i] === close) {
      i++;
      return;
    }
    for (;;) {
      item();
      space();
      if (text[i] === ',') {
        i++;
        continue;
      }
      if (text[i] === close) {
        i++;
        return;
      }
      fail();
    }
  };
  const member = (): void => {
    space();
    if (text[i] !== '"') fail();
    string();
    space();
    if (text[i] !== ':') fail();
    i++;
    value();
  };
  const value = (): void => {
    space();
    const char = text[i];
    if (char === '{') return sequence('}', member);
    if (char === '[') return sequence(']', value);
    if (char === '"') return string();
    if (char === 't') return literal('true');
    if (char === 'f') return literal('false');
    if (char === 'n') return literal('null');
    if (char === '-' || (char !== undefined && char >= '0' && char <= '9')) return number();
    fail();
  };
  try {
    if (text.charCodeAt(0) === 0xfeff) i = 1;
    value();
    space();
    if (i < text.length) fail();
    return -1;
  } catch (stop) {
    if (stop instanceof Stop) return Math.min(stop.offset, text.length);
    throw stop;
  }
}
