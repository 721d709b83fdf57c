/** One line of the CSV files chasqui carries from SUNAT (sunat/codes/, sunat/rules/). */

/** The fields of one CSV line: separated by commas, a field in double quotes may hold commas and doubled quotes. */
export function csvFields(line: string): string[] {
  const out: string[] = [];
  const re = /(?:^|,)(?:"((?:[^"]|"")*)"|([^,]*))/g;
  for (let m = re.exec(line); m && m.index < line.length; m = re.exec(line)) {
    out.push(m[1] !== undefined ? m[1].replaceAll('""', '"') : m[2]);
    if (re.lastIndex === m.index) re.lastIndex++;
  }
  return out;
}
