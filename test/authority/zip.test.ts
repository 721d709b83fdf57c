import { expect } from 'chai';
import { crc32 } from 'node:zlib';
import { unzipSync } from 'fflate';
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
    expect(read.ok && read.entries.map((e) => [e.name, decodeXml(e.data)])).to.deep.equal([['20123456789-01-F001-1.xml', xml]]);
  });

  it('decodes ISO-8859-1 XML by its declaration and reports empty or corrupt zips', () => {
    const latin1 = Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><a>Año</a>', 'latin1');
    expect(decodeXml(latin1)).to.equal('<?xml version="1.0" encoding="ISO-8859-1"?><a>Año</a>');
    expect(unzipFiles(new Uint8Array())).to.deep.equal({ ok: false, reason: 'empty' });
    expect(unzipFiles(Buffer.from('definitely not a zip file'))).to.deep.equal({ ok: false, reason: 'corrupt' });
  });
});
