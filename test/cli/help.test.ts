import { expect } from 'chai';
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { COMMAND_HELP } from '../../cli/support';
import { TERMINAL_WIDTH } from '../../cli/text';
import { CHASQUI_BIN } from '../support/chasqui-process';

/** chasqui as a separate process, awaited, so several run side by side (each start costs seconds on a busy machine). */
function chasqui(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile(process.execPath, [CHASQUI_BIN, ...args], { env, encoding: 'utf8' }, (err, stdout, stderr) =>
      resolve({ status: err ? (typeof err.code === 'number' ? err.code : null) : 0, stdout, stderr }),
    ),
  );
}

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
    const env = { ...process.env, LOG_LEVEL: 'warn' };
    const helps = await Promise.all(
      commands
        .filter((c) => c !== 'temporal')
        .map(async (command) => {
          const run = await chasqui([command, '--help'], env);
          return [command, `${run.stdout}${run.stderr}`];
        }),
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

  it("a database command's help and usage errors answer with no chasqui running, opening no database", async () => {
    // A newcomer's first terminal: no npm start for this data dir, no DATABASE_URL.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'chasqui-help-'));
    const env: NodeJS.ProcessEnv = { ...process.env, CHASQUI_DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
    delete env.DATABASE_URL;
    const helpArgs = [
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
    ];
    const usageArgs = [['accounts'], ['certificates', 'revoke']];
    try {
      // None of these opens anything (the test's point), so they run side by side.
      const [helps, usages, port] = await Promise.all([
        Promise.all(helpArgs.map((args) => chasqui(args, env))),
        Promise.all(usageArgs.map((args) => chasqui(args, env))),
        // start takes its settings from the environment: an argument starts nothing.
        chasqui(['start', '--port', '3001'], env),
      ]);
      helpArgs.forEach((args, i) => {
        expect(helps[i].stderr, args.join(' ')).to.equal('');
        expect(helps[i].status, args.join(' ')).to.equal(0);
        expect(helps[i].stdout, args.join(' ')).to.match(new RegExp(`chasqui ${args[0]}\\b`));
      });
      usageArgs.forEach((args, i) => {
        expect(usages[i].status, args.join(' ')).to.equal(2);
        expect(usages[i].stderr, args.join(' ')).to.match(/^(missing|unknown) \w+ command/);
        expect(usages[i].stderr, args.join(' ')).to.not.match(/database|PostgreSQL/);
      });
      expect(port.status).to.equal(2);
      expect(port.stderr).to.match(/^chasqui start: unknown argument '--port'\n\nusage: chasqui start\n/);
      expect(fs.readdirSync(dataDir), 'start --help and start --port made nothing').to.deep.equal([]);
      // A subcommand does open one, and says there is none for this data dir.
      const create = await chasqui(['accounts', 'create', '--name', 'x'], env);
      expect(create.status).to.equal(1);
      expect(create.stderr).to.contain(`no embedded PostgreSQL recorded (no ${dataDir}/postgres.json)`);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
