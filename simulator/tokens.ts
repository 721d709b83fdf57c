import type http from 'node:http';
import { createHmac, randomBytes } from 'node:crypto';

export const GRE_SCOPE = 'https://api-cpe.sunat.gob.pe';

export type Audience = 'gre' | 'portal';

/** Bearer tokens of the GRE API and of the portal; each is valid only where it was issued. */
export class BearerTokens {
  private readonly tokens = new Map<string, { ruc: string; audience: Audience; expiresAt: number }>();
  private readonly key = randomBytes(32);

  constructor(private readonly ttlMs: number) {}

  /**
   * A bearer token. GRE tokens are JWTs like SUNAT's (`token_type` "JWT"; signed with a per-process key the client
   * never needs: it is opaque to it); portal tokens are random strings.
   */
  issue(ruc: string, audience: Audience): { token: string; expiresIn: number } {
    const expiresIn = Math.round(this.ttlMs / 1000);
    let token = randomBytes(24).toString('base64url');
    if (audience === 'gre') {
      const now = Math.floor(Date.now() / 1000);
      const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const unsigned = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode({ iss: 'api-seguridad (chasqui simulator)', sub: ruc, aud: GRE_SCOPE, iat: now, exp: now + expiresIn, jti: token })}`;
      token = `${unsigned}.${createHmac('sha256', this.key).update(unsigned).digest('base64url')}`;
    }
    this.tokens.set(token, { ruc, audience, expiresAt: Date.now() + this.ttlMs });
    return { token, expiresIn };
  }

  /** The RUC of the request's live bearer token issued for `audience`, or null. */
  ruc(headers: http.IncomingHttpHeaders, audience: Audience): string | null {
    const token = /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? '')?.[1];
    const known = token ? this.tokens.get(token) : undefined;
    return known && known.audience === audience && known.expiresAt > Date.now() ? known.ruc : null;
  }

  clear(): void {
    this.tokens.clear();
  }
}
