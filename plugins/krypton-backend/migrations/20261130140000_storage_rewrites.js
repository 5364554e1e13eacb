// @ts-check

/**
 * The last storage rewrite that covered each namespace of a cluster: counts, object names and
 * classified failures, never a value.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.createTable('krypton_storage_rewrites', table => {
    table.comment('The last storage rewrite per cluster and namespace');
    table.string('cluster', 253).notNullable();
    table.string('namespace', 63).notNullable();
    table.text('result').notNullable().comment('The StorageRewriteResult part as JSON');
    table.string('requested_by', 512).notNullable();
    table.string('requested_at', 32).notNullable();
    table.primary(['cluster', 'namespace']);
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.dropTable('krypton_storage_rewrites');
};
