/**
 * VS Code shows a diagnostic's message as plain text (hover and Problems panel): the server's
 * Markdown code spans (`a.q`) would show their backticks. Here they become quotes. Pure.
 */

export function plainMessage(text: string): string {
  // A code span: one or more backticks, the code, the same run of backticks (CommonMark).
  return text.replace(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g, (_m, _ticks: string, code: string) => `‘${code.trim()}’`);
}

/**
 * A diagnostic's message as VS Code shows it: plain text, and a message of several lines (the finding,
 * then its "Fix:") ends with a line break, because the hover appends "tapewatch(TW101)" to the message's
 * last line: it then sits on a line of its own instead of running into the Fix sentence. Pure.
 */
export function diagnosticMessage(text: string): string {
  const plain = plainMessage(text);
  return plain.includes('\n') && !plain.endsWith('\n') ? plain + '\n' : plain;
}
