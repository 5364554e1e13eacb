// @ts-check

/**
 * Storage rewrite runs as first-class objects: one row per run, with its progress while it runs
 * and its result once it ends, so that any replica can answer for it. The owner's heartbeat
 * tells the others whether it still runs. The last part of each namespace (/last) names the run
 * that wrote it.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.createTable('krypton_storage_rewrite_runs', table => {
    table.comment(
      'Storage rewrite runs: progress, result, owner and heartbeat',
    );
    table.string('id', 36).primary().comment('A UUID');
    table.string('cluster', 253).notNullable();
    table.string('scope', 63).notNullable().comment("The namespace, or '*'");
    table.boolean('dry_run').notNullable();
    table.string('requested_by', 512).notNullable();
    table.string('requested_at', 32).notNullable();
    table.string('state', 16).notNullable();
    table.string('owner', 36).notNullable().comment('The replica that runs it');
    table.string('heartbeat_at', 32).notNullable();
    table.boolean('cancel_requested').notNullable().defaultTo(false);
    table
      .text('progress')
      .notNullable()
      .comment('StorageRewriteProgress as JSON');
    table.text('result').nullable().comment('StorageRewriteResult as JSON');
    table.string('finished_at', 32).nullable();
    table.string('error', 512).nullable().comment('Fixed text');
    table.index(['cluster', 'state']);
    table.index(['cluster', 'requested_at']);
    table.index(['owner', 'state']);
  });
  await knex.schema.alterTable('krypton_storage_rewrites', table => {
    table
      .string('run_id', 36)
      .nullable()
      .comment('The run that wrote this part');
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.alterTable('krypton_storage_rewrites', table => {
    table.dropColumn('run_id');
  });
  await knex.schema.dropTable('krypton_storage_rewrite_runs');
};
