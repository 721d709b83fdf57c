/** Where the files of documents are kept (CHASQUI_FILES_URL): the row itself, a directory or an S3 bucket. */
import path from 'node:path';
import { ConfigError, str } from '../core/env-values';

/** A file store's place: `postgres:` (the document's row), `file:///dir`, or `s3://bucket/prefix`. */
export type FilesLocation =
  | { kind: 'postgres' }
  | { kind: 'directory'; path: string }
  | { kind: 's3'; bucket: string; prefix: string; endpoint: string | null; region: string | null };

/** The S3 settings beside CHASQUI_FILES_URL (credentials stay with the AWS SDK's own chain). */
export function s3SettingsOf(env: NodeJS.ProcessEnv): { endpoint: string | null; region: string | null } {
  return {
    endpoint: str(env, 'CHASQUI_S3_ENDPOINT'),
    region: str(env, 'AWS_REGION') ?? str(env, 'AWS_DEFAULT_REGION'),
  };
}

/**
 * CHASQUI_FILES_URL (or `chasqui files migrate --to`) read into fields: nothing of the URL reaches a library as it is.
 * `s3.endpoint` is CHASQUI_S3_ENDPOINT, an S3-compatible server's address (path-style addressing; null for AWS itself),
 * `s3.region` AWS_REGION (or AWS_DEFAULT_REGION).
 */
export function parseFilesUrl(
  raw: string,
  s3: { endpoint: string | null; region: string | null },
  name = 'CHASQUI_FILES_URL',
): FilesLocation {
  const { endpoint, region } = s3;
  const usage = `${name} must be postgres:, file:///absolute/dir or s3://bucket[/prefix], got '${raw}'`;
  if (raw === 'postgres:' || raw === 'postgres://') return { kind: 'postgres' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(usage);
  }
  if (url.search || url.hash || url.username || url.password)
    throw new ConfigError(`${usage} (no query, fragment or credentials: the standard AWS variables carry those)`);
  if (url.protocol === 'file:' && !url.host && url.pathname.length > 1)
    return { kind: 'directory', path: path.resolve(decodeURIComponent(url.pathname)) };
  if (url.protocol === 's3:' && /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(url.hostname)) {
    const prefix = url.pathname.replace(/^\/+|\/+$/g, '');
    if (!/^[A-Za-z0-9!_.*'()/-]*$/.test(prefix) || prefix.split('/').some((part) => part === '..' || part === '.'))
      throw new ConfigError(`${usage} (the prefix may hold letters, digits and !_.*'()-/ only)`);
    if (endpoint !== null && !/^https?:\/\/[^/?#]+\/?$/.test(endpoint))
      throw new ConfigError(`CHASQUI_S3_ENDPOINT must be http(s)://host[:port], got '${endpoint}'`);
    return { kind: 's3', bucket: url.hostname, prefix, endpoint, region };
  }
  throw new ConfigError(usage);
}
