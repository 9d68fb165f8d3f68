import { sql, type Kysely } from 'kysely';

/**
 * `files.received_sha256`: the SHA-256 of the bytes as the uploader sent them. It is what a
 * browser computes before uploading, so the duplicate lookup and the duplicates list compare it;
 * `sha256` stays the digest of what is stored, which differs when the team strips locations.
 * Files stored before this migration get their stored digest (the bytes they arrived with are
 * gone), and so do the files waiting in the trash, whose rows are kept there as JSON.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('files').addColumn('received_sha256', 'text').execute();
  await sql`update files set received_sha256 = sha256`.execute(db);
  await db.schema
    .createIndex('files_collection_received_sha256_idx')
    .on('files')
    .columns(['collection_id', 'received_sha256'])
    .execute();

  const trashed = await sql<{ id: string; data: string }>`
    select id, data from trash where kind = 'file'
  `.execute(db);
  for (const row of trashed.rows) {
    const file = JSON.parse(row.data) as { sha256?: string; received_sha256?: string | null };
    file.received_sha256 ??= file.sha256 ?? null;
    await sql`update trash set data = ${JSON.stringify(file)} where id = ${row.id}`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('files_collection_received_sha256_idx').execute();
  await db.schema.alterTable('files').dropColumn('received_sha256').execute();
}
