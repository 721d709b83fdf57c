import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { envLines } from '../../cli/commands/env';
import { welcomeLines } from '../../cli/commands/start';
import { runningInstanceFile, writeRecord } from '../../runtime/instance';
import { CHASQUI_BIN } from '../support/chasqui-process';
import { testConfig } from '../support/services';

/** `chasqui env`'s lines: URLs as comments, then exports a shell can eval, for whichever parts npm start ran itself. */
describe('chasqui env: the running instance as export lines', () => {
  const embedded = {
    pid: 4242,
    dataDir: "/srv/chasqui's data",
    api: 'http://127.0.0.1:3100',
    temporal: { address: '127.0.0.1:7300', ui: 'http://127.0.0.1:8300' },
    simulator: 'http://127.0.0.1:4100',
    postgresPort: 54400,
  };

  it('exports the port variables of every part npm start ran, and a shell takes them as they are', () => {
    const lines = envLines(embedded);
    expect(lines.filter((l) => l.startsWith('export '))).to.deep.equal([
      `export CHASQUI_DATA_DIR='/srv/chasqui'\\''s data'`,
      'export PORT=3100',
      'export TEMPORAL_PORT=7300',
      'export TEMPORAL_UI_PORT=8300',
      'export SIMULATOR_PORT=4100',
      'export CHASQUI_EMBEDDED_PG_PORT=54400',
    ]);
    expect(lines).to.include('#   consulta     http://127.0.0.1:3100/consulta');
    const script = `${lines.join('\n')}\nprintf '%s|%s|%s' "$CHASQUI_DATA_DIR" "$PORT" "$SIMULATOR_PORT"`;
    expect(execFileSync('sh', ['-c', script], { encoding: 'utf8' })).to.equal("/srv/chasqui's data|3100|4100");
  });

  it('an external Temporal is exported as TEMPORAL_ADDRESS; no simulator or embedded database, no variable for them', () => {
    const lines = envLines({
      ...embedded,
      dataDir: '/srv/chasqui',
      temporal: { address: 'temporal.internal:7233', ui: null },
      simulator: null,
      postgresPort: null,
    });
    expect(lines.filter((l) => l.startsWith('export '))).to.deep.equal([
      'export CHASQUI_DATA_DIR=/srv/chasqui',
      'export PORT=3100',
      'export TEMPORAL_ADDRESS=temporal.internal:7233',
    ]);
    expect(lines).to.include('#   database     DATABASE_URL');
  });

  it("npm start's banner gives another terminal a command that finds this instance, naming a data dir not the default", () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "chasqui's data "));
    try {
      writeRecord(runningInstanceFile(dataDir), { ...embedded, pid: process.pid, dataDir });
      const banner = (dir: string) =>
        welcomeLines(testConfig({ dataDir: dir }), embedded.api, embedded.temporal.ui, embedded.simulator);
      const line = banner(dataDir).find((l) => l.includes('another terminal'))!;
      const command = /eval "\$\((.*)\)"/.exec(line)![1];
      expect(command).to.equal(`CHASQUI_DATA_DIR='${dataDir.replace(/'/g, `'\\''`)}' npx chasqui env`);
      // Run as a fresh terminal would, elsewhere and without the first one's variables.
      const fresh: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn' };
      delete fresh.CHASQUI_DATA_DIR;
      delete fresh.PORT;
      const script = `eval "$(${command.replace('npx chasqui', `${process.execPath} ${CHASQUI_BIN}`)})"; printf '%s|%s' "$CHASQUI_DATA_DIR" "$PORT"`;
      expect(execFileSync('sh', ['-c', script], { env: fresh, cwd: os.tmpdir(), encoding: 'utf8' })).to.equal(
        `${dataDir}|3100`,
      );
      // The clone's default data dir: the short form the README shows.
      expect(banner(path.resolve('.data'))).to.include(
        `  another terminal:      eval "$(npx chasqui env)"   (this instance's ports and URLs), then`,
      );
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
