import {
  SubjectAlternativeNameExtension,
  X509Certificate,
} from '@peculiar/x509';
import { ExpiryStatus, useValuesHost } from './host';
import { RawText } from './RawText';
import type { ValuesT } from './texts';

export interface PemBlock {
  /** The label of the BEGIN line, e.g. CERTIFICATE or PRIVATE KEY. */
  type: string;
  /** The block from its BEGIN line to its END line. */
  text: string;
  /** False when the END line is missing or names another type. */
  complete: boolean;
}

const BEGIN = /^-----BEGIN ([A-Z0-9][A-Z0-9 ]*)-----$/;
const END = /^-----END ([A-Z0-9][A-Z0-9 ]*)-----$/;

/** The blocks of a PEM text in order, each on its own so that one bad block hides no other. */
export function pemBlocks(text: string): PemBlock[] {
  const blocks: PemBlock[] = [];
  let open: { type: string; lines: string[] } | undefined;
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim();
    const begin = BEGIN.exec(line);
    if (begin) {
      if (open) {
        blocks.push({
          type: open.type,
          text: open.lines.join('\n'),
          complete: false,
        });
      }
      open = { type: begin[1], lines: [line] };
      continue;
    }
    if (!open) continue;
    open.lines.push(line);
    const end = END.exec(line);
    if (end) {
      blocks.push({
        type: open.type,
        text: open.lines.join('\n'),
        complete: end[1] === open.type,
      });
      open = undefined;
    }
  }
  if (open) {
    blocks.push({
      type: open.type,
      text: open.lines.join('\n'),
      complete: false,
    });
  }
  return blocks;
}

export interface SubjectAltName {
  type: string;
  value: string;
}

export interface CertificateSummary {
  subject: string;
  issuer: string;
  notBefore: Date;
  notAfter: Date;
  /** Undefined when the extension is present but unreadable (e.g. an otherName entry). */
  subjectAltNames: SubjectAltName[] | undefined;
}

/** The summary of one CERTIFICATE block, or undefined when it does not parse. */
export function summarizeCertificate(
  block: string,
): CertificateSummary | undefined {
  let cert: X509Certificate;
  try {
    cert = new X509Certificate(block);
  } catch {
    return undefined;
  }
  let subjectAltNames: SubjectAltName[] | undefined;
  try {
    const extension = cert.getExtension(SubjectAlternativeNameExtension);
    subjectAltNames = extension
      ? extension.names.items.map(name => ({
          type: name.type,
          value: name.value,
        }))
      : [];
  } catch {
    // The library rejects name forms it cannot print; the rest of the summary is still valid.
    subjectAltNames = undefined;
  }
  try {
    return {
      subject: cert.subject,
      issuer: cert.issuer,
      notBefore: cert.notBefore,
      notAfter: cert.notAfter,
      subjectAltNames,
    };
  } catch {
    return undefined;
  }
}

/** "Expires soon" means within this many days of now. */
export const EXPIRY_WARNING_DAYS = 30;

export function expiryStatus(
  notBefore: Date,
  notAfter: Date,
  now: Date,
): ExpiryStatus {
  if (notAfter.getTime() < now.getTime()) return 'expired';
  if (notBefore.getTime() > now.getTime()) return 'not-yet-valid';
  if (notAfter.getTime() - now.getTime() <= EXPIRY_WARNING_DAYS * 86_400_000)
    return 'expiring';
  return 'valid';
}

/** The name forms of subject alternative names that have a label of their own. */
const SAN_TYPES = [
  'dns',
  'ip',
  'email',
  'url',
  'dn',
  'guid',
  'upn',
  'id',
] as const;
type SanType = (typeof SAN_TYPES)[number];
const isSanType = (type: string): type is SanType =>
  (SAN_TYPES as readonly string[]).includes(type);

/** A name form's label; a form this list does not know is named as the library names it. */
const sanLabel = (type: string, t: ValuesT): string =>
  isSanType(type) ? t(`values.pem.sanTypes.${type}`) : type;

function formatDate(date: Date, t: ValuesT): string {
  // toISOString throws on an invalid date; a summary must not.
  return Number.isNaN(date.getTime())
    ? t('values.pem.unknownDate')
    : date.toISOString();
}

/** The words of each validity, which the host shows as its own status. */
const EXPIRY_TEXT = {
  expired: 'values.pem.expired',
  expiring: 'values.pem.expiring',
  'not-yet-valid': 'values.pem.notYetValid',
  valid: 'values.pem.valid',
} as const;

const CertificateDetails = ({
  summary,
  now,
}: {
  summary: CertificateSummary;
  now: Date;
}) => {
  const { t, classes, CertificateStatus } = useValuesHost();
  const sans = summary.subjectAltNames;
  const status = expiryStatus(summary.notBefore, summary.notAfter, now);
  return (
    <>
      <CertificateStatus status={status}>
        {t(EXPIRY_TEXT[status])}
      </CertificateStatus>
      <dl className={classes.pemFields}>
        <dt>{t('values.pem.subject')}</dt>
        <dd>{summary.subject || t('values.pem.empty')}</dd>
        <dt>{t('values.pem.issuer')}</dt>
        <dd>{summary.issuer || t('values.pem.empty')}</dd>
        <dt>{t('values.pem.subjectAltNames')}</dt>
        <dd>
          {sans === undefined && t('values.pem.unreadable')}
          {sans?.length === 0 && t('values.pem.none')}
          {sans && sans.length > 0 && (
            <ul className={classes.pemList}>
              {sans.map((san, index) => (
                <li key={index}>
                  {t('values.pem.san', {
                    type: sanLabel(san.type, t),
                    value: san.value,
                  })}
                </li>
              ))}
            </ul>
          )}
        </dd>
        <dt>{t('values.pem.notBefore')}</dt>
        <dd>{formatDate(summary.notBefore, t)}</dd>
        <dt>{t('values.pem.notAfter')}</dt>
        <dd>{formatDate(summary.notAfter, t)}</dd>
      </dl>
    </>
  );
};

const BlockSummary = ({ block, now }: { block: PemBlock; now: Date }) => {
  const { t, Text } = useValuesHost();
  if (block.type !== 'CERTIFICATE') {
    // Keys and other blocks are named only: decoding a private key has no place in a viewer.
    return block.complete ? null : (
      <Text kind="body">{t('values.pem.incomplete')}</Text>
    );
  }
  const summary = block.complete ? summarizeCertificate(block.text) : undefined;
  if (!summary) {
    return <Text kind="body">{t('values.pem.unparsable')}</Text>;
  }
  return <CertificateDetails summary={summary} now={now} />;
};

export interface PemPreviewProps {
  text: string;
  /** The time certificates are checked against; injectable for tests. */
  now?: Date;
}

/** The PEM as plain text, then one entry per block with a summary for each certificate. */
export const PemPreview = ({ text, now = new Date() }: PemPreviewProps) => {
  const { t, classes, Text } = useValuesHost();
  const blocks = pemBlocks(text);
  return (
    <>
      <RawText text={text} label={t('values.pem.textLabel')} />
      {blocks.length === 0 ? (
        <Text kind="body">{t('values.pem.noBlocks')}</Text>
      ) : (
        <ul
          className={classes.pemList}
          aria-label={t('values.pem.blocksLabel')}
        >
          {blocks.map((block, index) => (
            <li key={index} className={classes.pemBlock}>
              <Text kind="title">
                {t('values.pem.block', {
                  number: String(index + 1),
                  type: block.type,
                })}
              </Text>
              <BlockSummary block={block} now={now} />
            </li>
          ))}
        </ul>
      )}
    </>
  );
};
