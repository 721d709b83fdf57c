import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../core/config';
import { formPage } from '../../api/consulta/page';
import { sendingSolUser } from '../../activities/document-routing';
import type { CompanyRow } from '../../db/companies';
import type { ActivityDeps } from '../../activities/deps';

const ROOT = path.resolve(__dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const NUMBERS: Record<string, number> = { four: 4, five: 5, six: 6, seven: 7 };

/**
 * What a newcomer reads first says what the code does (issue 34: README examples hard-coded ports, a variable listed
 * twice, "five facts" over a list of six, the demo user's check unexplained).
 */
describe('the docs a newcomer reads', () => {
  it("README's shell examples reach a moved port: every local address is ${VAR:-default}, with chasqui's default", () => {
    const defaults = loadConfig({});
    const variables: Record<string, number> = {
      PORT: defaults.port,
      SIMULATOR_PORT: defaults.simulatorPort,
      TEMPORAL_UI_PORT: defaults.temporal.uiPort,
    };
    const readme = read('README.md');
    const shell = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]).join('\n');
    // Commands quoted in the text (`curl -s localhost:…`) run in the same terminal.
    const quoted = [...readme.matchAll(/`(curl [^`]*)`/g)].map((m) => m[1]).join('\n');
    const addresses = [...`${shell}\n${quoted}`.matchAll(/(?:localhost|127\.0\.0\.1):(\S+?)(?=[/\s'"]|$)/g)];
    expect(addresses.length, 'the examples call the API and the simulator').to.be.at.least(10);
    for (const [address, port] of addresses) {
      const moved = /^\$\{(\w+):-(\d+)\}$/.exec(port);
      expect(moved, `${address} hard-codes its port`).to.not.equal(null);
      expect(variables, address).to.have.property(moved![1], Number(moved![2]));
    }
  });

  it('docs/configuration.md lists each variable once', () => {
    const rows = [...read('docs/configuration.md').matchAll(/^\| `([A-Z][A-Z0-9_]+)` \|/gm)].map((m) => m[1]);
    expect(rows).to.include('CHASQUI_PUBLIC_URL');
    expect(rows.filter((name, i) => rows.indexOf(name) !== i)).to.deep.equal([]);
  });

  it('docs/configuration.md and buyers.md say CHASQUI_SMTP_URL needs a restart of the worker', () => {
    const row = /^\| `CHASQUI_SMTP_URL` \|.*$/m.exec(read('docs/configuration.md'))![0];
    expect(row).to.match(/Read at start: set or change it, then restart the worker/);
    expect(read('docs/buyers.md')).to.match(
      /`CHASQUI_SMTP_URL` and `CHASQUI_MAIL_FROM` are read when the worker\s+starts: set them, then\s+restart it/,
    );
  });

  it("docs/buyers.md's count of the printed facts is the number it lists and the form's fields", () => {
    const [, word, list] = /with the (\w+) facts printed on every document: ([^.]*)\./.exec(read('docs/buyers.md'))!;
    const listed = list.split(',').map((s) => s.trim());
    const fields = [...formPage('').matchAll(/<(?:input|select) name="(\w+)"/g)].map((m) => m[1]);
    expect(fields).to.deep.equal(['ruc', 'tipo', 'serie', 'numero', 'fecha', 'total']);
    expect(listed).to.have.length(fields.length);
    expect(NUMBERS[word], word).to.equal(fields.length);
  });

  it("docs/operations.md: a demo company without a SOL user reads ok with SUNAT beta's user, and says why", () => {
    const row = /^\| `sol_credentials` \|.*$/m.exec(read('docs/operations.md'))![0];
    const company = { sol_user: null, sol_password_sealed: null, sol_secondary_user: null } as unknown as CompanyRow;
    const secrets = {} as ActivityDeps['secrets'];
    // The check asks with the user documents are sent with: in demo, SUNAT beta's public one.
    const demo = sendingSolUser(company, '01', false, secrets)!;
    expect(row).to.contain(
      `A demo company (environment 01) that loaded none sends with SUNAT beta's public test user, so it reads ok — ` +
        `SUNAT accepted SOL user ${demo.solUser}`,
    );
    // Anywhere else none is loaded: unknown, with the PATCH to make.
    expect(sendingSolUser(company, '02', false, secrets)).to.equal(null);
    expect(row).to.contain('unknown: no SOL user loaded (the PATCH to make)');
  });

  it('.ci/run takes nothing from apt but python3-venv: the browser comes with npm ci', () => {
    const code = read('.ci/run')
      .split('\n')
      .filter((l) => l.trim() && !l.trim().startsWith('#'));
    const installs = code.filter((l) => /^\s*apt_install /.test(l)).map((l) => l.trim());
    expect(installs).to.deep.equal(['apt_install python3 python3-venv']);
    expect(code.filter((l) => /chrom|apt-get install/i.test(l) && !l.startsWith('apt_install()'))).to.deep.equal([]);
    const pkg = JSON.parse(read('package.json')) as { devDependencies: Record<string, string> };
    expect(pkg.devDependencies).to.have.property('@sparticuz/chromium');
  });
});
