// @ts-check

/**
 * Change requests (four eyes): one row per request with its state, and one per decision and per
 * approver ref, so that a duplicate decision is refused by the key and "waiting for me" is one
 * indexed query. No value is ever stored: proposed values live in the proposal Secret.
 *
 * @param {import('knex').Knex} knex
 */
exports.up = async function up(knex) {
  await knex.schema.createTable('krypton_change_requests', table => {
    table.comment(
      'Change requests: what is asked, by whom, and where it stands',
    );
    table
      .string('id', 36)
      .primary()
      .comment('A UUID; the proposal is krypton-p-<id>');
    table.string('cluster', 253).notNullable();
    table.string('namespace', 63).notNullable();
    table.string('name', 253).notNullable().comment("The live Secret's name");
    table.string('uid', 128).notNullable().comment("The live Secret's UID");
    table.string('base_revision', 128).notNullable();
    table
      .text('change')
      .notNullable()
      .comment('ProposedChange as JSON: never a value');
    table.text('reason').notNullable();
    table.string('requested_by', 512).notNullable();
    table.string('requested_at', 32).notNullable();
    table.string('expires_at', 32).notNullable();
    table.text('policy').notNullable().comment('ChangeRequestPolicy as JSON');
    table.string('state', 16).notNullable();
    table.string('updated_at', 32).notNullable();
    table
      .string('proposal_uid', 128)
      .nullable()
      .comment("The proposal Secret's UID, once saved");
    table.text('bypass').nullable().comment('Who bypassed, why, when, as JSON');
    table
      .text('ended')
      .nullable()
      .comment('When, by whom and why it ended, as JSON');
    table.integer('applied_version').nullable();
    table.index(['cluster', 'namespace', 'name']);
    table.index(['state', 'expires_at']);
    table.index(['requested_by', 'state']);
  });
  await knex.schema.createTable('krypton_change_request_decisions', table => {
    table.comment('Approvals and rejections of change requests');
    table.string('request_id', 36).notNullable();
    table.string('decided_by', 512).notNullable();
    table.string('decision', 8).notNullable();
    table.text('comment').notNullable();
    table.string('at', 32).notNullable();
    table.primary(['request_id', 'decided_by']);
  });
  await knex.schema.createTable('krypton_change_request_approvers', table => {
    table.comment(
      'The user and group refs that may approve each change request',
    );
    table.string('request_id', 36).notNullable();
    table.string('ref', 512).notNullable();
    table.primary(['request_id', 'ref']);
    table.index(['ref']);
  });
};

/** @param {import('knex').Knex} knex */
exports.down = async function down(knex) {
  await knex.schema.dropTable('krypton_change_request_approvers');
  await knex.schema.dropTable('krypton_change_request_decisions');
  await knex.schema.dropTable('krypton_change_requests');
};
