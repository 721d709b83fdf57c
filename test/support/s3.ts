import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { obtainS3Server, startS3Server, type S3ServerHandle } from '../../runtime/s3-server';
import { testConfig } from './services';
import type { FilesLocation } from '../../files/location';
import { fileKey, type DocumentFileColumns } from '../../files/documents';

export interface TestS3 {
  server: S3ServerHandle;
  /** CHASQUI_FILES_URL=s3://<bucket>/<prefix> with CHASQUI_S3_ENDPOINT at this server, read into fields. */
  location: Extract<FilesLocation, { kind: 's3' }>;
  /** The directory holding the server's buckets (what a test damages an object in). */
  dataDir: string;
  /** A client of its own on the server (what a test reads the bucket with, beside chasqui). */
  client: S3Client;
  /** What a chasqui process is given to use this bucket (CHASQUI_FILES_URL, CHASQUI_S3_ENDPOINT, the AWS variables). */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * A real S3-compatible server (versitygw, runtime/s3-server.ts) of the suite's own on a free port of 127.0.0.1, with a
 * bucket, over `dataDir` when given (the production shape's run folder). Its root keys go where the AWS SDK's standard chain reads them,
 * AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, as an operator's deployment gives them.
 */
export async function startTestS3(
  options: { bucket?: string; prefix?: string; dataDir?: string } = {},
): Promise<TestS3> {
  const bin = obtainS3Server(testConfig().cacheDir);
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'chasqui-test-s3-'));
  const server = await startS3Server({ bin, dataDir });
  process.env.AWS_ACCESS_KEY_ID = server.accessKey;
  process.env.AWS_SECRET_ACCESS_KEY = server.secretKey;
  const bucket = options.bucket ?? 'chasqui-files';
  const client = new S3Client({
    endpoint: server.endpoint,
    forcePathStyle: true,
    region: 'us-east-1',
    credentials: { accessKeyId: server.accessKey, secretAccessKey: server.secretKey },
  });
  await client.send(new CreateBucketCommand({ Bucket: bucket }));
  const prefix = options.prefix ?? 'cpe';
  return {
    server,
    location: { kind: 's3', bucket, prefix, endpoint: server.endpoint, region: null },
    dataDir,
    client,
    env: {
      CHASQUI_FILES_URL: `s3://${bucket}/${prefix}`,
      CHASQUI_S3_ENDPOINT: server.endpoint,
      AWS_ACCESS_KEY_ID: server.accessKey,
      AWS_SECRET_ACCESS_KEY: server.secretKey,
      AWS_REGION: 'us-east-1',
    },
    stop: async () => {
      client.destroy();
      await server.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The object keys a row names (files/documents.ts derives them from its RUC, type, issue date and SHA-256s). */
export function keysOf(row: DocumentFileColumns): { xml: string | null; cdr: string | null } {
  return {
    xml: row.xml_sha256 ? fileKey(row, 'xml', row.xml_sha256) : null,
    cdr: row.cdr_sha256 ? fileKey(row, 'cdr', row.cdr_sha256) : null,
  };
}
