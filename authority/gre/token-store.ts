/** A GRE OAuth access token and when it stops being valid (epoch milliseconds). */
export interface GreToken {
  accessToken: string;
  expiresAt: number;
}

/**
 * Where GRE tokens live so that every worker shares one token per API client and RUC (SUNAT issues a token per
 * password grant; fetching one per call would be slow and rate-limited). Implementations: in memory (one process,
 * tests) and PostgreSQL, sealed with the secret box (all workers).
 */
export interface GreTokenStore {
  get(clientId: string, ruc: string): Promise<GreToken | null>;
  put(clientId: string, ruc: string, token: GreToken): Promise<void>;
  /** Forgets a token the API refused (401), unless another worker already replaced it. */
  discard(clientId: string, ruc: string, accessToken: string): Promise<void>;
}

export class MemoryGreTokenStore implements GreTokenStore {
  private readonly tokens = new Map<string, GreToken>();

  private static key(clientId: string, ruc: string): string {
    return `${clientId}\u0000${ruc}`;
  }

  async get(clientId: string, ruc: string): Promise<GreToken | null> {
    return this.tokens.get(MemoryGreTokenStore.key(clientId, ruc)) ?? null;
  }

  async put(clientId: string, ruc: string, token: GreToken): Promise<void> {
    this.tokens.set(MemoryGreTokenStore.key(clientId, ruc), token);
  }

  async discard(clientId: string, ruc: string, accessToken: string): Promise<void> {
    const key = MemoryGreTokenStore.key(clientId, ruc);
    if (this.tokens.get(key)?.accessToken === accessToken) this.tokens.delete(key);
  }
}
