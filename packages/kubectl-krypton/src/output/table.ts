/**
 * A table as kubectl prints one: upper-case headers, columns padded to their widest cell and
 * three spaces apart, no trailing blanks.
 */
export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((header, i) =>
    Math.max(header.length, ...rows.map(row => (row[i] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, i) =>
        i === cells.length - 1 ? cell : cell.padEnd(widths[i]),
      )
      .join('   ')
      .trimEnd();
  return `${[line(headers.map(h => h.toUpperCase())), ...rows.map(line)].join(
    '\n',
  )}\n`;
}

/** Control characters of names and annotations, shown escaped so that none moves the terminal. */
export function printable(text: string): string {
  return text.replace(
    // eslint-disable-next-line no-control-regex
    /[\u0000-\u001f\u007f-\u009f]/g,
    c => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}
