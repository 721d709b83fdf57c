import os from 'node:os';
import { parseArgs } from 'node:util';
import type { Db } from '../../db/knex';
import type { SecretBox } from '../../core/secretbox';
import { confirmed, EXIT, type Io } from '../support/bulk';
import {
  beginKeyRotation,
  columnName,
  listKeyRotations,
  recordKeyRotation,
  resealBatch,
  sealedCounts,
  SEALED_COLUMNS,
} from '../../db/sealed-secrets';

const USAGE = `usage:
  chasqui keys status [--json]
      how many stored secrets each master key seals, per kind, and the last rotations
  chasqui keys rotate [--dry-run] [--yes] [--batch N] [--operator NAME]
      re-seals every stored secret sealed with an older key under the current one
      (CHASQUI_MASTER_KEY), N per transaction (default 200); safe to stop or kill and run again;
      recorded in the audit (keys status)

The key ring: CHASQUI_MASTER_KEY is the current key (it seals); CHASQUI_MASTER_KEYS_OLD,
comma-separated, holds older keys still read. To rotate: deploy every api and worker with the new
key as CHASQUI_MASTER_KEY and the old one in CHASQUI_MASTER_KEYS_OLD, run \`chasqui keys rotate\`,
check \`chasqui keys status\` shows 0 for the old key, then remove it from CHASQUI_MASTER_KEYS_OLD.

examples:
  chasqui keys status
  chasqui keys rotate --dry-run
  chasqui keys rotate --yes --operator ana

exit codes: 0 done, 1 failed (or secrets sealed with a key this process lacks), 2 usage, 130 stopped
with Ctrl-C`;

class UsageError extends Error {}

/** `chasqui keys status|rotate`: returns the exit code. */
export async function keysCommand(
  argv: string[],
  given: { db: Db; secrets: SecretBox } | null,
  io: Io = process,
): Promise<number> {
  const [sub, ...rest] = argv;
  const deps = given!;
  try {
    if (sub === 'status') {
      const { values } = parseArgs({
        args: rest,
        options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      });
      if (values.help) return help(io);
      return await status(deps, !!values.json, io);
    }
    if (sub === 'rotate') {
      const { values } = parseArgs({
        args: rest,
        options: {
          'dry-run': { type: 'boolean' },
          yes: { type: 'boolean' },
          batch: { type: 'string' },
          operator: { type: 'string' },
          help: { type: 'boolean', short: 'h' },
        },
      });
      if (values.help) return help(io);
      const batch = values.batch === undefined ? 200 : Number(values.batch);
      if (!Number.isInteger(batch) || batch < 1) throw new UsageError('--batch must be a positive integer');
      return await rotate(
        deps,
        {
          dryRun: !!values['dry-run'],
          yes: !!values.yes,
          batch,
          operator: values.operator?.trim() || os.userInfo().username,
        },
        io,
      );
    }
    if (sub === '--help' || sub === '-h' || sub === 'help') return help(io);
    throw new UsageError(sub ? `unknown subcommand '${sub}'` : 'a subcommand is required');
  } catch (err) {
    if (!(err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS'))) throw err;
    io.stderr.write(`chasqui keys: ${(err as Error).message}\n\n${USAGE}\n`);
    return EXIT.usage;
  }
}

function help(io: Io): number {
  io.stdout.write(`${USAGE}\n`);
  return EXIT.done;
}

interface KeySummary {
  id: string;
  /** current: seals; older: read only (CHASQUI_MASTER_KEYS_OLD); missing: not in this process's ring. */
  role: 'current' | 'older' | 'missing';
  secrets: number;
  by_kind: Record<string, number>;
}

async function summary(deps: { db: Db; secrets: SecretBox }): Promise<KeySummary[]> {
  const keys = new Map<string, KeySummary>();
  const role = (id: string): KeySummary['role'] =>
    id === deps.secrets.keyId ? 'current' : deps.secrets.keyIds.includes(id) ? 'older' : 'missing';
  for (const id of deps.secrets.keyIds) keys.set(id, { id, role: role(id), secrets: 0, by_kind: {} });
  for (const { entry, keyId, count } of await sealedCounts(deps.db)) {
    const key = keys.get(keyId) ?? { id: keyId, role: role(keyId), secrets: 0, by_kind: {} };
    key.secrets += count;
    key.by_kind[columnName(entry)] = (key.by_kind[columnName(entry)] ?? 0) + count;
    keys.set(keyId, key);
  }
  return [...keys.values()];
}

async function status(deps: { db: Db; secrets: SecretBox }, json: boolean, io: Io): Promise<number> {
  const keys = await summary(deps);
  const rotations = await listKeyRotations(deps.db);
  if (json) {
    io.stdout.write(`${JSON.stringify({ current: deps.secrets.keyId, keys, rotations })}\n`);
    return EXIT.done;
  }
  const what = Object.fromEntries(SEALED_COLUMNS.map((e) => [columnName(e), e.what]));
  const lines = ['key       secrets  role'];
  for (const k of keys) {
    const role =
      k.role === 'current'
        ? 'current (CHASQUI_MASTER_KEY)'
        : k.role === 'older'
          ? 'older (CHASQUI_MASTER_KEYS_OLD)'
          : 'MISSING: not in this process, these cannot be opened';
    lines.push(`${k.id}  ${String(k.secrets).padStart(7)}  ${role}`);
    for (const [column, count] of Object.entries(k.by_kind))
      lines.push(`            ${String(count).padStart(5)}  ${what[column]} (${column})`);
  }
  lines.push('', ...advice(keys));
  if (rotations.length) {
    lines.push('', 'last rotations:');
    for (const r of rotations) {
      lines.push(
        `  #${r.id} ${r.started_at.toISOString()} by ${r.operator} → ${r.to_key_id}: ${r.status}, ${r.resealed} re-sealed${r.detail ? ` (${r.detail})` : ''}`,
      );
    }
  }
  io.stdout.write(`${lines.join('\n')}\n`);
  return EXIT.done;
}

function advice(keys: KeySummary[]): string[] {
  const pending = keys.filter((k) => k.role !== 'current' && k.secrets > 0);
  const idle = keys.filter((k) => k.role === 'older' && k.secrets === 0);
  const out: string[] = [];
  const missing = keys.filter((k) => k.role === 'missing');
  if (missing.length)
    out.push(
      `${missing.map((k) => k.id).join(', ')} seal secrets this process cannot open: add the key(s) to CHASQUI_MASTER_KEYS_OLD`,
    );
  if (pending.length)
    out.push(
      `${pending.reduce((n, k) => n + k.secrets, 0)} secrets are sealed with older keys: run chasqui keys rotate`,
    );
  else out.push('every stored secret is sealed with the current key');
  if (idle.length)
    out.push(
      `${idle.map((k) => k.id).join(', ')} seal nothing: remove them from CHASQUI_MASTER_KEYS_OLD once every api and worker runs with the current key`,
    );
  return out;
}

async function rotate(
  deps: { db: Db; secrets: SecretBox },
  o: { dryRun: boolean; yes: boolean; batch: number; operator: string },
  io: Io,
): Promise<number> {
  const keys = await summary(deps);
  const missing = keys.filter((k) => k.role === 'missing');
  if (missing.length) {
    io.stderr.write(
      `chasqui keys: ${missing.map((k) => `${k.secrets} secrets are sealed with key ${k.id}`).join(', ')}, which this process does not have: ` +
        'add the key to CHASQUI_MASTER_KEYS_OLD and run again (nothing was changed)\n',
    );
    return EXIT.failed;
  }
  const pending = keys.filter((k) => k.role === 'older' && k.secrets > 0);
  const total = pending.reduce((n, k) => n + k.secrets, 0);
  if (total === 0) {
    io.stdout.write(`nothing to re-seal: every stored secret is sealed with the current key ${deps.secrets.keyId}\n`);
    return EXIT.done;
  }
  const plan = [`re-seal ${total} secrets under ${deps.secrets.keyId}, ${o.batch} per transaction:`];
  for (const k of pending)
    plan.push(
      `  from ${k.id}: ${Object.entries(k.by_kind)
        .map(([c, n]) => `${n} ${c}`)
        .join(', ')}`,
    );
  io.stderr.write(`${plan.join('\n')}\n`);
  if (o.dryRun) {
    io.stdout.write('dry run: nothing was changed\n');
    return EXIT.done;
  }
  if (!o.yes) {
    const declined = await confirmed(
      io,
      `re-seal ${total} secrets as ${o.operator}`,
      `add --yes to re-seal ${total} secrets, or --dry-run to only see the plan`,
    );
    if (declined !== null) return declined;
  }

  const fromKeys = Object.fromEntries(pending.map((k) => [k.id, k.secrets]));
  const { id, interrupted } = await beginKeyRotation(deps.db, {
    operator: o.operator,
    toKeyId: deps.secrets.keyId,
    fromKeys,
  });
  for (const r of interrupted)
    io.stderr.write(
      `rotation #${r.id} (${r.operator}) was stopped after ${r.resealed} re-sealed; carrying on from where it stopped\n`,
    );
  let stop = false;
  const onSigint = () => {
    if (stop) process.exit(EXIT.interrupted);
    stop = true;
    io.stderr.write('\nstopping after the batch in flight (Ctrl-C again to quit at once)\n');
  };
  process.on('SIGINT', onSigint);
  let resealed = 0;
  let shownAt = Date.now();
  try {
    for (const entry of SEALED_COLUMNS) {
      for (let n = -1; n !== 0 && !stop;) {
        n = await resealBatch(deps.db, deps.secrets, entry, o.batch);
        resealed += n;
        await recordKeyRotation(deps.db, id, { resealed });
        if (Date.now() - shownAt > 2_000) {
          io.stderr.write(`re-sealed ${resealed} of ${total} (${columnName(entry)})\n`);
          shownAt = Date.now();
        }
      }
    }
  } catch (err) {
    await recordKeyRotation(deps.db, id, { resealed, status: 'failed', detail: (err as Error).message });
    io.stderr.write(
      `chasqui keys: re-sealing failed after ${resealed}: ${(err as Error).message}; what was re-sealed stays so, run again to carry on\n`,
    );
    return EXIT.failed;
  } finally {
    process.off('SIGINT', onSigint);
  }
  if (stop) {
    await recordKeyRotation(deps.db, id, { resealed, status: 'interrupted', detail: 'stopped with Ctrl-C' });
    io.stderr.write(`stopped after re-sealing ${resealed} of ${total}; continue with: chasqui keys rotate --yes\n`);
    return EXIT.interrupted;
  }
  // A process still sealing with an older key (not yet restarted with the new one) may have written some meanwhile.
  const left = (await summary(deps)).filter((k) => k.role !== 'current' && k.secrets > 0);
  const detail = left.length
    ? `${left.map((k) => `${k.secrets} sealed with ${k.id} meanwhile`).join(', ')}: restart every process with the new key and run again`
    : undefined;
  await recordKeyRotation(deps.db, id, { resealed, status: 'done', detail });
  io.stdout.write(`re-sealed ${resealed} secrets under ${deps.secrets.keyId} (rotation #${id})\n`);
  io.stdout.write(`${advice(await summary(deps)).join('\n')}\n`);
  return EXIT.done;
}
