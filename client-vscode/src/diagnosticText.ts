/**
 * VS Code shows a diagnostic's message as plain text (hover and Problems panel): the server's
 * Markdown code spans (`a.q`) would show their backticks. Here they become quotes. Pure.
 */

export function plainMessage(text: string): string {
  // A code span: one or more backticks, the code, the same run of backticks (CommonMark).
  return text.replace(/(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)/g, (_m, _ticks: string, code: string) => `‘${code.trim()}’`);
}
