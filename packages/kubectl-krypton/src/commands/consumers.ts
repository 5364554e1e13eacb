import {
  ConsumerWorkloadVersions,
  DiscoveryFailure,
  HeldVersion,
  PodVersionGroup,
  RolloutState,
  SecretUsage,
} from '@krypton/core';
import { outputFormat } from '../cli/args';
import { EXIT } from '../cli/exitCodes';
import { age } from '../output/age';
import { structured } from '../output/structured';
import { printable, table } from '../output/table';
import { Command, secretTarget, write } from './command';

function heldText(holds: HeldVersion): string {
  switch (holds.state) {
    case 'version':
      return `version ${holds.version}`;
    case 'between':
      return `version ${holds.from} or ${holds.to}`;
    case 'olderThan':
      return `older than version ${holds.version}`;
    case 'expected':
      return `version ${holds.version} once the kubelet syncs`;
    case 'notStarted':
      return 'nothing yet (not started)';
    case 'imagePullOnly':
      return 'nothing (image pulls only)';
    case 'unused':
      return 'nothing (an older template)';
    default:
      return 'unknown';
  }
}

function groupText(group: PodVersionGroup, now: number): string {
  const count = group.pods.length === 1 ? '1 pod' : `${group.pods.length} pods`;
  const since =
    group.status === 'stale' && group.staleSince
      ? `, stale ${age(group.staleSince, now)}`
      : '';
  return `${count} ${group.status}: ${heldText(group.holds)}${since}`;
}

function usesText(usages: SecretUsage[]): string {
  return [...new Set(usages.map(u => u.type))].join(', ');
}

function rolloutText(rollout: RolloutState): string {
  const n = (value: number | null) => (value === null ? '?' : String(value));
  return `${n(rollout.updated)}/${n(rollout.desired)} updated, ${n(
    rollout.ready,
  )} ready`;
}

function podsText(workload: ConsumerWorkloadVersions, now: number): string {
  if (workload.podsFailure) return `not read: ${workload.podsFailure.message}`;
  if (workload.groups.length === 0) return 'no pods';
  const problems =
    workload.problems.length > 0
      ? ` (held back: ${workload.problems.map(p => p.reason).join(', ')})`
      : '';
  return workload.groups.map(g => groupText(g, now)).join('; ') + problems;
}

export function discoveryLines(failures: DiscoveryFailure[]): string[] {
  return failures.map(
    f => `Could not list the ${f.kind}s completely: ${f.message}`,
  );
}

export const consumers: Command = {
  name: 'consumers',
  usage: 'NAME',
  summary:
    'The workloads that use a Secret (what restart would touch) and which version their pods hold',
  flags: ['output'],
  args: [1, 1],
  async run(context) {
    const format = outputFormat(context.flags.output);
    const { session, namespace, name } = secretTarget(context);
    const result = await session.krypton.consumerVersions.read(
      namespace,
      name,
      session.gate,
    );
    if (format !== 'table') {
      write(context, structured(format, { namespace, name, ...result }));
      return EXIT.ok;
    }
    const now = Date.parse(result.checkedAt) || context.now();
    const lines = [
      `Secret ${namespace}/${printable(name)} is live version ${
        result.live.version ?? 'unknown'
      }. ${result.summary.message}`,
    ];
    if (result.workloads.length === 0 && result.discoveryFailures.length === 0)
      lines.push('No Deployment, StatefulSet or DaemonSet uses it.');
    write(context, `${lines.join('\n')}\n`);
    if (result.workloads.length > 0)
      write(
        context,
        table(
          ['kind', 'name', 'uses', 'rollout', 'pods'],
          result.workloads.map(w => [
            w.kind,
            printable(w.name),
            usesText(w.usages),
            rolloutText(w.rollout),
            podsText(w, now),
          ]),
        ),
      );
    const failures = discoveryLines(result.discoveryFailures);
    if (failures.length > 0) write(context, `${failures.join('\n')}\n`);
    return EXIT.ok;
  },
};
