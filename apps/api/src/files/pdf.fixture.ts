/**
 * A real one-page PDF, written object by object with its cross-reference table: a blue band
 * across the top of the page and a line of text in Helvetica (one of the standard fonts, which a
 * document need not embed). `pages` adds pages that say which one they are.
 */
export function makePdf(
  opts: { width?: number; height?: number; title?: string; pages?: number } = {},
): Buffer {
  const { width = 595, height = 842, title = 'Minutes of the meeting', pages = 1 } = opts;
  const pageIds = Array.from({ length: pages }, (_, index) => 4 + index * 2);
  const objects: string[] = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages} >>`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  for (let page = 0; page < pages; page++) {
    const content =
      page === 0
        ? `0.1 0.4 0.8 rg 0 ${height - 200} ${width} 200 re f\n` +
          `BT /F1 28 Tf 0 0 0 rg 40 ${height - 260} Td (${title}) Tj ET\n`
        : `BT /F1 28 Tf 0 0 0 rg 40 ${height - 80} Td (Page ${page + 1}) Tj ET\n`;
    objects.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} ${height}] ` +
        `/Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + page * 2} 0 R >>`,
      `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}endstream`,
    );
  }
  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) out += `${String(offset).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
