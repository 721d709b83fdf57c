/** The width chasqui's own tables and help fit in: a terminal of 100 columns (issue 34: rules was 170 wide). */
export const TERMINAL_WIDTH = 100;

/** `text` in lines of at most `width` columns, broken between words (a word longer than a line, inside it). */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (let word of text.split(/\s+/).filter(Boolean)) {
    while (word.length > width) {
      // A path (cac:A/cbc:B) breaks after a slash, anything else at the edge.
      const cut = word.lastIndexOf('/', width - 1) + 1 || width;
      if (line) lines.push(line);
      lines.push(word.slice(0, cut));
      word = word.slice(cut);
      line = '';
    }
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return line ? [...lines, line] : lines;
}
