/**
 * The values of the preview benchmark, generated deterministically to an exact length in UTF-16
 * code units (what the preview limit counts).
 */

const SERVICES = [
  'payments-api',
  'orders-db',
  'checkout',
  'ledger',
  'search-indexer',
  'notifications',
  'billing-worker',
  'identity',
];

const WORDS = (
  'the primary on call engineer confirms the change window with the service owner before ' +
  'rotating anything and keeps the incident channel informed while the consumers restart ' +
  'slowly one region at a time so that a bad credential never reaches every replica at once ' +
  'afterwards the engineer records the new version in the change ticket and removes the old ' +
  'credential only when the error rate has stayed flat for a full hour'
).split(' ');

/**
 * Prose of exactly `length` code units in lines of about 90 characters, blank lines between
 * paragraphs of six lines. Only lowercase words, spaces, periods and line breaks: nothing that
 * Markdown, YAML or JSON detection would take for structure, and no list or quote marker.
 */
export function prose(length: number, seed = 0): string {
  const out: string[] = [];
  let size = 0;
  let line = '';
  let lines = 0;
  let w = seed;
  let sentenceStart = true;
  while (size + line.length < length) {
    const word = WORDS[w++ % WORDS.length];
    if (line.length + word.length + 1 > 90) {
      sentenceStart = ++lines % 6 === 0;
      const end = sentenceStart ? '.\n\n' : '\n';
      out.push(line + end);
      size += line.length + end.length;
      line = '';
    }
    const shown = sentenceStart
      ? word.charAt(0).toUpperCase() + word.slice(1)
      : word;
    sentenceStart = false;
    line += line ? ` ${shown}` : shown;
  }
  out.push(line);
  return out.join('').slice(0, length);
}

/** Appends blocks while they fit, then pads with prose so that the text is exactly `length`. */
function fit(
  blocks: (i: number) => string | undefined,
  length: number,
  options: { minPad?: number; padPrefix?: string } = {},
): string {
  const minPad = options.minPad ?? 200;
  const prefix = options.padPrefix ?? '';
  let text = '';
  for (let i = 0; ; i++) {
    const block = blocks(i);
    if (block === undefined || text.length + block.length + minPad > length) {
      break;
    }
    text += block;
  }
  const pad = length - text.length;
  if (pad < prefix.length + 2) {
    throw new Error(`no room to pad to ${length}`);
  }
  // A final paragraph (or list item, with a prefix) that ends the text with a line break.
  const padded = `${text}${prefix}${prose(pad - prefix.length - 1, 7)}\n`;
  if (padded.length !== length) {
    throw new Error(`padded to ${padded.length}, not ${length}`);
  }
  return padded;
}

/** One section of an operations runbook: the kind of note a team keeps beside a credential. */
function runbookSection(i: number): string {
  const service = SERVICES[i % SERVICES.length];
  const ns = `team-${String.fromCharCode(97 + (i % 5))}`;
  return `## ${Math.floor(i / 8) + 1}.${
    (i % 8) + 1
  } Rotate the ${service} credentials — region ${(i % 3) + 1}

**Owner:** ${ns} · *Severity:* P${(i % 3) + 1} · last reviewed 2026-0${
    (i % 9) + 1
  }-1${i % 10}.

Before you start, read the [incident guide](https://runbooks.example.com/incidents/${i}) and keep the
[dashboard](https://grafana.example.com/d/${service}?from=now-6h&var-region=${
    i % 3
  }) open. The rotation
takes about ${
    10 + (i % 20)
  } minutes; the old credential stays valid until the _expiry job_ runs at 02:00 UTC.

### Steps

1. Scale the consumer down: \`kubectl -n ${ns} scale deploy/${service} --replicas=0\`.
2. Generate the new password with the vault CLI:

   \`\`\`bash
   vault write -f database/rotate-role/${service}
   vault read -format=json database/creds/${service} | jq -r .data.password
   \`\`\`

3. Update this Secret through Krypton and note the new version in the ticket.
4. Restart the consumers and watch the **error rate** for *ten minutes*:
   - above ${(i % 4) + 1} %, restore the previous version from the history tab;
   - otherwise close the change ticket CHG-${4000 + i}.

| Environment | Cluster | Contact |
| ----------- | ------- | ------- |
| production | prod-eu-${i} | oncall-${service}@example.com |
| staging | stage-eu-${i} | #${ns}-alerts |

> The database keeps both passwords for 24 hours, so a failed restart can be retried.

`;
}

const RUNBOOK_TITLE = `# Runbook: database and API credentials

This Secret holds the credentials of the services below. Every change goes through Krypton so
that the history keeps the previous versions; see the [on-call handbook](https://handbook.example.com/oncall).

`;

/** A realistic runbook in Markdown (headings, lists, code, links, tables, emphasis, quotes). */
export function runbookMarkdown(length: number): string {
  return fit(i => (i === 0 ? RUNBOOK_TITLE : runbookSection(i - 1)), length);
}

/** A checklist group of the cutoff variant: 64 items with a link and a checkbox each. */
function checklistGroup(g: number): string {
  const items: string[] = [];
  for (let j = 0; j < 64; j++) {
    items.push(
      `- [ ] [db-${g}-${j}](https://status.example.com/${g}/${j}) answers\n`,
    );
  }
  return `## Rack ${g + 1}

The hosts of rack ${
    g + 1
  } hold replicas of the ledger. Check each one after the rotation and tick it
when it answers with the new password; escalate to the database team when one does not.

${items.join('')}
\`\`\`sql
SELECT usename, valuntil FROM pg_user WHERE usename = 'ledger_rack_${g + 1}';
\`\`\`

`;
}

/**
 * A runbook at the former complexity cutoff of the Markdown preview: 2,048 list markers and 8,192
 * brackets (32 checklists of 64 linked items), the most that react-markdown was still given. With
 * `overCutoff`, the final paragraph becomes one more list item (2,049 markers, same length).
 */
export function cutoffMarkdown(length: number, overCutoff = false): string {
  const title = `# Quarterly credential audit — ledger racks

Tick every host of every rack once it answers with the new credential.

`;
  return fit(
    i => {
      if (i === 0) return title;
      return i <= 32 ? checklistGroup(i - 1) : undefined;
    },
    length,
    {
      minPad: 0,
      padPrefix: overCutoff ? '- ' : '',
    },
  );
}

/**
 * A tight list of `items` one-word items under a heading: every item is one rendered element, so
 * this is the densest document that the preview still renders at a given element count.
 */
export function listMarkdown(items: number): string {
  const out = ['# Hosts\n\n'];
  for (let i = 0; i < items; i++) out.push(`- ${i % 10}\n`);
  return out.join('');
}

/**
 * A note with one large code block of exactly `length` code units: the diff of a configuration
 * file, whose lines start with list, quote and number markers and hold brackets. The old
 * complexity cutoffs (2,048 markers, 8,192 brackets) counted those and showed the raw text.
 */
export function codeBlockMarkdown(length: number): string {
  const head =
    '# Config change CHG-4711\n\nApplied with `kubectl apply`:\n\n```diff\n';
  const tail = '```\n';
  const lines: string[] = [];
  let size = head.length + tail.length;
  for (let i = 0; ; i++) {
    const line = [
      `- replicas: [${i % 7}, ${(i + 3) % 7}]\n`,
      `+ replicas: [${(i + 1) % 7}, ${(i + 4) % 7}]\n`,
      `> kubectl -n team-${i % 5} get deploy/api-${i}\n`,
      `${(i % 9) + 1}. rollout [ok]\n`,
    ][i % 4];
    if (size + line.length > length) break;
    lines.push(line);
    size += line.length;
  }
  // The last line is padded with spaces to the exact length.
  const pad = length - size;
  if (lines.length > 0 && pad > 0) {
    const last = lines.length - 1;
    lines[last] = `${lines[last].slice(0, -1)}${' '.repeat(pad)}\n`;
  }
  const text = `${head}${lines.join('')}${tail}`;
  if (text.length !== length) {
    throw new Error(`code block of ${text.length}, not ${length}`);
  }
  return text;
}

/**
 * The slowest shape found for the parser at the limit: `length` code units of "![", image
 * openers that never close (one paragraph of text once parsed).
 */
export function unclosedImages(length: number): string {
  return '!['.repeat(Math.ceil(length / 2)).slice(0, length);
}

/**
 * The slowest shape found for YAML detection at the limit: `length` code units of `! `, 65,536
 * tags of nothing. Parsing it took the YAML parser 17 s in Node while it made each of its 65,535
 * errors readable; it is no mapping, and detection now says so from its first line.
 */
export function yamlTags(length: number): string {
  return '! '.repeat(Math.ceil(length / 2)).slice(0, length);
}
