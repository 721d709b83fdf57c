import { expect } from 'chai';
import { crc32 } from 'node:zlib';
import { unzipSync, zipSync } from 'fflate';
import { decodeXml, unzipFiles, zipEntries, zipXml } from '../../authority/zip';

describe('authority zip', () => {
  it('writes a zip named like the XML that standard readers open, with correct CRCs and a folder entry', () => {
    const xml = '<Invoice>Año 2026 — ñandú</Invoice>'.repeat(20);
    const zip = zipEntries([{ name: 'dummy/' }, { name: 'R-20123456789-01-F001-1.xml', data: Buffer.from(xml) }]);
    const files = unzipSync(zip);
    expect(Object.keys(files)).to.deep.equal(['dummy/', 'R-20123456789-01-F001-1.xml']);
    expect(Buffer.from(files['R-20123456789-01-F001-1.xml']).toString()).to.equal(xml);
    // Second local header: after the 30-byte header and 6-byte name of dummy/; CRC at offset 14, sizes after it.
    const second = 30 + 'dummy/'.length;
    expect(zip.readUInt32LE(second)).to.equal(0x04034b50);
    expect(zip.readUInt32LE(second + 14)).to.equal(crc32(Buffer.from(xml)));
    expect(zip.readUInt32LE(second + 22)).to.equal(Buffer.byteLength(xml));
    expect(zip.readUInt32LE(second + 18)).to.be.lessThan(Buffer.byteLength(xml));
    const read = unzipFiles(zipXml('20123456789-01-F001-1', xml));
    expect(read.ok && read.entries.map((e) => [e.name, decodeXml(e.data)])).to.deep.equal([
      ['20123456789-01-F001-1.xml', xml],
    ]);
  });

  it('decodes ISO-8859-1 XML by its declaration and reports empty or corrupt zips', () => {
    const latin1 = Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><a>Año</a>', 'latin1');
    expect(decodeXml(latin1)).to.equal('<?xml version="1.0" encoding="ISO-8859-1"?><a>Año</a>');
    expect(unzipFiles(new Uint8Array())).to.deep.equal({ ok: false, reason: 'empty' });
    expect(unzipFiles(Buffer.from('definitely not a zip file'))).to.deep.equal({ ok: false, reason: 'corrupt' });
  });

  it("reads another writer's stored and deflated entries, and refuses damaged ones", () => {
    const xml = Buffer.from('<ApplicationResponse>ñandú</ApplicationResponse>'.repeat(50));
    // fflate's own zips: a stored entry, a deflated one (level 9) and a folder; names in UTF-8.
    const theirs = zipSync({
      'dummy/': new Uint8Array(),
      'R-1.xml': [xml, { level: 9 }],
      'año.txt': [Buffer.from('sin comprimir'), { level: 0 }],
    });
    const read = unzipFiles(theirs);
    expect(read.ok && read.entries.map((e) => [e.name, Buffer.from(e.data).toString()])).to.deep.equal([
      ['R-1.xml', xml.toString()],
      ['año.txt', 'sin comprimir'],
    ]);
    // A damaged entry (its compressed bytes cut short, its header intact) is refused, not read as something else.
    const ours = zipXml('R-2', xml.toString());
    const cut = Buffer.concat([ours.subarray(0, 40), ours.subarray(60)]);
    expect(unzipFiles(cut)).to.deep.equal({ ok: false, reason: 'corrupt' });
    // A declared size smaller than the entry inflates to (a zip bomb's trick) is refused.
    const lying = Buffer.from(ours);
    const central = lying.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
    lying.writeUInt32LE(10, central + 24);
    expect(unzipFiles(lying)).to.deep.equal({ ok: false, reason: 'corrupt' });
  });
});
