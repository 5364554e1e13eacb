// @ts-check

/**
 * The latest restart-consumers result of each live Secret: who asked, when, and the result, which
 * holds workload kinds and names and classified failures, never a value.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.createTable('krypton_restart_results', table => {
    table.comment('The latest restart-consumers result per live Secret');
    table.string('cluster', 253).notNullable();
    table.string('namespace', 63).notNullable();
    table.string('name', 253).notNullable();
    table
      .string('uid', 64)
      .notNullable()
      .comment('The live Secret lifetime the result belongs to');
    table.text('result').notNullable().comment('The RestartResult as JSON');
    table.string('requested_by', 512).notNullable();
    table.string('requested_at', 32).notNullable();
    table.primary(['cluster', 'namespace', 'name']);
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.dropTable('krypton_restart_results');
};
