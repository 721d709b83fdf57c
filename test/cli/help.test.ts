import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import { COMMAND_HELP } from '../../cli/support';
import { TERMINAL_WIDTH } from '../../cli/text';
import { CHASQUI_BIN } from '../support/chasqui-process';

/** `chasqui --help` is where a newcomer starts: every command in a terminal's width, every support subcommand named. */
describe('chasqui --help', () => {
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
});
