// @ts-check

/**
 * The requester's group refs as their sign-in gave them when they asked: the groups that Krypton
 * acts with when it proves, at apply time, that the requester may still make the change.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.alterTable('krypton_change_requests', table => {
    table
      .text('requester_groups')
      .notNullable()
      .defaultTo('[]')
      .comment("The requester's group refs at request time, as JSON");
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.alterTable('krypton_change_requests', table => {
    table.dropColumn('requester_groups');
  });
};
