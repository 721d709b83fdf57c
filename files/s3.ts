import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { FileMissingError, FileStoreUnavailableError, type ObjectStore } from './store';

/** How long one call may take before the store counts as down (a slow store answers 503, not a hung request). */
export const S3_TIMEOUTS = { connectMs: 2_000, requestMs: 5_000, attempts: 2 };

export interface S3Location {
  bucket: string;
  /** Inside the bucket, without slashes at either end; '' for the bucket's root. */
  prefix: string;
  /** An S3-compatible server (MinIO, Ceph, versitygw…): path-style addressing. Null: AWS, virtual-hosted. */
  endpoint: string | null;
  /** AWS_REGION; an S3-compatible server without one is asked as us-east-1 (they ignore it). */
  region: string | null;
}

/**
 * S3 or an S3-compatible server through the AWS SDK. Credentials come from the SDK's standard chain (AWS_ACCESS_KEY_ID
 * and AWS_SECRET_ACCESS_KEY, a profile, an instance role): chasqui never holds them itself. The SDK's own checksum
 * trailers are asked for only when S3 requires them (S3-compatible servers differ there); every read is checked against
 * the SHA-256 the key names anyway.
 */
export class S3Store implements ObjectStore {
  readonly name: string;
  private readonly client: S3Client;

  constructor(private readonly location: S3Location) {
    this.name = `s3://${location.bucket}${location.prefix ? `/${location.prefix}` : ''}`;
    this.client = new S3Client({
      ...(location.endpoint ? { endpoint: location.endpoint, forcePathStyle: true } : {}),
      ...(location.region || location.endpoint ? { region: location.region ?? 'us-east-1' } : {}),
      maxAttempts: S3_TIMEOUTS.attempts,
      // Without throwOnRequestTimeout the SDK only logs a warning and waits on: a hung store would hold an issue open.
      requestHandler: {
        connectionTimeout: S3_TIMEOUTS.connectMs,
        requestTimeout: S3_TIMEOUTS.requestMs,
        throwOnRequestTimeout: true,
      },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private keyOf(key: string): string {
    return this.location.prefix ? `${this.location.prefix}/${key}` : key;
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    await this.call('put', () =>
      this.client.send(
        new PutObjectCommand({
          Bucket: this.location.bucket,
          Key: this.keyOf(key),
          Body: body,
          ContentType: contentType,
        }),
      ),
    );
  }

  async get(key: string): Promise<Readable> {
    try {
      const answer = await this.client.send(
        new GetObjectCommand({ Bucket: this.location.bucket, Key: this.keyOf(key) }),
      );
      return answer.Body as Readable;
    } catch (err) {
      if (isNotFound(err)) throw new FileMissingError(key);
      throw new FileStoreUnavailableError(this.name, 'get', err);
    }
  }

  async head(key: string): Promise<{ size: number; modified: Date } | null> {
    try {
      const answer = await this.client.send(
        new HeadObjectCommand({ Bucket: this.location.bucket, Key: this.keyOf(key) }),
      );
      return { size: answer.ContentLength ?? 0, modified: answer.LastModified ?? new Date(0) };
    } catch (err) {
      if (isNotFound(err)) return null;
      throw new FileStoreUnavailableError(this.name, 'head', err);
    }
  }

  async delete(key: string): Promise<void> {
    await this.call('delete', () =>
      this.client.send(new DeleteObjectCommand({ Bucket: this.location.bucket, Key: this.keyOf(key) })),
    );
  }

  async *list(): AsyncIterable<{ key: string; size: number; modified: Date }> {
    const prefix = this.location.prefix ? `${this.location.prefix}/` : '';
    let token: string | undefined;
    do {
      const page = await this.call('list', () =>
        this.client.send(
          new ListObjectsV2Command({
            Bucket: this.location.bucket,
            Prefix: prefix || undefined,
            ContinuationToken: token,
          }),
        ),
      );
      for (const object of page.Contents ?? [])
        if (object.Key) {
          yield {
            key: object.Key.slice(prefix.length),
            size: object.Size ?? 0,
            modified: object.LastModified ?? new Date(0),
          };
        }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async close(): Promise<void> {
    this.client.destroy();
  }

  private async call<T>(operation: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (err) {
      throw new FileStoreUnavailableError(this.name, operation, err);
    }
  }
}

function isNotFound(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NoSuchKey' || e?.name === 'NotFound' || e?.$metadata?.httpStatusCode === 404;
}
