import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { envLines } from '../../cli/commands/env';

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
});
