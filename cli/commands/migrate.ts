import { migrate } from '../../db/knex';
import { withDatabase } from './database';

/** `chasqui migrate`: DATABASE_URL's database (production), or the embedded one of CHASQUI_DATA_DIR. */
export function migrateCommand(): Promise<number> {
  return withDatabase(async ({ db }) => {
    const applied = await migrate(db);
    console.log(
      applied.length ? `applied ${applied.length} migrations:\n  ${applied.join('\n  ')}` : 'database is up to date',
    );
    return 0;
  });
}
