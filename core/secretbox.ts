import { createCipheriv, createDecipheriv, randomBytes, createHash, hkdfSync } from 'node:crypto';

/**
 * Encryption at rest for secrets (SOL passwords, private keys, OAuth secrets, webhook secrets).
 * AES-256-GCM; every sealed value names the key that sealed it ("v1:<keyId>:<iv>:<tag>:<data>", base64url),
 * so keys can rotate: CHASQUI_MASTER_KEY is the current key, CHASQUI_MASTER_KEYS_OLD holds older ones still read, and
 * `chasqui keys rotate` re-seals every stored secret (db/sealed-secrets.ts) under the current key.
 * A key is 32 random bytes in base64 or hex; its id is the first 8 hex chars of its SHA-256.
 */
export interface MasterKey {
  id: string;
  key: Buffer;
}

export function parseMasterKey(text: string): MasterKey {
  const trimmed = text.trim();
  const key = /^[0-9a-fA-F]{64}$/.test(trimmed) ? Buffer.from(trimmed, 'hex') : Buffer.from(trimmed, 'base64');
  if (key.length !== 32) throw new Error('a master key must be 32 bytes, given as 64 hex characters or base64');
  return { id: createHash('sha256').update(key).digest('hex').slice(0, 8), key };
}

export function generateMasterKey(): string {
  return randomBytes(32).toString('base64');
}

export class SecretBox {
  private readonly byId = new Map<string, MasterKey>();

  constructor(
    private readonly current: MasterKey,
    retired: MasterKey[] = [],
  ) {
    for (const k of [current, ...retired]) this.byId.set(k.id, k);
  }

  get keyId(): string {
    return this.current.id;
  }

  /** Every key this box opens with, the current one first. */
  get keyIds(): string[] {
    return [...this.byId.keys()];
  }

  seal(plain: string | Buffer): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.current.key, iv);
    const data = Buffer.concat([
      cipher.update(typeof plain === 'string' ? Buffer.from(plain, 'utf8') : plain),
      cipher.final(),
    ]);
    const parts = [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url'));
    return `v1:${this.current.id}:${parts.join(':')}`;
  }

  openBuffer(sealed: string): Buffer {
    const [version, keyId, iv, tag, data] = sealed.split(':');
    if (version !== 'v1' || data === undefined) throw new Error('not a sealed secret');
    const key = this.byId.get(keyId);
    if (!key) throw new Error(`secret sealed with unknown master key ${keyId}`);
    const decipher = createDecipheriv('aes-256-gcm', key.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]);
  }

  open(sealed: string): string {
    return this.openBuffer(sealed).toString('utf8');
  }

  /** A key for one purpose (signing the consultation page's links), derived from the current master key, never it. */
  derive(purpose: string): Buffer {
    return Buffer.from(hkdfSync('sha256', this.current.key, Buffer.alloc(0), `chasqui ${purpose}`, 32));
  }

  /** True when the value was sealed with a retired key and should be sealed again. */
  needsRotation(sealed: string): boolean {
    return sealed.split(':')[1] !== this.current.id;
  }
}
