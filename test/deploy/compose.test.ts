import { expect } from 'chai';
import Ajv from 'ajv';
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

const root = path.resolve(__dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

/**
 * The Compose Specification's JSON schema, copied byte for byte from github.com/compose-spec/compose-spec
 * (schema/compose-spec.json at commit 00655e2222608fa6eaecdf12ac5195889ca2244a): what `docker compose config` checks a
 * file against, without needing docker on the machine.
 */
const SCHEMA = JSON.parse(read('test/fixtures/compose-spec.json')) as Record<string, unknown>;
// The schema names draft-07 by its https address, which Ajv does not know by that name: its own draft-07 meta-schema
// applies all the same.
const validate = new Ajv({ allErrors: true, strict: false, validateSchema: false }).compile(SCHEMA);

type Env = Record<string, string | undefined>;

/**
 * Compose's interpolation (compose-spec, "Interpolation"): $$, $VAR, ${VAR}, ${VAR:-default}, ${VAR-default},
 * ${VAR:?error}, ${VAR?error}, ${VAR:+replacement}, ${VAR+replacement}; an unmet `?` fails as compose does.
 */
function interpolate(value: string, env: Env): string {
  return value.replace(
    /\$(?:(\$)|\{([A-Za-z_]\w*)(?:(:?[-?+])([^}]*))?\}|([A-Za-z_]\w*))/g,
    (_m, dollar, name, op, arg, bare) => {
      if (dollar) return '$';
      const current = env[name ?? bare];
      const set = current !== undefined;
      const nonEmpty = set && current !== '';
      switch (op) {
        case ':-':
          return nonEmpty ? current! : arg;
        case '-':
          return set ? current! : arg;
        case ':?':
        case '?':
          if (op === ':?' ? nonEmpty : set) return current!;
          throw new Error(`required variable ${name} is missing a value: ${arg}`);
        case ':+':
          return nonEmpty ? arg : '';
        case '+':
          return set ? arg : '';
        default:
          return current ?? '';
      }
    },
  );
}

function interpolateAll(node: unknown, env: Env): unknown {
  if (typeof node === 'string') return interpolate(node, env);
  if (Array.isArray(node)) return node.map((item) => interpolateAll(item, env));
  if (node && typeof node === 'object')
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, interpolateAll(v, env)]));
  return node;
}

type Service = {
  environment?: Record<string, string>;
  depends_on?: Record<string, unknown> | string[];
  volumes?: (string | { type: string; source?: string })[];
  build?: string;
};
type Compose = { services: Record<string, Service>; volumes?: Record<string, unknown> };

/** docker-compose.yml as compose reads it: YAML with anchors and `<<` merges, then interpolated from `env`. */
function loadCompose(env: Env, text = read('docker-compose.yml')): Compose {
  return interpolateAll(parse(text, { merge: true }), env) as Compose;
}

const MASTER_KEY = 'x'.repeat(44);

describe('docker-compose.yml', () => {
  it('conforms to the Compose Specification and wires api and worker to their own PostgreSQL and Temporal', () => {
    const compose = loadCompose({ CHASQUI_MASTER_KEY: MASTER_KEY });
    expect(validate(compose), JSON.stringify(validate.errors, null, 1)).to.equal(true);
    for (const service of [
      'app-db',
      'temporal-db',
      'temporal-schema',
      'temporal',
      'temporal-namespace',
      'temporal-ui',
      'migrate',
      'api',
      'worker',
    ]) {
      expect(compose.services, service).to.have.property(service);
    }
    for (const service of ['migrate', 'api', 'worker']) {
      expect(compose.services[service].environment, service).to.include({
        TEMPORAL_ADDRESS: 'temporal:7233',
        DATABASE_URL: 'postgres://chasqui:chasqui@app-db:5432/chasqui',
        CHASQUI_MASTER_KEY: MASTER_KEY,
      });
    }
  });

  it('refers only to what it defines: services it depends on, named volumes, bind-mounted files and the build context', () => {
    const compose = loadCompose({ CHASQUI_MASTER_KEY: MASTER_KEY });
    for (const [name, service] of Object.entries(compose.services)) {
      const needs = Array.isArray(service.depends_on) ? service.depends_on : Object.keys(service.depends_on ?? {});
      for (const other of needs) expect(compose.services, `${name} depends on ${other}`).to.have.property(other);
      for (const volume of service.volumes ?? []) {
        const source = typeof volume === 'string' ? volume.split(':')[0] : (volume.source ?? '');
        if (source.startsWith('./'))
          expect(fs.existsSync(path.join(root, source)), `${name} mounts ${source}`).to.equal(true);
        else expect(compose.volumes ?? {}, `${name} mounts volume ${source}`).to.have.property(source);
      }
      if (service.build)
        expect(fs.existsSync(path.join(root, service.build, 'Dockerfile')), `${name} builds ${service.build}`).to.equal(
          true,
        );
    }
  });

  it('the schema check has teeth: a misspelt key or a wrong depends_on condition is refused', () => {
    const misspelt = read('docker-compose.yml').replace(
      '    restart: unless-stopped',
      '    restart_policy: unless-stopped',
    );
    expect(validate(loadCompose({ CHASQUI_MASTER_KEY: MASTER_KEY }, misspelt))).to.equal(false);
    const condition = read('docker-compose.yml').replace('condition: service_healthy', 'condition: healthy');
    expect(validate(loadCompose({ CHASQUI_MASTER_KEY: MASTER_KEY }, condition))).to.equal(false);
  });

  it('refuses to render without a master key, so no deployment runs with secrets unencrypted', () => {
    expect(() => loadCompose({})).to.throw('set CHASQUI_MASTER_KEY');
    expect(() => loadCompose({ CHASQUI_MASTER_KEY: '' })).to.throw('set CHASQUI_MASTER_KEY');
  });
});

describe('compose: Prometheus and the namespace job', () => {
  it('runs a Prometheus that scrapes the api and the worker with the alert rules', () => {
    expect(read('docker-compose.yml')).to.match(/^ {2}prometheus:$/m);
    const config = read('deploy/prometheus/prometheus.yml');
    expect(config).to.include('api:3000').and.to.include('worker:9464').and.to.include('alerts.yml');
    for (const alert of [
      'ChasquiDocumentsStuckOverOneHour',
      'ChasquiRejectionRateHigh',
      'ChasquiAuthorityDown',
      'ChasquiWorkflowStartsFailing',
    ])
      expect(read('deploy/prometheus/alerts.yml')).to.include(alert);
  });
});
