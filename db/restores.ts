import type { Db } from './knex';

/**
 * Whether the authority's answer at `answeredAt` falls between a backup and the restore of chasqui's database to it,
 * for a document committed after that restore: the number may be a document chasqui acknowledged and lost with the
 * restore, posted again by the integrator.
 */
export async function answeredInLostWindow(db: Db, answeredAt: Date, committedAt: Date): Promise<boolean> {
  const row = await db('restores')
    .where('backup_taken_at', '<=', answeredAt)
    .andWhere('restored_at', '>=', answeredAt)
    .andWhere('restored_at', '<=', committedAt)
    .first('id');
  return !!row;
}
