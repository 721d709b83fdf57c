import type { Knex } from 'knex';
import type { SecretBox } from '../../core/secretbox';
import type { GreToken, GreTokenStore } from './token-store';

interface Row {
  access_token_sealed: string;
  expires_at: Date;
}

/**
 * GRE tokens in PostgreSQL (`gre_tokens`, migration 20261122030000), sealed with the secret box, so every worker
 * uses the token any of them fetched. A token sealed with a key the box no longer has reads as absent (fetch anew).
 */
export class PgGreTokenStore implements GreTokenStore {
  constructor(
    private readonly db: Knex,
    private readonly box: SecretBox,
  ) {}

  private async row(clientId: string, ruc: string): Promise<Row | undefined> {
    const row: Row | undefined = await this.db('gre_tokens')
      .select('access_token_sealed', 'expires_at')
      .where({ client_id: clientId, ruc })
      .first();
    return row;
  }

  private open(row: Row): GreToken | null {
    try {
      return { accessToken: this.box.open(row.access_token_sealed), expiresAt: new Date(row.expires_at).getTime() };
    } catch {
      return null;
    }
  }

  async get(clientId: string, ruc: string): Promise<GreToken | null> {
    const row = await this.row(clientId, ruc);
    return row ? this.open(row) : null;
  }

  async put(clientId: string, ruc: string, token: GreToken): Promise<void> {
    await this.db('gre_tokens')
      .insert({
        client_id: clientId,
        ruc,
        access_token_sealed: this.box.seal(token.accessToken),
        expires_at: new Date(token.expiresAt),
        updated_at: this.db.fn.now(),
      })
      .onConflict(['client_id', 'ruc'])
      .merge();
  }

  async discard(clientId: string, ruc: string, accessToken: string): Promise<void> {
    const row = await this.row(clientId, ruc);
    if (!row || this.open(row)?.accessToken !== accessToken) return;
    // Conditional on the sealed value read: a token another worker stored meanwhile stays.
    await this.db('gre_tokens')
      .where({ client_id: clientId, ruc, access_token_sealed: row.access_token_sealed })
      .delete();
  }
}
