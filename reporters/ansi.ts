/** Terminal colour codes, which Playwright may leave in error messages. */
const ANSI = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g');

export const stripAnsi = (text: string): string => text.replace(ANSI, '');
