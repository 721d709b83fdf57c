import { expect } from 'chai';
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { COMMAND_HELP } from '../../cli/support';
import { TERMINAL_WIDTH } from '../../cli/text';
import { CHASQUI_BIN } from '../support/chasqui-process';

/** `chasqui --help` is where a newcomer starts: every command in a terminal's width, every support subcommand named. */
describe('chasqui --help', function () {
  // Each test spawns chasqui a dozen times: seconds each on a busy machine.
  this.timeout(180_000);
  const run = spawnSync(process.execPath, [CHASQUI_BIN, '--help'], { encoding: 'utf8' });
  const lines = run.stdout.trimEnd().split('\n');
  /** A command's summary: its line and the ones wrapped under it. */
  const summary = (command: string) => {
    const from = lines.findIndex((l) => l.startsWith(`  ${command} `));
    const to = lines.findIndex((l, i) => i > from && /^ {2}\S/.test(l));
    return lines
      .slice(from, to === -1 ? undefined : to)
      .map((l) => l.trim())
      .join(' ');
  };

  it('fits 100 columns, wrapping each summary under itself', () => {
    expect(run.status, run.stderr).to.equal(0);
    expect(lines.filter((l) => l.length > TERMINAL_WIDTH)).to.deep.equal([]);
    expect(summary('migrate')).to.equal(
      'migrate       apply database migrations (DATABASE_URL, else the running embedded one) and exit',
    );
  });

  it('lists every chasqui support subcommand, and env', () => {
    for (const command of Object.keys(COMMAND_HELP))
      expect(summary('support'), command).to.match(new RegExp(`\\b${command}\\b`));
    expect(summary('env')).to.match(/^env\s+\[--json\]: .*eval "\$\(npx chasqui env\)"/);
  });

  it("every command's --help fits 100 columns (temporal's is Temporal's own)", async () => {
    const commands = lines.filter((l) => /^ {2}\S/.test(l)).map((l) => l.trim().split(/\s/)[0]);
    expect(commands).to.include.members(['start', 'accounts', 'keys', 'files', 'validate', 'simulator', 'env']);
    const helps = await Promise.all(
      commands
        .filter((c) => c !== 'temporal')
        .map(
          (command) =>
            new Promise<[string, string]>((resolve) =>
              execFile(
                process.execPath,
                [CHASQUI_BIN, command, '--help'],
                { env: { ...process.env, LOG_LEVEL: 'warn' } },
                (_err, stdout, stderr) => resolve([command, `${stdout}${stderr}`]),
              ),
            ),
        ),
    );
    for (const [command, text] of helps) {
      expect(text, command).to.match(/usage:\s+chasqui/);
      expect(
        text.split('\n').filter((l) => l.length > TERMINAL_WIDTH),
        command,
      ).to.deep.equal([]);
    }
  });

  it("chasqui support --help and each subcommand's help fit 100 columns too", () => {
    const support = spawnSync(process.execPath, [CHASQUI_BIN, 'support', '--help'], { encoding: 'utf8' });
    expect(support.status, support.stderr).to.equal(0);
    const texts: Record<string, string> = { support: support.stdout, ...COMMAND_HELP };
    for (const [command, text] of Object.entries(texts))
      expect(
        text.split('\n').filter((l) => l.length > TERMINAL_WIDTH),
        command,
      ).to.deep.equal([]);
  });

  it("a database command's help and usage errors answer with no chasqui running, opening no database", () => {
    // A newcomer's first terminal: no npm start for this data dir, no DATABASE_URL.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'chasqui-help-'));
    const env: NodeJS.ProcessEnv = { ...process.env, CHASQUI_DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
    delete env.DATABASE_URL;
    const chasqui = (args: string[]) => spawnSync(process.execPath, [CHASQUI_BIN, ...args], { env, encoding: 'utf8' });
    try {
      for (const args of [
        ['accounts', '--help'],
        ['accounts', 'create', '--help'],
        ['certificates', '--help'],
        ['keys', '--help'],
        ['files', 'migrate', '--help'],
        ['support', '--help'],
        ['start', '--help'],
        ['api', '--help'],
        ['worker', '-h'],
        ['migrate', '--help'],
      ]) {
        const run = chasqui(args);
        expect(run.stderr, args.join(' ')).to.equal('');
        expect(run.status, args.join(' ')).to.equal(0);
        expect(run.stdout, args.join(' ')).to.match(new RegExp(`chasqui ${args[0]}\\b`));
      }
      for (const args of [['accounts'], ['certificates', 'revoke']]) {
        const run = chasqui(args);
        expect(run.status, args.join(' ')).to.equal(2);
        expect(run.stderr, args.join(' ')).to.match(/^(missing|unknown) \w+ command/);
        expect(run.stderr, args.join(' ')).to.not.match(/database|PostgreSQL/);
      }
      // start takes its settings from the environment: an argument starts nothing.
      const port = chasqui(['start', '--port', '3001']);
      expect(port.status).to.equal(2);
      expect(port.stderr).to.match(/^chasqui start: unknown argument '--port'\n\nusage: chasqui start\n/);
      expect(fs.readdirSync(dataDir), 'start --help and start --port made nothing').to.deep.equal([]);
      // A subcommand does open one, and says there is none for this data dir.
      const create = chasqui(['accounts', 'create', '--name', 'x']);
      expect(create.status).to.equal(1);
      expect(create.stderr).to.contain(`no embedded PostgreSQL recorded (no ${dataDir}/postgres.json)`);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
