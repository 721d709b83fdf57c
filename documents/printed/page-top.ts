/** What tops every page: the issuer and the RUC/title/number box, and the DEMO/RECHAZADO/ANULADO marks. */
import type { PrintedParty } from './model';
import type { Sheet } from './sheet';

const MARK_COLOUR = '#c0392b';

/** The marks behind the content, then the header. */
export function drawPageTop(sheet: Sheet): void {
  drawMarks(sheet);
  header(sheet);
}

/** The diagonal words behind the content of every page, and a framed banner under the header. */
function drawMarks(sheet: Sheet): void {
  if (!sheet.options.marks.length || sheet.ticket) return;
  const { doc, paper } = sheet;
  doc.save();
  doc.fillColor(MARK_COLOUR).fillOpacity(0.13);
  const text = sheet.options.marks.join(' · ');
  // One line along the diagonal, as large as 80 % of it allows (at most 60 points).
  sheet.font('bold', 60);
  const diagonal = Math.hypot(paper.width, paper.height) * 0.8;
  const size = Math.min(60, (60 * diagonal) / doc.widthOfString(text));
  sheet.font('bold', size);
  const width = doc.widthOfString(text);
  const [cx, cy] = [paper.width / 2, paper.height / 2];
  doc.rotate(-Math.atan2(paper.height, paper.width) * (180 / Math.PI), { origin: [cx, cy] });
  doc.text(text, cx - width / 2, cy - size / 2, { lineBreak: false });
  doc.restore();
}

function banner(sheet: Sheet): void {
  if (!sheet.options.marks.length) return;
  const text = sheet.options.marks.join(' · ');
  sheet.font('bold', sheet.ticket ? 9 : 11);
  const height = sheet.textHeight(text, sheet.width - 8) + 6;
  sheet.doc
    .save()
    .lineWidth(1.2)
    .strokeColor(MARK_COLOUR)
    .rect(sheet.left, sheet.y, sheet.width, height)
    .stroke()
    .restore();
  sheet.doc.fillColor(MARK_COLOUR);
  sheet.write(text, sheet.left + 4, sheet.y + 3.5, sheet.width - 8, 'center');
  sheet.doc.fillColor('black');
  sheet.y += height + 6;
}

/** The issuer's trade name (when not its legal name) and address, under its name. */
function issuerLines(party: PrintedParty): string[] {
  return [party.tradeName && party.tradeName !== party.name ? party.tradeName : null, party.address ?? null].filter(
    (l): l is string => !!l,
  );
}

/** Logo and issuer on the left, the RUC/title/number box on the right (A4); stacked and centred on a ticket. */
function header(sheet: Sheet): void {
  const { doc, printed } = sheet;
  const issuer = printed.issuer;
  if (sheet.ticket) {
    if (sheet.options.logo) {
      const [w, h] = sheet.paper.logo;
      doc.image(sheet.options.logo, sheet.left + (sheet.width - w) / 2, sheet.y, {
        fit: [w, h],
        align: 'center',
        valign: 'center',
      });
      sheet.y += h + 4;
    }
    sheet.font('bold', 9);
    sheet.y += sheet.write(issuer.name, sheet.left, sheet.y, sheet.width, 'center');
    sheet.font('regular');
    for (const line of issuerLines(issuer)) sheet.y += sheet.write(line, sheet.left, sheet.y, sheet.width, 'center');
    sheet.y += 3;
    sheet.font('bold', 9);
    for (const line of [`RUC ${issuer.idNumber ?? ''}`, printed.title, printed.id])
      sheet.y += sheet.write(line, sheet.left, sheet.y, sheet.width, 'center');
    sheet.font('regular', 6.5);
    sheet.y += sheet.write(printed.heading, sheet.left, sheet.y + 2, sheet.width, 'center') + 6;
    sheet.rule();
    banner(sheet);
    return;
  }
  const top = sheet.y;
  const boxWidth = 190;
  const boxX = sheet.left + sheet.width - boxWidth;
  const x = sheet.left;
  const textWidth = sheet.width - boxWidth - 12;
  let y = top;
  if (sheet.options.logo) {
    const [w, h] = sheet.paper.logo;
    doc.image(sheet.options.logo, x, y, { fit: [w, h] });
    y += h + 4;
  }
  sheet.font('bold', 11);
  y += sheet.write(issuer.name, x, y, textWidth);
  sheet.font('regular', 8);
  for (const line of issuerLines(issuer)) y += sheet.write(line, x, y, textWidth);
  // The box: RUC, document title and number, as SUNAT's printed representations frame them.
  sheet.font('bold', 11);
  const lines = [`R.U.C. ${issuer.idNumber ?? ''}`, printed.title, printed.id];
  const boxHeight = lines.reduce((h, l) => h + sheet.textHeight(l, boxWidth - 12) + 3, 10);
  doc.save().lineWidth(1).strokeColor('black').roundedRect(boxX, top, boxWidth, boxHeight, 4).stroke().restore();
  let by = top + 6;
  for (const line of lines) by += sheet.write(line, boxX + 6, by, boxWidth - 12, 'center') + 3;
  sheet.y = Math.max(y, top + boxHeight) + 8;
  sheet.font('bold', 8);
  sheet.y += sheet.write(printed.heading, x, sheet.y, sheet.width, 'center') + 6;
  banner(sheet);
}
