// @ts-check

/**
 * Who cancelled a storage rewrite run: the cancel is an operation of its own, by someone who may
 * not be the operator who started the run.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.alterTable('krypton_storage_rewrite_runs', table => {
    table
      .string('cancelled_by', 512)
      .nullable()
      .comment('The entity ref of the first user who asked for the cancel');
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.alterTable('krypton_storage_rewrite_runs', table => {
    table.dropColumn('cancelled_by');
  });
};
