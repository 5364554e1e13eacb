import { KryptonKeys, MANAGED_BY_VALUE } from '../annotations';
import { KryptonError } from '../errors';
import { PROPOSAL_NAME_PREFIX } from '../limits';
import { KubeObject, NativeSecret } from '../kubernetes/types';

/** The identifier of a change request: a lowercase UUID, as the backend generates it. */
const REQUEST_ID =
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** @public */
export const PROPOSAL_KIND = 'proposal';

/** @public */
export function isChangeRequestId(id: string): boolean {
  return REQUEST_ID.test(id);
}

/**
 * The storage name of a change request's proposal: the request's identifier under Krypton's
 * reserved prefix, so that no other request and no user-chosen Secret can take it.
 *
 * @public
 */
export function proposalName(requestId: string): string {
  if (!isChangeRequestId(requestId)) {
    throw new KryptonError('invalid_request', 'Invalid change request id.');
  }
  return `${PROPOSAL_NAME_PREFIX}${requestId}`;
}

/**
 * What a proposal is bound to: the live Secret (name and UID) and the revision the requested
 * change was planned against, the request, and who asked when.
 *
 * @public
 */
export interface ProposalBinding {
  requestId: string;
  /** The live Secret's name. */
  secret: string;
  sourceUid: string;
  baseRevision: string;
  proposedBy: string;
  proposedAt: string;
}

/**
 * A proposal Secret that passed validation: its binding, its own UID (the request keeps it, so
 * that a Secret recreated under the same name never stands for the proposal) and the complete
 * native data map that applying the request writes.
 *
 * @public
 */
export interface ProposalRecord extends ProposalBinding {
  namespace: string;
  uid: string;
  data: Record<string, string>;
}

/**
 * Whether a Secret is one of Krypton's proposals by its label or its name (valid or not).
 *
 * @public
 */
export function isProposalSecret(
  secret: KubeObject,
  keys: KryptonKeys,
): boolean {
  return (
    secret.metadata.labels?.[keys.kind] === PROPOSAL_KIND ||
    (secret.metadata.name ?? '').startsWith(PROPOSAL_NAME_PREFIX)
  );
}

/**
 * The immutable Secret that holds what a change request proposes, in the live Secret's
 * namespace. Its data is the complete map the write would leave, planned against the base
 * revision: applying it later, against the same revision, writes exactly what the requester saw.
 * It is Opaque whatever the live type, so that a typed Secret's required keys never refuse it.
 * The live Secret owns it, so that Kubernetes' garbage collector removes it with the Secret.
 *
 * @public
 */
export function buildProposalSecret(
  live: NativeSecret,
  proposal: {
    requestId: string;
    data: Record<string, string>;
    by: string;
    at: string;
  },
  keys: KryptonKeys,
): NativeSecret {
  const { name, uid, resourceVersion } = live.metadata;
  if (!name || !uid || !resourceVersion) {
    throw new KryptonError('internal', 'The live Secret has no identity.');
  }
  const data: Record<string, string> = {};
  for (const key of Object.keys(proposal.data)) data[key] = proposal.data[key];
  return {
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: {
      name: proposalName(proposal.requestId),
      labels: {
        [keys.managedBy]: MANAGED_BY_VALUE,
        [keys.kind]: PROPOSAL_KIND,
      },
      annotations: {
        [keys.proposalOf]: name,
        [keys.sourceUid]: uid,
        [keys.sourceResourceVersion]: resourceVersion,
        [keys.proposedBy]: proposal.by,
        [keys.proposedAt]: proposal.at,
      },
      ownerReferences: [{ apiVersion: 'v1', kind: 'Secret', name, uid }],
    },
    type: 'Opaque',
    immutable: true,
    data,
  };
}

/**
 * The one validation of a proposal's metadata: Krypton's labels, its reserved name, and a complete
 * binding to the live Secret that owns it. It needs no values, so that metadata lists (the storage
 * rewrite's) judge proposals as reads do.
 *
 * @public
 */
export function readProposalBinding(
  object: KubeObject,
  keys: KryptonKeys,
): (ProposalBinding & { namespace: string; uid: string }) | undefined {
  const { metadata } = object;
  const name = metadata.name ?? '';
  const labels = metadata.labels ?? {};
  const annotations = metadata.annotations ?? {};
  if (!name.startsWith(PROPOSAL_NAME_PREFIX)) return undefined;
  const requestId = name.slice(PROPOSAL_NAME_PREFIX.length);
  const secret = annotations[keys.proposalOf];
  const sourceUid = annotations[keys.sourceUid];
  const baseRevision = annotations[keys.sourceResourceVersion];
  const proposedBy = annotations[keys.proposedBy];
  const proposedAt = annotations[keys.proposedAt];
  const owners = metadata.ownerReferences ?? [];
  if (
    !isChangeRequestId(requestId) ||
    !metadata.uid ||
    !metadata.namespace ||
    labels[keys.managedBy] !== MANAGED_BY_VALUE ||
    labels[keys.kind] !== PROPOSAL_KIND ||
    !secret ||
    !sourceUid ||
    !baseRevision ||
    !proposedBy ||
    !proposedAt ||
    Number.isNaN(Date.parse(proposedAt)) ||
    owners.length !== 1 ||
    owners[0].kind !== 'Secret' ||
    owners[0].apiVersion !== 'v1' ||
    owners[0].uid !== sourceUid ||
    owners[0].name !== secret
  ) {
    return undefined;
  }
  return {
    requestId,
    namespace: metadata.namespace,
    uid: metadata.uid,
    secret,
    sourceUid,
    baseRevision,
    proposedBy,
    proposedAt,
  };
}

/**
 * A whole proposal Secret, validated: its binding (readProposalBinding), immutable and Opaque.
 * Anything else is not a proposal (undefined), whatever its name.
 *
 * @public
 */
export function readProposal(
  object: NativeSecret,
  keys: KryptonKeys,
): ProposalRecord | undefined {
  const binding = readProposalBinding(object, keys);
  if (
    !binding ||
    object.immutable !== true ||
    (object.type ?? 'Opaque') !== 'Opaque'
  )
    return undefined;
  const data: Record<string, string> = {};
  for (const key of Object.keys(object.data ?? {}))
    data[key] = object.data![key];
  return { ...binding, data };
}
