import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import got from 'got';
import { unzipSync, strFromU8 } from 'fflate';
import { zipXml } from '../../authority/zip';
import { closedPortUrl, sample } from '../authority/support';
import { invoice } from '../support/ubl-fixtures';
import { limaDate } from '../../core/lima';
import { RUC, sign } from './support';

const ROOT = path.resolve(__dirname, '../..');

describe('chasqui simulator command', () => {
  it('answers a real SOAP sendBill envelope with a CDR a person can unzip and read, and stops on SIGTERM', async () => {
    const port = Number(new URL(await closedPortUrl()).port);
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'chasqui-sim-cli-'));
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '-e',
        "require('./cli/commands/simulator').simulatorCommand(process.argv.slice(1)).then((c) => process.exit(c))",
        '--',
        '--port',
        String(port),
        '--data-dir',
        dataDir,
      ],
      { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'silent' }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('SUNAT simulator on') && resolve());
        child.once('exit', (code) => reject(new Error(`simulator exited early with ${code}`)));
      });
      // Dated today: the command applies SUNAT's sending window (2108) by default.
      const doc = sign(invoice({ ruc: RUC, series: 'F001', number: 1, issueDate: limaDate(new Date()) }));
      const envelope = sample('soap/request-template-send_bill.xml')
        .replace('{{username}}', `${RUC}MODDATOS`)
        .replace('{{password}}', 'moddatos')
        .replace('{{body.filename}}', `${doc.filename}.zip`)
        .replace('{{body.file_content}}', zipXml(doc.filename, doc.xml).toString('base64'));
      const res = await got.post(`http://127.0.0.1:${port}/ol-ti-itcpfegem-beta/billService`, {
        body: envelope,
        headers: { 'content-type': 'text/xml' },
      });
      const base64 = /<applicationResponse>([^<]+)<\/applicationResponse>/.exec(res.body)![1];
      const files = unzipSync(Buffer.from(base64, 'base64'));
      const cdr = strFromU8(files[`R-${doc.filename}.xml`]);
      expect(cdr).to.contain('<cbc:ResponseCode>0</cbc:ResponseCode>');
      expect(cdr).to.contain('<cbc:Description>La Factura numero F001-1, ha sido aceptada</cbc:Description>');
      expect(cdr)
        .to.contain('<Signature xmlns="http://www.w3.org/2000/09/xmldsig#">')
        .and.to.contain('<SignatureValue>');
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).to.equal(0);
    } finally {
      child.kill('SIGKILL');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
