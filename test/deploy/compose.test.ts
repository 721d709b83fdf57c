import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(__dirname, '../..');

function composeCommand(): string[] | null {
  for (const candidate of [['docker', 'compose'], ['docker-compose']]) {
    try {
      execFileSync(candidate[0], [...candidate.slice(1), 'version'], { stdio: 'ignore' });
      return candidate;
    } catch {
      // try the next one
    }
  }
  return null;
}

describe('docker-compose.yml', () => {
  it('parses with docker compose and wires api and worker to their own PostgreSQL and Temporal', function () {
    const compose = composeCommand();
    if (!compose) {
      if (process.env.CI) throw new Error('docker compose is not installed; .ci/run installs docker-compose');
      this.skip();
    }
    const out = execFileSync(compose[0], [...compose.slice(1), 'config'], {
      cwd: root,
      env: { ...process.env, CHASQUI_MASTER_KEY: 'x'.repeat(44) },
      encoding: 'utf8',
    });
    for (const service of ['app-db', 'temporal-db', 'temporal-schema', 'temporal', 'temporal-namespace', 'temporal-ui', 'migrate', 'api', 'worker']) {
      expect(out).to.match(new RegExp(`^  ${service}:$`, 'm'));
    }
    expect(out).to.contain('TEMPORAL_ADDRESS: temporal:7233');
    expect(out).to.contain('DATABASE_URL: postgres://chasqui:chasqui@app-db:5432/chasqui');
  });

  it('refuses to render without a master key, so no deployment runs with secrets unencrypted', function () {
    const compose = composeCommand();
    if (!compose) this.skip();
    const env = { ...process.env };
    delete env.CHASQUI_MASTER_KEY;
    expect(() => execFileSync(compose![0], [...compose!.slice(1), 'config', '-q'], { cwd: root, env, stdio: 'pipe' })).to.throw();
  });
});

describe('compose: Prometheus and the namespace job', () => {
  const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

  it('runs a Prometheus that scrapes the api and the worker with the alert rules', () => {
    expect(read('docker-compose.yml')).to.match(/^ {2}prometheus:$/m);
    const config = read('deploy/prometheus/prometheus.yml');
    expect(config).to.include('api:3000').and.to.include('worker:9464').and.to.include('alerts.yml');
    for (const alert of ['ChasquiDocumentsStuckOverOneHour', 'ChasquiRejectionRateHigh', 'ChasquiAuthorityDown', 'ChasquiWorkflowStartsFailing']) expect(read('deploy/prometheus/alerts.yml')).to.include(alert);
  });
});
